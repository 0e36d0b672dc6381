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
 * tl-tree builds the tree and only that: the programs that read its
 * files for tl-report are tl-kernels, tl-launchers, tl-forest, tl-pick,
 * tl-perfrows and tl-unified; what they share with it is treeio.h's.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"
#include "treeio.h"

static int exact;		/* -x: exact ns instead of TraceLens's doubles */
static int python;		/* -p: python_function events join the tree */
static int compat;		/* -C: only what TraceLens reads (no older flows) */
static const char *dir;		/* -d: split's work folder, merge's tree folder */
static const char *tpath;	/* -t: the tree records (host out, merge in) */
static const char *gpath;	/* -g: the launched-event records (link out, merge in) */
static const char *npath;	/* -n: the GPU-event counts per op (merge in) */
static const char *wpath;	/* -w: the forward links (merge in) */
static const char *opath;	/* -o: intervals.tsv (intervals out) */
static const char *epath;	/* -e: the events (split out, a copy; later in) */
static const char *gvpath;	/* -G: the GPU events' lines (split out, later in) */
static const char *fpath;	/* -f: facts (out) */
static const char *apath;	/* -a: fwd TAB UID of each linked op (merge out) */
static const char *cpath;	/* -c: UIDs with communication below (intervals out) */
static const char *spath;	/* -s: the selected events (split out) */

/* Key widths: a UID is UIDW hex digits (treeio.h), a time 16. */
enum { TIMEW = 16 };

/* A time as the chosen arithmetic sees it. */
struct ttv {
	double us;	/* TraceLens: microseconds as a Python float */
	int64_t ns;	/* -x: exact nanoseconds */
};

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-tree -m split [-Cpx] -d dir [-e copy] [-G gpuevents]"
	    " [-s selected] [events]\n"
	    "       tl-tree -m host [-x] -t tree [-f facts] [hostrecs]\n"
	    "       tl-tree -m link [-x] -g gpurecs [-f facts] [linkrecs ...]\n"
	    "       tl-tree -m intervals -e events [-G gpuevents] -o intervals.tsv"
	    " [-c comm] [xrecs]\n"
	    "       tl-tree -m fwd [-x] [seqrecs]\n"
	    "       tl-tree -m overlap [streamrecs]\n"
	    "       tl-tree -m merge -d outdir -t tree -n ngpu -w fwd -g gpurecs"
	    " [-a fwdlinks] [-f facts] [-G gpuevents] events\n");
	exit(status);
}

/* ---- small helpers ---- */

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
	return fld_eq(cat, len, "kernel") || fld_eq(cat, len, "gpu_memcpy") ||
	    fld_eq(cat, len, "gpu_memset");
}

/* A field that Python would read as a missing args key or None. */
static int
missing(const char *s, size_t len)
{
	return len == 0 || fld_eq(s, len, "null");
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
		buf_num(b, (long long)d);
		buf_addc(b, '.');
		return;
	}
	buf_addc(b, 's');
	for (i = 0; i < len; i++)
		buf_hex(b, (unsigned char)s[i], 2);
	buf_addc(b, '.');
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
	buf_hex(b, u, TIMEW);
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
	return key_uidat(r->f[0].s + r->f[0].len - UIDW);
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
	/* (a loop the compiler vectorises: a memchr call per field was a
	 * fifth of split's time) */
	for (n++; p < z->end; p++)
		n += *p == '\t';
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

/* One (pid, tid), numbered by split's table of threads: its last ts. */
struct thr {
	int64_t last;	/* ts of the thread's latest complete event, ns */
	int seen;	/* last is set */
};

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
	struct strtab thrs;	/* threads: grouping keys of pid and tid */
	struct thr *thr;	/* each thread's last ts, by its number */
	size_t thrcap;		/* threads allocated in thr */
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
		buf_tab(b);
		buf_add(b, f[i], fl[i]);
	}
	buf_emit(sp->l, b);
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
		buf_tab(b), buf_add(b, cs, cl);
		buf_tab(b), buf_add(b, es, el);
		for (i = 0; i < nf; i++)
			buf_tab(b), buf_add(b, f[i], fl[i]);
		buf_emit(sp->pend, b);
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
	long ti = 0;

	if (fld_eq(cat, catl, "cpu_op"))
		host = 1, hc = 'o';
	else if (fld_eq(cat, catl, "cuda_runtime"))
		host = runtime = 1, hc = 'r';
	else if (fld_eq(cat, catl, "cuda_driver"))
		host = runtime = 1, hc = 'v';
	else if (fld_eq(cat, catl, "python_function"))
		host = python, hc = 'p';
	else if (gpucat(cat, catl))
		gpu = 1;
	else if (fld_eq(ph, phl, "s") || fld_eq(ph, phl, "f")) {
		if (fld_eq(cat, catl, "ac2g"))
			flow = 1;
		else if (fld_eq(cat, catl, "async_cpu_to_gpu") ||
		    fld_eq(cat, catl, "async"))
			flow = 2;
	}
	/* health facts use exact ns; only host keys need the chosen time */
	hasts = zns(r, c->ts, &nts) == 0;
	hasdur = zns(r, c->dur, &ndur) == 0;
	isx = fld_eq(ph, phl, "X");

	if (fld_eq(ph, phl, "M")) {
		lazy_put(b, r, c->pid), buf_tab(b), lazy_put(b, r, c->tid), buf_tab(b);
		lazy_put(b, r, c->name), buf_tab(b), lazy_put(b, r, c->value);
		buf_emit(sp->m, b);
	}

	if ((isx && hasts) || host) {
		lazy_key(b, r, c->pid);
		lazy_key(b, r, c->tid);
		ti = strtab_get(&sp->thrs, b->s, b->len);
		if ((size_t)ti == sp->thrcap) {
			tl_grow((void **)&sp->thr, &sp->thrcap, (size_t)ti + 1,
			    sizeof(*sp->thr));
			memset(sp->thr + ti, 0,
			    (sp->thrcap - (size_t)ti) * sizeof(*sp->thr));
		}
		t = &sp->thr[ti];
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
		buf_num(b, ti);
		buf_addc(b, '.');
		key_time(b, &ts);
		key_uid(b, uid);
		buf_tab(b), buf_addc(b, hc);
		buf_tab(b), lazy_put(b, r, c->name);
		buf_tab(b), lazy_put(b, r, c->dur);
		buf_tab(b);
		if (hc == 'o')
			buf_num(b, ref);
		if (runtime) {
			buf_tab(b), lazy_put(b, r, c->corr);
			buf_tab(b), lazy_put(b, r, c->ext);
			buf_tab(b), lazy_put(b, r, c->pid);
			buf_tab(b), lazy_put(b, r, c->tid);
		} else {
			buf_adds(b, "\t\t\t\t");
		}
		buf_emit(sp->h, b);
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
			buf_hex(b, (uint64_t)nts ^ 0x8000000000000000ULL, TIMEW);
			key_uid(b, uid);
			buf_tab(b), buf_num(b, nts);
			buf_tab(b), buf_num(b, nts + (hasdur ? ndur : 0));
			buf_emit(sp->o, b);
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
			buf_tab(b), lazy_put(b, r, c->uid);
			buf_tab(b), lazy_put(b, r, c->pid);
			buf_tab(b), lazy_put(b, r, c->tid);
			buf_tab(b), buf_addc(b, flow == 2 ? '1' : '0');
			buf_emit(sp->l, b);
		}
	}

	keep = host || runtime || gpu || fld_eq(cat, catl, "python_func");
	if (!runtime && !fld_eq(cat, catl, "ac2g"))
		keep |= split_link(sp, r, c, gpu ? R_GPU : host ? R_HOST :
		    R_OTHER, ref);
	/* Sequence numbers: every event but ac2g flows, as TraceLens indexes */
	if (!fld_eq(cat, catl, "ac2g")) {
		const char *s = lazy_get(r, c->seq, &len);

		if (!missing(s, len)) {
			int bwd = prefix(name, namel,
			    "autograd::engine::evaluate_function:");

			keep |= bwd;
			key_text(b, s, len);
			buf_addc(b, bwd ? '0' : '1');
			key_uid(b, uid);
			buf_tab(b), lazy_put(b, r, c->uid);
			buf_tab(b), lazy_put(b, r, c->pid);
			buf_tab(b), lazy_put(b, r, c->tid);
			buf_tab(b), lazy_put(b, r, c->ts);
			buf_emit(sp->q, b);
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
	FILE *in = io_bigbuf(tl_fopen(path, "r"), iob[0], 0), *facts, *copy = NULL;
	FILE *gev = NULL;
	long long prev = -1, uid, ref, gref = 0;
	struct buf last = {0};	/* the last line, when the copy left it out */
	int st = 0, keep, lone;
	size_t len;

	memset(&sp, 0, sizeof(sp));
	memset(&z, 0, sizeof(z));
	sp.key = -1;
	rec_open(&r, in, io_name(path));
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
		copy = io_open(epath, "w", iob[1]);
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
		gev = io_open(gvpath, "w", iob[5]);
		rec_write(gev, (const char *const *)r.hdr, r.nhdr);
		if ((gref = ftello(gev)) < 0)
			tl_die("%s:", gvpath);
	}
	sp.h = stdout;
	sp.l = io_create(dir, "l", iob[2]);
	sp.q = io_create(dir, "q", iob[3]);
	sp.o = io_create(dir, "o", iob[4]);
	sp.m = io_create(dir, "meta.tsv", NULL);
	fputs("pid\ttid\tname\tvalue\n", sp.m);
	if (spath) {
		sp.sel = io_open(spath, "w", NULL);
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
			if ((fld_eq(cat, catl, "kernel") && iscomm(name, namel)) ||
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
	/* (TraceLens follows ac2g flows alone: --tracelens-compat too) */
	fprintf(sp.l, "\tlegacy_flows\t%d\n", !compat && sp.ac2g == 0);
	facts = io_create(dir, "facts", NULL);
	fact(facts, "gpu_events_zero_duration", sp.zerodur);
	fact(facts, "events_out_of_time_order", sp.outoforder);
	fprintf(facts, "linking_key\t%s\n", sp.key ? "External id" :
	    "correlation");
	fact(facts, "flows_ac2g", sp.ac2g);
	fact(facts, "flows_legacy", sp.legacy);
	/* (only with --tracelens-compat: what tl reads and TraceLens not) */
	if (compat)
		fact(facts, "compat_flows_legacy_ignored",
		    sp.ac2g == 0 ? sp.legacy : 0);
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
	strtab_free(&sp.thrs);
	free(sp.thr);
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
		if (fld_eq(st[i].name.s, st[i].name.len, "execute"))
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
	buf_tab(b), buf_num(b, uid);
	buf_tab(b), buf_field(b, r, H_PID);
	buf_tab(b), buf_field(b, r, H_TID);
	buf_tab(b), buf_field(b, r, H_NAME);
	buf_tab(b);
	if (la) {
		buf_num(b, la->uid), buf_tab(b);
		buf_add(b, la->name.s, la->name.len);
	} else {
		buf_num(b, uid), buf_tab(b), buf_field(b, r, H_NAME);
	}
	buf_tab(b);
	if (co) {
		buf_num(b, co->uid), buf_tab(b);
		buf_add(b, co->name.s, co->name.len), buf_tab(b);
		buf_num(b, co->ref);
	} else {
		buf_adds(b, "\t\t");	/* cpu_op, its name, its offset */
	}
	buf_tab(b);
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_addc(b, ',');
		buf_num(b, st[i].uid);
	}
	buf_emit(out, b);
}

static int
host(const char *path)
{
	struct rec_reader r;
	static char iob[2][TL_IOBUF];	/* stdio's, for in and tf */
	FILE *in = io_open(path, "r", iob[0]), *tf = io_open(tpath, "w", iob[1]), *ff;
	struct frame *st = NULL;
	size_t n = 0, cap = 0, ncpu = 0, i, len;
	struct buf prev = {0}, group = {0}, b = {0};
	long long dropped = 0;
	int status, ext = 0;	/* link on External id, not correlation */

	rec_open(&r, in, io_name(path));
	while (next(&r, &prev, 1)) {
		struct ttv ts = {0, 0}, dur = {0, 0}, end;
		char cat;
		long long uid;
		const char *id;

		if (r.f[0].len == 0) {
			/* split's control record: the linking key */
			want_nf(&r, 3);
			if (strcmp(r.f[1].s, "linking_key") == 0)
				ext = strcmp(r.f[2].s, "External id") == 0;
			continue;
		}
		want_nf(&r, H_NF);
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
			buf_num(&b, st[n - 1].uid);
		buf_tab(&b), buf_num(&b, (long long)n);
		buf_tab(&b), buf_addc(&b, cat == 'o' && ncpu == 0 ? '1' : '0');
		buf_tab(&b), buf_num(&b, n > 0 ? st[0].uid : uid);
		buf_emit(tf, &b);
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
		ff = io_open(fpath, "w", NULL);
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

/*
 * An interval record of op for GPU event g, launched by runtime event e:
 * by op, kind, ts, then e's UID and g's (TraceLens's gpu_events order,
 * the launches' UID order, within a ts: a stable sort by ts keeps it).
 */
static void
interval(struct link *lk, const char *op, char kind, const struct lrec *g,
    const struct lrec *e)
{
	struct buf *b = &lk->b;

	key_uid(b, atoid(op));
	buf_addc(b, kind);
	key_time(b, &g->ts);
	key_uid(b, e->uid);
	key_uid(b, g->uid);
	buf_tab(b), buf_adds(b, op);
	buf_tab(b), buf_addc(b, kind);
	buf_tab(b), buf_adds(b, lf(lk, g, C_UID));
	buf_tab(b), buf_adds(b, lf(lk, g, C_REF));
	buf_tab(b), buf_num(b, e->uid);
	buf_emit(stdout, b);
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
	interval(lk, lf(lk, e, E_UID), kind, g, e);
	for (p = anc; *p != '\0';) {
		size_t n = strcspn(p, ",");

		if (n == 0 || n >= sizeof(op))
			tl_die("bad ancestor list '%s'", anc);
		memcpy(op, p, n);
		op[n] = '\0';
		interval(lk, op, kind, g, e);
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
		buf_tab(b), buf_adds(b, lf(lk, e, E_UID));
		buf_tab(b), buf_adds(b, lf(lk, e, E_NAME));
		for (j = E_LA; j < E_ANC; j++)
			buf_tab(b), buf_adds(b, lf(lk, e, (int)j));
		buf_tab(b), buf_num(b, depth(lf(lk, e, E_ANC)));
		buf_tab(b), launch_root(b, lk, e);
		buf_emit(lk->g, b);
		if (g->role == R_GPU && *lf(lk, g, C_COMM) == '0')
			interval(lk, lf(lk, e, E_LA), 'd', g, e);
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
		want_nf(r, 3);
		if (strcmp(r->f[1].s, "legacy_flows") == 0)
			lk->nolegacy = strcmp(r->f[2].s, "0") == 0;
		return;
	}
	role = r->f[0].s[r->f[0].len - 1 - UIDW];
	switch (role) {
	case R_START:
	case R_END:
		want_nf(r, 5);
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
	want_nf(r, nf);
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
	lk.g = io_open(gpath, "w", iob[0]);
	for (i = 0; i < argc || (argc == 0 && i == 0); i++) {
		const char *path = argc ? argv[i] : "-";
		FILE *in = io_open(path, "r", iob[1]);	/* one at a time */
		struct rec_reader r;

		/* several inputs must each be sorted and follow each other */
		rec_open(&r, in, io_name(path));
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
		FILE *ff = io_open(fpath, "w", NULL);

		fact(ff, "flows_unterminated", lk.unterm);
		fact(ff, "flows_pointing_nowhere", lk.nowhere);
		fact(ff, "flows_to_host_events", lk.tohost);
		fact(ff, "gpu_events_multiply_linked", lk.multi);
		status |= tl_fshut(ff, fpath);
	}
	arena_free(&lk.a);
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
	const char *s = fetch_field(&x->ft, x->col[i], &len);

	buf_tab(b);
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
	FILE *in = io_open(path, "r", iob[0]), *out = io_open(opath, "w", iob[1]);
	FILE *cfp = cpath ? io_open(cpath, "w", NULL) : NULL;
	struct buf prev = {0};
	long long op = -1, cur, count = 0, commop = -1;
	struct buf row = {0};
	int status, more, i;
	size_t len;
	char kind;

	rec_open(&r, in, io_name(path));
	fputs("op\tkind\tts\tdur\tgpu\tname\tstream\tcat\tref\tlaunch\n", out);
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
	/* records: key op kind gpu offset (in -G for a GPU event) launch */
	for (; more; more = next(&r, &prev, 0)) {
		want_nf(&r, 6);
		kind = r.f[2].s[0];
		x = gvpath && kind != 'n' ? &gv : &ev;
		fetch_line(&x->ft, atoid(r.f[4].s), atoid(r.f[3].s));
		buf_add(&row, r.f[1].s, r.f[1].len);
		buf_tab(&row);
		buf_add(&row, r.f[2].s, r.f[2].len);
		xsrc_put(&row, x, X_TS);
		xsrc_put(&row, x, X_DUR);
		buf_tab(&row);
		buf_add(&row, r.f[3].s, r.f[3].len);
		for (i = X_NAME; i < X_NF; i++) {
			if (i == X_NAME && kind == 's')
				buf_tab(&row);
			else
				xsrc_put(&row, x, i);
		}
		buf_tab(&row);
		buf_add(&row, r.f[4].s, r.f[4].len);
		buf_tab(&row);
		buf_add(&row, r.f[5].s, r.f[5].len);
		buf_emit(out, &row);
		if (kind == 'd')
			continue;	/* s and n records are gpu_events */
		cur = atoid(r.f[1].s);
		/* -c: each op once (its records are together) */
		if (cfp && kind == 's' && cur != commop) {
			const char *nm = fetch_field(&x->ft, x->col[X_NAME], &len);

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
	FILE *in = io_open(path, "r", NULL);
	struct buf prev = {0}, group = {0}, bpid = {0}, btid = {0}, b = {0};
	long long bwd = -1, best = -1, uid;
	struct ttv bestts = {-1, -1}, ts, zero = {0, 0};

	rec_open(&r, in, io_name(path));
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
			want_nf(&r, 5);
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
		want_nf(&r, 5);
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
	FILE *in = io_open(path, "r", NULL);
	struct buf prev = {0}, group = {0};
	long long count = 0;
	int64_t maxend = 0, ts, end;

	rec_open(&r, in, io_name(path));
	while (next(&r, &prev, 1)) {
		want_nf(&r, 3);
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

/* The merge's inputs besides the events, and its outputs. */
struct merge {
	struct uside t;		/* tree records */
	struct uside n;		/* GPU-event counts */
	struct uside w;		/* forward links */
	struct uside g;		/* launched events */
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
		buf_tab(b);
	}
	buf_num(b, ngpu);
	buf_tab(b);
	if (m->w.uid == uid) {
		buf_add(b, m->w.r.f[1].s, m->w.r.f[1].len);
		if (m->fwd != NULL && m->w.r.f[1].len > 0) {
			fwrite(m->w.r.f[1].s, 1, m->w.r.f[1].len, m->fwd);
			fprintf(m->fwd, "\t%lld\n", uid);
		}
	}
	buf_tab(b);
	buf_addc(b, cpuroot ? '1' : '0');
	buf_tab(b);
	buf_adds(b, root);
	buf_emit(m->ops, b);
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
		buf_tab(b);
	}
	if (!linked) {
		buf_adds(b, "0\t\t\t\t\t\t\t\t\t\t\t");
		buf_emit(m->gpu, b);
		m->unlinked++;
		return;
	}
	/* runtime, its name, launcher, its name, cpu_op, its name */
	buf_addc(b, '1');
	for (i = 1; i < 7; i++) {
		buf_tab(b);
		buf_add(b, g->f[i].s, g->f[i].len);
	}
	if (g->f[7].len > 0)
		fetch_line(&m->ft, atoid(g->f[7].s),
		    atoid(g->f[5].s));
	for (i = 0; i < LEN(m->inp); i++) {
		buf_tab(b);
		if (g->f[7].len > 0 && (size_t)m->inp[i] < m->ft.nf)
			buf_add(b, m->ft.f[m->inp[i]].s, m->ft.f[m->inp[i]].len);
	}
	buf_tab(b);
	buf_add(b, g->f[9].s, g->f[9].len);
	buf_emit(m->gpu, b);
}

static void
merge_event(struct merge *m, struct lazy *z, const struct evcols *c)
{
	long long uid = lazy_uid(z, c->uid), ngpu = 0;
	size_t catl;
	const char *cat = lazy_get(z, c->cat, &catl);
	int gpu;

	gpu = gpucat(cat, catl);
	if (uside_at(&m->n, uid)) {
		ngpu = atoid(m->n.r.f[1].s);
		uside_next(&m->n);
	}
	uside_at(&m->w, uid);
	if (uside_at(&m->t, uid)) {
		/* dropped runtime events stay only as launches of GPU work */
		if (m->t.r.f[1].s[0] == 'p' || ngpu > 0)
			ops_row(m, z, c, uid, m->t.r.f[2].s, m->t.r.f[3].s, ngpu,
			    m->t.r.f[4].s[0] == '1', m->t.r.f[5].s);
		uside_next(&m->t);
	} else if (ngpu > 0) {
		tl_die("%s: line %zu: UID %lld has GPU events but no tree record",
		    m->n.r.name, m->n.r.lineno, uid);
	} else if (!gpu && uside_at(&m->g, uid)) {
		/* a flow target that is no GPU event: a leaf under its launch */
		ops_row(m, z, c, uid, m->g.r.f[1].s, m->g.r.f[8].s, 0, 0,
		    m->g.r.f[9].s);
		uside_next(&m->g);
	}
	if (uside_at(&m->w, uid))
		uside_next(&m->w);
	if (gpu) {
		int linked = uside_at(&m->g, uid);

		gpu_row(m, z, c, linked);
		if (linked)
			uside_next(&m->g);
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
	mi->fp = io_open(path, "r", buf);
	rec_open(&mi->r, mi->fp, io_name(path));
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
	uside_open(&m.n, npath, 2, 0, iob[0]);
	mergein_open(&ev, path, iob[4], gvpath != NULL);
	memset(&gv, 0, sizeof(gv));
	gv.uid = -1;
	if (gvpath)
		mergein_open(&gv, gvpath, iob[7], 0);
	uside_open(&m.t, tpath, 6, 1, iob[1]);
	uside_open(&m.w, wpath, 2, 1, iob[2]);
	uside_open(&m.g, gpath, 10, 1, iob[3]);
	fetch_open(&m.ft, path);
	m.inp[0] = rec_need(&m.ft.hdr, "Input Dims");
	m.inp[1] = rec_need(&m.ft.hdr, "Input type");
	m.inp[2] = rec_need(&m.ft.hdr, "Input Strides");
	m.inp[3] = rec_need(&m.ft.hdr, "Concrete Inputs");
	m.ops = io_create(dir, "ops.tsv", iob[5]);
	m.gpu = io_create(dir, "gpu.tsv", iob[6]);
	if (apath)
		m.fwd = io_open(apath, "w", NULL);
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
	uside_close(&m.t);
	uside_close(&m.n);
	uside_close(&m.w);
	uside_close(&m.g);
	fetch_close(&m.ft);
	status = tl_fshut(m.ops, "ops.tsv");
	status |= tl_fshut(m.gpu, "gpu.tsv");
	if (m.fwd)
		status |= tl_fshut(m.fwd, apath);
	if (fpath) {
		FILE *ff = io_open(fpath, "w", NULL);

		fact(ff, "gpu_events_unlinked", m.unlinked);
		status |= tl_fshut(ff, fpath);
	}
	buf_free(&m.row);
	mergein_close(&ev);
	if (gvpath)
		mergein_close(&gv);
	return status;
}

/* ==== main ==== */

/* The three long options every mode takes, as their short forms. */
static void
longopts(int argc, char *argv[])
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--python") == 0)
			argv[i] = "-p";
		else if (strcmp(argv[i], "--exact-time") == 0)
			argv[i] = "-x";
		else if (strcmp(argv[i], "--tracelens-compat") == 0)
			argv[i] = "-C";
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
	while ((ch = getopt(argc, argv, "a:Cc:d:e:f:G:g:m:n:o:ps:t:w:x")) != -1) {
		switch (ch) {
		case 'a': apath = optarg; break;
		case 'C': compat = 1; break;
		case 'c': cpath = optarg; break;
		case 'd': dir = optarg; break;
		case 'e': epath = optarg; break;
		case 'f': fpath = optarg; break;
		case 'G': gvpath = optarg; break;
		case 'g': gpath = optarg; break;
		case 'm': mode = optarg; break;
		case 'n': npath = optarg; break;
		case 'o': opath = optarg; break;
		case 'p': python = 1; break;
		case 's': spath = optarg; break;
		case 't': tpath = optarg; break;
		case 'w': wpath = optarg; break;
		case 'x': exact = 1; break;
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
	if (strcmp(mode, "merge") == 0 && dir && tpath && npath && wpath &&
	    gpath && argc == 1)
		return merge(in);
	usage(TL_EUSAGE);
}
