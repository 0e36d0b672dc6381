/* See LICENSE file for copyright and license details. */
/*
 * The rocprofv3 reader of rocprof.h.  The scanner is a resumable state
 * machine like jscan.c's: each state is a label, and when a chunk runs
 * out the label to resume at is saved in s->state; strings, numbers
 * and literals are jlex.h's, as they are jscan.c's.  Beside the grammar
 * it keeps, for each open object and array, its role on the path to
 * the records (the top object, the process list, a process, its
 * buffer_records, a records array), so that it knows which values to
 * gather.  A gathered record is valid JSON by then; jwalk.h finds the
 * members it needs, and TraceLens's RocprofParser says what to take
 * from it.  (jsmn tokenised every record whole, and then members were
 * looked up among its tokens: half of tl-parse's time on rocprofv3.)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSMN_HEADER
#include <jsmn.h>
#include <xxhash.h>

#include "jlex.h"
#include "jscan.h"
#include "jwalk.h"
#include "rocprof.h"
#include "tl.h"

/* Resume points (s->state): S_STR and S_SCALAR resume a jlex_step. */
enum {
	S_VALUE, S_OBJFIRST, S_KEY, S_COLON, S_ARRFIRST, S_AFTER, S_DONE,
	S_STR, S_SCALAR, S_ERR
};

/* What an open object or array is (s->role), or the value a key introduces. */
enum {
	R_OTHER,	/* nothing we read */
	R_TOP,		/* the top-level object */
	R_TOOL,		/* the rocprofiler-sdk-tool list */
	R_PROC,		/* one process's results */
	R_BUF,		/* its buffer_records */
	R_SYMS,		/* its kernel_symbols */
	R_DISP,		/* buffer_records.kernel_dispatch */
	R_COPY,		/* buffer_records.memory_copy */
	R_META		/* (a key's value only) its metadata: a record */
};

/* Keys seen in a process result and its buffer_records (s->seen). */
enum { K_META = 1, K_SYMS = 2, K_BUF = 4, K_DISP = 8, K_COPY = 16 };

/* The keys that decide a role, where they do. */
static const struct {
	int in;			/* the role of the object they are keys of */
	const char *key;	/* the key */
	int role;		/* the role of its value */
	int bit;		/* its bit in s->seen (0: the top key) */
	char want;		/* the value must be this: '{' or '[' */
	const char *what;	/* the error when it is not */
} roles[] = {
	{ R_TOP, RP_KEY, R_TOOL, 0, '[', RP_KEY " is not an array" },
	{ R_PROC, "metadata", R_META, K_META, '{', "metadata is not an object" },
	{ R_PROC, "kernel_symbols", R_SYMS, K_SYMS, '[',
	  "kernel_symbols is not an array" },
	{ R_PROC, "buffer_records", R_BUF, K_BUF, '{',
	  "buffer_records is not an object" },
	{ R_BUF, "kernel_dispatch", R_DISP, K_DISP, '[',
	  "kernel_dispatch is not an array" },
	{ R_BUF, "memory_copy", R_COPY, K_COPY, '[',
	  "memory_copy is not an array" },
};

/* rocprofiler's memory copy operations, by number. */
static const char *const copyop[] = {
	"MEMORY_COPY_NONE", "MEMORY_COPY_HOST_TO_HOST",
	"MEMORY_COPY_HOST_TO_DEVICE", "MEMORY_COPY_DEVICE_TO_HOST",
	"MEMORY_COPY_DEVICE_TO_DEVICE"
};

/* Field names, by RF_ index. */
static const char *const fieldname[NRF] = {
	"UID", "ph", "cat", "name", "process", "pid", "tid", "ts", "dur",
	"start", "end", "stream", "queue", "agent", "correlation",
	"External id", "kernel_id", "dispatch_id", "symbol", "grid_x",
	"grid_y", "grid_z", "block_x", "block_y", "block_z", "bytes",
	"src_agent", "dst_agent"
};

const char rp_deffields[] = "UID,ph,cat,name,process,pid,tid,ts,dur,"
    "start,end,stream,queue,agent,correlation,External id,kernel_id,"
    "dispatch_id,symbol,grid_x,grid_y,grid_z,block_x,block_y,block_z,"
    "bytes,src_agent,dst_agent";

int
rp_field(const char *name)
{
	int i;

	for (i = 0; i < NRF; i++)
		if (strcmp(fieldname[i], name) == 0)
			return i;
	return -1;
}

static int
isws(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int
rp_sniff(const char *p, size_t n)
{
	static const char want[] = "\"" RP_KEY "\"";
	size_t i = 0, k;

	while (i < n && isws((unsigned char)p[i]))
		i++;
	if (i == n)
		return -1;
	if (p[i++] != '{')
		return 0;
	while (i < n && isws((unsigned char)p[i]))
		i++;
	for (k = 0; k < sizeof(want) - 1; k++, i++) {
		if (i == n)
			return -1;
		if (p[i] != want[k])
			return 0;
	}
	return 1;
}

/* Empty the symbol table (a new process), keeping its slots. */
static void
symclear(struct rpscan *s)
{
	size_t i;

	for (i = 0; i < s->symcap; i++) {
		free(s->syms[i].key);
		free(s->syms[i].name);
		s->syms[i].key = s->syms[i].name = NULL;
	}
	s->nsym = 0;
}

void
rp_init(struct rpscan *s, size_t maxrec, rp_fn *fn, void *arg)
{
	struct rpscan keep;

	/* Keep the buffers of a scanner used before, not its symbols. */
	symclear(s);
	keep = *s;
	memset(s, 0, sizeof(*s));
	s->cap = keep.cap;
	s->capcap = keep.capcap;
	s->syms = keep.syms;
	s->symcap = keep.symcap;
	s->maxrec = maxrec ? maxrec : 64 << 20;
	s->onrec = fn;
	s->arg = arg;
	s->state = S_VALUE;
}

void
rp_free(struct rpscan *s)
{
	symclear(s);
	free(s->syms);
	free(s->cap);
	s->syms = NULL;
	s->cap = NULL;
	s->symcap = s->capcap = s->caplen = 0;
}

/* ---- the symbol table ---- */

static struct rpsym *
symslot(struct rpscan *s, const char *key, size_t n)
{
	size_t i = (size_t)XXH3_64bits(key, n) & (s->symcap - 1);

	while (s->syms[i].key != NULL && (s->syms[i].keylen != n ||
	    memcmp(s->syms[i].key, key, n) != 0))
		i = (i + 1) & (s->symcap - 1);
	return &s->syms[i];
}

static const struct rpsym *
symfind(struct rpscan *s, const char *key, size_t n)
{
	struct rpsym *e;

	if (s->nsym == 0)
		return NULL;
	e = symslot(s, key, n);
	return e->key != NULL ? e : NULL;
}

/* Enter (or, as a later one with the same id does in Python, replace) a name. */
static void
symput(struct rpscan *s, const char *key, size_t n, const char *name,
    size_t namelen)
{
	struct rpsym *old = s->syms, *e;
	size_t i, oldcap = s->symcap;

	if (2 * (s->nsym + 1) > s->symcap) {
		s->symcap = oldcap ? 2 * oldcap : 1024;
		s->syms = tl_calloc(s->symcap, sizeof(*s->syms));
		for (i = 0; i < oldcap; i++)
			if (old[i].key != NULL)
				*symslot(s, old[i].key, old[i].keylen) = old[i];
		free(old);
	}
	e = symslot(s, key, n);
	if (e->key == NULL) {
		e->key = tl_strndup(key, n);
		e->keylen = n;
		s->nsym++;
	}
	free(e->name);
	e->name = tl_strndup(name, namelen);
	e->namelen = namelen;
}

/* ---- one record ---- */

/* Field f is the value token t, when it is there. */
static void
setv(struct rprec *r, int f, const char *js, jsmntok_t t)
{
	if (t.type == JSMN_UNDEFINED)
		return;
	r->v[f].s = js + t.start;
	r->v[f].n = (uint32_t)(t.end - t.start);
	r->v[f].how = t.type == JSMN_STRING ? 's' : 'j';
}

static void
setx(struct rprec *r, int f, const char *s, size_t n)
{
	r->v[f].s = s;
	r->v[f].n = (uint32_t)n;
	r->v[f].how = 'x';
}

/* Is the number text s[0..n) an integer literal (no fraction, no exponent)? */
static int
isint(const char *s, size_t n)
{
	size_t i = s[0] == '-';

	for (; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* Python's truth of the JSON value token t. */
static int
truthy(const char *js, const jsmntok_t *t)
{
	const char *s = js + t->start;
	char num[64];
	size_t n = (size_t)(t->end - t->start);

	switch (t->type) {
	case JSMN_STRING:
		return n > 0;
	case JSMN_OBJECT:
	case JSMN_ARRAY:
		return t->size > 0;
	default:
		if (s[0] == 't')
			return 1;
		if (s[0] == 'f' || s[0] == 'n')
			return 0;
		if (n >= sizeof(num))
			return 1;
		memcpy(num, s, n);
		num[n] = '\0';
		return strtod(num, NULL) != 0;
	}
}

/*
 * Append to b Python's str() of the JSON value token t (as TraceLens's
 * f-strings and names show it), escaped as a tl(7) field.
 */
static void
pystr_tsv(struct buf *b, const char *js, const jsmntok_t *t)
{
	const char *s = js + t->start;
	size_t n = (size_t)(t->end - t->start);
	struct buf tmp = {0};
	char num[64], out[64];

	switch (t->type) {
	case JSMN_STRING:
		/* (valid by now; a lone surrogate is U+FFFD, as in jscan) */
		tl_grow((void **)&tmp.s, &tmp.cap, n + 1, 1);
		rec_bput(b, tmp.s, jstr_decode(tmp.s, s, n));
		break;
	case JSMN_OBJECT:
	case JSMN_ARRAY:
		if (pylit(&tmp, s, n, 0) == 0)
			rec_bput(b, tmp.s, tmp.len);
		break;
	default:
		if (s[0] == 't')
			buf_adds(b, "True");
		else if (s[0] == 'f')
			buf_adds(b, "False");
		else if (s[0] == 'n')
			buf_adds(b, "None");
		else if (isint(s, n))
			buf_add(b, n == 2 && s[0] == '-' && s[1] == '0' ? "0" : s,
			    n == 2 && s[0] == '-' && s[1] == '0' ? 1 : n);
		else if (n < sizeof(num)) {
			memcpy(num, s, n);
			num[n] = '\0';
			buf_adds(b, num_pyrepr(strtod(num, NULL), out, sizeof(out)));
		} else
			buf_add(b, s, n);
		break;
	}
	buf_free(&tmp);
}

/*
 * The key a kernel id is looked up by: ids that Python's dict holds
 * equal (1, 1.0 and true) get the same key.
 */
static void
idkey(struct buf *b, const char *js, const jsmntok_t *t)
{
	const char *s = js + t->start;
	size_t n = (size_t)(t->end - t->start);
	char num[64], out[320];
	double d;

	buf_reset(b);
	if (t->type == JSMN_STRING) {
		buf_addc(b, 's');
		buf_add(b, s, n);
	} else if (t->type != JSMN_PRIMITIVE) {
		buf_addc(b, 'c');
		buf_add(b, s, n);
	} else if (s[0] == 'n') {
		buf_addc(b, 'z');
	} else if (s[0] == 't' || s[0] == 'f') {
		buf_adds(b, s[0] == 't' ? "i1" : "i0");
	} else if (isint(s, n)) {
		buf_addc(b, 'i');
		if (n == 2 && s[0] == '-' && s[1] == '0')
			buf_addc(b, '0');
		else
			buf_add(b, s, n);
	} else if (n < sizeof(num)) {
		memcpy(num, s, n);
		num[n] = '\0';
		d = strtod(num, NULL);
		/* a whole float is the int of its value (-0.0 is 0) */
		if (d == 0)
			snprintf(out, sizeof(out), "i0");
		else if (isfinite(d) && d == floor(d))
			snprintf(out, sizeof(out), "i%.0f", d);
		else
			snprintf(out, sizeof(out), "f%s", num_pyrepr(d, num,
			    sizeof(num)));
		buf_adds(b, out);
	} else {
		buf_addc(b, 'f');
		buf_add(b, s, n);
	}
}

/*
 * A dispatch's (or copy's) start and end: ts and dur in microseconds,
 * exact, when both are integers (nanoseconds).
 */
static void
times(struct rprec *r, char *tsb, char *durb, size_t size)
{
	int64_t a, z, d;

	if (r->v[RF_START].how != 'j' ||
	    num_int64(r->v[RF_START].s, r->v[RF_START].n, &a) < 0)
		return;
	setx(r, RF_TS, tsb, strlen(num_ns_to_us(a, tsb, size)));
	if (r->v[RF_END].how != 'j' ||
	    num_int64(r->v[RF_END].s, r->v[RF_END].n, &z) < 0 ||
	    __builtin_sub_overflow(z, a, &d))
		return;
	setx(r, RF_DUR, durb, strlen(num_ns_to_us(d, durb, size)));
}

/* The rectype of a record (s->rectype). */
enum { T_META, T_SYM, T_DISP, T_COPY };

/*
 * What TraceLens's RocprofParser reads of each record (jwalk.h): the
 * slots of the values, and the trees of keys.  The process's metadata
 * (node.hostname is the name), a kernel symbol, and a dispatch or a
 * memory copy (x.get("handle") of the id objects).
 */
enum {
	W_PID, W_INIT, W_FINI, W_NODE, W_HOST,
	W_KID, W_TRUNC, W_FMT, W_KNAME,
	W_TID, W_CORR, W_INT, W_EXT, W_START, W_END, W_STREAM, W_STREAMH,
	W_OP, W_BYTES, W_SRC, W_SRCH, W_DST, W_DSTH, W_INFO, W_AGENT,
	W_AGENTH, W_QUEUE, W_QUEUEH, W_DKID, W_DISP, W_GRID, W_GX, W_GY,
	W_GZ, W_WG, W_BX, W_BY, W_BZ, NW
};
static const struct jwant whost[] = { { "hostname", W_HOST, NULL, 0 } };
static const struct jwant wmeta[] = {
	{ "pid", W_PID, NULL, 0 }, { "init_time", W_INIT, NULL, 0 },
	{ "fini_time", W_FINI, NULL, 0 }, { "node", W_NODE, whost, LEN(whost) }
};
static const struct jwant wsym[] = {
	{ "kernel_id", W_KID, NULL, 0 },
	{ "truncated_kernel_name", W_TRUNC, NULL, 0 },
	{ "formatted_kernel_name", W_FMT, NULL, 0 },
	{ "kernel_name", W_KNAME, NULL, 0 }
};
#define HANDLE(slot, name) static const struct jwant name[] = { { "handle", slot, NULL, 0 } }
HANDLE(W_STREAMH, wstream);
HANDLE(W_SRCH, wsrc);
HANDLE(W_DSTH, wdst);
HANDLE(W_AGENTH, wagent);
HANDLE(W_QUEUEH, wqueue);
static const struct jwant wcorr[] = {
	{ "internal", W_INT, NULL, 0 }, { "external", W_EXT, NULL, 0 }
};
static const struct jwant wgrid[] = {
	{ "x", W_GX, NULL, 0 }, { "y", W_GY, NULL, 0 }, { "z", W_GZ, NULL, 0 }
};
static const struct jwant wwg[] = {
	{ "x", W_BX, NULL, 0 }, { "y", W_BY, NULL, 0 }, { "z", W_BZ, NULL, 0 }
};
static const struct jwant winfo[] = {
	{ "agent_id", W_AGENT, wagent, LEN(wagent) },
	{ "queue_id", W_QUEUE, wqueue, LEN(wqueue) },
	{ "kernel_id", W_DKID, NULL, 0 }, { "dispatch_id", W_DISP, NULL, 0 },
	{ "grid_size", W_GRID, wgrid, LEN(wgrid) },
	{ "workgroup_size", W_WG, wwg, LEN(wwg) }
};
static const struct jwant wrec[] = {
	{ "thread_id", W_TID, NULL, 0 },
	{ "correlation_id", W_CORR, wcorr, LEN(wcorr) },
	{ "start_timestamp", W_START, NULL, 0 },
	{ "end_timestamp", W_END, NULL, 0 },
	{ "dispatch_info", W_INFO, winfo, LEN(winfo) },
	{ "stream_id", W_STREAM, wstream, LEN(wstream) },
	{ "operation", W_OP, NULL, 0 }, { "bytes", W_BYTES, NULL, 0 },
	{ "src_agent_id", W_SRC, wsrc, LEN(wsrc) },
	{ "dst_agent_id", W_DST, wdst, LEN(wdst) }
};

/*
 * Which field each slot fills: the process's metadata, every dispatch
 * and copy, copies, dispatches.
 */
struct fromslot {
	int f;		/* the RF_ field */
	int w;		/* the W_ slot */
};
static const struct fromslot xmeta[] = {
	{ RF_PID, W_PID }, { RF_START, W_INIT }, { RF_END, W_FINI },
	{ RF_NAME, W_HOST }
};
static const struct fromslot xrec[] = {
	{ RF_TID, W_TID }, { RF_CORR, W_INT }, { RF_EXT, W_EXT },
	{ RF_START, W_START }, { RF_END, W_END }, { RF_STREAM, W_STREAMH }
};
static const struct fromslot xcopy[] = {
	{ RF_BYTES, W_BYTES }, { RF_SRC, W_SRCH }, { RF_DST, W_DSTH },
	{ RF_AGENT, W_DSTH }
};
static const struct fromslot xkern[] = {
	{ RF_AGENT, W_AGENTH }, { RF_QUEUE, W_QUEUEH }, { RF_KID, W_DKID },
	{ RF_DISP, W_DISP }, { RF_GX, W_GX }, { RF_GY, W_GY }, { RF_GZ, W_GZ },
	{ RF_BX, W_BX }, { RF_BY, W_BY }, { RF_BZ, W_BZ }
};

/* The fields x[0..n) of r from the slots of v. */
static void
setall(struct rprec *r, const char *js, const jsmntok_t *v,
    const struct fromslot *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		setv(r, x[i].f, js, v[x[i].w]);
}

/* Take the record text js[0..len) apart and hand it to the callback. */
static void
onrecord(struct rpscan *s, const char *js, size_t len)
{
	jsmntok_t v[NW];
	struct rprec r;
	struct buf key = {0}, name = {0};
	const struct rpsym *sym;
	char uid[24], proc[24], tsb[32], durb[32], *p1;
	int64_t op;

	memset(&r, 0, sizeof(r));
	/* (num_lld, not snprintf: twice a record) */
	p1 = num_lld((long long)s->nrec, uid + sizeof(uid));
	setx(&r, RF_UID, p1, strlen(p1));
	p1 = num_lld((long long)s->proc, proc + sizeof(proc));
	setx(&r, RF_PROCESS, p1, strlen(p1));
	/* (int offsets, as jsmn's: a record is at most maxrec, 1 GiB, bytes) */
	switch (s->rectype) {
	case T_META:
		jwalk(js, (int)len, wmeta, LEN(wmeta), v);
		setx(&r, RF_PH, "M", 1);
		setx(&r, RF_CAT, "process", 7);
		setall(&r, js, v, xmeta, LEN(xmeta));
		times(&r, tsb, durb, sizeof(tsb));
		break;
	case T_SYM:
		jwalk(js, (int)len, wsym, LEN(wsym), v);
		setx(&r, RF_PH, "M", 1);
		setx(&r, RF_CAT, "kernel_symbol", 13);
		setv(&r, RF_KID, js, v[W_KID]);
		/* TraceLens: truncated or formatted or kernel_name */
		if (v[W_TRUNC].type != JSMN_UNDEFINED && truthy(js, &v[W_TRUNC]))
			pystr_tsv(&name, js, &v[W_TRUNC]);
		else if (v[W_FMT].type != JSMN_UNDEFINED && truthy(js, &v[W_FMT]))
			pystr_tsv(&name, js, &v[W_FMT]);
		else if (v[W_KNAME].type != JSMN_UNDEFINED)
			pystr_tsv(&name, js, &v[W_KNAME]);
		else {
			buf_adds(&name, "unknown_kernel_");
			if (v[W_KID].type != JSMN_UNDEFINED)
				pystr_tsv(&name, js, &v[W_KID]);
			else
				buf_adds(&name, "None");
		}
		setx(&r, RF_NAME, name.s ? name.s : "", name.len);
		if (v[W_KID].type != JSMN_UNDEFINED) {
			idkey(&key, js, &v[W_KID]);
			symput(s, key.s, key.len, name.s ? name.s : "", name.len);
		}
		break;
	case T_DISP:
	case T_COPY:
		jwalk(js, (int)len, wrec, LEN(wrec), v);
		setx(&r, RF_PH, "X", 1);
		setall(&r, js, v, xrec, LEN(xrec));
		times(&r, tsb, durb, sizeof(tsb));
		if (s->rectype == T_COPY) {
			setx(&r, RF_CAT, "gpu_memcpy", 10);
			if (v[W_OP].type == JSMN_PRIMITIVE &&
			    num_int64(js + v[W_OP].start,
			    (size_t)(v[W_OP].end - v[W_OP].start), &op) == 0 &&
			    op >= 0 && op < (int64_t)LEN(copyop))
				setx(&r, RF_NAME, copyop[op], strlen(copyop[op]));
			setall(&r, js, v, xcopy, LEN(xcopy));
			break;
		}
		setx(&r, RF_CAT, "kernel", 6);
		setall(&r, js, v, xkern, LEN(xkern));
		if (v[W_DKID].type != JSMN_UNDEFINED)
			idkey(&key, js, &v[W_DKID]);
		else
			buf_adds(&key, "z");
		if ((sym = symfind(s, key.s, key.len)) != NULL) {
			setx(&r, RF_NAME, sym->name, sym->namelen);
			setx(&r, RF_SYMBOL, "1", 1);
		} else if (s->symdone) {
			/*
			 * Not in the complete table: TraceLens's
			 * unknown_kernel_ID.  (Before the table, symbol
			 * and name stay empty: the consumer joins them.)
			 */
			buf_adds(&name, "unknown_kernel_");
			if (v[W_DKID].type != JSMN_UNDEFINED)
				pystr_tsv(&name, js, &v[W_DKID]);
			else
				buf_adds(&name, "None");
			setx(&r, RF_NAME, name.s, name.len);
			setx(&r, RF_SYMBOL, "0", 1);
		}
		break;
	}
	s->onrec(s->arg, &r);
	buf_free(&key);
	buf_free(&name);
	s->nrec++;
	s->seenrec = 1;
}

/* ---- the scanner ---- */

static void
capadd(struct rpscan *s, const unsigned char *p, size_t n)
{
	tl_grow((void **)&s->cap, &s->capcap, s->caplen + n, 1);
	memcpy(s->cap + s->caplen, p, n);
	s->caplen += n;
}

static void
keyadd(struct rpscan *s, const unsigned char *p, size_t n)
{
	if (s->keylen < sizeof(s->key))
		memcpy(s->key + s->keylen, p, MIN(n, sizeof(s->key) - s->keylen));
	s->keylen += n;
}

/*
 * The key just read, in an object of role in: the role of its value,
 * or -1 (and s->err) for a key given twice.
 */
static int
keyrole(struct rpscan *s, int in)
{
	char k[sizeof(s->key)];
	size_t n, i;

	if (s->keylen > sizeof(s->key))
		return R_OTHER;
	n = s->lx.esc ? jstr_decode(k, s->key, s->keylen) : s->keylen;
	if (!s->lx.esc)
		memcpy(k, s->key, n);
	for (i = 0; i < LEN(roles); i++) {
		if (roles[i].in != in || strlen(roles[i].key) != n ||
		    memcmp(roles[i].key, k, n) != 0)
			continue;
		if (roles[i].bit == 0 ? s->seentool : s->seen & roles[i].bit) {
			snprintf(s->errbuf, sizeof(s->errbuf),
			    "more than one %s", roles[i].key);
			s->err = s->errbuf;
			return -1;
		}
		if (roles[i].bit == 0)
			s->seentool = 1;
		s->seen |= roles[i].bit;
		return roles[i].role;
	}
	return R_OTHER;
}

/* The entry of roles[] for role r. */
static int
roleidx(int r)
{
	size_t i;

	for (i = 0; i < LEN(roles); i++)
		if (roles[i].role == r)
			return (int)i;
	return 0;
}

/* Offset of p in the stream. */
#define OFF(p) (s->off + (uint64_t)((p) - base))
#define NEED(st) do { if (p == end) { s->state = (st); goto more; } } while (0)
#define FAIL(msg) do { s->err = (msg); goto fail; } while (0)
#define SKIPWS() do { while (p < end && isws(*p)) p++; } while (0)

int
rp_feed(struct rpscan *s, const char *buf, size_t n)
{
	const unsigned char *p = (const unsigned char *)buf, *base = p;
	const unsigned char *cend = p + n;	/* end of the chunk */
	const unsigned char *end;	/* end of the chunk or of the record's room */
	const unsigned char *seg = p;	/* the current record's bytes start here */
	const unsigned char *kseg = p;	/* the current key starts here */
	int c, r, parent;

	if (s->err)
		return -1;
	end = cend;
	if (s->inrec && (size_t)(cend - p) > s->maxrec - s->caplen)
		end = p + (s->maxrec - s->caplen);

	switch (s->state) {
	case S_VALUE: goto value;
	case S_OBJFIRST: goto objfirst;
	case S_KEY: goto key;
	case S_COLON: goto colon;
	case S_ARRFIRST: goto arrfirst;
	case S_AFTER: goto after;
	case S_DONE: goto done;
	case S_STR: goto str;
	case S_SCALAR: goto scalar;
	default: return -1;
	}

value:
	SKIPWS();
	NEED(S_VALUE);
	c = *p;
	r = R_OTHER;
	if (s->depth == 0) {
		if (c != '{')
			FAIL("not a JSON object");
		r = R_TOP;
	} else if (!s->inrec) {
		parent = s->role[s->depth - 1];
		if (s->kind[s->depth - 1] == '{') {
			/* the value of a key: s->pending says what it is */
			if (s->pending != R_OTHER && c != roles[roleidx(s->pending)].want)
				FAIL(roles[roleidx(s->pending)].what);
			r = s->pending;
		} else if (parent == R_TOOL) {
			if (c != '{')
				FAIL("process result is not an object");
			r = R_PROC;
		} else if (parent == R_SYMS || parent == R_DISP ||
		    parent == R_COPY) {
			if (c != '{')
				FAIL(parent == R_SYMS ? "kernel symbol is not an object" :
				    "record is not an object");
			r = parent == R_SYMS ? T_SYM + 100 : parent == R_DISP ?
			    T_DISP + 100 : T_COPY + 100;
		}
		if (r == R_META)
			r = T_META + 100;
		if (r >= 100) {
			/* a record: gathered until its closing brace */
			s->inrec = 1;
			s->recdepth = s->depth;
			s->rectype = r - 100;
			s->caplen = 0;
			seg = p;
			if ((size_t)(cend - p) > s->maxrec)
				end = p + s->maxrec;
			r = R_OTHER;
		}
	}
	switch (c) {
	case '{':
	case '[':
		if (s->depth == RP_MAXDEPTH)
			FAIL("nesting deeper than 1024 levels");
		s->kind[s->depth] = (char)c;
		s->role[s->depth] = (char)r;
		s->depth++;
		if (r == R_SYMS || r == R_DISP || r == R_COPY)
			s->inarr = s->depth;
		p++;
		if (c == '{')
			goto objfirst;
		goto arrfirst;
	case '"':
		p++;
		s->iskey = 0;
		jlex_str(&s->lx);
		goto str;
	default:
		if (c == 'N' || c == 'I')
			FAIL(NOTJSON);
		if (c != '-' && c != 't' && c != 'f' && c != 'n' &&
		    !(jlex_cls[c] & JL_DIGIT))
			FAIL("expected a value");
		p++;
		jlex_scalar(&s->lx, c);
		goto scalar;
	}

objfirst:
	SKIPWS();
	NEED(S_OBJFIRST);
	if (*p == '}') {
		p++;
		goto close;
	}
	if (*p != '"')
		FAIL("expected a string key or '}'");
	goto keystart;

key:
	SKIPWS();
	NEED(S_KEY);
	if (*p != '"')
		FAIL("expected a string key");
keystart:
	p++;
	s->iskey = 1;
	r = s->role[s->depth - 1];
	s->keep = !s->inrec && (r == R_TOP || r == R_PROC || r == R_BUF);
	s->keylen = 0;
	jlex_str(&s->lx);
	s->keyoff = OFF(p - 1);
	kseg = p;
	goto str;

colon:
	SKIPWS();
	NEED(S_COLON);
	if (*p != ':')
		FAIL("expected ':'");
	p++;
	goto value;

arrfirst:
	SKIPWS();
	NEED(S_ARRFIRST);
	if (*p == ']') {
		p++;
		goto close;
	}
	goto value;

after:
	if (s->depth == 0)
		goto done;
	SKIPWS();
	NEED(S_AFTER);
	c = *p;
	if (c == ',') {
		p++;
		if (s->kind[s->depth - 1] == '{')
			goto key;
		goto value;
	}
	if (c == '}' && s->kind[s->depth - 1] == '{') {
		p++;
		goto close;
	}
	if (c == ']' && s->kind[s->depth - 1] == '[') {
		p++;
		goto close;
	}
	FAIL(s->kind[s->depth - 1] == '{' ? "expected ',' or '}'" :
	    "expected ',' or ']'");

close:	/* p is past the closing bracket */
	s->depth--;
	if (s->inrec) {
		if (s->depth == s->recdepth) {
			s->inrec = 0;
			end = cend;
			if (s->caplen == 0) {
				onrecord(s, (const char *)seg, (size_t)(p - seg));
			} else {
				capadd(s, seg, (size_t)(p - seg));
				onrecord(s, s->cap, s->caplen);
				s->caplen = 0;
			}
			s->lastend = OFF(p);
		}
		goto after;
	}
	switch (s->role[s->depth]) {
	case R_SYMS:
		s->symdone = 1;
		/* FALLTHROUGH */
	case R_DISP:
	case R_COPY:
		s->inarr = 0;
		s->lastend = OFF(p);
		break;
	case R_PROC:
		/* the next process starts afresh */
		s->proc++;
		symclear(s);
		s->seen = 0;
		s->symdone = 0;
		break;
	case R_TOP:
		if (!s->seentool) {
			p--;
			FAIL("no " RP_KEY " list");
		}
		break;
	}
	goto after;

done:
	SKIPWS();
	NEED(S_DONE);
	FAIL("text after the end of the JSON value");

str:
	switch (jlex_step(&s->lx, &p, end)) {
	case JL_MORE:
		s->state = S_STR;
		goto more;
	case JL_FAIL:
		FAIL(s->lx.err);
	}
	if (!s->iskey)
		goto after;
	s->pending = R_OTHER;
	if (s->keep) {
		keyadd(s, kseg, (size_t)(p - 1 - kseg));
		if ((s->pending = keyrole(s, s->role[s->depth - 1])) < 0) {
			/* (at the key given twice) */
			s->erroff = s->keyoff;
			s->errinrec = 0;
			s->state = S_ERR;
			return -1;
		}
	}
	goto colon;

scalar:
	switch (jlex_step(&s->lx, &p, end)) {
	case JL_MORE:
		s->state = S_SCALAR;
		goto more;
	case JL_FAIL:
		FAIL(s->lx.err);
	}
	goto after;

more:
	if (end != cend) {
		snprintf(s->errbuf, sizeof(s->errbuf),
		    "record longer than %zu bytes", s->maxrec);
		s->err = s->errbuf;
		goto fail;
	}
	if (s->inrec)
		capadd(s, seg, (size_t)(cend - seg));
	if (s->state == S_STR && s->iskey && s->keep)
		keyadd(s, kseg, (size_t)(cend - kseg));
	s->off += n;
	return 0;

fail:
	s->erroff = OFF(p);
	s->errinrec = s->inarr != 0;
	s->state = S_ERR;
	return -1;
}

int
rp_end(struct rpscan *s)
{
	if (s->err)
		return -1;
	if (s->state == S_DONE)
		return 0;
	s->erroff = s->off;
	s->errinrec = s->inarr != 0;
	if (s->state == S_VALUE && s->depth == 0) {
		s->err = "no JSON text (empty input)";
	} else {
		s->err = "unexpected end of input (truncated?)";
		s->truncated = 1;
	}
	s->state = S_ERR;
	return -1;
}

/* ---- output ---- */

/* Is the JSON value text s[0..n) a number with an exponent? */
static int
hasexp(const char *s, size_t n)
{
	if (n == 0 || (*s != '-' && (*s < '0' || *s > '9')))
		return 0;
	return memchr(s, 'e', n) != NULL || memchr(s, 'E', n) != NULL;
}

int
rp_format(struct buf *b, const struct rprec *r, const int *map, size_t n)
{
	const struct rpval *v;
	char num[RP_NUMMAX];
	size_t i, len;

	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_addc(b, '\t');
		if (map[i] < 0 || (v = &r->v[map[i]])->how == 0)
			continue;
		/* room for the value: escapes at most double it */
		tl_grow((void **)&b->s, &b->cap, b->len + 2 * (size_t)v->n + 2, 1);
		switch (v->how) {
		case 's':
			b->len += jstr_tsv(b->s + b->len, v->s, v->n);
			break;
		case 'j':
			/*
			 * A number with an exponent as the plain decimal of
			 * its value, as tl-parse writes a trace's: sort -n
			 * and the later stages read no exponent.
			 */
			if (hasexp(v->s, v->n)) {
				if ((len = num_plain(num, sizeof(num), v->s,
				    v->n)) == 0)
					return (int)i + 1;
				buf_add(b, num, len);
				break;
			}
			b->len += jval_tsv(b->s + b->len, v->s, v->n);
			break;
		default:
			memcpy(b->s + b->len, v->s, v->n);
			b->len += v->n;
			break;
		}
		b->s[b->len] = '\0';
	}
	buf_addc(b, '\n');
	return 0;
}
