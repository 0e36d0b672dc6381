/* See LICENSE file for copyright and license details. */
/*
 * tl-tree: TraceLens's call tree (TraceToTree and the kernel-launcher
 * rule) from tl-parse records, without holding the trace.
 *
 * The work is split into modes that sort(1) connects (tl_tree_stage in
 * tl-lib.sh runs them all at once through pipes and fifos; tl-tree(1)
 * gives every record format):
 *   split      events, in trace order -> host, link, sequence, stream
 *              records, each led by a key that sorts as bytes
 *   host       host records by (thread, ts, UID) -> one stack per
 *              thread: tree records and, per runtime event, its
 *              launcher, nearest cpu_op and ancestors
 *   link       runtime, flow and GPU records by linking id -> which
 *              launch each GPU event hangs under, and its intervals
 *   intervals  interval records by (op, kind, ts, gpu) -> intervals.tsv
 *              and the GPU-event count of every op
 *   fwd        sequence records by (sequence number, UID) -> the forward
 *              op of every autograd::engine::evaluate_function: node
 *   overlap    GPU events by (pid, stream, ts) -> same-stream overlaps
 *   merge      events again, in trace order, with the sorted results ->
 *              ops.tsv and gpu.tsv
 * Every mode keeps at most one group (one thread's stack, one linking
 * id, one sequence number, one stream) in memory.  Bulky fields (names
 * of GPU events, inputs) do not travel through the sorts: records carry
 * the byte offset of the event's line instead, read back with pread.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"
#include "opcat.h"

static int exact;		/* -x: exact ns instead of TraceLens's doubles */
static int python;		/* -p: python_function events join the tree */
static const char *dir;		/* -d: split's output dir, merge's report dir */
static const char *tpath;	/* -t: tree records */
static const char *gpath;	/* -g: GPU link records */
static const char *npath;	/* -n: GPU-event counts per op */
static const char *wpath;	/* -w: merge: forward links; forest: fwd TAB KEY out */
static const char *opath;	/* -o: intervals.tsv */
static const char *epath;	/* -e: the events, for lines by offset */
static const char *gvpath;	/* -G: the GPU events' lines (split: out) */
static const char *fpath;	/* -f: facts */
static const char *apath;	/* -a: forest: UIDs that are fwd targets (merge: fwd TAB UID out) */
static const char *cpath;	/* -c: forest: UIDs with communication below (intervals: out) */
static const char *kpath;	/* -k: forest: UIDs with a perf model */
static const char *spath;	/* -s: collect: keys whose fwd op is eligible (split: out) */
static const char *ypath;	/* -y: unified: the synthetic ops' rows */
static int bflag;		/* -b: subtree, direct: busy time and list per op */

/* Key widths: a UID is 8 hex digits, a time 16. */
enum { UIDW = 8, TIMEW = 16 };

/* A time as the chosen arithmetic sees it. */
struct ttv {
	double us;	/* TraceLens: microseconds as a Python float */
	int64_t ns;	/* -x: exact nanoseconds */
};

/* A growable array of NUL-terminated copies of fields. */
struct arena {
	struct buf b;	/* the bytes, each field NUL-terminated */
	size_t *off;	/* start of every field in b */
	size_t n;	/* fields used */
	size_t cap;	/* fields allocated */
};

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-tree -m split [-px] -d dir [-e copy] [-G gpuevents]"
	    " [-s selected] [events]\n"
	    "       tl-tree -m host [-x] -t tree [-f facts] [hostrecs]\n"
	    "       tl-tree -m link [-x] -g gpurecs [-f facts] [linkrecs ...]\n"
	    "       tl-tree -m intervals -e events [-G gpuevents] -o intervals.tsv"
	    " [-c comm] [xrecs]\n"
	    "       tl-tree -m fwd [-x] [seqrecs]\n"
	    "       tl-tree -m overlap [streamrecs]\n"
	    "       tl-tree -m merge -d outdir -t tree -n ngpu -w fwd -g gpurecs"
	    " [-a fwdlinks] [-f facts] [-G gpuevents] events\n"
	    "       tl-tree -m forest [-a fwdtargets] [-c comm] [-k modelled]"
	    " [-w fwdkeys] [ops]\n"
	    "       tl-tree -m pairs [forest]\n"
	    "       tl-tree -m collect [-s eligible] [forest]\n"
	    "       tl-tree -m kernels [-x] [intervals.tsv]\n"
	    "       tl-tree -m subtree|direct [-bx] [-G gpuevents] -k keys"
	    " [intervals.tsv]\n"
	    "       tl-tree -m launchers -d treedir [-o k1s] [kernels]\n"
	    "       tl-tree -m rows -f metrics -k kinfo [-s bwdmetrics]"
	    " [-y synthetic -o synrows] [collected]\n"
	    "       tl-tree -m unified -d treedir -k firstkernels [-g groups]"
	    " [-o durflag] [-y rows] [rows]\n");
	exit(status);
}

/* ---- small helpers ---- */

static int
eq(const char *s, size_t len, const char *lit)
{
	return strlen(lit) == len && memcmp(s, lit, len) == 0;
}

static int
prefix(const char *s, size_t len, const char *lit)
{
	size_t n = strlen(lit);

	return len >= n && memcmp(s, lit, n) == 0;
}

static int
lower(char c)
{
	return c >= 'A' && c <= 'Z' ? c + 'a' - 'A' : c;
}

/* ASCII case-insensitive substring test, as re.IGNORECASE finds it. */
static int
hascase(const char *s, size_t len, const char *lit)
{
	size_t n = strlen(lit), i, j;

	for (i = 0; i + n <= len; i++) {
		for (j = 0; j < n; j++) {
			if (lower(s[i + j]) != lit[j])
				break;
		}
		if (j == n)
			return 1;
	}
	return 0;
}

/* Substring test, bytes as they are. */
static int
hassub(const char *s, size_t len, const char *lit)
{
	size_t n = strlen(lit), i;

	for (i = 0; i + n <= len; i++)
		if (s[i] == lit[0] && memcmp(s + i, lit, n) == 0)
			return 1;
	return 0;
}

/*
 * TraceLens's communication kernels (is_communication_string): nccl,
 * rccl or cross_device_reduce in any case.  One pass: each holds a 'c'.
 */
static int
iscomm(const char *s, size_t len)
{
	static const char xdr[] = "cross_device_reduce";
	const char *lc = memchr(s, 'c', len), *uc = memchr(s, 'C', len), *p;
	size_t i, j;

	/* (only at a c: memchr finds them far faster than a loop could) */
	while (lc != NULL || uc != NULL) {
		p = uc == NULL || (lc != NULL && lc < uc) ? lc : uc;
		i = (size_t)(p - s);
		if (p == lc)
			lc = memchr(p + 1, 'c', len - i - 1);
		else
			uc = memchr(p + 1, 'C', len - i - 1);
		if (i > 0 && i + 2 < len && lower(s[i + 1]) == 'c' &&
		    lower(s[i + 2]) == 'l' &&
		    (lower(s[i - 1]) == 'n' || lower(s[i - 1]) == 'r'))
			return 1;
		for (j = 0; j < sizeof(xdr) - 1 && i + j < len &&
		    lower(s[i + j]) == xdr[j]; j++)
			;
		if (j == sizeof(xdr) - 1)
			return 1;
	}
	return 0;
}

/* The categories of GPU events. */
static int
gpucat(const char *cat, size_t len)
{
	return eq(cat, len, "kernel") || eq(cat, len, "gpu_memcpy") ||
	    eq(cat, len, "gpu_memset");
}

/* A field that Python would read as a missing args key or None. */
static int
missing(const char *s, size_t len)
{
	return len == 0 || eq(s, len, "null");
}

static void
put(struct buf *b, const struct rec_reader *r, int col)
{
	size_t len;
	const char *s = rec_get(r, col, &len);

	buf_add(b, s, len);
}

static void
tab(struct buf *b)
{
	buf_addc(b, '\t');
}

/*
 * atoid(s), without its cost on the common case, a plain
 * UID: the passes parse millions of them.
 */
static long long
atoid(const char *s)
{
	long long v = 0;
	int i;

	for (i = 0; i < 18 && s[i] >= '0' && s[i] <= '9'; i++)
		v = v * 10 + (s[i] - '0');
	if (i == 0 || (s[i] >= '0' && s[i] <= '9'))
		return strtoll(s, NULL, 10);
	return v;
}

static void
putnum(struct buf *b, long long v)
{
	char t[24], *p = t + sizeof(t);
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v :
	    (unsigned long long)v;

	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--p = '-';
	buf_add(b, p, (size_t)(t + sizeof(t) - p));
}

static void
puthex(struct buf *b, unsigned long long v, int width)
{
	static const char hex[] = "0123456789abcdef";
	char t[16];
	int i;

	for (i = width - 1; i >= 0; i--, v >>= 4)
		t[i] = hex[v & 15];
	buf_add(b, t, (size_t)width);
}

/*
 * A key of the decimal s that sort(1) compares as bytes in the order
 * sort -n gives the numbers: sign class, 24 integer digits, 9 of the
 * fraction (digits of a negative number complemented).  As sort -n,
 * it reads a number's leading [-]digits[.digits] and no exponent.
 */
static void
putdec(struct buf *b, const char *s)
{
	char k[1 + 24 + 9], *p = k + 1;
	const char *d, *f;
	size_t ni, nf, i;
	int neg = *s == '-', zero = 1;

	if (neg)
		s++;
	for (d = s; *d >= '0' && *d <= '9'; d++)
		;
	ni = (size_t)(d - s);
	nf = 0;
	f = *d == '.' ? d + 1 : d;
	while (f[nf] >= '0' && f[nf] <= '9')
		nf++;
	while (ni > 0 && *s == '0')
		s++, ni--;
	if (ni > 24)
		tl_die("%.40s: a number too long for a sort key", s);
	memset(p, '0', 24 + 9);
	memcpy(p + 24 - ni, s, ni);
	memcpy(p + 24, f, MIN(nf, 9));
	for (i = 0; i < 24 + 9; i++)
		zero &= p[i] == '0';
	if (neg && !zero) {
		k[0] = '0';
		for (i = 0; i < 24 + 9; i++)
			p[i] = (char)('9' - (p[i] - '0'));
	} else
		k[0] = '1';
	buf_add(b, k, sizeof(k));
}

/* An integer as a sort key: 12 digits, zero-padded (not negative). */
static void
putukey(struct buf *b, long long v)
{
	char t[24];

	snprintf(t, sizeof(t), "%012lld", v < 0 ? 0 : v);
	buf_adds(b, t);
}

static void
emit(FILE *fp, struct buf *b)
{
	buf_addc(b, '\n');
	fwrite(b->s, 1, b->len, fp);
	buf_reset(b);
}

/*
 * Streams move in large blocks: the passes talk through pipes and
 * fifos, where stdio's 4 KiB would cost a system call, and a wakeup of
 * the other end, every 4 KiB.  (Not a file written: see tl_isfile.)
 * glibc takes the size only with the buffer, which must outlive the
 * stream: the modes give static ones (NULL: stdio's own; stdin and
 * stdout have theirs, see tl_setprogname).
 */
static FILE *
bigbuf(FILE *fp, char *buf, int writing)
{
	/* (a file written keeps stdio's buffer: see tl_isfile) */
	if (buf != NULL && fp != stdin && fp != stdout &&
	    !(writing && tl_isfile(fileno(fp)))) {
		setvbuf(fp, buf, _IOFBF, TL_IOBUF);
		tl_pipesize(fileno(fp));
	}
	return fp;
}

/*
 * fopen, but a name /dev/fd/N is descriptor N itself: reopening a fifo
 * the shell opened for us would wait for a writer that may be gone.
 * buf: as for bigbuf.
 */
static FILE *
xopen(const char *path, const char *mode, char *buf)
{
	const char *p = path + 8;
	char *end;
	long fd;
	FILE *fp;

	if (strncmp(path, "/dev/fd/", 8) != 0 || *p < '0' || *p > '9')
		return bigbuf(tl_fopen(path, mode), buf, *mode != 'r');
	fd = strtol(p, &end, 10);
	if (*end != '\0' || fd > 1024 || (fp = fdopen((int)fd, mode)) == NULL)
		tl_die("%s:", path);
	return bigbuf(fp, buf, *mode != 'r');
}

static FILE *
create(const char *d, const char *name, char *buf)
{
	struct buf p = {0};
	FILE *fp;

	buf_adds(&p, d);
	buf_addc(&p, '/');
	buf_adds(&p, name);
	fp = bigbuf(tl_fopen(p.s, "w"), buf, 1);
	buf_free(&p);
	return fp;
}

static void
arena_reset(struct arena *a)
{
	buf_reset(&a->b);
	a->n = 0;
}

/* Copy s[0..len) into a; returns its index. */
static size_t
arena_add(struct arena *a, const char *s, size_t len)
{
	tl_grow((void **)&a->off, &a->cap, a->n + 1, sizeof(*a->off));
	a->off[a->n] = a->b.len;
	buf_add(&a->b, s, len);
	buf_addc(&a->b, '\0');
	return a->n++;
}

static const char *
arena_get(const struct arena *a, size_t i)
{
	return a->b.s + a->off[i];
}

/* ---- keys: fixed-width or self-delimiting, so sort compares bytes ---- */

/*
 * The grouping key of a value (a pid, tid, linking id or sequence
 * number): values Python finds equal (5, 5.0) get the same key, and no
 * key is a prefix of another, so a group is one run of sorted lines.
 */
static void
key_text(struct buf *b, const char *s, size_t len)
{
	size_t i = 0;
	double d;

	if (len > 0 && s[0] == '-')
		i = 1;
	if (len > i && len < 19) {
		size_t j;

		for (j = i; j < len && s[j] >= '0' && s[j] <= '9'; j++)
			;
		if (j == len) {
			if (len == 2 && s[0] == '-' && s[1] == '0')
				s++, len--;	/* -0 is 0 */
			buf_add(b, s, len);
			buf_addc(b, '.');
			return;
		}
	}
	if (num_double(s, len, &d) == 0 && d == floor(d) &&
	    fabs(d) < 9007199254740992.0) {
		putnum(b, (long long)d);
		buf_addc(b, '.');
		return;
	}
	buf_addc(b, 's');
	for (i = 0; i < len; i++)
		puthex(b, (unsigned char)s[i], 2);
	buf_addc(b, '.');
}

static void
key_uid(struct buf *b, long long uid)
{
	if (uid > 0xffffffffLL)
		tl_die("UID %lld does not fit the 8-digit sort key", uid);
	puthex(b, (unsigned long long)uid, UIDW);
}

/*
 * Times sort as their values: the sign bit flipped, or all bits for
 * negative values.
 */
static void
key_time(struct buf *b, const struct ttv *t)
{
	uint64_t u;

	if (exact) {
		u = (uint64_t)t->ns ^ 0x8000000000000000ULL;
	} else {
		double d = t->us == 0 ? 0.0 : t->us;

		memcpy(&u, &d, sizeof(u));
		u = u >> 63 ? ~u : u | 0x8000000000000000ULL;
	}
	puthex(b, u, TIMEW);
}

/* The time in a host key: the 16 digits before the UID. */
static void
key_ts(const struct rec_reader *r, struct ttv *t)
{
	const char *p = r->f[0].s + r->f[0].len - UIDW - TIMEW;
	uint64_t u = 0;
	double d;
	int i;

	for (i = 0; i < TIMEW; i++, p++)
		u = u << 4 | (uint64_t)(*p <= '9' ? *p - '0' : *p - 'a' + 10);
	if (exact) {
		t->ns = (int64_t)(u ^ 0x8000000000000000ULL);
	} else {
		u = u >> 63 ? u ^ 0x8000000000000000ULL : ~u;
		memcpy(&d, &u, sizeof(d));
		t->us = d;
	}
}

/* The UID at the end of a key. */
static long long
key_uidval(const struct rec_reader *r)
{
	const char *p = r->f[0].s + r->f[0].len - UIDW;
	long long u = 0;
	int i;

	for (i = 0; i < UIDW; i++, p++)
		u = u << 4 | (*p <= '9' ? *p - '0' : *p - 'a' + 10);
	return u;
}

/* ---- times ---- */

static int
tparse(const char *s, size_t len, struct ttv *t)
{
	t->us = 0;
	t->ns = 0;
	if (exact)
		return num_us_to_ns(s, len, &t->ns);
	return num_double(s, len, &t->us);
}

static int
tfield(const struct rec_reader *r, int col, struct ttv *t)
{
	size_t len;
	const char *s = rec_get(r, col, &len);

	return tparse(s, len, t);
}

static struct ttv
tadd(struct ttv a, struct ttv b)
{
	a.us += b.us;
	a.ns += b.ns;
	return a;
}

static int
tcmp(const struct ttv *a, const struct ttv *b)
{
	if (exact)
		return (a->ns > b->ns) - (a->ns < b->ns);
	return (a->us > b->us) - (a->us < b->us);
}

/* TraceLens's bleed tolerance: (end - ts) < 1 us. */
static int
tnear(const struct ttv *end, const struct ttv *ts)
{
	if (exact)
		return end->ns - ts->ns < 1000;
	return end->us - ts->us < 1.0;
}

/* ---- reading internal records ---- */

/* Read the next record of an internal stream; checks its key order. */
static int
next(struct rec_reader *r, struct buf *prev, int unique)
{
	int c;

	if (!rec_read(r))
		return 0;
	if (prev->len > 0 || r->lineno > 1) {
		c = strcmp(r->f[0].s, prev->s ? prev->s : "");
		if (c < 0 || (c == 0 && unique))
			tl_die("%s: line %zu: out of order (not sorted by its "
			    "first field)", r->name, r->lineno);
	}
	buf_reset(prev);
	buf_add(prev, r->f[0].s, r->f[0].len);
	return 1;
}

static void
need(const struct rec_reader *r, size_t nf)
{
	if (r->nf != nf)
		tl_die("%s: line %zu: %zu fields, want %zu", r->name,
		    r->lineno, r->nf, nf);
}

/* The length of the group part of a key whose last n bytes are not. */
static size_t
grouplen(const struct rec_reader *r, size_t n)
{
	if (r->f[0].len < n)
		tl_die("%s: line %zu: key too short", r->name, r->lineno);
	return r->f[0].len - n;
}

static int
samegroup(const struct buf *g, const struct rec_reader *r, size_t n)
{
	size_t len = grouplen(r, n);

	return g->s != NULL && g->len == len && memcmp(g->s, r->f[0].s, len) == 0;
}

static void
setgroup(struct buf *g, const struct rec_reader *r, size_t n)
{
	buf_reset(g);
	buf_add(g, r->f[0].s, grouplen(r, n));
}

static void
fact(FILE *fp, const char *name, long long n)
{
	fprintf(fp, "%s\t%lld\n", name, n);
}

/* ---- lines of the events file by offset ---- */

/* Random access to the events file, through one window. */
struct fetch {
	FILE *fp;		/* the events file, owned */
	struct rec_reader hdr;	/* its header, for column names */
	int uidcol;		/* column of UID */
	char *win;		/* a window of the file, owned */
	size_t cap;		/* bytes allocated for win */
	long long start;	/* file offset of win[0] */
	size_t len;		/* bytes valid in win */
	struct rec_field *f;	/* fields of the last line fetched, in win */
	size_t nf;		/* their number */
	size_t fcap;		/* fields allocated */
};

static void
fetch_open(struct fetch *ft, const char *path)
{
	memset(ft, 0, sizeof(*ft));
	if (strcmp(path, "-") == 0)
		tl_die("the events must be a file, not standard input");
	ft->fp = tl_fopen(path, "r");
	rec_open(&ft->hdr, ft->fp, path);
	rec_read_header(&ft->hdr);
	ft->uidcol = rec_need(&ft->hdr, "UID");
	ft->cap = 1 << 12;	/* small: most reads are far from the last */
	ft->win = tl_malloc(ft->cap);
	ft->start = -1;
}

static void
fetch_close(struct fetch *ft)
{
	rec_close(&ft->hdr);
	fclose(ft->fp);
	free(ft->win);
	free(ft->f);
}

/*
 * Split the line at offset ref into ft->f; it must be event uid.  The
 * window moves to ref when the line is not in it, so a run of nearby
 * offsets costs one read.
 */
static void
fetch(struct fetch *ft, long long ref, long long uid)
{
	const char *name = ft->hdr.name;
	char *p, *nl, *end, *t;
	ssize_t n;
	int64_t u;

	for (;;) {
		if (ft->start >= 0 && ref >= ft->start &&
		    ref < ft->start + (long long)ft->len) {
			p = ft->win + (ref - ft->start);
			nl = memchr(p, '\n', ft->len - (size_t)(ref - ft->start));
			if (nl != NULL)
				break;
			if (ref == ft->start && ft->len < ft->cap)
				tl_die("%s: offset %lld: no newline", name, ref);
			if (ref == ft->start) {
				ft->cap *= 2;
				ft->win = tl_realloc(ft->win, ft->cap);
			}
		}
		n = pread(fileno(ft->fp), ft->win, ft->cap, (off_t)ref);
		if (n < 0)
			tl_die("%s:", name);
		if (n == 0)
			tl_die("%s: offset %lld: past the end", name, ref);
		ft->start = ref;
		ft->len = (size_t)n;
	}
	ft->nf = 0;
	for (end = nl;; p = t + 1) {
		tl_grow((void **)&ft->f, &ft->fcap, ft->nf + 1, sizeof(*ft->f));
		if ((t = memchr(p, '\t', (size_t)(end - p))) == NULL)
			t = end;
		ft->f[ft->nf].s = p;
		ft->f[ft->nf++].len = (size_t)(t - p);
		if (t == end)
			break;
	}
	if ((size_t)ft->uidcol >= ft->nf ||
	    num_int64(ft->f[ft->uidcol].s, ft->f[ft->uidcol].len, &u) < 0 ||
	    u != uid)
		tl_die("%s: offset %lld is not event %lld: the events changed?",
		    name, ref, uid);
}

/* Field col of the line fetched last ("" past its end). */
static const char *
fetched(const struct fetch *ft, int col, size_t *len)
{
	if (col < 0 || (size_t)col >= ft->nf) {
		*len = 0;
		return "";
	}
	*len = ft->f[col].len;
	return ft->f[col].s;
}

/*
 * Lines of the events, split only as far as asked: split and merge read
 * every event but few of its fields.
 */
struct lazy {
	FILE *fp;		/* the input, not owned */
	const char *name;	/* its name, for diagnostics */
	char *line;		/* the current line, owned */
	size_t cap;		/* bytes allocated for line */
	char *end;		/* its end (where the newline was) */
	char *rest;		/* first byte not yet split; NULL when all is */
	struct rec_field *f;	/* the fields split so far */
	size_t nf;		/* their number */
	size_t fcap;		/* fields allocated */
	size_t lineno;		/* number of the current line */
};

static int
lazy_read(struct lazy *z)
{
	ssize_t n = getline(&z->line, &z->cap, z->fp);

	if (n < 0) {
		if (ferror(z->fp))
			tl_die("%s: read error:", z->name);
		return 0;
	}
	z->lineno++;
	if (z->line[n - 1] != '\n')
		tl_die("%s: line %zu: no newline at end of input (truncated?)",
		    z->name, z->lineno);
	if (n > 1 && z->line[n - 2] == '\r')
		tl_die("%s: line %zu: CR before LF: not a tl record stream",
		    z->name, z->lineno);
	z->end = z->line + n - 1;
	*z->end = '\0';
	z->rest = z->line;
	z->nf = 0;
	return 1;
}

static const char *
lazy_get(struct lazy *z, int col, size_t *len)
{
	char *t;

	while (z->nf <= (size_t)col && z->rest != NULL) {
		if (z->nf == z->fcap)
			tl_grow((void **)&z->f, &z->fcap, z->nf + 1,
			    sizeof(*z->f));
		t = memchr(z->rest, '\t', (size_t)(z->end - z->rest));
		z->f[z->nf].s = z->rest;
		z->f[z->nf++].len = (size_t)((t ? t : z->end) - z->rest);
		z->rest = t ? t + 1 : NULL;
	}
	if ((size_t)col >= z->nf) {
		*len = 0;
		return "";
	}
	*len = z->f[col].len;
	return z->f[col].s;
}

static void
lazy_put(struct buf *b, struct lazy *z, int col)
{
	size_t len;
	const char *s = lazy_get(z, col, &len);

	buf_add(b, s, len);
}

/* The number of fields of the current line, split or not. */
static size_t
lazy_width(const struct lazy *z)
{
	const char *p = z->rest;
	size_t n = z->nf;

	if (p == NULL)
		return n;
	for (n++; (p = memchr(p, '\t', (size_t)(z->end - p))) != NULL; p++)
		n++;
	return n;
}

static long long
lazy_uid(struct lazy *z, int col)
{
	size_t len;
	const char *s = lazy_get(z, col, &len);
	long long v = 0;
	size_t i;

	for (i = 0; i < len && i < 18 && s[i] >= '0' && s[i] <= '9'; i++)
		v = v * 10 + (s[i] - '0');
	if (len == 0 || i != len)
		tl_die("%s: line %zu: bad UID '%.*s'", z->name, z->lineno,
		    (int)MIN(len, 40), s);
	return v;
}

static void
lazy_key(struct buf *b, struct lazy *z, int col)
{
	size_t len;
	const char *s = lazy_get(z, col, &len);

	key_text(b, s, len);
}

static int
ztime(struct lazy *z, int col, struct ttv *t)
{
	size_t len;
	const char *s = lazy_get(z, col, &len);

	return tparse(s, len, t);
}

/* A time field as exact ns, or as its double rounded to ns. */
static int
zns(struct lazy *z, int col, int64_t *ns)
{
	size_t len;
	const char *s = lazy_get(z, col, &len);
	double d;

	if (num_us_to_ns(s, len, ns) == 0)
		return 0;
	if (num_double(s, len, &d) < 0 || !(fabs(d) < 9e15))
		return -1;
	*ns = (int64_t)llround(d * 1000);
	return 0;
}

/* ==== split ==== */

/* Link record roles, in the order they sort within a linking id. */
enum {
	R_START = 'a',	/* ac2g flow start: UID pid tid legacy */
	R_END = 'b',	/* ac2g flow end: UID pid tid legacy */
	R_GPU = 'c',	/* GPU event: UID pid tid ts comm ref */
	R_OTHER = 'd',	/* another non-host event: fields as R_GPU */
	R_RUN = 'e',	/* runtime event (from host): see host_runtime */
	R_HOST = 'f'	/* cpu_op or python_function: UID pid tid */
};

/* Columns of the event stream that split and merge read. */
struct evcols {
	int uid, ph, cat, name, pid, tid, ts, dur, id, corr, ext, stream,
	    seq, dims, types, strides, concrete, value;
};

static void
evcols(struct rec_reader *r, struct evcols *c)
{
	c->uid = rec_need(r, "UID");
	c->ph = rec_need(r, "ph");
	c->cat = rec_need(r, "cat");
	c->name = rec_need(r, "name");
	c->pid = rec_need(r, "pid");
	c->tid = rec_need(r, "tid");
	c->ts = rec_need(r, "ts");
	c->dur = rec_need(r, "dur");
	c->id = rec_need(r, "id");
	c->corr = rec_need(r, "correlation");
	c->ext = rec_need(r, "External id");
	c->stream = rec_need(r, "stream");
	c->seq = rec_need(r, "Sequence number");
	c->dims = rec_need(r, "Input Dims");
	c->types = rec_need(r, "Input type");
	c->strides = rec_need(r, "Input Strides");
	c->concrete = rec_need(r, "Concrete Inputs");
	c->value = rec_need(r, "value");
}

/* One (pid, tid): its number, and its last ts in trace order. */
struct thr {
	char *key;	/* grouping keys of pid and tid, owned */
	long idx;	/* number of the thread, in order of appearance */
	int64_t last;	/* ts of the thread's latest complete event, ns */
	int seen;	/* last is set */
};

/* Open-addressing table of threads; grows with the number of threads. */
struct thrtab {
	struct thr *t;	/* slots; key NULL when free */
	size_t cap;	/* slots allocated, a power of two */
	size_t n;	/* slots used */
};

static struct thr *
thr_get(struct thrtab *tt, const char *key, size_t len)
{
	size_t h = 5381, i;

	if (tt->n * 2 >= tt->cap) {
		struct thrtab nt = {0};

		nt.cap = tt->cap ? tt->cap * 2 : 64;
		nt.t = tl_calloc(nt.cap, sizeof(*nt.t));
		for (i = 0; i < tt->cap; i++)
			if (tt->t[i].key) {
				struct thr *s = thr_get(&nt, tt->t[i].key,
				    strlen(tt->t[i].key));

				free(s->key);
				*s = tt->t[i];
			}
		free(tt->t);
		*tt = nt;
	}
	for (i = 0; i < len; i++)
		h = h * 33 + (unsigned char)key[i];
	for (i = h & (tt->cap - 1);; i = (i + 1) & (tt->cap - 1)) {
		struct thr *s = &tt->t[i];

		if (s->key == NULL) {
			s->key = tl_strndup(key, len);
			s->idx = (long)tt->n++;
			return s;
		}
		if (strlen(s->key) == len && memcmp(s->key, key, len) == 0)
			return s;
	}
}

/* Split's outputs and counters. */
struct split {
	FILE *h;		/* host records */
	FILE *l;		/* link records */
	FILE *q;		/* sequence records */
	FILE *o;		/* GPU stream records */
	FILE *m;		/* meta.tsv */
	FILE *sel;		/* -s: the events coll_analysis and annotations read */
	FILE *pend;		/* link records before the key is known */
	int key;		/* -1 undecided, 0 correlation, 1 External id */
	long long outoforder;	/* events_out_of_time_order */
	long long zerodur;	/* gpu_events_zero_duration */
	long long ac2g;		/* ac2g flow events */
	long long legacy;	/* async_cpu_to_gpu / async flow events */
	long long noid;		/* flow events without an id */
	long long lone;		/* lone surrogates read as U+FFFD (tl-parse) */
	struct thrtab thr;	/* last ts per thread */
	struct buf line;	/* record being built */
};

/* A link record of an event that carries linking id id (see split_link). */
static void
link_rec(struct split *sp, char role, const char *id, size_t idlen,
    const char *const *f, const size_t *fl, int nf)
{
	struct buf *b = &sp->line;
	long long uid = atoid(f[0]);
	int i;

	key_text(b, id, idlen);
	buf_addc(b, role);
	key_uid(b, uid);
	for (i = 0; i < nf; i++) {
		tab(b);
		buf_add(b, f[i], fl[i]);
	}
	emit(sp->l, b);
}

static void
decide(struct split *sp, int key)
{
	struct rec_reader r;
	const char *f[8];
	size_t fl[8];
	int i;

	sp->key = key;
	if (sp->pend == NULL)
		return;
	if (fflush(sp->pend) == EOF || fseek(sp->pend, 0, SEEK_SET) < 0)
		tl_die("temporary file:");
	rec_open(&r, sp->pend, "temporary file");
	/* pending: role corr ext UID pid tid [ts dur cat stream name] */
	while (rec_read(&r)) {
		size_t idlen;
		const char *id = rec_get(&r, 1 + key, &idlen);

		if (missing(id, idlen))
			continue;
		for (i = 0; i + 3 < (int)r.nf; i++) {
			f[i] = r.f[i + 3].s;
			fl[i] = r.f[i + 3].len;
		}
		link_rec(sp, r.f[0].s[0], id, idlen, f, fl, i);
	}
	rec_close(&r);
	fclose(sp->pend);
	sp->pend = NULL;
}

/*
 * An event, other than a runtime event or a flow, that carries a
 * linking id: TraceLens may hang it under a launch when a flow ends at
 * its (pid, tid).  Before the key is known it waits in the pending file
 * with both ids.  Fields: UID pid tid, and for R_GPU and R_OTHER also
 * ts, the communication flag and the line's offset.  1 when the event
 * has an id (a later pass may read its line).
 */
static int
split_link(struct split *sp, struct lazy *r,
    const struct evcols *c, char role, long long ref)
{
	struct buf *b = &sp->line;
	size_t cl, el, fl[6];
	const char *cs = lazy_get(r, c->corr, &cl);
	const char *es = lazy_get(r, c->ext, &el);
	const char *f[6];
	char refs[24];
	int i, nf;

	if (missing(cs, cl) && missing(es, el))
		return 0;
	f[0] = lazy_get(r, c->uid, &fl[0]);
	f[1] = lazy_get(r, c->pid, &fl[1]);
	f[2] = lazy_get(r, c->tid, &fl[2]);
	nf = 3;
	if (role != R_HOST) {
		f[3] = lazy_get(r, c->ts, &fl[3]);
		f[4] = lazy_get(r, c->name, &fl[4]);
		f[4] = iscomm(f[4], fl[4]) ? "1" : "0";
		fl[4] = 1;
		fl[5] = (size_t)snprintf(refs, sizeof(refs), "%lld", ref);
		f[5] = refs;
		nf = 6;
	}
	if (sp->key < 0) {
		if (sp->pend == NULL && (sp->pend = tmpfile()) == NULL)
			tl_die("temporary file:");
		buf_addc(b, role);
		tab(b), buf_add(b, cs, cl);
		tab(b), buf_add(b, es, el);
		for (i = 0; i < nf; i++)
			tab(b), buf_add(b, f[i], fl[i]);
		emit(sp->pend, b);
	} else if (sp->key == 0 && !missing(cs, cl)) {
		link_rec(sp, role, cs, cl, f, fl, nf);
	} else if (sp->key == 1 && !missing(es, el)) {
		link_rec(sp, role, es, el, f, fl, nf);
	}
	return 1;
}

/*
 * Split one event into the records of the later passes; ref is the
 * offset of its line.  1 when a later pass may read the line (merge,
 * a fetch, tl-report's test for a CPU-only trace): host events, GPU
 * events, events with a linking id, autograd's backward nodes (merge
 * gives them their forward op) and the python_func category.
 */
static int
split_event(struct split *sp, struct lazy *r, const struct evcols *c,
    long long ref)
{
	struct buf *b = &sp->line;
	size_t catl, phl, namel, len;
	const char *cat = lazy_get(r, c->cat, &catl);
	const char *ph = lazy_get(r, c->ph, &phl);
	const char *name = lazy_get(r, c->name, &namel);
	long long uid = lazy_uid(r, c->uid);
	int host = 0, runtime = 0, gpu = 0, flow = 0, isx, keep;
	char hc = 0;
	struct ttv ts = {0, 0};
	int64_t nts = 0, ndur = 0;
	int hasts, hasdur;
	struct thr *t = NULL;

	if (eq(cat, catl, "cpu_op"))
		host = 1, hc = 'o';
	else if (eq(cat, catl, "cuda_runtime"))
		host = runtime = 1, hc = 'r';
	else if (eq(cat, catl, "cuda_driver"))
		host = runtime = 1, hc = 'v';
	else if (eq(cat, catl, "python_function"))
		host = python, hc = 'p';
	else if (gpucat(cat, catl))
		gpu = 1;
	else if (eq(ph, phl, "s") || eq(ph, phl, "f")) {
		if (eq(cat, catl, "ac2g"))
			flow = 1;
		else if (eq(cat, catl, "async_cpu_to_gpu") ||
		    eq(cat, catl, "async"))
			flow = 2;
	}
	/* health facts use exact ns; only host keys need the chosen time */
	hasts = zns(r, c->ts, &nts) == 0;
	hasdur = zns(r, c->dur, &ndur) == 0;
	isx = eq(ph, phl, "X");

	if (eq(ph, phl, "M")) {
		lazy_put(b, r, c->pid), tab(b), lazy_put(b, r, c->tid), tab(b);
		lazy_put(b, r, c->name), tab(b), lazy_put(b, r, c->value);
		emit(sp->m, b);
	}

	if ((isx && hasts) || host) {
		lazy_key(b, r, c->pid);
		lazy_key(b, r, c->tid);
		t = thr_get(&sp->thr, b->s, b->len);
		buf_reset(b);
	}
	/* events_out_of_time_order: complete events, per thread, in trace order */
	if (isx && hasts) {
		if (t->seen && nts < t->last)
			sp->outoforder++;
		t->last = nts;
		t->seen = 1;
	}

	if (sp->key < 0 && runtime && hascase(name, namel, "launch")) {
		/* TraceLens: correlation if the first launch carries it */
		lazy_get(r, c->corr, &len);
		decide(sp, len == 0);
	}

	if (host) {
		if (!hasdur || ztime(r, c->ts, &ts) < 0)
			tl_die("%s: line %zu (UID %lld): %s event without a "
			    "valid ts and dur", r->name, r->lineno, uid,
			    hc == 'o' ? "cpu_op" : hc == 'p' ?
			    "python_function" : "runtime");
		/* a thread's number groups its events in fewer bytes */
		putnum(b, t->idx);
		buf_addc(b, '.');
		key_time(b, &ts);
		key_uid(b, uid);
		tab(b), buf_addc(b, hc);
		tab(b), lazy_put(b, r, c->name);
		tab(b), lazy_put(b, r, c->dur);
		tab(b);
		if (hc == 'o')
			putnum(b, ref);
		if (runtime) {
			tab(b), lazy_put(b, r, c->corr);
			tab(b), lazy_put(b, r, c->ext);
			tab(b), lazy_put(b, r, c->pid);
			tab(b), lazy_put(b, r, c->tid);
		} else {
			buf_adds(b, "\t\t\t\t");
		}
		emit(sp->h, b);
	}

	if (gpu) {
		size_t sl;
		const char *st = lazy_get(r, c->stream, &sl);

		if (hasdur && ndur == 0)
			sp->zerodur++;
		if (hasts) {
			lazy_key(b, r, c->pid);
			if (sl == 0)
				st = lazy_get(r, c->tid, &sl);
			key_text(b, st, sl);
			puthex(b, (uint64_t)nts ^ 0x8000000000000000ULL, TIMEW);
			key_uid(b, uid);
			tab(b), putnum(b, nts);
			tab(b), putnum(b, nts + (hasdur ? ndur : 0));
			emit(sp->o, b);
		}
	}

	if (flow) {
		const char *id = lazy_get(r, c->id, &len);

		if (flow == 1)
			sp->ac2g++;
		else
			sp->legacy++;
		if (len == 0) {
			sp->noid++;
		} else {
			key_text(b, id, len);
			buf_addc(b, ph[0] == 's' ? 'a' : 'b');
			key_uid(b, uid);
			tab(b), lazy_put(b, r, c->uid);
			tab(b), lazy_put(b, r, c->pid);
			tab(b), lazy_put(b, r, c->tid);
			tab(b), buf_addc(b, flow == 2 ? '1' : '0');
			emit(sp->l, b);
		}
	}

	keep = host || runtime || gpu || eq(cat, catl, "python_func");
	if (!runtime && !eq(cat, catl, "ac2g"))
		keep |= split_link(sp, r, c, gpu ? R_GPU : host ? R_HOST :
		    R_OTHER, ref);
	/* Sequence numbers: every event but ac2g flows, as TraceLens indexes */
	if (!eq(cat, catl, "ac2g")) {
		const char *s = lazy_get(r, c->seq, &len);

		if (!missing(s, len)) {
			int bwd = prefix(name, namel,
			    "autograd::engine::evaluate_function:");

			keep |= bwd;
			key_text(b, s, len);
			buf_addc(b, bwd ? '0' : '1');
			key_uid(b, uid);
			tab(b), lazy_put(b, r, c->uid);
			tab(b), lazy_put(b, r, c->pid);
			tab(b), lazy_put(b, r, c->tid);
			tab(b), lazy_put(b, r, c->ts);
			emit(sp->q, b);
		}
	}
	return keep;
}

/* Write the line of len bytes at s, its newline (not in s) included. */
static void
putline(FILE *fp, const char *s, size_t len)
{
	fwrite(s, 1, len - 1, fp);
	putc('\n', fp);
}

static int
split(const char *path)
{
	struct rec_reader r;
	struct lazy z;
	struct evcols c;
	struct split sp;
	static char iob[6][TL_IOBUF];	/* stdio's: in, copy, l, q, o, gev */
	const char *cat, *name;
	size_t catl, namel;
	FILE *in = bigbuf(tl_fopen(path, "r"), iob[0], 0), *facts, *copy = NULL;
	FILE *gev = NULL;
	long long prev = -1, uid, ref, gref = 0;
	struct buf last = {0};	/* the last line, when the copy left it out */
	int st = 0, keep, lone;
	size_t i, len;

	memset(&sp, 0, sizeof(sp));
	memset(&z, 0, sizeof(z));
	sp.key = -1;
	rec_open(&r, in, strcmp(path, "-") == 0 ? "<stdin>" : path);
	rec_read_header(&r);
	evcols(&r, &c);
	lone = rec_col(&r, "lone surrogates");
	/*
	 * Later passes fetch lines by their offset: a file, not a pipe.
	 * -e: the events come through a pipe, and the file is our copy,
	 * of the lines a later pass reads (see split_event; with -G, no
	 * GPU events), and the last line, whose UID is the trace's last.
	 */
	if (epath) {
		copy = xopen(epath, "w", iob[1]);
		rec_write(copy, (const char *const *)r.hdr, r.nhdr);
		if ((ref = ftello(copy)) < 0)
			tl_die("%s:", epath);
	} else if ((ref = ftello(in)) < 0)
		tl_die("%s: not a regular file:", r.name);
	/*
	 * -G: the GPU events apart, for the passes that read their names
	 * long after the events are gone; their offsets are in this file.
	 */
	if (gvpath) {
		gev = xopen(gvpath, "w", iob[5]);
		rec_write(gev, (const char *const *)r.hdr, r.nhdr);
		if ((gref = ftello(gev)) < 0)
			tl_die("%s:", gvpath);
	}
	sp.h = stdout;
	sp.l = create(dir, "l", iob[2]);
	sp.q = create(dir, "q", iob[3]);
	sp.o = create(dir, "o", iob[4]);
	sp.m = create(dir, "meta.tsv", NULL);
	fputs("pid\ttid\tname\tvalue\n", sp.m);
	if (spath) {
		sp.sel = xopen(spath, "w", NULL);
		rec_write(sp.sel, (const char *const *)r.hdr, r.nhdr);
	}
	z.fp = in;
	z.name = r.name;
	z.lineno = r.lineno;
	while (lazy_read(&z)) {
		len = (size_t)(z.end - z.line) + 1;
		uid = lazy_uid(&z, c.uid);
		if (uid <= prev)
			tl_die("%s: line %zu: UID %lld after %lld: events not in "
			    "trace order", z.name, z.lineno, uid, prev);
		prev = uid;
		cat = lazy_get(&z, c.cat, &catl);
		if (gev && gpucat(cat, catl)) {
			putline(gev, z.line, len);
			split_event(&sp, &z, &c, gref);
			gref += (long long)len;
			keep = 0;
		} else {
			keep = split_event(&sp, &z, &c, ref);
		}
		if (!copy) {
			ref += (long long)len;
		} else if (keep) {
			putline(copy, z.line, len);
			ref += (long long)len;
			last.len = 0;
		} else {
			buf_reset(&last);
			buf_add(&last, z.line, len);
		}
		/* -s: communication kernels, and events of an annotation cat */
		if (sp.sel) {
			name = lazy_get(&z, c.name, &namel);
			if ((eq(cat, catl, "kernel") && iscomm(name, namel)) ||
			    hassub(cat, catl, "user_annotation")) {
				putline(sp.sel, z.line, len);
			}
		}
		if (lazy_width(&z) != r.nhdr)
			tl_die("%s: line %zu: %zu fields, header has %zu", z.name,
			    z.lineno, lazy_width(&z), r.nhdr);
		/* (tl-parse's last field: empty, but in a broken string) */
		if (lone >= 0 && (lone + 1 != (int)r.nhdr || z.end[-1] != '\t'))
			sp.lone += atoid(lazy_get(&z, lone, &len));
	}
	if (last.len > 0)
		putline(copy, last.s, last.len);
	buf_free(&last);
	if (sp.key < 0)
		decide(&sp, 1);
	/*
	 * Control records (empty key: they sort first) tell the later
	 * passes what only the whole trace shows: the linking key, and
	 * whether the older flow categories stand in for ac2g.
	 */
	fprintf(sp.h, "\tlinking_key\t%s\n", sp.key ? "External id" :
	    "correlation");
	fprintf(sp.l, "\tlegacy_flows\t%d\n", sp.ac2g == 0);
	facts = create(dir, "facts", NULL);
	fact(facts, "gpu_events_zero_duration", sp.zerodur);
	fact(facts, "events_out_of_time_order", sp.outoforder);
	fprintf(facts, "linking_key\t%s\n", sp.key ? "External id" :
	    "correlation");
	fact(facts, "flows_ac2g", sp.ac2g);
	fact(facts, "flows_legacy", sp.legacy);
	fact(facts, "flows_without_id", sp.noid);
	fact(facts, "lone_surrogates", sp.lone);
	/* the copy first: every later pass reads it; the host records
	 * last: their reader's end must find l whole */
	if (copy)
		st |= tl_fshut(copy, epath);
	if (gev)
		st |= tl_fshut(gev, gvpath);
	st |= tl_fshut(facts, "facts");
	st |= tl_fshut(sp.l, "l");
	st |= tl_fshut(sp.q, "q");
	st |= tl_fshut(sp.o, "o");
	st |= tl_fshut(sp.m, "meta.tsv");
	if (sp.sel)
		st |= tl_fshut(sp.sel, spath);
	st |= tl_fshut(sp.h, "<stdout>");
	for (i = 0; i < sp.thr.cap; i++)
		free(sp.thr.t[i].key);
	free(sp.thr.t);
	buf_free(&sp.line);
	free(z.line);
	free(z.f);
	rec_close(&r);
	if (in != stdin)
		fclose(in);
	return st;
}

/* ==== host ==== */

/* Host record fields after the key (runtime: corr..tid; cpu_op: ref). */
enum { H_CAT = 1, H_NAME, H_DUR, H_REF, H_CORR, H_EXT, H_PID, H_TID, H_NF };

/* One open host event on a thread's stack. */
struct frame {
	long long uid;	/* its UID */
	char cat;	/* o cpu_op, r cuda_runtime, v cuda_driver, p python */
	struct ttv end;	/* ts + dur */
	struct buf name;	/* escaped name, reused across pushes */
	long long ref;	/* cpu_op: offset of its line in the events */
};

static void
host_runtime(FILE *out, struct buf *b, const struct rec_reader *r,
    long long uid, const struct frame *st, size_t n, const char *id,
    size_t idlen)
{
	const struct frame *la = NULL, *co = NULL;
	size_t i;

	/* get_kernel_launchers: skip python and 'execute'; else stop */
	for (i = n; i-- > 0;) {
		if (st[i].cat == 'p')
			continue;
		if (st[i].cat != 'o')
			break;
		if (eq(st[i].name.s, st[i].name.len, "execute"))
			continue;
		la = &st[i];
		break;
	}
	for (i = n; i-- > 0;)
		if (st[i].cat == 'o') {
			co = &st[i];
			break;
		}
	key_text(b, id, idlen);
	buf_addc(b, 'e');
	key_uid(b, uid);
	tab(b), putnum(b, uid);
	tab(b), put(b, r, H_PID);
	tab(b), put(b, r, H_TID);
	tab(b), put(b, r, H_NAME);
	tab(b);
	if (la) {
		putnum(b, la->uid), tab(b);
		buf_add(b, la->name.s, la->name.len);
	} else {
		putnum(b, uid), tab(b), put(b, r, H_NAME);
	}
	tab(b);
	if (co) {
		putnum(b, co->uid), tab(b);
		buf_add(b, co->name.s, co->name.len), tab(b);
		putnum(b, co->ref);
	} else {
		buf_adds(b, "\t\t");	/* cpu_op, its name, its offset */
	}
	tab(b);
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_addc(b, ',');
		putnum(b, st[i].uid);
	}
	emit(out, b);
}

static int
host(const char *path)
{
	struct rec_reader r;
	static char iob[2][TL_IOBUF];	/* stdio's, for in and tf */
	FILE *in = xopen(path, "r", iob[0]), *tf = xopen(tpath, "w", iob[1]), *ff;
	struct frame *st = NULL;
	size_t n = 0, cap = 0, ncpu = 0, i, len;
	struct buf prev = {0}, group = {0}, b = {0};
	long long dropped = 0;
	int status, ext = 0;	/* link on External id, not correlation */

	rec_open(&r, in, strcmp(path, "-") == 0 ? "<stdin>" : path);
	while (next(&r, &prev, 1)) {
		struct ttv ts = {0, 0}, dur = {0, 0}, end;
		char cat;
		long long uid;
		const char *id;

		if (r.f[0].len == 0) {
			/* split's control record: the linking key */
			need(&r, 3);
			if (strcmp(r.f[1].s, "linking_key") == 0)
				ext = strcmp(r.f[2].s, "External id") == 0;
			continue;
		}
		need(&r, H_NF);
		if (!samegroup(&group, &r, TIMEW + UIDW)) {
			setgroup(&group, &r, TIMEW + UIDW);
			n = ncpu = 0;
		}
		cat = r.f[H_CAT].s[0];
		uid = key_uidval(&r);
		key_ts(&r, &ts);
		if (tfield(&r, H_DUR, &dur) < 0)
			tl_die("%s: line %zu: bad dur", r.name, r.lineno);
		end = tadd(ts, dur);
		id = rec_get(&r, ext ? H_EXT : H_CORR, &len);

		while (n > 0 && tcmp(&ts, &st[n - 1].end) >= 0)
			if (st[--n].cat == 'o')
				ncpu--;
		if (n > 0 && tcmp(&end, &st[n - 1].end) > 0) {
			if (tnear(&st[n - 1].end, &ts) && n >= 2) {
				if (st[--n].cat == 'o')
					ncpu--;
			} else {
				/* bleeds out of its parent: not in the tree */
				dropped++;
				if (cat == 'r' || cat == 'v') {
					/* parentless: its own root */
					key_uid(&b, uid);
					fprintf(tf, "%s\td\t\t0\t0\t%lld\n", b.s,
					    uid);
					buf_reset(&b);
					if (!missing(id, len))
						host_runtime(stdout, &b, &r, uid, st,
						    0, id, len);
				}
				continue;
			}
		}
		/* (one record per host event: no printf) */
		key_uid(&b, uid);
		buf_adds(&b, "\tp\t");
		if (n > 0)
			putnum(&b, st[n - 1].uid);
		tab(&b), putnum(&b, (long long)n);
		tab(&b), buf_addc(&b, cat == 'o' && ncpu == 0 ? '1' : '0');
		tab(&b), putnum(&b, n > 0 ? st[0].uid : uid);
		emit(tf, &b);
		if ((cat == 'r' || cat == 'v') && !missing(id, len))
			host_runtime(stdout, &b, &r, uid, st, n, id, len);
		if (n == cap) {
			tl_grow((void **)&st, &cap, n + 1, sizeof(*st));
			memset(st + n, 0, (cap - n) * sizeof(*st));
		}
		st[n].uid = uid;
		st[n].cat = cat;
		st[n].end = end;
		buf_reset(&st[n].name);
		buf_add(&st[n].name, r.f[H_NAME].s, r.f[H_NAME].len);
		st[n].ref = cat == 'o' ? atoid(r.f[H_REF].s) : -1;
		if (cat == 'o')
			ncpu++;
		n++;
	}
	status = tl_fshut(tf, tpath);
	if (fpath) {
		ff = xopen(fpath, "w", NULL);
		fact(ff, "host_events_dropped", dropped);
		status |= tl_fshut(ff, fpath);
	}
	for (i = 0; i < cap; i++)
		buf_free(&st[i].name);
	free(st);
	buf_free(&prev);
	buf_free(&group);
	buf_free(&b);
	rec_close(&r);
	if (in != stdin)
		fclose(in);
	return status;
}

/* ==== link ==== */

enum { E_UID = 1, E_PID, E_TID, E_NAME, E_LA, E_LANAME, E_CPU, E_CPUNAME,
    E_CPUREF, E_ANC, E_NF };
enum { C_UID = 1, C_PID, C_TID, C_TS, C_COMM, C_REF, C_NF };

/* A GPU, other, runtime or host record of the current linking id. */
struct lrec {
	char role;	/* R_GPU, R_OTHER, R_RUN or R_HOST */
	long long uid;	/* its UID */
	size_t f;	/* its first field (the UID) in the arena */
	int claims;	/* R_GPU, R_OTHER: launches that took it */
	size_t fin;	/* and the last of them (TraceLens: last wins) */
	int hasts;	/* ts is valid */
	struct ttv ts;	/* R_GPU, R_OTHER: start, for interval keys */
};

/* The current linking id's records and what the mode counts. */
struct link {
	struct arena a;		/* copied fields of held records */
	struct lrec *rec;	/* held records, in sorted order */
	size_t n;		/* records held */
	size_t cap;		/* records allocated */
	int start;		/* a flow start has this id */
	long long endu;		/* UID of the last flow end, or -1 */
	struct buf endpid;	/* that flow end's pid */
	struct buf endtid;	/* and tid */
	FILE *g;		/* GPU link records */
	struct buf b;		/* record being built */
	long long unterm;	/* launches whose flow has no end */
	long long nowhere;	/* flow ends that point at no event */
	long long tohost;	/* flow ends that point at a host event */
	long long multi;	/* GPU events taken by several launches */
	int nolegacy;		/* ignore async_cpu_to_gpu and async flows */
};

static const char *
lf(const struct link *lk, const struct lrec *x, int col)
{
	return arena_get(&lk->a, x->f + (size_t)col - 1);
}

static void
interval(struct link *lk, const char *op, char kind, const struct lrec *g)
{
	struct buf *b = &lk->b;

	key_uid(b, atoid(op));
	buf_addc(b, kind);
	key_time(b, &g->ts);
	key_uid(b, g->uid);
	tab(b), buf_adds(b, op);
	tab(b), buf_addc(b, kind);
	tab(b), buf_adds(b, lf(lk, g, C_UID));
	tab(b), buf_adds(b, lf(lk, g, C_REF));
	emit(stdout, b);
}

/* The depth of a launched event: one below its launch. */
static long long
depth(const char *anc)
{
	long long n = 1;

	if (*anc == '\0')
		return 1;
	for (; *anc; anc++)
		n += *anc == ',';
	return n + 1;
}

/* The root of launch e's tree: its first ancestor, else e itself. */
static void
launch_root(struct buf *b, const struct link *lk, const struct lrec *e)
{
	const char *anc = lf(lk, e, E_ANC);

	if (*anc == '\0')
		buf_adds(b, lf(lk, e, E_UID));
	else
		buf_add(b, anc, strcspn(anc, ","));
}

/*
 * Runtime event e launches event g: g's subtree records, kind s for a
 * GPU event, n for another (it counts in TraceLens's gpu_events but
 * never in a busy time).
 */
static void
claim(struct link *lk, struct lrec *g, size_t ei)
{
	const struct lrec *e = &lk->rec[ei];
	const char *anc = lf(lk, e, E_ANC), *p;
	char op[32], kind = g->role == R_GPU ? 's' : 'n';

	if (!g->hasts)
		tl_die("UID %lld: launched event without a valid ts", g->uid);
	g->claims++;
	g->fin = ei;
	interval(lk, lf(lk, e, E_UID), kind, g);
	for (p = anc; *p != '\0';) {
		size_t n = strcspn(p, ",");

		if (n == 0 || n >= sizeof(op))
			tl_die("bad ancestor list '%s'", anc);
		memcpy(op, p, n);
		op[n] = '\0';
		interval(lk, op, kind, g);
		p += n;
		if (*p == ',')
			p++;
	}
}

static void
link_group(struct link *lk)
{
	struct lrec *t = NULL;
	size_t i, j;

	if (lk->endu >= 0)
		for (i = 0; i < lk->n; i++) {
			struct lrec *x = &lk->rec[i];
			const char *pid = lf(lk, x, C_PID), *tid = lf(lk, x, C_TID);

			if (*pid == '\0' || *tid == '\0' ||
			    strcmp(pid, lk->endpid.s) != 0 ||
			    strcmp(tid, lk->endtid.s) != 0)
				continue;
			if (t == NULL || x->uid > t->uid)
				t = x;
		}
	for (i = 0; i < lk->n; i++) {
		struct lrec *e = &lk->rec[i];
		const char *name;

		if (e->role != R_RUN)
			continue;
		name = lf(lk, e, E_NAME);
		if (strcmp(name, "cudaGraphLaunch") == 0 ||
		    strcmp(name, "hipGraphLaunch") == 0) {
			for (j = 0; j < lk->n; j++)
				if (lk->rec[j].role == R_GPU)
					claim(lk, &lk->rec[j], i);
		} else if (!lk->start) {
			continue;
		} else if (lk->endu < 0) {
			lk->unterm++;
		} else if (t == NULL) {
			lk->nowhere++;
		} else if (t->role == R_RUN || t->role == R_HOST) {
			/* TraceLens would re-parent a host event (or loop) */
			lk->tohost++;
		} else {
			claim(lk, t, i);
		}
	}
	for (i = 0; i < lk->n; i++) {
		struct lrec *g = &lk->rec[i], *e;
		struct buf *b = &lk->b;

		if (g->claims == 0)
			continue;
		if (g->claims > 1)
			lk->multi++;
		e = &lk->rec[g->fin];
		key_uid(b, g->uid);
		tab(b), buf_adds(b, lf(lk, e, E_UID));
		tab(b), buf_adds(b, lf(lk, e, E_NAME));
		for (j = E_LA; j < E_ANC; j++)
			tab(b), buf_adds(b, lf(lk, e, (int)j));
		tab(b), putnum(b, depth(lf(lk, e, E_ANC)));
		tab(b), launch_root(b, lk, e);
		emit(lk->g, b);
		if (g->role == R_GPU && *lf(lk, g, C_COMM) == '0')
			interval(lk, lf(lk, e, E_LA), 'd', g);
	}
	arena_reset(&lk->a);
	lk->n = 0;
	lk->start = 0;
	lk->endu = -1;
}

static void
link_read(struct link *lk, struct rec_reader *r)
{
	char role;
	struct lrec *x;
	size_t i, nf;

	if (r->f[0].len == 0) {
		/* split's control record: do older flows stand for ac2g? */
		need(r, 3);
		if (strcmp(r->f[1].s, "legacy_flows") == 0)
			lk->nolegacy = strcmp(r->f[2].s, "0") == 0;
		return;
	}
	role = r->f[0].s[r->f[0].len - 1 - UIDW];
	switch (role) {
	case R_START:
	case R_END:
		need(r, 5);
		if (lk->nolegacy && r->f[4].s[0] == '1')
			return;
		if (role == R_START) {
			lk->start = 1;
			return;
		}
		/* sorted by UID within the role: the last end wins */
		lk->endu = atoid(r->f[1].s);
		buf_reset(&lk->endpid);
		buf_add(&lk->endpid, r->f[2].s, r->f[2].len);
		buf_reset(&lk->endtid);
		buf_add(&lk->endtid, r->f[3].s, r->f[3].len);
		return;
	case R_GPU:
	case R_OTHER:
		nf = C_NF;
		break;
	case R_HOST:
		nf = 4;
		break;
	case R_RUN:
		nf = E_NF;
		break;
	default:
		tl_die("%s: line %zu: unknown record role '%c'", r->name,
		    r->lineno, role);
	}
	need(r, nf);
	tl_grow((void **)&lk->rec, &lk->cap, lk->n + 1, sizeof(*lk->rec));
	x = &lk->rec[lk->n++];
	memset(x, 0, sizeof(*x));
	x->role = role;
	x->uid = atoid(r->f[1].s);
	x->f = lk->a.n;
	for (i = 1; i < nf; i++)
		arena_add(&lk->a, r->f[i].s, r->f[i].len);
	if (role == R_GPU || role == R_OTHER)
		x->hasts = tfield(r, C_TS, &x->ts) == 0;
}

static int
linkmode(int argc, char *argv[])
{
	static char iob[2][TL_IOBUF];	/* stdio's, for g and the inputs */
	struct link lk;
	struct buf prev = {0}, group = {0};
	int status = 0, i;

	memset(&lk, 0, sizeof(lk));
	lk.endu = -1;
	lk.g = xopen(gpath, "w", iob[0]);
	for (i = 0; i < argc || (argc == 0 && i == 0); i++) {
		const char *path = argc ? argv[i] : "-";
		FILE *in = xopen(path, "r", iob[1]);	/* one at a time */
		struct rec_reader r;

		/* several inputs must each be sorted and follow each other */
		rec_open(&r, in, strcmp(path, "-") == 0 ? "<stdin>" : path);
		while (next(&r, &prev, 1)) {
			if (r.f[0].len == 0) {
				link_read(&lk, &r);
				continue;
			}
			if (!samegroup(&group, &r, 1 + UIDW)) {
				link_group(&lk);
				setgroup(&group, &r, 1 + UIDW);
			}
			link_read(&lk, &r);
		}
		rec_close(&r);
		if (in != stdin)
			fclose(in);
	}
	link_group(&lk);
	status |= tl_fshut(lk.g, gpath);
	if (fpath) {
		FILE *ff = xopen(fpath, "w", NULL);

		fact(ff, "flows_unterminated", lk.unterm);
		fact(ff, "flows_pointing_nowhere", lk.nowhere);
		fact(ff, "flows_to_host_events", lk.tohost);
		fact(ff, "gpu_events_multiply_linked", lk.multi);
		status |= tl_fshut(ff, fpath);
	}
	free(lk.a.off);
	buf_free(&lk.a.b);
	free(lk.rec);
	buf_free(&lk.endpid);
	buf_free(&lk.endtid);
	buf_free(&lk.b);
	buf_free(&prev);
	buf_free(&group);
	return status;
}

/* ==== intervals ==== */

/* The columns of an interval record that a fetch fills in. */
enum { X_TS, X_DUR, X_NAME, X_STREAM, X_CAT, X_NF };

/* A file of event lines read by offset, and its columns X_*. */
struct xsrc {
	struct fetch ft;	/* the file */
	int col[X_NF];		/* the columns, in its header */
};

static void
xsrc_open(struct xsrc *x, const char *path)
{
	static const char *const names[X_NF] = {
		"ts", "dur", "name", "stream", "cat"
	};
	size_t i;

	fetch_open(&x->ft, path);
	for (i = 0; i < X_NF; i++)
		x->col[i] = rec_need(&x->ft.hdr, names[i]);
}

/* Append TAB and column i of the line last fetched (empty if short). */
static void
xsrc_put(struct buf *b, const struct xsrc *x, int i)
{
	size_t len;
	const char *s = fetched(&x->ft, x->col[i], &len);

	tab(b);
	buf_add(b, s, len);
}

/*
 * intervals.tsv from the sorted interval records, each completed from
 * its event's line: op kind ts dur gpu name stream cat ref.  The name
 * of an s record stays empty (it is most of the file, and few passes
 * want it: they read it at ref, in the GPU events of -G).
 */
static int
intervals(const char *path)
{
	struct rec_reader r;
	struct xsrc ev, gv, *x;
	static char iob[2][TL_IOBUF];	/* stdio's, for in and out */
	FILE *in = xopen(path, "r", iob[0]), *out = xopen(opath, "w", iob[1]);
	FILE *cfp = cpath ? xopen(cpath, "w", NULL) : NULL;
	struct buf prev = {0};
	long long op = -1, cur, count = 0, commop = -1;
	struct buf row = {0};
	int status, more, i;
	size_t len;
	char kind;

	rec_open(&r, in, strcmp(path, "-") == 0 ? "<stdin>" : path);
	fputs("op\tkind\tts\tdur\tgpu\tname\tstream\tcat\tref\n", out);
	/*
	 * The events only once the first record is here: split may still
	 * be writing them (tl_tree_stage with a trace), and the records
	 * come through a sort, which waits for split's end.
	 */
	memset(&ev, 0, sizeof(ev));
	memset(&gv, 0, sizeof(gv));
	if ((more = next(&r, &prev, 0)) != 0) {
		xsrc_open(&ev, epath);
		if (gvpath)
			xsrc_open(&gv, gvpath);
	}
	/* records: key op kind gpu offset (in -G for a GPU event) */
	for (; more; more = next(&r, &prev, 0)) {
		need(&r, 5);
		kind = r.f[2].s[0];
		x = gvpath && kind != 'n' ? &gv : &ev;
		fetch(&x->ft, atoid(r.f[4].s), atoid(r.f[3].s));
		buf_add(&row, r.f[1].s, r.f[1].len);
		tab(&row);
		buf_add(&row, r.f[2].s, r.f[2].len);
		xsrc_put(&row, x, X_TS);
		xsrc_put(&row, x, X_DUR);
		tab(&row);
		buf_add(&row, r.f[3].s, r.f[3].len);
		for (i = X_NAME; i < X_NF; i++) {
			if (i == X_NAME && kind == 's')
				tab(&row);
			else
				xsrc_put(&row, x, i);
		}
		tab(&row);
		buf_add(&row, r.f[4].s, r.f[4].len);
		emit(out, &row);
		if (kind == 'd')
			continue;	/* s and n records are gpu_events */
		cur = atoid(r.f[1].s);
		/* -c: each op once (its records are together) */
		if (cfp && kind == 's' && cur != commop) {
			const char *nm = fetched(&x->ft, x->col[X_NAME], &len);

			if (iscomm(nm, len)) {
				fprintf(cfp, "%lld\n", cur);
				commop = cur;
			}
		}
		if (cur != op) {
			if (op >= 0)
				printf("%lld\t%lld\n", op, count);
			op = cur;
			count = 0;
		}
		count++;
	}
	if (op >= 0)
		printf("%lld\t%lld\n", op, count);
	status = tl_fshut(out, opath);
	if (cfp)
		status |= tl_fshut(cfp, cpath);
	if (ev.ft.fp)
		fetch_close(&ev.ft);
	if (gv.ft.fp)
		fetch_close(&gv.ft);
	buf_free(&row);
	buf_free(&prev);
	rec_close(&r);
	if (in != stdin)
		fclose(in);
	return status;
}

/* ==== fwd ==== */

static int
fwd(const char *path)
{
	struct rec_reader r;
	FILE *in = xopen(path, "r", NULL);
	struct buf prev = {0}, group = {0}, bpid = {0}, btid = {0}, b = {0};
	long long bwd = -1, best = -1, uid;
	struct ttv bestts = {-1, -1}, ts, zero = {0, 0};

	rec_open(&r, in, strcmp(path, "-") == 0 ? "<stdin>" : path);
	for (;;) {
		int more = next(&r, &prev, 1);

		if (!more || !samegroup(&group, &r, 1 + UIDW)) {
			if (bwd >= 0 && best >= 0) {
				key_uid(&b, bwd);
				printf("%s\t%lld\n", b.s, best);
				buf_reset(&b);
			}
			if (!more)
				break;
			setgroup(&group, &r, 1 + UIDW);
			bwd = best = -1;
			bestts.us = -1, bestts.ns = -1;
			need(&r, 5);
			/* evaluate_function nodes sort first: the first one is it */
			if (r.f[0].s[r.f[0].len - 1 - UIDW] == '0') {
				bwd = atoid(r.f[1].s);
				buf_reset(&bpid);
				buf_add(&bpid, r.f[2].s, r.f[2].len);
				buf_reset(&btid);
				buf_add(&btid, r.f[3].s, r.f[3].len);
			}
			continue;
		}
		need(&r, 5);
		if (bwd < 0)
			continue;
		if (strcmp(r.f[2].s, bpid.s) == 0 && strcmp(r.f[3].s, btid.s) == 0)
			continue;
		uid = atoid(r.f[1].s);
		if (r.f[4].len == 0)
			ts = zero;
		else if (tfield(&r, 4, &ts) < 0)
			tl_die("%s: line %zu: bad ts", r.name, r.lineno);
		/* the latest ts wins; on a tie, the first in trace order */
		if (tcmp(&ts, &bestts) > 0 ||
		    (best >= 0 && tcmp(&ts, &bestts) == 0 && uid < best)) {
			best = uid;
			bestts = ts;
		}
	}
	buf_free(&prev);
	buf_free(&group);
	buf_free(&bpid);
	buf_free(&btid);
	buf_free(&b);
	rec_close(&r);
	if (in != stdin)
		fclose(in);
	return tl_fshut(stdout, "<stdout>");
}

/* ==== overlap ==== */

static int
overlap(const char *path)
{
	struct rec_reader r;
	FILE *in = xopen(path, "r", NULL);
	struct buf prev = {0}, group = {0};
	long long count = 0;
	int64_t maxend = 0, ts, end;

	rec_open(&r, in, strcmp(path, "-") == 0 ? "<stdin>" : path);
	while (next(&r, &prev, 1)) {
		need(&r, 3);
		if (num_int64(r.f[1].s, r.f[1].len, &ts) < 0 ||
		    num_int64(r.f[2].s, r.f[2].len, &end) < 0)
			tl_die("%s: line %zu: bad time", r.name, r.lineno);
		if (!samegroup(&group, &r, TIMEW + UIDW)) {
			setgroup(&group, &r, TIMEW + UIDW);
			maxend = end;
			continue;
		}
		if (ts < maxend)
			count++;
		maxend = MAX(maxend, end);
	}
	fact(stdout, "gpu_events_same_stream_overlap", count);
	buf_free(&prev);
	buf_free(&group);
	rec_close(&r);
	if (in != stdin)
		fclose(in);
	return tl_fshut(stdout, "<stdout>");
}

/* ==== merge ==== */

/*
 * A UID-sorted side input (of merge, and of the joins of the later
 * modes), positioned on its next record.
 */
struct side {
	struct rec_reader r;	/* the reader */
	FILE *fp;		/* its file */
	long long uid;		/* UID of the current record; -1 at EOF */
	size_t nf;		/* fields every record has; 0: any */
	int keyed;		/* field 0 is a UID key, else a decimal UID */
};

static void
side_next(struct side *s)
{
	long long prev = s->uid;

	if (!rec_read(&s->r)) {
		s->uid = -1;
		return;
	}
	if (s->nf > 0)
		need(&s->r, s->nf);
	if (s->keyed && s->r.f[0].len != UIDW)
		tl_die("%s: line %zu: bad key", s->r.name, s->r.lineno);
	s->uid = s->keyed ? key_uidval(&s->r) : atoid(s->r.f[0].s);
	if (s->uid <= prev)
		tl_die("%s: line %zu: out of order (UID %lld after %lld)",
		    s->r.name, s->r.lineno, s->uid, prev);
}

static void
side_open(struct side *s, const char *path, size_t nf, int keyed, char *buf)
{
	s->fp = xopen(path, "r", buf);
	rec_open(&s->r, s->fp, path);
	s->nf = nf;
	s->keyed = keyed;
	s->uid = -1;
	side_next(s);
}

/* side_open for a file with a header, whose first column is ucol. */
static void
side_openh(struct side *s, const char *path, const char *ucol)
{
	s->fp = xopen(path, "r", NULL);
	rec_open(&s->r, s->fp, path);
	rec_read_header(&s->r);
	if (rec_col(&s->r, ucol) != 0)
		tl_die("%s: its first column is not '%s'", path, ucol);
	s->nf = s->r.nhdr;
	s->keyed = 0;
	s->uid = -1;
	side_next(s);
}

/*
 * Skip the records before uid (calls in ascending uid, records for
 * UIDs never asked for allowed); 1 when s has a record for uid.
 */
static int
side_seek(struct side *s, long long uid)
{
	while (s->uid >= 0 && s->uid < uid)
		side_next(s);
	return s->uid == uid;
}

/* Close s wherever it stands (side_close wants it read to the end). */
static void
side_free(struct side *s)
{
	rec_close(&s->r);
	fclose(s->fp);
}

/* Advance s to uid; 1 when it has a record for uid. */
static int
side_at(struct side *s, long long uid)
{
	if (s->uid >= 0 && s->uid < uid)
		tl_die("%s: line %zu: UID %lld is not an event of the trace",
		    s->r.name, s->r.lineno, s->uid);
	return s->uid == uid;
}

static void
side_close(struct side *s)
{
	if (s->uid >= 0)
		tl_die("%s: line %zu: UID %lld is not an event of the trace",
		    s->r.name, s->r.lineno, s->uid);
	rec_close(&s->r);
	fclose(s->fp);
}

/* The merge's inputs besides the events, and its outputs. */
struct merge {
	struct side t;		/* tree records */
	struct side n;		/* GPU-event counts */
	struct side w;		/* forward links */
	struct side g;		/* launched events */
	struct fetch ft;	/* the events again, for cpu_op inputs */
	int inp[4];		/* columns of the four Input fields */
	FILE *ops;		/* ops.tsv */
	FILE *gpu;		/* gpu.tsv */
	FILE *fwd;		/* -a: fwd TAB UID of each linked op, or NULL */
	struct buf row;		/* the record being built */
	long long unlinked;	/* gpu_events_unlinked */
};

/* An ops.tsv record: the event's own fields and its place in the tree. */
static void
ops_row(struct merge *m, struct lazy *z, const struct evcols *c,
    long long uid, const char *parent, const char *depth, long long ngpu,
    int cpuroot, const char *root)
{
	int cols[] = { c->uid, c->cat, c->name, c->pid, c->tid, c->ts, c->dur,
	    -1, -1, c->ext, c->seq, c->dims, c->types, c->strides,
	    c->concrete };
	struct buf *b = &m->row;
	size_t i;

	for (i = 0; i < LEN(cols); i++) {
		if (cols[i] >= 0)
			lazy_put(b, z, cols[i]);
		else
			buf_adds(b, i == 7 ? parent : depth);
		tab(b);
	}
	putnum(b, ngpu);
	tab(b);
	if (m->w.uid == uid) {
		buf_add(b, m->w.r.f[1].s, m->w.r.f[1].len);
		if (m->fwd != NULL && m->w.r.f[1].len > 0) {
			fwrite(m->w.r.f[1].s, 1, m->w.r.f[1].len, m->fwd);
			fprintf(m->fwd, "\t%lld\n", uid);
		}
	}
	tab(b);
	buf_addc(b, cpuroot ? '1' : '0');
	tab(b);
	buf_adds(b, root);
	emit(m->ops, b);
}

static void
gpu_row(struct merge *m, struct lazy *z, const struct evcols *c, int linked)
{
	int cols[] = { c->uid, c->cat, c->name, c->pid, c->tid, c->stream,
	    c->ts, c->dur, c->corr };
	struct buf *b = &m->row;
	const struct rec_reader *g = &m->g.r;
	size_t i;

	for (i = 0; i < LEN(cols); i++) {
		lazy_put(b, z, cols[i]);
		tab(b);
	}
	if (!linked) {
		buf_adds(b, "0\t\t\t\t\t\t\t\t\t\t\t");
		emit(m->gpu, b);
		m->unlinked++;
		return;
	}
	/* runtime, its name, launcher, its name, cpu_op, its name */
	buf_addc(b, '1');
	for (i = 1; i < 7; i++) {
		tab(b);
		buf_add(b, g->f[i].s, g->f[i].len);
	}
	if (g->f[7].len > 0)
		fetch(&m->ft, atoid(g->f[7].s),
		    atoid(g->f[5].s));
	for (i = 0; i < LEN(m->inp); i++) {
		tab(b);
		if (g->f[7].len > 0 && (size_t)m->inp[i] < m->ft.nf)
			buf_add(b, m->ft.f[m->inp[i]].s, m->ft.f[m->inp[i]].len);
	}
	tab(b);
	buf_add(b, g->f[9].s, g->f[9].len);
	emit(m->gpu, b);
}

static void
merge_event(struct merge *m, struct lazy *z, const struct evcols *c)
{
	long long uid = lazy_uid(z, c->uid), ngpu = 0;
	size_t catl;
	const char *cat = lazy_get(z, c->cat, &catl);
	int gpu;

	gpu = gpucat(cat, catl);
	if (side_at(&m->n, uid)) {
		ngpu = atoid(m->n.r.f[1].s);
		side_next(&m->n);
	}
	side_at(&m->w, uid);
	if (side_at(&m->t, uid)) {
		/* dropped runtime events stay only as launches of GPU work */
		if (m->t.r.f[1].s[0] == 'p' || ngpu > 0)
			ops_row(m, z, c, uid, m->t.r.f[2].s, m->t.r.f[3].s, ngpu,
			    m->t.r.f[4].s[0] == '1', m->t.r.f[5].s);
		side_next(&m->t);
	} else if (ngpu > 0) {
		tl_die("%s: line %zu: UID %lld has GPU events but no tree record",
		    m->n.r.name, m->n.r.lineno, uid);
	} else if (!gpu && side_at(&m->g, uid)) {
		/* a flow target that is no GPU event: a leaf under its launch */
		ops_row(m, z, c, uid, m->g.r.f[1].s, m->g.r.f[8].s, 0, 0,
		    m->g.r.f[9].s);
		side_next(&m->g);
	}
	if (side_at(&m->w, uid))
		side_next(&m->w);
	if (gpu) {
		int linked = side_at(&m->g, uid);

		gpu_row(m, z, c, linked);
		if (linked)
			side_next(&m->g);
	}
}

/* One input of merge: events in UID order. */
struct mergein {
	struct rec_reader r;	/* the header */
	struct lazy z;		/* the lines */
	struct evcols c;	/* its columns */
	FILE *fp;		/* the file, owned */
	long long uid;		/* UID of the current line; -1 at the end */
};

static void
mergein_next(struct mergein *mi, int skipgpu)
{
	size_t catl;
	const char *cat;

	for (;;) {
		if (!lazy_read(&mi->z)) {
			mi->uid = -1;
			return;
		}
		if (!skipgpu)
			break;
		cat = lazy_get(&mi->z, mi->c.cat, &catl);
		if (!gpucat(cat, catl))
			break;
	}
	mi->uid = lazy_uid(&mi->z, mi->c.uid);
}

static void
mergein_open(struct mergein *mi, const char *path, char *buf, int skipgpu)
{
	memset(mi, 0, sizeof(*mi));
	mi->fp = xopen(path, "r", buf);
	rec_open(&mi->r, mi->fp, strcmp(path, "-") == 0 ? "<stdin>" : path);
	rec_read_header(&mi->r);
	evcols(&mi->r, &mi->c);
	mi->z.fp = mi->fp;
	mi->z.name = mi->r.name;
	mi->z.lineno = mi->r.lineno;
	mergein_next(mi, skipgpu);
}

static void
mergein_close(struct mergein *mi)
{
	free(mi->z.line);
	free(mi->z.f);
	rec_close(&mi->r);
	if (mi->fp != stdin)
		fclose(mi->fp);
}

/*
 * The events (with -G, all but the GPU events, which come from the
 * GPU events file: the two are merged by UID), each with its records
 * of the tree, link and fwd passes -> ops.tsv and gpu.tsv.
 */
static int
merge(const char *path)
{
	static char iob[8][TL_IOBUF];	/* stdio's: n t w g, events, ops, gpu, -G */
	struct mergein ev, gv, *x;
	struct merge m;
	int status;

	memset(&m, 0, sizeof(m));
	/* first: the counts may come through a fifo that waits for us */
	side_open(&m.n, npath, 2, 0, iob[0]);
	mergein_open(&ev, path, iob[4], gvpath != NULL);
	memset(&gv, 0, sizeof(gv));
	gv.uid = -1;
	if (gvpath)
		mergein_open(&gv, gvpath, iob[7], 0);
	side_open(&m.t, tpath, 6, 1, iob[1]);
	side_open(&m.w, wpath, 2, 1, iob[2]);
	side_open(&m.g, gpath, 10, 1, iob[3]);
	fetch_open(&m.ft, path);
	m.inp[0] = rec_need(&m.ft.hdr, "Input Dims");
	m.inp[1] = rec_need(&m.ft.hdr, "Input type");
	m.inp[2] = rec_need(&m.ft.hdr, "Input Strides");
	m.inp[3] = rec_need(&m.ft.hdr, "Concrete Inputs");
	m.ops = create(dir, "ops.tsv", iob[5]);
	m.gpu = create(dir, "gpu.tsv", iob[6]);
	if (apath)
		m.fwd = xopen(apath, "w", NULL);
	fputs("UID\tcat\tname\tpid\ttid\tts\tdur\tparent\tdepth\tExternal id\t"
	    "Sequence number\tInput Dims\tInput type\tInput Strides\t"
	    "Concrete Inputs\tngpu\tfwd\tcpu_root\troot\n", m.ops);
	fputs("UID\tcat\tname\tpid\ttid\tstream\tts\tdur\tcorrelation\tlinked\t"
	    "runtime\truntime_name\tlauncher\tlauncher_name\tcpu_op\t"
	    "cpu_op_name\tInput Dims\tInput type\tInput Strides\t"
	    "Concrete Inputs\troot\n", m.gpu);
	/* (in trace order, as split checked: a side record out of place dies) */
	while (ev.uid >= 0 || gv.uid >= 0) {
		x = gv.uid < 0 || (ev.uid >= 0 && ev.uid < gv.uid) ? &ev : &gv;
		merge_event(&m, &x->z, &x->c);
		mergein_next(x, x == &ev && gvpath != NULL);
	}
	side_close(&m.t);
	side_close(&m.n);
	side_close(&m.w);
	side_close(&m.g);
	fetch_close(&m.ft);
	status = tl_fshut(m.ops, "ops.tsv");
	status |= tl_fshut(m.gpu, "gpu.tsv");
	if (m.fwd)
		status |= tl_fshut(m.fwd, apath);
	if (fpath) {
		FILE *ff = xopen(fpath, "w", NULL);

		fact(ff, "gpu_events_unlinked", m.unlinked);
		status |= tl_fshut(ff, fpath);
	}
	buf_free(&m.row);
	mergein_close(&ev);
	if (gvpath)
		mergein_close(&gv);
	return status;
}

/* ==== forest: the host trees one at a time (tl-report's perf models) ==== */

/*
 * The forest stream: every host op of ops.tsv as KEY UID cat name
 * parent ngpu fwd cpu_root own nc mod, KEY the tree's root and the
 * op's UID in hex (so that sort, comparing bytes, brings each tree
 * together in UID order); name only when ngpu > 0.  own, nc and mod
 * are 1 when the UID is in the -a, -c and -k lists: some op's fwd link
 * points to it, a communication kernel is below it, it has a perf
 * model.
 */
enum { FKEY, FUID, FCAT, FNAME, FPAR, FNGPU, FFWD, FCR, FOWN, FNC, FMOD, FNF };

/* A UID list (one decimal UID per line, ascending), read as a merge. */
struct ulist {
	struct side s;	/* the list; s.uid is -1 at its end */
	int open;	/* a list was given */
};

static void
ulist_open(struct ulist *l, const char *path)
{
	l->open = path != NULL;
	if (l->open)
		side_open(&l->s, path, 0, 0, NULL);	/* UID: the first field */
}

static void
ulist_close(struct ulist *l)
{
	if (l->open)
		side_free(&l->s);
}

/* 1 when uid is in the list; calls come in ascending uid. */
static int
ulist_has(struct ulist *l, long long uid)
{
	return l->open && side_seek(&l->s, uid);
}

static int
forestmode(const char *path)
{
	static char iob[TL_IOBUF];	/* stdio's, for ops.tsv */
	struct rec_reader r;
	struct ulist own, nc, mod;
	struct buf b = {0};
	FILE *fp = xopen(path, "r", iob), *wfp = NULL;
	int c[8], st = TL_OK;
	long long uid, prev = -1;
	size_t i, flen;
	static const char *const names[] = {
		"UID", "cat", "name", "parent", "ngpu", "fwd", "cpu_root", "root"
	};

	rec_open(&r, fp, path);
	rec_read_header(&r);
	for (i = 0; i < LEN(names); i++)
		c[i] = rec_need(&r, names[i]);
	if (wpath)
		wfp = xopen(wpath, "w", NULL);
	ulist_open(&own, apath);
	ulist_open(&nc, cpath);
	ulist_open(&mod, kpath);
	while (rec_read(&r)) {
		uid = atoid(rec_get(&r, c[0], NULL));
		if (uid <= prev)
			tl_die("%s: line %zu: out of order (UID %lld after %lld)",
			    path, r.lineno, uid, prev);
		prev = uid;
		puthex(&b, (unsigned long long)atoid(rec_get(&r, c[7], NULL)),
		    UIDW);
		puthex(&b, (unsigned long long)uid, UIDW);
		for (i = 0; i < 7; i++) {
			tab(&b);
			/* (no pass reads the name of an op without GPU work) */
			if (i != 2 || atoid(rec_get(&r, c[4], NULL)) > 0)
				put(&b, &r, c[i]);
		}
		buf_adds(&b, ulist_has(&own, uid) ? "\t1" : "\t0");
		buf_adds(&b, ulist_has(&nc, uid) ? "\t1" : "\t0");
		buf_adds(&b, ulist_has(&mod, uid) ? "\t1" : "\t0");
		if (wfp != NULL && rec_get(&r, c[5], &flen)[0] != '\0') {
			/* -w: fwd TAB KEY, the key being this record's first 16 bytes */
			fwrite(rec_get(&r, c[5], NULL), 1, flen, wfp);
			putc('\t', wfp);
			fwrite(b.s, 1, 2 * UIDW, wfp);
			putc('\n', wfp);
		}
		emit(stdout, &b);
	}
	if (wfp != NULL)
		st = tl_fshut(wfp, wpath);
	ulist_close(&own);
	ulist_close(&nc);
	ulist_close(&mod);
	buf_free(&b);
	rec_close(&r);
	fclose(fp);
	return st;
}

/* What an op of the tree is, by its cat. */
enum { FK_CPU, FK_RUNTIME, FK_DRIVER, FK_OTHER };

/* One op of the tree in memory. */
struct fop {
	long long uid;		/* its UID */
	long long par;		/* its parent's UID, -1 for none */
	int kind;		/* FK_*, from its cat */
	size_t name, fwd;	/* fields, as indexes into the arena */
	long long ngpu;		/* GPU events below it */
	int cr, own, nc, mod;	/* cpu_root is 1; the three flags */
	int gpu;		/* a cpu_op with GPU work: the walk sees it */
	int fok;		/* its key is in the -s list */
	int rk;			/* a runtime with GPU work hangs under it */
	int sd;			/* a modelled cpu_op with GPU work is below */
	long sc;		/* count() memo, -1 unset */
	size_t kid0, nkid;	/* its children that the walk sees, in kids[] */
};

/* A tree of the forest stream, read whole. */
struct forest {
	struct rec_reader r;	/* the stream */
	struct buf key;		/* the key of the record read ahead */
	struct buf tree;	/* the tree's 8-byte root part */
	int ahead;		/* r holds a record of the next tree */
	struct fop *op;		/* the tree's ops, UID order */
	size_t n, cap;		/* ops used, allocated */
	struct arena a;		/* their fields */
	size_t *kids;		/* child lists, by parent (each in UID order) */
	size_t kcap;		/* kids allocated */
	FILE *sfp;		/* -s: keys of ops whose fwd op is eligible */
	struct rec_reader s;	/* its reader */
	int shave;		/* s holds a line of the -s list */
	int seof;		/* the -s list is at its end */
	char iob[TL_IOBUF];	/* stdio's, for the stream */
};

static long long
num_or(const char *s, long long dflt)
{
	return *s ? atoid(s) : dflt;
}

/* Index of uid in the tree, or -1. */
static long
fidx(const struct forest *f, long long uid)
{
	size_t lo = 0, hi = f->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (f->op[mid].uid < uid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->n && f->op[lo].uid == uid ? (long)lo : -1;
}

static const char *
fstr(const struct forest *f, size_t i)
{
	return arena_get(&f->a, i);
}

/* key is in the -s list (calls come in ascending key order). */
static int
fok(struct forest *f, const char *key)
{
	int c;

	if (f->sfp == NULL)
		return 0;
	for (;;) {
		if (f->seof)
			return 0;
		if (f->shave && (c = strcmp(f->s.f[0].s, key)) >= 0)
			return c == 0;
		if (!rec_read(&f->s)) {
			f->seof = 1;
			return 0;
		}
		f->shave = 1;
	}
}

/* Read the next tree; 0 at the end of the stream. */
static int
ftree(struct forest *f, int walk)
{
	struct rec_reader *r = &f->r;
	struct fop *o;
	size_t i, j;
	long p;
	int cmp;

	f->n = 0;
	arena_reset(&f->a);
	if (!f->ahead && !rec_read(r))
		return 0;
	buf_reset(&f->tree);
	do {
		need(r, FNF);
		if (r->f[FKEY].len != 2 * UIDW)
			tl_die("%s: line %zu: bad key", r->name, r->lineno);
		if (f->tree.len == 0)
			buf_add(&f->tree, r->f[FKEY].s, UIDW);
		else if (memcmp(r->f[FKEY].s, f->tree.s, UIDW) != 0)
			break;
		cmp = f->key.s ? strcmp(r->f[FKEY].s, f->key.s) : 1;
		if (cmp <= 0)
			tl_die("%s: line %zu: out of order (not sorted by its "
			    "first field)", r->name, r->lineno);
		buf_reset(&f->key);
		buf_add(&f->key, r->f[FKEY].s, r->f[FKEY].len);
		tl_grow((void **)&f->op, &f->cap, f->n + 1, sizeof(*f->op));
		o = &f->op[f->n++];
		memset(o, 0, sizeof(*o));
		o->uid = atoid(r->f[FUID].s);
		o->par = num_or(r->f[FPAR].s, -1);
		o->kind = eq(r->f[FCAT].s, r->f[FCAT].len, "cpu_op") ? FK_CPU :
		    eq(r->f[FCAT].s, r->f[FCAT].len, "cuda_runtime") ? FK_RUNTIME :
		    eq(r->f[FCAT].s, r->f[FCAT].len, "cuda_driver") ? FK_DRIVER :
		    FK_OTHER;
		o->name = arena_add(&f->a, r->f[FNAME].s, r->f[FNAME].len);
		o->fwd = arena_add(&f->a, r->f[FFWD].s, r->f[FFWD].len);
		o->ngpu = num_or(r->f[FNGPU].s, 0);
		o->cr = num_or(r->f[FCR].s, 0) == 1;
		o->own = r->f[FOWN].s[0] == '1';
		o->nc = r->f[FNC].s[0] == '1';
		o->mod = r->f[FMOD].s[0] == '1';
		o->sc = -1;
		if (walk && r->f[FFWD].len > 0)
			o->fok = fok(f, r->f[FKEY].s);
	} while ((f->ahead = rec_read(r)) != 0);
	if (!walk)
		return 1;
	/* the walk's view: cpu_ops with GPU work, and their children */
	for (i = 0; i < f->n; i++) {
		o = &f->op[i];
		if (o->ngpu <= 0)
			continue;
		if (o->kind == FK_RUNTIME) {
			if ((p = fidx(f, o->par)) >= 0)
				f->op[p].rk = 1;
		} else if (o->kind == FK_CPU)
			o->gpu = 1;
	}
	/* children lists: counted per parent, then filled in UID order */
	tl_grow((void **)&f->kids, &f->kcap, f->n + 1, sizeof(*f->kids));
	for (i = 0; i < f->n; i++)
		if (f->op[i].gpu && (p = fidx(f, f->op[i].par)) >= 0)
			f->op[p].nkid++;
	for (i = 0, j = 0; i < f->n; i++) {
		f->op[i].kid0 = j;
		j += f->op[i].nkid;
		f->op[i].nkid = 0;
	}
	for (i = 0; i < f->n; i++)
		if (f->op[i].gpu && (p = fidx(f, f->op[i].par)) >= 0)
			f->kids[f->op[p].kid0 + f->op[p].nkid++] = i;
	/* sd: marked from each modelled op up, until a marked ancestor */
	for (i = 0; i < f->n; i++) {
		if (!f->op[i].gpu || !f->op[i].mod)
			continue;
		for (p = fidx(f, f->op[i].par); p >= 0 && !f->op[p].sd;
		    p = f->op[p].gpu ? fidx(f, f->op[p].par) : -1)
			f->op[p].sd = 1;
	}
	return 1;
}

static void
forest_open(struct forest *f, const char *path, const char *keys, FILE **fp)
{
	memset(f, 0, sizeof(*f));
	*fp = xopen(path, "r", f->iob);
	rec_open(&f->r, *fp, path);
	if (keys) {
		f->sfp = xopen(keys, "r", NULL);
		rec_open(&f->s, f->sfp, keys);
	}
}

static void
forest_close(struct forest *f, FILE *fp)
{
	if (f->sfp) {
		rec_close(&f->s);
		fclose(f->sfp);
	}
	rec_close(&f->r);
	fclose(fp);
	buf_free(&f->key);
	buf_free(&f->tree);
	buf_free(&f->a.b);
	free(f->a.off);
	free(f->op);
	free(f->kids);
}

/*
 * pairs: x TAB X for each fwd target x and each X at or above x (host
 * parents, runtimes and drivers left out) that has a model and is a
 * fwd target itself (TraceLens's get_subtree_bwd_events).
 */
static int
pairsmode(const char *path)
{
	struct forest f;
	struct buf b = {0};
	FILE *fp;
	size_t i;
	long a;

	forest_open(&f, path, NULL, &fp);
	while (ftree(&f, 0)) {
		for (i = 0; i < f.n; i++) {
			if (!f.op[i].own)
				continue;
			for (a = (long)i; a >= 0;) {
				if (f.op[a].mod && f.op[a].own) {
					putnum(&b, f.op[i].uid);
					tab(&b);
					putnum(&b, f.op[a].uid);
					emit(stdout, &b);
				}
				if (f.op[a].kind == FK_RUNTIME ||
				    f.op[a].kind == FK_DRIVER)
					break;
				a = fidx(&f, f.op[a].par);
			}
		}
	}
	buf_free(&b);
	forest_close(&f, fp);
	return TL_OK;
}

/* The walk's state: the tree, and the output record. */
struct walk {
	struct forest *f;	/* the tree */
	struct buf b;		/* the record being written */
};

/* Descendants of w that the walk sees, named main ("" for all). */
static long
fcount(struct forest *f, size_t w, const char *main)
{
	long n = 0;
	size_t i, v;

	for (i = 0; i < f->op[w].nkid; i++) {
		v = f->kids[f->op[w].kid0 + i];
		if (*main == '\0' || strcmp(fstr(f, f->op[v].name), main) == 0)
			n++;
		n += fcount(f, v, main);
	}
	return n;
}

/*
 * The fwd op of u when u is the sole op below its fwd-linked ancestor
 * (up to 5 levels) that carries that ancestor's name, and the
 * ancestor's fwd op is eligible (-s); else NULL.
 */
static const char *
fsole(struct forest *f, size_t u)
{
	long p = f->op[u].gpu ? fidx(f, f->op[u].par) : -1, w = -1;
	const char *nm, *main;
	int i;

	for (i = 0; i < 5 && p >= 0 && f->op[p].gpu; i++) {
		if (*fstr(f, f->op[p].fwd) != '\0') {
			w = p;
			break;
		}
		p = fidx(f, f->op[p].par);
	}
	if (w < 0 || !f->op[w].fok)
		return NULL;
	nm = fstr(f, f->op[w].name);
	main = strstr(nm, ": ");
	main = main ? main + 2 : "";
	if (f->op[w].sc < 0)
		f->op[w].sc = fcount(f, (size_t)w, main);
	return f->op[w].sc == 1 ? fstr(f, f->op[w].fwd) : NULL;
}

static void
fput(struct walk *wk, size_t u, const char *type, const char *fwd)
{
	putnum(&wk->b, wk->f->op[u].uid);
	tab(&wk->b);
	buf_adds(&wk->b, type);
	tab(&wk->b);
	buf_adds(&wk->b, fwd);
	emit(stdout, &wk->b);
}

/* TraceLens's collect_unified_perf_events from u down. */
static void
fwalk(struct walk *wk, size_t u)
{
	struct forest *f = wk->f;
	struct fop *o = &f->op[u];
	const char *fw;
	size_t i, v, n = 0;

	if (!o->gpu)
		return;
	if (o->mod) {
		fput(wk, u, "P", "");
		return;
	}
	if ((fw = fsole(f, u)) != NULL && !o->sd) {
		fput(wk, u, "S", fw);
		return;
	}
	if (!o->sd && o->rk) {
		for (i = 0; i < o->nkid; i++) {
			v = f->kids[o->kid0 + i];
			if (f->op[v].mod) {
				fwalk(wk, v);
				n++;
			}
		}
		if (n == 0 && !o->nc)
			fput(wk, u, "O", "");
		return;
	}
	for (i = 0; i < o->nkid; i++)
		fwalk(wk, f->kids[o->kid0 + i]);
}

/* collect: the ops of unified_perf_summary, as UID TAB type TAB fwd. */
static int
collectmode(const char *path)
{
	struct forest f;
	struct walk wk = {0};
	FILE *fp;
	size_t i;

	forest_open(&f, path, spath, &fp);
	wk.f = &f;
	while (ftree(&f, 1))
		for (i = 0; i < f.n; i++)
			if (f.op[i].gpu && f.op[i].cr)
				fwalk(&wk, i);
	buf_free(&wk.b);
	forest_close(&f, fp);
	return TL_OK;
}

/* ==== unified: the rows of unified_perf_summary, keyed for grouping ==== */

/* The fields of a row record (tl-report's rows): see tl-tree(1). */
enum {
	RSRC, RUID, RTYPE, RNAME, RHAS, RSTATUS, RGF, RDM, RFB, RTBS, RTFS,
	RSPEC, RPARAMS, RBCAT, RKT, RKD, RRT, RRB, RPR, RNF
};

/* One name of meta.tsv: "pid TAB tid TAB kind" and its value. */
struct kv {
	char *k;	/* the key, owned */
	char *v;	/* the value, owned */
	size_t seq;	/* line number: the last line of a key wins */
};

static int
kvcmp(const void *a, const void *b)
{
	const struct kv *x = a, *y = b;
	int c = strcmp(x->k, y->k);

	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

static int
kvkeycmp(const void *a, const void *b)
{
	return strcmp(((const struct kv *)a)->k, ((const struct kv *)b)->k);
}

/* meta.tsv's names, sorted by key (each key once). */
struct meta {
	struct kv *e;	/* the names */
	size_t n;	/* their number */
};

static void
meta_load(struct meta *mt, const char *path)
{
	struct rec_reader r;
	struct buf k = {0};
	FILE *fp = xopen(path, "r", NULL);
	size_t cap = 0, i, j;

	memset(mt, 0, sizeof(*mt));
	rec_open(&r, fp, path);
	rec_read_header(&r);
	while (rec_read(&r)) {
		need(&r, 4);
		buf_reset(&k);
		for (i = 0; i < 3; i++) {
			if (i)
				tab(&k);
			buf_add(&k, r.f[i].s, r.f[i].len);
		}
		tl_grow((void **)&mt->e, &cap, mt->n + 1, sizeof(*mt->e));
		mt->e[mt->n].k = tl_strdup(k.s);
		mt->e[mt->n].v = tl_strndup(r.f[3].s, r.f[3].len);
		mt->e[mt->n].seq = mt->n;
		mt->n++;
	}
	if (mt->n)
		qsort(mt->e, mt->n, sizeof(*mt->e), kvcmp);
	/* keep the last of each key */
	for (i = j = 0; i < mt->n; i++) {
		if (i + 1 < mt->n && strcmp(mt->e[i].k, mt->e[i + 1].k) == 0) {
			free(mt->e[i].k);
			free(mt->e[i].v);
			continue;
		}
		mt->e[j++] = mt->e[i];
	}
	mt->n = j;
	buf_free(&k);
	rec_close(&r);
	fclose(fp);
}

/* The kind name of (pid, tid), or "Unknown"; key is scratch space. */
static const char *
meta_get(const struct meta *mt, struct buf *key, const char *pid,
    const char *tid, const char *kind)
{
	struct kv x, *e;

	buf_reset(key);
	buf_adds(key, pid);
	tab(key);
	buf_adds(key, tid);
	tab(key);
	buf_adds(key, kind);
	x.k = key->s;
	x.seq = 0;
	e = mt->n ? bsearch(&x, mt->e, mt->n, sizeof(*mt->e), kvkeycmp) : NULL;
	return e ? e->v : "Unknown";
}

static void
meta_free(struct meta *mt)
{
	size_t i;

	for (i = 0; i < mt->n; i++) {
		free(mt->e[i].k);
		free(mt->e[i].v);
	}
	free(mt->e);
}

/* s[0..len) unescaped, in a (for opcat). */
static const char *
plain_copy(struct buf *a, const char *s, size_t len)
{
	buf_reset(a);
	buf_add(a, s, len);
	buf_addc(a, '\0');
	rec_unescape(a->s, len);
	return a->s;
}

static void
addf(struct buf *b, const char *s)
{
	tab(b);
	buf_adds(b, s);
}

/* The ops.tsv columns that launchers and unified take. */
enum { OUID, ONAME, OTS, OPID, OTID, ODIMS, OTYPES, OSTRIDES, OCONC, ODUR,
    ONCOL };

/* dir's ops.tsv, read as a merge by UID, and its meta.tsv names. */
struct treeops {
	struct meta mt;		/* meta.tsv's names */
	struct rec_reader r;	/* ops.tsv */
	FILE *fp;		/* its file, owned */
	struct buf path;	/* its path, owned */
	int oc[ONCOL];		/* the columns O*, in r */
	const char *f[ONCOL];	/* their fields in the current record (in r) */
	long long uid;		/* UID of r's record: -1 before, LLONG_MAX after */
	int split;		/* r's record is split (rec_split) */
	char iob[TL_IOBUF];	/* stdio's, for ops.tsv */
};

/* Open dir's ops.tsv and meta.tsv. */
static void
treeops_open(struct treeops *to)
{
	static const char *const cols[ONCOL] = {
		"UID", "name", "ts", "pid", "tid", "Input Dims", "Input type",
		"Input Strides", "Concrete Inputs", "dur"
	};
	size_t i;

	memset(to, 0, sizeof(*to));
	buf_adds(&to->path, dir);
	buf_adds(&to->path, "/meta.tsv");
	meta_load(&to->mt, to->path.s);
	buf_reset(&to->path);
	buf_adds(&to->path, dir);
	buf_adds(&to->path, "/ops.tsv");
	to->fp = xopen(to->path.s, "r", to->iob);
	rec_open(&to->r, to->fp, to->path.s);
	rec_read_header(&to->r);
	for (i = 0; i < ONCOL; i++)
		to->oc[i] = rec_need(&to->r, cols[i]);
	to->uid = -1;
}

/*
 * Advance to uid (calls in ascending uid); 1 when ops.tsv has it, its
 * fields then in to->f.
 */
static int
treeops_at(struct treeops *to, long long uid)
{
	size_t i;

	/* (most records are skipped: only the UID of each is read, when
	 * it leads the record, as in the tree stage's ops.tsv) */
	while (to->uid < uid) {
		if (!rec_next(&to->r)) {
			to->uid = LLONG_MAX;
			break;
		}
		to->split = to->oc[OUID] != 0;
		if (to->split)
			rec_split(&to->r);
		to->uid = atoid(to->split ?
		    rec_get(&to->r, to->oc[OUID], NULL) : to->r.cur);
	}
	if (to->uid != uid)
		return 0;
	if (!to->split) {
		rec_split(&to->r);
		to->split = 1;
	}
	for (i = 0; i < ONCOL; i++)
		to->f[i] = rec_get(&to->r, to->oc[i], NULL);
	return 1;
}

/* Append TAB and the op's process and thread names and its inputs. */
static void
addnames(struct buf *b, struct treeops *to, struct buf *key)
{
	size_t i;

	addf(b, meta_get(&to->mt, key, to->f[OPID], "0", "process_name"));
	addf(b, meta_get(&to->mt, key, to->f[OPID], "0", "process_labels"));
	addf(b, meta_get(&to->mt, key, to->f[OPID], to->f[OTID],
	    "thread_name"));
	for (i = ODIMS; i <= OCONC; i++)
		addf(b, to->f[i]);
}

static void
treeops_close(struct treeops *to)
{
	meta_free(&to->mt);
	rec_close(&to->r);
	fclose(to->fp);
	buf_free(&to->path);
}

/* The state of unified across its inputs. */
struct unified {
	struct thrtab groups;	/* the groups' keys; idx + 1 is gseq */
	FILE *gfp;		/* -g: the groups' keys, or NULL */
	struct buf b;		/* the record being written */
	struct buf g;		/* the group key being built */
	struct buf key;		/* scratch for meta_get */
	struct buf nm, kn;	/* scratch for opcat */
	struct buf gl;		/* scratch for -g: a group's line */
	long long rn;		/* rows written */
	int fdur;		/* some dur is not a whole number */
};

/*
 * -g: a new group's keys, once, in gseq order: gseq name cat pn pl tn
 * and the four inputs as Python literals, as tl-aggregate's first and
 * pylit would give them (every row of the group has the same).
 */
static void
ugroup(struct unified *u, long long gseq)
{
	struct buf *o = &u->gl;
	const char *p = u->g.s, *e = p + u->g.len, *t;
	int i;

	buf_reset(o);
	putnum(o, gseq);
	for (i = 0; i < 9; i++, p = t + 1) {
		if ((t = memchr(p, '\t', (size_t)(e - p))) == NULL)
			t = e;
		tab(o);
		if (i < 5)
			buf_add(o, p, (size_t)(t - p));
		else
			pylit_field(o, p, (size_t)(t - p));
	}
	emit(u->gfp, o);
}

/*
 * One input of unified (rows sorted by source op), merged with ops.tsv
 * and the first kernels, each read again from the start.
 */
static void
upass(struct unified *u, const char *path)
{
	struct rec_reader r;
	struct treeops to;
	struct side k1;
	struct buf *b = &u->b, *g = &u->g;
	FILE *fp = xopen(path, "r", NULL);
	const char *const *f = to.f;
	int y;
	long long src, prev = -1, gseq;
	const char *name, *cat, *k1s, *s;
	size_t i, k1len, ngroups;

	treeops_open(&to);
	side_open(&k1, kpath, 2, 0, NULL);
	rec_open(&r, fp, strcmp(path, "-") == 0 ? "<stdin>" : path);
	while (rec_read(&r)) {
		need(&r, RNF);
		src = atoid(r.f[RSRC].s);
		if (src < prev)
			tl_die("%s: line %zu: out of order (source op %lld "
			    "after %lld)", r.name, r.lineno, src, prev);
		prev = src;
		if (!treeops_at(&to, src))
			continue;
		k1s = side_seek(&k1, src) ? k1.r.f[1].s : "";
		k1len = k1.uid == src ? k1.r.f[1].len : 0;
		y = strcmp(r.f[RTYPE].s, "Y") == 0;
		name = y ? r.f[RNAME].s : f[ONAME];
		cat = r.f[RBCAT].len ? r.f[RBCAT].s :
		    opcat(plain_copy(&u->nm, name, strlen(name)),
		    k1len ? plain_copy(&u->kn, k1s, k1len) : NULL);
		/* the row's group */
		buf_reset(g);
		buf_adds(g, name);
		addf(g, cat);
		addnames(g, &to, &u->key);
		ngroups = u->groups.n;
		gseq = thr_get(&u->groups, g->s, g->len)->idx + 1;
		if (u->gfp != NULL && u->groups.n > ngroups)
			ugroup(u, gseq);
		/* the sort key: gseq, cls, ts, UID */
		putukey(b, gseq);
		buf_addc(b, y ? '1' : '0');
		putdec(b, y ? "0" : f[OTS]);
		putukey(b, atoid(r.f[RUID].s));
		tab(b);
		putnum(b, gseq);
		tab(b);
		putnum(b, ++u->rn);
		addf(b, y ? "1" : "0");
		addf(b, y ? "0" : f[OTS]);
		addf(b, r.f[RUID].s);
		if (u->gfp != NULL) {
			/* (the group's keys are in -g's file) */
			buf_adds(b, "\t\t\t\t\t\t\t\t");
		} else {
			addf(b, name);
			/* the names and inputs: in g, after name and category */
			s = strchr(strchr(g->s, '\t') + 1, '\t');
			buf_add(b, s, g->len - (size_t)(s - g->s));
		}
		addf(b, f[ODUR]);
		if (strpbrk(f[ODUR], ".eE"))
			u->fdur = 1;
		for (i = RHAS; i < RSPEC; i++)
			addf(b, r.f[i].s);
		/* (a missing spec of a row without a model sorts apart) */
		addf(b, r.f[RSPEC].len == 0 &&
		    strcmp(r.f[RSTATUS].s, "ok") != 0 ? "\001" : r.f[RSPEC].s);
		for (i = RPARAMS; i < RNF; i++)
			addf(b, r.f[i].s);
		addf(b, u->gfp != NULL ? "" : cat);
		emit(stdout, b);
	}
	/* (first kernels of ops without a row may be left) */
	side_free(&k1);
	treeops_close(&to);
	rec_close(&r);
	fclose(fp);
}

/*
 * unified: the rows (sorted by source op) with their source op's
 * fields from dir's ops.tsv and meta.tsv, the source op's first kernel
 * (-k: UID TAB name, UID order), the op category, and gseq, the number
 * of the row's group (name, category, process and thread names,
 * inputs).  -y: more rows, sorted by source op on their own (the
 * synthetic ops), read after the others.  Rows whose source op is not
 * in ops.tsv are left out.  -o FILE gets 1 when some dur is not a
 * whole number, else 0.  Memory: one row, meta.tsv, and the keys of
 * the groups.
 */
static int
unifiedmode(const char *path)
{
	struct unified u;
	FILE *df;
	size_t i;
	int st = TL_OK;

	memset(&u, 0, sizeof(u));
	fputs("key\tgseq\trn\tcls\tts\tUID\tname\tprocess_name\tprocess_label\t"
	    "thread_name\tInput Dims\tInput type\tInput Strides\t"
	    "Concrete Inputs\tdur\thas\tstatus\tgf\tdm\tfb\ttbs\ttfs\tspec\t"
	    "params\tbcat\tkt\tkd\trt\trb\tpr\top category\n", stdout);
	if (gpath) {
		u.gfp = xopen(gpath, "w", NULL);
		fputs("gseq\tname\tcat\tpn\tpl\ttn\td\tt\ts\tc\n", u.gfp);
	}
	upass(&u, path);
	if (ypath)
		upass(&u, ypath);
	if (u.gfp != NULL)
		st |= tl_fshut(u.gfp, gpath);
	if (opath) {
		df = xopen(opath, "w", NULL);
		fprintf(df, "%d\n", u.fdur);
		st |= tl_fshut(df, opath);
	}
	for (i = 0; i < u.groups.cap; i++)
		free(u.groups.t[i].key);
	free(u.groups.t);
	buf_free(&u.b);
	buf_free(&u.g);
	buf_free(&u.key);
	buf_free(&u.nm);
	buf_free(&u.kn);
	buf_free(&u.gl);
	return st;
}

/* ==== launchers: the kernel launchers' table of tl-report ==== */

/*
 * launchers: one row per launcher of the input (kernels' records: op
 * direct count g1 k1 kd subtree, with a header, in op order), with its
 * fields from dir's ops.tsv and meta.tsv, and TraceLens's op category
 * (by name and first kernel k1), as UID name "op category"
 * process_name process_label thread_name Input Dims, Input type, Input
 * Strides, Concrete Inputs, ts direct subtree g1 kd tkey; k1 goes to
 * -o's UID TAB k1.  Memory: one row and meta.tsv.
 */
static int
launchersmode(const char *path)
{
	static const char *const icols[] = {
		"op", "direct", "count", "g1", "k1", "kd", "subtree"
	};
	struct rec_reader r;
	struct treeops to;
	struct buf b = {0}, key = {0}, nm = {0}, kn = {0};
	FILE *fp = xopen(path, "r", NULL), *k1fp = NULL;
	const char *const *f = to.f;
	const char *st;
	int ic[LEN(icols)];
	long long op, prev = -1;
	const char *k1;
	size_t i, k1len, stlen;

	treeops_open(&to);
	rec_open(&r, fp, strcmp(path, "-") == 0 ? "<stdin>" : path);
	rec_read_header(&r);
	for (i = 0; i < LEN(icols); i++)
		ic[i] = rec_need(&r, icols[i]);
	fputs("UID\tname\top category\tprocess_name\tprocess_label\t"
	    "thread_name\tInput Dims\tInput type\tInput Strides\t"
	    "Concrete Inputs\tts\tdirect\tsubtree\tg1\tkd\ttkey\n", stdout);
	/* -o: k1 apart, for the one reader that wants it */
	if (opath) {
		k1fp = xopen(opath, "w", NULL);
		fputs("UID\tk1\n", k1fp);
	}
	while (rec_read(&r)) {
		op = atoid(rec_get(&r, ic[0], NULL));
		if (op <= prev)
			tl_die("%s: line %zu: out of order (op %lld after %lld)",
			    r.name, r.lineno, op, prev);
		prev = op;
		/* a launcher launches kernels itself */
		if (atoid(rec_get(&r, ic[2], NULL)) <= 0)
			continue;
		if (!treeops_at(&to, op))
			tl_die("%s: line %zu: launcher %lld is not in ops.tsv",
			    r.name, r.lineno, op);
		k1 = rec_get(&r, ic[4], &k1len);
		st = rec_get(&r, ic[6], &stlen);
		putnum(&b, op);
		addf(&b, f[ONAME]);
		addf(&b, opcat(plain_copy(&nm, f[ONAME], strlen(f[ONAME])),
		    k1len ? plain_copy(&kn, k1, k1len) : NULL));
		addnames(&b, &to, &key);
		addf(&b, f[OTS]);
		addf(&b, rec_get(&r, ic[1], NULL));
		addf(&b, stlen ? st : "0");
		addf(&b, rec_get(&r, ic[3], NULL));
		addf(&b, rec_get(&r, ic[5], NULL));
		if (k1fp) {
			fprintf(k1fp, "%lld\t", op);
			fwrite(k1, 1, k1len, k1fp);
			putc('\n', k1fp);
		}
		/* ts, then g1, as a key that sort compares as bytes */
		tab(&b);
		putdec(&b, f[OTS]);
		putukey(&b, atoid(rec_get(&r, ic[3], NULL)));
		emit(stdout, &b);
	}
	treeops_close(&to);
	buf_free(&b);
	buf_free(&key);
	buf_free(&nm);
	buf_free(&kn);
	rec_close(&r);
	fclose(fp);
	return k1fp ? tl_fshut(k1fp, opath) : TL_OK;
}

/* ==== rows: the rows of unified_perf_summary with their metrics ==== */

/* The model columns unified_perf_summary takes, by the names tl-roofline
 * gives them; the last three come with a GPU spec only. */
static const char *const metcols[] = {
	"model_status", "GFLOPS", "Data Moved (MB)", "FLOPS/Byte", "TB/s",
	"TFLOPS/s", "Compute Spec", "params", "op category", "Kernel Time (µs)",
	"Roofline Time (µs)", "Roofline Bound", "Pct Roofline"
};
enum { NMET = LEN(metcols), NMETBASE = 10 };

/* The state of rows across its inputs. */
struct rows {
	struct side met;	/* -f: the fwd metrics (tl-roofline's columns) */
	int mc[NMET];		/* their columns in met; -1 when absent */
	struct side ki;		/* -k: kernel time and list by UID */
	struct side sm;		/* -s: the S rows' bwd metrics, UID then NMET */
	struct buf b;		/* the row being written */
	long long prev;		/* last UID read */
};

/*
 * One row: r's UID and type (P, S, O), or with src a synthetic op (Y)
 * of that source op and name.
 * Writes src UID type name has status gf dm fb tbs tfs spec params bcat
 * kt kd rt rb pr to fp; a P row whose model is undefined has none.
 */
static void
row(struct rows *rw, FILE *fp, const struct rec_reader *r, const char *src,
    const char *name)
{
	long long u = atoid(r->f[0].s);
	const char *t = src ? "Y" : r->f[1].s;
	const char *x[NMET], *kt = "", *kd = "";
	struct buf *b = &rw->b;
	size_t i;

	if (u <= rw->prev)
		tl_die("%s: line %zu: out of order (UID %lld after %lld)",
		    r->name, r->lineno, u, rw->prev);
	rw->prev = u;
	for (i = 0; i < NMET; i++)
		x[i] = "";
	if (side_seek(&rw->ki, u)) {
		kt = rec_get(&rw->ki.r, 1, NULL);
		kd = rec_get(&rw->ki.r, 2, NULL);
	}
	if (*t == 'P') {
		if (side_seek(&rw->met, u))
			for (i = 0; i < NMET; i++)
				if (rw->mc[i] >= 0)
					x[i] = rec_get(&rw->met.r, rw->mc[i], NULL);
		if (strcmp(x[0], "undefined") == 0)
			return;
		if (strcmp(x[0], "ok") == 0)
			kt = x[9];
		else
			for (i = 1; i < NMET; i++)
				x[i] = "";
	} else if (*t == 'S') {
		if (rw->sm.fp != NULL && side_seek(&rw->sm, u))
			for (i = 0; i < NMET; i++)
				x[i] = rec_get(&rw->sm.r, (int)i + 1, NULL);
		kt = x[9];
	}
	if (*t == 'Y')
		buf_adds(b, src);
	else
		putnum(b, u);
	tab(b), putnum(b, u);
	addf(b, t);
	addf(b, *t == 'Y' ? name : "");
	addf(b, *t == 'P' || *t == 'S' ? "True" : "False");
	for (i = 0; i < 8; i++)
		addf(b, x[i]);
	addf(b, *t == 'S' ? x[8] : "");
	addf(b, kt);
	addf(b, kd);
	for (i = NMETBASE; i < NMET; i++)
		addf(b, x[i]);
	emit(fp, b);
}

/*
 * rows: the rows of unified_perf_summary (TraceLens's
 * collect_unified_perf_events) with their metrics, kernel time and
 * kernel list, for tl-tree -m unified: the collected ops (UID type
 * fwd, UID order) to the standard output; the synthetic ops of -y
 * (UID src name ..., UID order) to -o.  Memory: one record per input.
 */
static int
rowsmode(const char *path)
{
	struct rows rw;
	struct rec_reader r;
	FILE *fp = xopen(path, "r", NULL), *yo;
	size_t i;
	int st = TL_OK;

	memset(&rw, 0, sizeof(rw));
	rw.prev = -1;
	side_openh(&rw.met, fpath, "UID");
	for (i = 0; i < NMET; i++)
		if ((rw.mc[i] = rec_col(&rw.met.r, metcols[i])) < 0 && i < NMETBASE)
			tl_die("%s: no column '%s'", fpath, metcols[i]);
	side_openh(&rw.ki, kpath, "op");
	if (spath)
		side_open(&rw.sm, spath, 0, 0, NULL);
	rec_open(&r, fp, strcmp(path, "-") == 0 ? "<stdin>" : path);
	while (rec_read(&r)) {
		need(&r, 3);	/* UID type fwd */
		row(&rw, stdout, &r, NULL, NULL);
	}
	rec_close(&r);
	if (fp != stdin)
		fclose(fp);
	if (ypath) {
		fp = xopen(ypath, "r", NULL);
		yo = xopen(opath, "w", NULL);
		rec_open(&r, fp, ypath);
		while (rec_read(&r)) {
			need(&r, 8);	/* UID src name ts dur kname stream gpu */
			row(&rw, yo, &r, r.f[1].s, r.f[2].s);
		}
		rec_close(&r);
		fclose(fp);
		st = tl_fshut(yo, opath);
	}
	side_free(&rw.met);
	side_free(&rw.ki);
	if (spath)
		side_free(&rw.sm);
	buf_free(&rw.b);
	return st;
}

/* ==== kernels; subtree, direct: the intervals of ops ==== */

/* The intervals.tsv columns these modes read (ref only with -G). */
enum { IOP, IKIND, ITS, IDUR, INAME, ISTREAM, IGPU, IREF, INCOL };

/* intervals.tsv (sorted by op), read record by record. */
struct ivin {
	struct rec_reader r;	/* the file */
	FILE *fp;		/* its stream, owned */
	int c[INCOL];		/* the columns I*, in r */
	long long op;		/* op of the current record; -1 before */
	struct fetch gv;	/* -G: the GPU events, for s records' names */
	int gvname;		/* the name column of gv's lines */
	char iob[TL_IOBUF];	/* stdio's, for the file */
};

static void
ivin_open(struct ivin *in, const char *path)
{
	static const char *const names[INCOL] = {
		"op", "kind", "ts", "dur", "name", "stream", "gpu", "ref"
	};
	size_t i;

	in->fp = xopen(path, "r", in->iob);
	rec_open(&in->r, in->fp, strcmp(path, "-") == 0 ? "<stdin>" : path);
	rec_read_header(&in->r);
	for (i = 0; i < INCOL; i++)
		in->c[i] = i == IREF && !gvpath ? rec_col(&in->r, names[i]) :
		    rec_need(&in->r, names[i]);
	in->op = -1;
	if (gvpath) {
		fetch_open(&in->gv, gvpath);
		in->gvname = rec_need(&in->gv.hdr, "name");
	}
}

/*
 * The name of the current record: an s record's from the GPU events
 * (-G) at its ref, as the tree stage leaves it out of intervals.tsv.
 */
static const char *
ivin_name(struct ivin *in, size_t *len)
{
	const struct rec_reader *r = &in->r;
	const char *s = rec_get(r, in->c[INAME], len);

	if (*len > 0 || !gvpath || *rec_get(r, in->c[IKIND], NULL) != 's')
		return s;
	fetch(&in->gv, atoid(rec_get(r, in->c[IREF], NULL)),
	    atoid(rec_get(r, in->c[IGPU], NULL)));
	return fetched(&in->gv, in->gvname, len);
}

/* The current record's op, which must not be below the last one. */
static void
ivin_setop(struct ivin *in, long long op)
{
	if (op < in->op)
		tl_die("%s: line %zu: out of order (op %lld after %lld)",
		    in->r.name, in->r.lineno, op, in->op);
	in->op = op;
}

/* op and kind lead the record, as the tree stage writes them. */
static int
ivin_bare(const struct ivin *in)
{
	return in->c[IOP] == 0 && in->c[IKIND] == 1;
}

/* The next record; 0 at the end.  Dies when op decreases. */
static int
ivin_next(struct ivin *in)
{
	if (!rec_read(&in->r))
		return 0;
	ivin_setop(in, atoid(rec_get(&in->r, in->c[IOP], NULL)));
	return 1;
}

/* The kind of the current record: 'd', 's' or 'n'. */
static char
ivin_kind(const struct ivin *in)
{
	size_t len;
	const char *k = rec_get(&in->r, in->c[IKIND], &len);

	return len == 1 ? k[0] : '?';
}

/*
 * ivin_next without the split, for the passes that pick a few ops'
 * records out of many: the op and the kind are read off the line's
 * first two fields, where the tree stage writes them, and ivin_split
 * splits the line when it is wanted.  *kind is 'd', 's', 'n' or '?'.
 */
static int
ivin_peek(struct ivin *in, char *kind)
{
	const char *s, *e, *t;

	if (!ivin_bare(in)) {
		if (!ivin_next(in))
			return 0;
		*kind = ivin_kind(in);
		return 1;
	}
	if (!rec_next(&in->r))
		return 0;
	s = in->r.cur;
	e = s + in->r.curlen;
	ivin_setop(in, atoid(s));
	t = memchr(s, '\t', (size_t)(e - s));
	*kind = t != NULL && e - t >= 2 && (e - t == 2 || t[2] == '\t') ?
	    t[1] : '?';
	return 1;
}

/* Split the line ivin_peek read. */
static void
ivin_split(struct ivin *in)
{
	if (ivin_bare(in))
		rec_split(&in->r);
}

static void
ivin_close(struct ivin *in)
{
	rec_close(&in->r);
	fclose(in->fp);
	if (gvpath)
		fetch_close(&in->gv);
}

/*
 * One op's kernels of one kind, as tl-aggregate's union, count, min,
 * first and list would fold them: TraceLens's busy time and kernel
 * list, in intervals.tsv's order (ts, then GPU UID).
 */
struct kacc {
	struct merger m;	/* the union of their intervals */
	size_t n;		/* kernels */
	long long g1;		/* smallest GPU UID */
	struct buf k1;		/* first non-empty name */
	struct buf kd;		/* JSON list of name, dur, stream, without ']' */
	int list;		/* kd is wanted */
};

static void
kacc_reset(struct kacc *k)
{
	k->m.exact = exact;
	mg_reset(&k->m);
	k->n = 0;
	buf_reset(&k->k1);
	buf_reset(&k->kd);
}

static void
kacc_add(struct kacc *k, struct ivin *in)
{
	const struct rec_reader *r = &in->r;
	const char *s;
	size_t len;
	union tv ts, dur;
	long long g;

	s = rec_get(r, in->c[ITS], &len);
	if (ival_parse(exact, s, len, &ts) < 0)
		tl_die("%s: line %zu: ts is not a time: %.40s", r->name,
		    r->lineno, s);
	s = rec_get(r, in->c[IDUR], &len);
	if (ival_parse(exact, s, len, &dur) < 0)
		tl_die("%s: line %zu: dur is not a time: %.40s", r->name,
		    r->lineno, s);
	if (mg_add(&k->m, ts, ival_add(exact, ts, dur)) < 0)
		tl_die("%s: line %zu: ts decreases within op %lld", r->name,
		    r->lineno, in->op);
	g = atoid(rec_get(r, in->c[IGPU], NULL));
	if (k->n++ == 0 || g < k->g1)
		k->g1 = g;
	s = ivin_name(in, &len);
	if (k->k1.len == 0)
		buf_add(&k->k1, s, len);
	if (!k->list)
		return;
	buf_adds(&k->kd, k->n > 1 ? ",{\"name\":" : "[{\"name\":");
	json_val(&k->kd, s, len);
	buf_adds(&k->kd, ",\"dur\":");
	s = rec_get(r, in->c[IDUR], &len);
	json_val(&k->kd, s, len);
	buf_adds(&k->kd, ",\"stream\":");
	s = rec_get(r, in->c[ISTREAM], &len);
	json_val(&k->kd, s, len);
	buf_addc(&k->kd, '}');
}

/* Append TAB and the busy time (nothing for no kernels). */
static void
kacc_time(struct buf *b, struct kacc *k)
{
	char t[64];

	tab(b);
	if (k->n > 0)
		buf_adds(b, ival_fmt(exact, mg_union(&k->m), t, sizeof(t)));
}

/* Append TAB and the kernel list, escaped as a record field. */
static void
kacc_list(struct buf *b, struct kacc *k)
{
	tab(b);
	if (k->n == 0)
		return;
	buf_addc(&k->kd, ']');
	/* (the names were unescaped into JSON: escape its text again) */
	rec_bput(b, k->kd.s, k->kd.len);
}

static void
kacc_free(struct kacc *k)
{
	buf_free(&k->k1);
	buf_free(&k->kd);
}

/*
 * kernels: for every op of intervals.tsv, its direct kernels' busy
 * time, count, first GPU UID, first name and list, and its subtree's
 * busy time: op direct count g1 k1 kd subtree.  Memory: one op's
 * direct kernel list.
 */
static int
kernelsmode(const char *path)
{
	struct ivin *in = tl_calloc(1, sizeof(*in));
	struct kacc d = {0}, st = {0};
	struct buf b = {0};
	long long op = -1;
	int more;
	char k;

	ivin_open(in, path);
	d.list = 1;
	kacc_reset(&d);
	kacc_reset(&st);
	fputs("op\tdirect\tcount\tg1\tk1\tkd\tsubtree\n", stdout);
	do {
		more = ivin_next(in);
		if (op >= 0 && (!more || in->op != op)) {
			putnum(&b, op);
			kacc_time(&b, &d);
			tab(&b), putnum(&b, (long long)d.n);
			tab(&b);
			if (d.n > 0)
				putnum(&b, d.g1);
			tab(&b), buf_add(&b, d.k1.s, d.k1.len);
			kacc_list(&b, &d);
			kacc_time(&b, &st);
			emit(stdout, &b);
			kacc_reset(&d);
			kacc_reset(&st);
		}
		if (!more)
			break;
		op = in->op;
		if ((k = ivin_kind(in)) == 'd')
			kacc_add(&d, in);
		else if (k == 's')
			kacc_add(&st, in);
	} while (more);
	kacc_free(&d);
	kacc_free(&st);
	buf_free(&b);
	ivin_close(in);
	free(in);
	return TL_OK;
}

/*
 * subtree, direct: the intervals of kind 's' (subtree) or 'd' (direct)
 * of the ops that -k lists (op TAB tag, sorted by op; an op may have
 * several tags), as tag ts dur name stream gpu, once per tag, in
 * intervals.tsv's order.  With -a, instead, each listed op's busy time
 * and kernel list (op kt kd; the tags are not used).  A merge join:
 * memory is one op's tags, or its kernel list.
 */
static int
pickmode(const char *path, char kind)
{
	struct ivin *in = tl_calloc(1, sizeof(*in));
	struct rec_reader k;
	struct arena tags = {0};
	struct kacc ka = {0};
	struct buf b = {0};
	FILE *kfp = xopen(kpath, "r", NULL);
	long long cur = -1, kop = -1, kprev;
	int kend, more;
	size_t i, j, namel;
	const char *name;
	char k1;

	ivin_open(in, path);
	rec_open(&k, kfp, kpath);
	if (!(kend = !rec_read(&k))) {
		need(&k, 2);
		kop = atoid(k.f[0].s);
	}
	ka.list = 1;
	kacc_reset(&ka);
	if (bflag)
		fputs("op\tkt\tkd\n", stdout);
	do {
		more = ivin_peek(in, &k1);
		if (bflag && ka.n > 0 && (!more || in->op != cur)) {
			putnum(&b, cur);
			kacc_time(&b, &ka);
			kacc_list(&b, &ka);
			emit(stdout, &b);
			kacc_reset(&ka);
		}
		if (!more || (kend && tags.n == 0))
			break;
		if (k1 != kind)
			continue;
		if (in->op != cur) {
			cur = in->op;
			arena_reset(&tags);
			while (!kend && kop <= cur) {
				if (kop == cur)
					arena_add(&tags, k.f[1].s, k.f[1].len);
				if ((kend = !rec_read(&k)) != 0)
					break;
				need(&k, 2);
				kprev = kop;
				kop = atoid(k.f[0].s);
				if (kop < kprev)
					tl_die("%s: line %zu: out of order (op %lld "
					    "after %lld)", k.name, k.lineno, kop,
					    kprev);
			}
		}
		/* (most records are of ops not asked for: never split) */
		if (tags.n == 0)
			continue;
		ivin_split(in);
		if (bflag) {
			kacc_add(&ka, in);
			continue;
		}
		name = ivin_name(in, &namel);
		for (j = 0; j < tags.n; j++) {
			buf_adds(&b, arena_get(&tags, j));
			for (i = ITS; i <= IGPU; i++) {
				tab(&b);
				if (i == INAME)
					buf_add(&b, name, namel);
				else
					put(&b, &in->r, in->c[i]);
			}
			emit(stdout, &b);
		}
	} while (more);
	kacc_free(&ka);
	buf_free(&b);
	buf_free(&tags.b);
	free(tags.off);
	rec_close(&k);
	fclose(kfp);
	ivin_close(in);
	free(in);
	return TL_OK;
}

/* ==== main ==== */

/* The two long options every mode takes, as their short forms. */
static void
longopts(int argc, char *argv[])
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--python") == 0)
			argv[i] = "-p";
		else if (strcmp(argv[i], "--exact-time") == 0)
			argv[i] = "-x";
	}
}

int
main(int argc, char *argv[])
{
	const char *mode = NULL, *in;
	int ch;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	longopts(argc, argv);
	while ((ch = getopt(argc, argv, "a:bc:d:e:f:G:g:k:m:n:o:ps:t:w:xy:")) != -1) {
		switch (ch) {
		case 'a': apath = optarg; break;
		case 'b': bflag = 1; break;
		case 'c': cpath = optarg; break;
		case 'd': dir = optarg; break;
		case 'e': epath = optarg; break;
		case 'f': fpath = optarg; break;
		case 'G': gvpath = optarg; break;
		case 'g': gpath = optarg; break;
		case 'k': kpath = optarg; break;
		case 'm': mode = optarg; break;
		case 'n': npath = optarg; break;
		case 'o': opath = optarg; break;
		case 'p': python = 1; break;
		case 's': spath = optarg; break;
		case 't': tpath = optarg; break;
		case 'w': wpath = optarg; break;
		case 'x': exact = 1; break;
		case 'y': ypath = optarg; break;
		default: usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (mode == NULL)
		usage(TL_EUSAGE);
	if (strcmp(mode, "link") == 0) {
		if (gpath == NULL)
			usage(TL_EUSAGE);
		return linkmode(argc, argv) | tl_fshut(stdout, "<stdout>");
	}
	if (argc > 1)
		usage(TL_EUSAGE);
	in = argc ? argv[0] : "-";
	if (strcmp(mode, "split") == 0 && dir)
		return split(in);	/* closes the standard output */
	if (strcmp(mode, "host") == 0 && tpath)
		return host(in) | tl_fshut(stdout, "<stdout>");
	if (strcmp(mode, "intervals") == 0 && opath && epath)
		return intervals(in) | tl_fshut(stdout, "<stdout>");
	if (strcmp(mode, "fwd") == 0)
		return fwd(in);
	if (strcmp(mode, "overlap") == 0)
		return overlap(in);
	if (strcmp(mode, "forest") == 0)
		return forestmode(in) |
		    tl_fshut(stdout, "<stdout>");
	if (strcmp(mode, "pairs") == 0)
		return pairsmode(in) | tl_fshut(stdout, "<stdout>");
	if (strcmp(mode, "subtree") == 0 && kpath)
		return pickmode(in, 's') | tl_fshut(stdout, "<stdout>");
	if (strcmp(mode, "direct") == 0 && kpath)
		return pickmode(in, 'd') | tl_fshut(stdout, "<stdout>");
	if (strcmp(mode, "rows") == 0 && fpath && kpath && (!ypath || opath))
		return rowsmode(in) | tl_fshut(stdout, "<stdout>");
	if (strcmp(mode, "kernels") == 0)
		return kernelsmode(in) | tl_fshut(stdout, "<stdout>");
	if (strcmp(mode, "launchers") == 0 && dir)
		return launchersmode(in) | tl_fshut(stdout, "<stdout>");
	if (strcmp(mode, "unified") == 0 && dir && kpath)
		return unifiedmode(in) | tl_fshut(stdout, "<stdout>");
	if (strcmp(mode, "collect") == 0)
		return collectmode(in) | tl_fshut(stdout, "<stdout>");
	if (strcmp(mode, "merge") == 0 && dir && tpath && npath && wpath &&
	    gpath && argc == 1)
		return merge(in);
	usage(TL_EUSAGE);
}
