/* See LICENSE file for copyright and license details. */
/*
 * tl-parse: turn Chrome/Kineto trace JSON, plain or gzipped, into the
 * event record stream of tl(7): a header line, then one record per
 * element of traceEvents, in trace order.  The scanner (jscan.c) hands
 * over one event at a time with its keys found; the chosen fields go
 * to a record buffer written out in large blocks of whole records.
 * Gzip input is inflated by a second thread so that parsing overlaps
 * decompression.  With -P, the bytes read of each trace (compressed or
 * not) go to a file a few times a second, for a progress line (both
 * in tl-parse/input.c).  A
 * rocprofv3 results file, told by its first key, goes to the rocprof
 * reader (rocprof.c) instead, which writes its records.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "jscan.h"
#include "rocprof.h"
#include "tl.h"
#include "tl-parse/input.h"

/* (each no larger than it needs: see SLOTSZ) */
#define INBUF (256 << 10)	/* bytes per read() of plain input */
#define OUTBUF (128 << 10)	/* records are written in blocks of this */
#define SNIFFMAX (64 << 10)	/* bytes looked at to tell a rocprofv3 file */
#define NUMMAX 1024		/* longest number written without exponent */
#define BOM "\xef\xbb\xbf"	/* the UTF-8 byte-order mark */

/* Top-level keys of an event that can be fields. */
enum { K_PH, K_CAT, K_NAME, K_PID, K_TID, K_TS, K_DUR, K_ID, K_BP, K_S,
	K_ARGS, NTOP };
static const char *const topname[NTOP] = {
	"ph", "cat", "name", "pid", "tid", "ts", "dur", "id", "bp", "s", "args"
};

static const char deffields[] = "UID,ph,cat,name,pid,tid,ts,dur,id,bp,"
    "correlation,External id,stream,Sequence number,Input Dims,Input type,"
    "Input Strides,Concrete Inputs,value,Process Group Name,"
    "Process Group Ranks:json,Collective name,Group size,dtype,"
    "In msg nelems,Out msg nelems,In split size:json,Out split size:json,"
    "lone surrogates";

/* What an output field is made of. */
enum { F_UID, F_TOP, F_ARG, F_VALUE, F_LONE };

/* One output field. */
struct field {
	int kind;		/* F_UID, F_TOP, F_ARG, F_VALUE or F_LONE */
	int idx;		/* the K_ key (F_TOP) or argkey index (F_ARG) */
	int json;		/* NAME:json: a string keeps its quotes */
};

/* A name to look up among the keys of args. */
struct argkey {
	const char *s;		/* the key, points into the -f list */
	size_t len;		/* its length */
	int next;		/* the next argkey in its chain of argidx, or -1 */
};

/* Options and what they parse into. */
static struct field *fields;	/* the output fields, in order */
static const char **fieldname;	/* their names, for the header */
static size_t nfields;		/* how many fields */
static struct argkey *argkeys;	/* keys of args some field needs */
static size_t nargkeys;		/* how many argkeys */
static int argidx[256];		/* argkeys by keyhash: first of a chain */
static int vname = -1, vlabels = -1, vsort = -1;	/* argkeys for value */
static size_t maxref;		/* most fields that can show one member */
static struct argkey *cats;	/* -c: categories kept, or none */
static size_t ncats;		/* how many categories */
static struct argkey *xcats;	/* -C: categories left out, or none */
static size_t nxcats;		/* how many categories left out */
static size_t maxevent = JSCAN_MAXEVENT;	/* -m */
static int salvage;		/* --salvage */
static const char *progpath;	/* -P: where progress lines go, or NULL */
static const char *inname;	/* -N: the input's name in messages, or NULL */
static int kinetoonly;		/* -K: rocprofv3 results are an error */
static int treetimes;		/* -T: the ts and dur TraceLens's tree needs */

/* Records not yet written; only whole records are flushed. */
struct obuf {
	char *b;	/* bytes, owned */
	size_t len;	/* bytes used */
	size_t cap;	/* bytes allocated */
};

/* A field's member (parse.slot) that is not one: the UID, the count. */
#define M_UID (-2)
#define M_LONE (-3)

/* Parsing the traces.  Ownership: all owned but name. */
struct parse {
	const char *name;	/* the current trace's name for messages */
	int kind;		/* the trace's kind: 'k' Kineto, 'r' rocprofv3, 0 not yet known */
	int started;		/* the header is out, the field tables made */
	struct buf sniff;	/* the text read before the kind is known */
	int bomdone;		/* the first 3 bytes were looked at for a BOM */
	int bom;		/* 3: the trace began with a UTF-8 BOM, skipped */
	struct jscan js;	/* the event scanner */
	struct rpscan rp;	/* the rocprofv3 reader */
	int *rpmap;		/* per field: its RF_ index (rocprof.h) or -1 */
	struct buf rec;		/* one rocprofv3 record */
	int top[NTOP];		/* member of each top-level key, or -1 */
	int *arg;		/* member of each argkey in args, or -1 */
	int value;		/* the member value stands for, or -1 */
	int uid;		/* M_UID, what slot points to for UID */
	int lone;		/* M_LONE, ... for lone surrogates */
	int **slot;		/* per field: its member (top, arg, value, uid) */
	int hasvalue;		/* some field is value */
	int fewfields;		/* at most 64 fields: the bit masks below work */
	uint64_t topbits[NTOP];	/* the fields each top-level key fills */
	uint64_t *argbits;	/* the fields each argkey fills */
	uint64_t argall;	/* the fields of every argkey */
	uint64_t uidbits;	/* the UID fields, always there */
	uint64_t valuebits;	/* the value fields */
	uint64_t lonebits;	/* the lone surrogates fields */
	char uidtext[24];	/* the last UID written, in decimal */
	size_t uidlen;		/* its length; 0 before the first */
	uint64_t uidnum;	/* its value */
	char *key;		/* a key or string decoded, when it has escapes */
	size_t keycap;		/* allocated size of key */
	struct obuf out;	/* records to write */
	size_t room;		/* room reserved for the record being written */
	struct progress pr;	/* the current trace's bytes read (-P) */
};

static void
usage(int status)
{
	fprintf(status ? stderr : stdout, "usage: %s [-K] [-c cat[,cat ...]] "
	    "[-C cat[,cat ...]] [-f field[,field ...]] [-m size] [-N name] [-P file] "
	    "[-T] [--salvage] [trace ...]\n",
	    tl_progname());
	exit(status);
}

/* ---- output ---- */

static char *
oroom(struct obuf *o, size_t n)
{
	if (o->cap - o->len < n)
		tl_grow((void **)&o->b, &o->cap, o->len + n, 1);
	return o->b + o->len;
}

static void
oflush(struct obuf *o)
{
	if (o->len > 0 && fwrite(o->b, 1, o->len, stdout) != o->len) {
		if (errno == EPIPE)
			exit(TL_OK);
		tl_die("<stdout>: write error:");
	}
	o->len = 0;
}

/* Before an error message: out with every whole record so far. */
static void
oflushall(struct obuf *o)
{
	oflush(o);
	if (fflush(stdout) == EOF && errno != EPIPE)
		tl_die("<stdout>: write error:");
}

static char *
putu64(char *w, uint64_t v)
{
	char d[20];
	int n = 0;

	do
		d[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0)
		*w++ = d[--n];
	return w;
}

/* ---- one event ---- */

/* The text of a key or string value, decoded if it has escapes. */
static const char *
text(struct parse *ps, const char *ev, uint32_t off, uint32_t len, int esc,
    size_t *n)
{
	if (!esc) {
		*n = len;
		return ev + off;
	}
	tl_grow((void **)&ps->key, &ps->keycap, len, 1);
	*n = jstr_decode(ps->key, ev + off, len);
	return ps->key;
}

static int
findkey(const struct argkey *keys, size_t nkeys, const char *k, size_t n)
{
	size_t i;

	for (i = 0; i < nkeys; i++)
		if (keys[i].len == n && memcmp(keys[i].s, k, n) == 0)
			return (int)i;
	return -1;
}

/* Where in argidx the chain of key k[0..n) starts. */
static size_t
keyhash(const char *k, size_t n)
{
	return n == 0 ? 0 : (n * 31 + (unsigned char)k[0] * 7 +
	    (unsigned char)k[n - 1]) % LEN(argidx);
}

/*
 * Are a[0..n) and b[0..n) the same?  Keys are short: 8 bytes at a time
 * inline, the last 8 overlapping, beat a call of memcmp.
 */
static inline int
samekey(const char *a, const char *b, size_t n)
{
	uint64_t x, y;

	if (n < 8) {
		while (n > 0 && *a == *b) {
			a++;
			b++;
			n--;
		}
		return n == 0;
	}
	for (; n > 8; n -= 8, a += 8, b += 8) {
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		if (x != y)
			return 0;
	}
	memcpy(&x, a + n - 8, 8);
	memcpy(&y, b + n - 8, 8);
	return x == y;
}

/* The argkey named k[0..n), or -1; most keys of args are none. */
static int
findarg(const char *k, size_t n)
{
	int i;

	for (i = argidx[keyhash(k, n)]; i >= 0; i = argkeys[i].next)
		if (argkeys[i].len == n && samekey(argkeys[i].s, k, n))
			return i;
	return -1;
}

/* Which top-level key k[0..n) is, or -1: every event has several. */
static int
findtop(const char *k, size_t n)
{
	uint32_t w;

	/*
	 * A key in the event's text is followed by at least 3 bytes (":0}"),
	 * so 4 can be read; those past the key are masked off.
	 */
#define W(a, b, c, d) ((uint32_t)(unsigned char)(a) | \
	(uint32_t)(unsigned char)(b) << 8 | \
	(uint32_t)(unsigned char)(c) << 16 | (uint32_t)(unsigned char)(d) << 24)
	/* Each key as 4 bytes, and by length and first letter (mod 32). */
	static const uint32_t word[NTOP] = {
		W('p', 'h', 0, 0), W('c', 'a', 't', 0), W('n', 'a', 'm', 'e'),
		W('p', 'i', 'd', 0), W('t', 'i', 'd', 0), W('t', 's', 0, 0),
		W('d', 'u', 'r', 0), W('i', 'd', 0, 0), W('b', 'p', 0, 0),
		W('s', 0, 0, 0), W('a', 'r', 'g', 's')
	};
#define AT(n, c) [(n) << 5 | ((c) & 31)]
	static const signed char cand[5 << 5] = {
		AT(1, 's') = K_S + 1, AT(2, 'p') = K_PH + 1,
		AT(2, 't') = K_TS + 1, AT(2, 'i') = K_ID + 1,
		AT(2, 'b') = K_BP + 1, AT(3, 'c') = K_CAT + 1,
		AT(3, 'p') = K_PID + 1, AT(3, 't') = K_TID + 1,
		AT(3, 'd') = K_DUR + 1, AT(4, 'n') = K_NAME + 1,
		AT(4, 'a') = K_ARGS + 1
	};
#undef AT
	int i;

	if (n > 4)
		return -1;
	w = W(k[0], k[1], k[2], k[3]) & (n == 4 ? ~(uint32_t)0 :
	    ((uint32_t)1 << 8 * n) - 1);
#undef W
	i = cand[n << 5 | ((unsigned char)k[0] & 31)] - 1;
	return i >= 0 && word[i] == w ? i : -1;
}

/* findtop of any k[0..n), however short its buffer. */
static int
findtopname(const char *k, size_t n)
{
	int i;

	switch (n) {
	case 1:
		return k[0] == 's' ? K_S : -1;
	case 2:
		switch (k[0]) {
		case 'p': i = K_PH; break;
		case 't': i = K_TS; break;
		case 'i': i = K_ID; break;
		case 'b': i = K_BP; break;
		default: return -1;
		}
		break;
	case 3:
		switch (k[0]) {
		case 'c': i = K_CAT; break;
		case 'p': i = K_PID; break;
		case 't': i = K_TID; break;
		case 'd': i = K_DUR; break;
		default: return -1;
		}
		break;
	case 4:
		if (k[0] != 'n' && k[0] != 'a')
			return -1;
		i = k[0] == 'n' ? K_NAME : K_ARGS;
		break;
	default:
		return -1;
	}
	while (--n > 0)
		if (topname[i][n] != k[n])
			return -1;
	return i;
}

/* Is member i (or -1) a string equal to s? */
static int
streq(struct parse *ps, const char *ev, const struct jmember *m, int i,
    const char *s)
{
	const char *k;
	size_t n;

	if (i < 0 || m[i].type != '"')
		return 0;
	k = text(ps, ev, m[i].val, m[i].vallen, m[i].esc & JM_VALESC, &n);
	return n == strlen(s) && memcmp(k, s, n) == 0;
}

/* The member that value stands for in a metadata event: its payload. */
static int
valueof(struct parse *ps, const char *ev, const struct jmember *m)
{
	int k = ps->top[K_NAME];

	if (streq(ps, ev, m, k, "process_name") ||
	    streq(ps, ev, m, k, "thread_name"))
		return ps->arg[vname];
	if (streq(ps, ev, m, k, "process_labels"))
		return ps->arg[vlabels];
	if (streq(ps, ev, m, k, "process_sort_index") ||
	    streq(ps, ev, m, k, "thread_sort_index"))
		return ps->arg[vsort];
	return -1;
}

/*
 * Whether an event of category k (n bytes; k NULL: it has none) is
 * written: -c's categories alone (none without one), and none of -C's.
 */
static int
catkept(const char *k, size_t n)
{
	if (k == NULL)
		return ncats == 0;
	if (nxcats > 0 && findkey(xcats, nxcats, k, n) >= 0)
		return 0;
	return ncats == 0 || findkey(cats, ncats, k, n) >= 0;
}

static int
keepcat(struct parse *ps, const char *ev, const struct jmember *m)
{
	const char *k;
	size_t n;
	int i = ps->top[K_CAT];

	if (i < 0 || m[i].type != '"')
		return catkept(NULL, 0);
	k = text(ps, ev, m[i].val, m[i].vallen, m[i].esc & JM_VALESC, &n);
	return catkept(k, n);
}

/*
 * Copy n bytes from src, which can be read for room bytes, to dst,
 * which has 16 bytes of room: most values are short, and a copy of 16
 * bytes whatever their length is faster than memcpy's choices.
 */
static inline void
copy(char *dst, const char *src, size_t n, size_t room)
{
#ifdef __SSE2__
	if (n <= 16 && room >= 16) {
		_mm_storeu_si128((__m128i *)(void *)dst,
		    _mm_loadu_si128((const __m128i *)(const void *)src));
		return;
	}
#else
	(void)room;
#endif
	memcpy(dst, src, n);
}

/*
 * Write a number with an exponent as a plain decimal (num_plain), so
 * that sort -n and the later stages read its value; the record being
 * written, at w, grows to hold it.  Field i names it in an error.
 */
static char *
plain(struct parse *ps, char *w, const char *s, size_t n, size_t i)
{
	char num[NUMMAX];
	size_t len, at = (size_t)(w - ps->out.b);

	if ((len = num_plain(num, sizeof(num), s, n)) == 0) {
		oflushall(&ps->out);
		tl_die("%s: event %" PRIu64 ": %s: number too large: %.*s",
		    ps->name, ps->js.nevent, fieldname[i], (int)MIN(n, 40), s);
	}
	/* Room as reserved for the whole record, past the number. */
	tl_grow((void **)&ps->out.b, &ps->out.cap, at + len + ps->room, 1);
	memcpy(ps->out.b + at, num, len);
	return ps->out.b + at + len;
}

/* Is member i (or -1) the one-byte string c? */
static int
streq1(const char *ev, const struct jmember *m, int i, int c)
{
	return i >= 0 && m[i].type == '"' && m[i].vallen == 1 &&
	    !(m[i].esc & JM_VALESC) && ev[m[i].val] == c;
}

/*
 * A GPU event without a number ts and dur stops TraceLens (a KeyError
 * on "dur"), and makes no sense in a timeline.  With -T (the report's
 * and TraceDiff's call tree), so does an event of the tree (cpu_op,
 * cuda_runtime, cuda_driver) without them, and any event that has both
 * unless both are numbers: TraceLens adds the two of every event (a
 * TypeError); its NCCL analyser, which tl-ranks follows, does not.
 * Name it here, where the trace and the event are known: a later stage
 * knows only its own input's line.
 */
static void
times(struct parse *ps, const char *ev, const struct jmember *m)
{
	/* (the GPU ones first: ngpucat) */
	static const char *const timedcat[] = { "kernel", "gpu_memcpy",
	    "gpu_memset", "cpu_op", "cuda_runtime", "cuda_driver" };
	const size_t ngpucat = 3;
	const char *cat = NULL, *what = NULL;
	size_t i = LEN(timedcat), n = 0;
	int ts = ps->top[K_TS], dur = ps->top[K_DUR], c = ps->top[K_CAT];

	if (ts >= 0 && dur >= 0 && m[ts].type == '0' && m[dur].type == '0')
		return;
	if (c >= 0 && m[c].type == '"') {
		cat = text(ps, ev, m[c].val, m[c].vallen,
		    m[c].esc & JM_VALESC, &n);
		for (i = 0; i < LEN(timedcat); i++)
			if (n == strlen(timedcat[i]) &&
			    memcmp(cat, timedcat[i], n) == 0)
				break;
	}
	if (!treetimes && i >= ngpucat)
		return;
	if (ts >= 0 && m[ts].type != '0' && (dur >= 0 || i < LEN(timedcat)))
		what = "whose ts is not a number";
	else if (ts >= 0 && dur >= 0)
		what = "whose dur is not a number";
	else if (i == LEN(timedcat))
		return;
	else if (ts < 0)
		what = "without ts";
	else
		what = "without dur";
	oflushall(&ps->out);
	if (i < LEN(timedcat))
		tl_die("%s: byte %" PRIu64 " (event %" PRIu64 "): %s event %s",
		    ps->name, ps->js.evoff, ps->js.nevent, timedcat[i], what);
	/* any other cat as written in the trace: no control bytes */
	if (c >= 0 && m[c].type == '"')
		tl_die("%s: byte %" PRIu64 " (event %" PRIu64 "): event of "
		    "cat \"%.*s%s\" %s", ps->name, ps->js.evoff,
		    ps->js.nevent, (int)MIN(m[c].vallen, 40), ev + m[c].val,
		    m[c].vallen > 40 ? "..." : "", what);
	tl_die("%s: byte %" PRIu64 " (event %" PRIu64 "): event %s",
	    ps->name, ps->js.evoff, ps->js.nevent, what);
}

/* Write the UID n, counted up from the last one where it can be. */
static char *
putuid(struct parse *ps, char *w, uint64_t n)
{
	size_t i;

	if (ps->uidlen > 0 && n == ps->uidnum + 1) {
		for (i = ps->uidlen; i > 0 && ps->uidtext[i - 1] == '9'; i--)
			ps->uidtext[i - 1] = '0';
		if (i > 0) {
			ps->uidtext[i - 1]++;
		} else {
			memmove(ps->uidtext + 1, ps->uidtext, ps->uidlen++);
			ps->uidtext[0] = '1';
		}
	} else {
		ps->uidlen = (size_t)(putu64(ps->uidtext, n) - ps->uidtext);
	}
	ps->uidnum = n;
	memcpy(w, ps->uidtext, ps->uidlen);
	return w + ps->uidlen;
}

/*
 * Write field i of the event at w, nothing if it is missing; w has the
 * room onevent reserves.
 */
static inline __attribute__((always_inline)) char *
putfield(struct parse *ps, char *w, const char *ev, size_t len,
    const struct jmember *m, size_t i)
{
	const struct jmember *f;
	int idx;

	if ((idx = *ps->slot[i]) >= 0) {
		f = &m[idx];
		if (f->type == '{' || f->type == '[') {
			w += jval_tsv(w, ev + f->val, f->vallen);
		} else if (f->type == '"' && fields[i].json) {
			/* the string's text with its quotes */
			w += jval_tsv(w, ev + f->val - 1, f->vallen + 2);
		} else if (f->esc & JM_VALESC) {
			w += jstr_tsv(w, ev + f->val, f->vallen);
		} else if (f->esc & JM_VALEXP) {
			w = plain(ps, w, ev + f->val, f->vallen, i);
		} else {
			/* No escapes: no byte that tl(7) escapes. */
			copy(w, ev + f->val, f->vallen, len - f->val);
			w += f->vallen;
		}
	} else if (idx == -1) {
		/* missing: the most common */
	} else if (idx == M_UID) {
		w = putuid(ps, w, ps->js.nevent);
	} else if (ps->js.lx.nlone > ps->js.lone0) {
		w = putu64(w, ps->js.lx.nlone - ps->js.lone0);
	}
	return w;
}

/* n tabs at w, which has room for 16 bytes more. */
static inline char *
tabs(char *w, size_t n)
{
#ifdef __SSE2__
	const __m128i tab = _mm_set1_epi8('\t');
	size_t i;

	for (i = 0; i < n; i += 16)
		_mm_storeu_si128((__m128i *)(void *)(w + i), tab);
#else
	memset(w, '\t', n);
#endif
	return w + n;
}

/* Find the fields of one event and write its record. */
static void
onevent(void *arg, const char *ev, size_t len, const struct jmember *m,
    size_t nm)
{
	struct parse *ps = arg;
	const char *k;
	size_t i, j, n;
	int idx, args = -1;
	uint64_t have = ps->uidbits;	/* the fields there, if few */
	char *w;

	for (i = 0; i < NTOP; i++)
		ps->top[i] = -1;
	for (i = 0; i < nargkeys; i++)
		ps->arg[i] = -1;
	/* Duplicate keys: the last wins, as in Python's json. */
	for (i = 0; i < nm; i++) {
		if (m[i].parent < 0) {
			if (!(m[i].esc & JM_KEYESC)) {
				idx = findtop(ev + m[i].key, m[i].keylen);
			} else {
				k = text(ps, ev, m[i].key, m[i].keylen, 1, &n);
				idx = findtopname(k, n);
			}
			if (idx < 0)
				continue;
			ps->top[idx] = (int)i;
			have |= ps->topbits[idx];
			if (idx == K_ARGS && m[i].type == '{') {
				args = (int)i;
				for (n = 0; n < nargkeys; n++)
					ps->arg[n] = -1;
				have &= ~ps->argall;
			}
		} else if (m[i].parent == args && nargkeys > 0) {
			k = text(ps, ev, m[i].key, m[i].keylen,
			    m[i].esc & JM_KEYESC, &n);
			if ((idx = findarg(k, n)) >= 0) {
				ps->arg[idx] = (int)i;
				have |= ps->argbits[idx];
			}
		}
	}
	if (ps->top[K_ARGS] != args) {
		for (i = 0; i < nargkeys; i++)
			ps->arg[i] = -1;
		have &= ~ps->argall;
	}
	/* (most events have number ts and dur, or are no timed cat) */
	if (ps->top[K_TS] < 0 || ps->top[K_DUR] < 0 ||
	    m[ps->top[K_TS]].type != '0' || m[ps->top[K_DUR]].type != '0')
		times(ps, ev, m);
	if ((ncats > 0 || nxcats > 0) && !keepcat(ps, ev, m))
		return;
	ps->value = -1;
	if (ps->hasvalue && (idx = ps->top[K_PH]) >= 0 &&
	    (m[idx].esc & JM_VALESC ? streq(ps, ev, m, idx, "M") :
	    streq1(ev, m, idx, 'M')))
		ps->value = valueof(ps, ev, m);

	/*
	 * Room for the record: values come from the event and escapes at
	 * most double them; no member is in more than maxref fields; copy
	 * writes up to 16 bytes past a value, tabs() 16 past the tabs.
	 */
	ps->room = nfields + 24 + 32 + 2 * len * maxref;
	w = oroom(&ps->out, ps->room);
	if (ps->fewfields) {
		/* Only the fields there, tabs for the runs of missing ones. */
		if (ps->value >= 0)
			have |= ps->valuebits;
		if (ps->js.lx.nlone > ps->js.lone0)
			have |= ps->lonebits;
		for (i = 0; have != 0; i = j + 1) {
			j = (size_t)__builtin_ctzll(have);
			have &= have - 1;
			w = tabs(w, j - i);
			w = putfield(ps, w, ev, len, m, j);
			*w++ = '\t';
		}
		w = tabs(w, nfields - i);
	} else {
		for (i = 0; i < nfields; i++) {
			w = putfield(ps, w, ev, len, m, i);
			*w++ = '\t';
		}
	}
	w[-1] = '\n';
	ps->out.len = (size_t)(w - ps->out.b);
	if (ps->out.len >= OUTBUF)
		oflush(&ps->out);
}

/* Write one rocprofv3 record (rocprof.h). */
/*
 * A dispatch's or copy's timestamp that is there but not a number (a
 * string, null, a list) stops TraceLens (a TypeError in end - start),
 * and makes no timeline: name it here, where the file and the record
 * are known.  (A missing one is TraceLens's 0.)
 */
static void
rptime(struct parse *ps, const struct rprec *r, int f, const char *key)
{
	const struct rpval *v = &r->v[f];

	if (v->how == 0 || (v->how == 'j' && (v->s[0] == '-' ||
	    (v->s[0] >= '0' && v->s[0] <= '9'))))
		return;
	oflushall(&ps->out);
	tl_die("%s: record %" PRIu64 ": %s is not a number: %s%.*s%s",
	    ps->name, ps->rp.nrec, key, v->how == 's' ? "\"" : "",
	    (int)MIN(v->n, 40), v->s, v->how == 's' ? "\"" : "");
}

static void
onrecord(void *arg, const struct rprec *r)
{
	struct parse *ps = arg;
	const struct rpval *c = &r->v[RF_CAT], *v;
	int bad;

	if ((ncats > 0 || nxcats > 0) && !catkept(c->s, c->n))
		return;
	if (r->v[RF_PH].n == 1 && r->v[RF_PH].s[0] == 'X') {
		rptime(ps, r, RF_START, "start_timestamp");
		rptime(ps, r, RF_END, "end_timestamp");
	}
	buf_reset(&ps->rec);
	if ((bad = rp_format(&ps->rec, r, ps->rpmap, nfields)) != 0) {
		v = &r->v[ps->rpmap[bad - 1]];
		oflushall(&ps->out);
		tl_die("%s: record %" PRIu64 ": %s: number too large: %.*s",
		    ps->name, ps->rp.nrec, fieldname[bad - 1],
		    (int)MIN(v->n, 40), v->s);
	}
	memcpy(oroom(&ps->out, ps->rec.len), ps->rec.s, ps->rec.len);
	ps->out.len += ps->rec.len;
	if (ps->out.len >= OUTBUF)
		oflush(&ps->out);
}

/* ---- one trace ---- */

/* Report the scanner's error, or salvage what came before a truncation. */
static void
scanfail(struct parse *ps, const char *what, int trunc)
{
	struct jscan *s = &ps->js;
	struct rpscan *r = &ps->rp;
	const char *unit = ps->kind == 'r' ? "record" : "event";
	uint64_t off = s->erroff, n = s->nevent, last = s->lastend;
	int in = s->errinev, seen = s->seenev;
	char ev[48] = "";

	if (ps->kind == 'r') {
		off = r->erroff;
		n = r->nrec;
		last = r->lastend;
		in = r->errinrec;
		seen = r->seenrec;
	}
	oflushall(&ps->out);
	if (in)
		snprintf(ev, sizeof(ev), " (%s %" PRIu64 ")", unit, n);
	if (trunc && salvage && seen) {
		tl_warn("%s: byte %" PRIu64 "%s: %s: kept %" PRIu64 " %s%s, "
		    "dropped %" PRIu64 " byte%s", ps->name, off, ev, what,
		    n, unit, n == 1 ? "" : "s",
		    off - last, off - last == 1 ? "" : "s");
		return;
	}
	tl_die("%s: byte %" PRIu64 "%s: %s", ps->name, off, ev, what);
}

static void parseinit(struct parse *);
static void setfields(char *);

/*
 * The trace's kind is known: the reader for it and, for the first
 * trace, the default fields of its kind and the header.
 */
static void
decide(struct parse *ps, int kind)
{
	static char *deflist;	/* the default fields, split in place */
	size_t i;

	ps->kind = kind;
	if (kind == 'r' && kinetoonly) {
		oflushall(&ps->out);
		tl_die("%s: rocprofv3 results, not a PyTorch trace", ps->name);
	}
	if (!ps->started) {
		if (fields == NULL) {
			deflist = tl_strdup(kind == 'r' ? rp_deffields : deffields);
			setfields(deflist);
		}
		parseinit(ps);
		rec_write(stdout, fieldname, nfields);
		ps->started = 1;
	}
	if (kind == 'r' && ps->rpmap == NULL) {
		ps->rpmap = tl_calloc(nfields, sizeof(*ps->rpmap));
		for (i = 0; i < nfields; i++)
			ps->rpmap[i] = rp_field(fieldname[i]);
	}
	if (kind == 'r')
		rp_init(&ps->rp, maxevent, onrecord, ps);
	/* (a BOM skipped: offsets still count from the file's first byte) */
	if (kind == 'r')
		ps->rp.off += (uint64_t)ps->bom;
	else
		ps->js.off += (uint64_t)ps->bom;
	/* Keys of args no field names: the scanner need not record them. */
	if (kind == 'k') {
		jscan_want(&ps->js, NULL, 0);
		for (i = 0; i < nargkeys; i++)
			jscan_want(&ps->js, argkeys[i].s, argkeys[i].len);
	}
}

static void
feed(struct parse *ps, const char *p, size_t n)
{
	int k;

	/*
	 * A UTF-8 byte-order mark (Windows editors write one; Python's
	 * json reads past it, RFC 8259 lets a parser ignore it): skipped,
	 * but counted in the offsets of messages.
	 */
	if (ps->kind == 0 && !ps->bomdone && ps->sniff.len == 0 && n >= 3) {
		ps->bomdone = 1;
		if (memcmp(p, BOM, 3) == 0)
			p += 3, n -= 3, ps->bom = 3;
	}
	/* Told apart by content: the first key of a rocprofv3 file. */
	if (ps->kind == 0) {
		if (ps->sniff.len == 0 && ps->bomdone &&
		    (k = rp_sniff(p, n)) >= 0) {
			decide(ps, k ? 'r' : 'k');
		} else {
			buf_add(&ps->sniff, p, n);
			if (!ps->bomdone) {
				/* (the first bytes came in pieces) */
				if (ps->sniff.len < 3)
					return;
				ps->bomdone = 1;
				if (memcmp(ps->sniff.s, BOM, 3) == 0) {
					ps->sniff.len -= 3;
					memmove(ps->sniff.s, ps->sniff.s + 3,
					    ps->sniff.len);
					ps->bom = 3;
				}
			}
			k = rp_sniff(ps->sniff.s, ps->sniff.len);
			if (k < 0 && ps->sniff.len < SNIFFMAX)
				return;
			decide(ps, k == 1 ? 'r' : 'k');
			p = ps->sniff.s;
			n = ps->sniff.len;
			ps->sniff.len = 0;
		}
	}
	if (ps->kind == 'r' ? rp_feed(&ps->rp, p, n) < 0 :
	    jscan_feed(&ps->js, p, n) < 0)
		scanfail(ps, ps->kind == 'r' ? ps->rp.err : ps->js.err, 0);
}

/* Before the end of the input: feed what is held for telling the kind. */
static void
unsniff(struct parse *ps)
{
	size_t n = ps->sniff.len;

	if (ps->kind != 0)
		return;
	decide(ps, 'k');
	ps->sniff.len = 0;
	if (n > 0)
		feed(ps, ps->sniff.s, n);
}

static void
finish(struct parse *ps)
{
	unsniff(ps);
	if (ps->kind == 'r' ? rp_end(&ps->rp) < 0 : jscan_end(&ps->js) < 0)
		scanfail(ps, ps->kind == 'r' ? ps->rp.err : ps->js.err,
		    ps->kind == 'r' ? ps->rp.truncated : ps->js.truncated);
}

static size_t
xread(struct parse *ps, int fd, void *buf, size_t n)
{
	ssize_t r;

	while ((r = read(fd, buf, n)) < 0) {
		if (errno != EINTR) {
			oflushall(&ps->out);
			tl_die("%s: read error:", ps->name);
		}
	}
	progress(&ps->pr, (size_t)r, 0);
	return (size_t)r;
}

static const char *compressed(const char *buf, size_t n);

/*
 * A trace in UTF-16 or UTF-32 (a BOM, or a NUL among the first bytes:
 * JSON text starts with ASCII): TraceLens's orjson reads UTF-8 only.
 * Say so, not "not a JSON object or array" at byte 0.
 */
static void
notutf8(struct parse *ps, const char *buf, size_t n)
{
	const unsigned char *u = (const unsigned char *)buf;

	if (!(n >= 2 && ((u[0] == 0xff && u[1] == 0xfe) ||
	    (u[0] == 0xfe && u[1] == 0xff))) &&
	    memchr(buf, '\0', MIN(n, 4)) == NULL)
		return;
	unsniff(ps);
	oflushall(&ps->out);
	tl_die("%s: UTF-16 or UTF-32 text, not UTF-8 (iconv -f utf-16 -t "
	    "utf-8 converts it)", ps->name);
}

/*
 * The text a gzip file holds, buf[0..n), is compressed again (a trace
 * gzipped twice: Python's gzip.open gives TraceLens the inner gzip's
 * bytes, a UnicodeDecodeError): say so, not "not a JSON object".
 */
static void
incompressed(struct parse *ps, const char *buf, size_t n)
{
	const char *what = compressed(buf, n);

	if (what == NULL && n >= 2 && (unsigned char)buf[0] == 0x1f &&
	    (unsigned char)buf[1] == 0x8b)
		what = "gzip";
	if (what == NULL)
		return;
	oflushall(&ps->out);
	tl_die("%s: compressed twice, with %s inside gzip: decompress it "
	    "first", ps->name, what);
}

/* Parse gzip input; buf[0..n) holds its first bytes. */
static void
gunzip(struct parse *ps, int fd, char *buf, size_t n)
{
	struct gz g;
	struct slot *sl;
	char what[160];
	int first = 1;

	gz_start(&g, fd, buf, n, &ps->pr);
	while ((sl = gz_next(&g)) != NULL) {
		if (sl->len == 0)
			continue;
		if (first) {
			first = 0;
			incompressed(ps, sl->b, sl->len);
			notutf8(ps, sl->b, sl->len);
		}
		feed(ps, sl->b, sl->len);
	}
	sl = gz_end(&g);
	if (sl->errnum != 0) {
		oflushall(&ps->out);
		errno = sl->errnum;
		tl_die("%s: read error:", ps->name);
	}
	if (sl->err != NULL) {
		/* Place the error where the text stopped, as jscan would. */
		unsniff(ps);
		ps->js.erroff = ps->js.off;
		ps->js.errinev = ps->js.evdepth != 0;
		ps->rp.erroff = ps->rp.off;
		ps->rp.errinrec = ps->rp.inarr != 0;
		snprintf(what, sizeof(what), "%s%s", sl->trunc ? "" : "gzip: ",
		    sl->err);
		scanfail(ps, what, sl->trunc);
	} else {
		finish(ps);
	}
	gz_free(&g);
}

/* The compression other than gzip that buf[0..n) starts with, or NULL. */
static const char *
compressed(const char *buf, size_t n)
{
	static const struct {
		const char *magic;	/* the first bytes of such a file */
		size_t len;		/* how many */
		const char *name;	/* the compression's */
	} fmt[] = {
		{ "\x28\xb5\x2f\xfd", 4, "zstd" },
		{ "BZh", 3, "bzip2" },
		{ "\xfd" "7zXZ\0", 6, "xz" },
		{ "\x04\x22\x4d\x18", 4, "lz4" },
		{ "PK\x03\x04", 4, "zip" },
	};
	size_t i;

	for (i = 0; i < LEN(fmt); i++)
		if (n >= fmt[i].len && memcmp(buf, fmt[i].magic, fmt[i].len) == 0)
			return fmt[i].name;
	return NULL;
}

/* Does buf[0..n) hold the string s? */
static int
hasbytes(const char *buf, size_t n, const char *s)
{
	size_t i, len = strlen(s);

	for (i = 0; i + len <= n; i++)
		if (buf[i] == s[0] && memcmp(buf + i, s, len) == 0)
			return 1;
	return 0;
}

static void
parsefd(struct parse *ps, int fd, const char *name)
{
	char *buf = tl_malloc(INBUF);
	const char *what;
	size_t n = 0, r;

	ps->name = name;
	ps->kind = 0;
	ps->bomdone = ps->bom = 0;
	jscan_init(&ps->js, maxevent, onevent, ps);
	/* Told apart by content, not name: gzip starts with 1f 8b. */
	while (n < 6 && (r = xread(ps, fd, buf + n, INBUF - n)) > 0)
		n += r;
	if ((what = compressed(buf, n)) != NULL) {
		unsniff(ps);	/* (the header, as for any trace) */
		oflushall(&ps->out);
		/* (a workbook is a zip too: a TraceLens report given as a trace) */
		if (strcmp(what, "zip") == 0 &&
		    (hasbytes(buf, n, "[Content_Types].xml") ||
		    hasbytes(buf, n, "xl/workbook.xml")))
			tl_die("%s: an Excel workbook, not a trace "
			    "(tl-xlsx(1) reads workbooks)", name);
		tl_die("%s: compressed with %s: decompress it first", name, what);
	}
	if (n >= 2 && (unsigned char)buf[0] == 0x1f &&
	    (unsigned char)buf[1] == 0x8b) {
		gunzip(ps, fd, buf, n);
	} else {
		notutf8(ps, buf, n);
		while (n > 0) {
			feed(ps, buf, n);
			n = xread(ps, fd, buf, INBUF);
		}
		finish(ps);
	}
	progress(&ps->pr, 0, 1);
	if (ps->js.lx.nlone > 0)
		tl_warn("%s: %" PRIu64 " lone UTF-16 surrogate%s in \\u escapes "
		    "read as U+FFFD", name, ps->js.lx.nlone,
		    ps->js.lx.nlone == 1 ? "" : "s");
	free(buf);
}

/* ---- options ---- */

/* Split a comma-separated list in place; returns the number of items. */
static size_t
split(char *s, char ***items)
{
	size_t n = 1, i;
	char *p;

	for (p = s; *p; p++)
		n += *p == ',';
	*items = tl_calloc(n, sizeof(**items));
	for (i = 0; i < n; i++) {
		(*items)[i] = s;
		if ((p = strchr(s, ',')) != NULL) {
			*p = '\0';
			s = p + 1;
		}
	}
	return n;
}

/* The argkey s[0..n), added if new; s stays the caller's. */
static int
addargkey(const char *s, size_t n)
{
	int i = findkey(argkeys, nargkeys, s, n);

	if (i >= 0)
		return i;
	argkeys = tl_realloc(argkeys, (nargkeys + 1) * sizeof(*argkeys));
	argkeys[nargkeys].s = s;
	argkeys[nargkeys].len = n;
	argkeys[nargkeys].next = -1;
	return (int)nargkeys++;
}

/* The most fields that can show one member (value shows an args key). */
static size_t
maxrefs(void)
{
	size_t i, j, n, most = 1;

	for (i = 0; i < nfields; i++) {
		for (n = 0, j = 0; j < nfields; j++) {
			if (fields[j].kind == F_VALUE || (fields[j].kind ==
			    fields[i].kind && fields[j].idx == fields[i].idx))
				n++;
			else if (fields[i].kind == F_VALUE &&
			    fields[j].kind == F_ARG)
				n++;
		}
		most = MAX(most, n);
	}
	return most;
}

/* Is s[0..n) the name lit? */
static int
isname(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

static void
setfields(char *list)
{
	char **names;
	size_t i, n;
	int k;

	/* A later -f replaces an earlier one. */
	free(fields);
	free(fieldname);
	free(argkeys);
	argkeys = NULL;
	nargkeys = 0;
	vname = vlabels = vsort = -1;
	nfields = split(list, &names);
	fields = tl_calloc(nfields, sizeof(*fields));
	fieldname = (const char **)names;
	for (i = 0; i < nfields; i++) {
		if (names[i][0] == '\0')
			tl_usage_die("-f: empty field name");
		/*
		 * NAME:json tells a string from the array it may spell
		 * ("[0, 1]" or [0, 1]): TraceLens keeps the one as a str,
		 * the other as a list.
		 */
		n = strlen(names[i]);
		if (n > 5 && strcmp(names[i] + n - 5, ":json") == 0) {
			n -= 5;
			fields[i].json = 1;
		}
		if (isname(names[i], n, "UID")) {
			fields[i].kind = F_UID;
		} else if (isname(names[i], n, "lone surrogates")) {
			fields[i].kind = F_LONE;
		} else if ((k = findtopname(names[i], n)) >= 0) {
			fields[i].kind = F_TOP;
			fields[i].idx = k;
		} else if (isname(names[i], n, "value")) {
			fields[i].kind = F_VALUE;
			vname = addargkey("name", 4);
			vlabels = addargkey("labels", 6);
			vsort = addargkey("sort_index", 10);
		} else {
			fields[i].kind = F_ARG;
			fields[i].idx = addargkey(names[i], n);
		}
		if (fields[i].json && fields[i].kind != F_TOP &&
		    fields[i].kind != F_ARG)
			tl_usage_die("-f: %s: :json is for the keys of an event "
			    "or of its args", names[i]);
	}
	maxref = maxrefs();
	for (i = 0; i < LEN(argidx); i++)
		argidx[i] = -1;
	for (k = (int)nargkeys - 1; k >= 0; k--) {
		i = keyhash(argkeys[k].s, argkeys[k].len);
		argkeys[k].next = argidx[i];
		argidx[i] = k;
	}
}

/* -c's or -C's list of categories into *keys, *nkeys. */
static void
setcats(char *list, struct argkey **keys, size_t *nkeys)
{
	char **names;
	size_t i;

	free(*keys);
	*nkeys = split(list, &names);
	*keys = tl_calloc(*nkeys, sizeof(**keys));
	for (i = 0; i < *nkeys; i++) {
		(*keys)[i].s = names[i];
		(*keys)[i].len = strlen(names[i]);
	}
	free(names);
}

/* A byte count with an optional k, M or G (binary) suffix. */
static size_t
sizearg(const char *s)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	switch (*end) {
	case 'k': case 'K': v = v > 1ULL << 30 ? 0 : v << 10; end++; break;
	case 'm': case 'M': v = v > 1ULL << 30 ? 0 : v << 20; end++; break;
	case 'g': case 'G': v = v > 1ULL << 30 ? 0 : v << 30; end++; break;
	}
	if (!(*s >= '0' && *s <= '9') || *end != '\0' || errno != 0 ||
	    v < 2 || v > 1ULL << 30)
		tl_usage_die("-m: invalid size '%s' (want 2 to 1G bytes)", s);
	return (size_t)v;
}

/* Take --salvage out of argv, so getopt sees the rest. */
static int
longopt(int argc, char *argv[])
{
	int i, j;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--salvage") != 0) {
			/* Skip an option's argument given as a word of its own. */
			if (argv[i][0] == '-' && argv[i][1] != '\0' &&
			    strchr("cfmP", argv[i][strlen(argv[i]) - 1]) &&
			    strspn(argv[i] + 1, "cfmhP") == strlen(argv[i] + 1))
				i++;
			continue;
		}
		salvage = 1;
		for (j = i; j < argc; j++)
			argv[j] = argv[j + 1];
		argc--;
		i--;
	}
	return argc;
}

/* Open every trace first, so that a bad name stops us before output. */
static int *
opentraces(int argc, char *argv[])
{
	struct stat st;
	int i, *fd = tl_calloc((size_t)argc, sizeof(*fd));

	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "-") == 0)
			fd[i] = STDIN_FILENO;
		else if ((fd[i] = open(argv[i], O_RDONLY)) < 0)
			tl_die("%s:", argv[i]);
		if (fstat(fd[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			tl_die("%s:", argv[i]);
		}
	}
	return fd;
}

static void
parseinit(struct parse *ps)
{
	uint64_t bit;
	size_t i;

	ps->arg = tl_calloc(nargkeys + 1, sizeof(*ps->arg));
	ps->slot = tl_calloc(nfields, sizeof(*ps->slot));
	ps->uid = M_UID;
	ps->lone = M_LONE;
	for (i = 0; i < nfields; i++) {
		if (fields[i].kind == F_TOP)
			ps->slot[i] = &ps->top[fields[i].idx];
		else if (fields[i].kind == F_ARG)
			ps->slot[i] = &ps->arg[fields[i].idx];
		else if (fields[i].kind == F_VALUE)
			ps->slot[i] = &ps->value;
		else if (fields[i].kind == F_LONE)
			ps->slot[i] = &ps->lone;
		else
			ps->slot[i] = &ps->uid;
		ps->hasvalue |= fields[i].kind == F_VALUE;
	}
	ps->argbits = tl_calloc(nargkeys + 1, sizeof(*ps->argbits));
	if ((ps->fewfields = nfields <= 64)) {
		for (i = 0; i < nfields; i++) {
			bit = (uint64_t)1 << i;
			switch (fields[i].kind) {
			case F_UID: ps->uidbits |= bit; break;
			case F_TOP: ps->topbits[fields[i].idx] |= bit; break;
			case F_ARG:
				ps->argbits[fields[i].idx] |= bit;
				ps->argall |= bit;
				break;
			case F_VALUE: ps->valuebits |= bit; break;
			default: ps->lonebits |= bit; break;
			}
		}
	}
}

static void
parsefree(struct parse *ps)
{
	jscan_free(&ps->js);
	rp_free(&ps->rp);
	buf_free(&ps->sniff);
	buf_free(&ps->rec);
	free(ps->rpmap);
	free(ps->out.b);
	free(ps->arg);
	free(ps->slot);
	free(ps->argbits);
	free(ps->key);
}

int
main(int argc, char *argv[])
{
	static char *stdinv[] = { "-", NULL };
	struct parse ps;
	int c, i, *fd;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	argc = longopt(argc, argv);
	while ((c = getopt(argc, argv, "c:C:f:hKm:N:P:T")) != -1) {
		switch (c) {
		case 'c':
			setcats(optarg, &cats, &ncats);
			break;
		case 'C':
			setcats(optarg, &xcats, &nxcats);
			break;
		case 'f':
			setfields(optarg);
			break;
		case 'h':
			usage(TL_OK);
			break;
		case 'm':
			maxevent = sizearg(optarg);
			break;
		case 'K':
			kinetoonly = 1;
			break;
		case 'T':
			treetimes = 1;
			break;
		case 'N':
			inname = optarg;
			break;
		case 'P':
			progpath = optarg;
			break;
		default:
			usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0) {
		argc = 1;
		argv = stdinv;
	}
	if (inname != NULL && argc != 1)
		usage(TL_EUSAGE);

	fd = opentraces(argc, argv);
	memset(&ps, 0, sizeof(ps));
	ps.pr.fd = progressopen(progpath);
	for (i = 0; i < argc; i++) {
		progressinit(&ps.pr, fd[i], i);
		parsefd(&ps, fd[i], inname != NULL ? inname :
		    strcmp(argv[i], "-") == 0 ? "<stdin>" : argv[i]);
		if (fd[i] != STDIN_FILENO)
			close(fd[i]);
	}
	oflush(&ps.out);
	if (ps.pr.fd >= 0)
		close(ps.pr.fd);
	parsefree(&ps);
	free(fd);
	return tl_fshut(stdout, "<stdout>");
}
