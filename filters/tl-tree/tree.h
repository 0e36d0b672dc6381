/* See LICENSE file for copyright and license details. */
/*
 * tree.h: what the modes of tl-tree (the files beside it) share, for
 * them and tl-tree.c alone: the options, times in the chosen
 * arithmetic, lazily split event lines, and the helpers more than one
 * mode calls (shared.c).  The per-record helpers are static inline, as
 * in treeio.h: a call from another file would cost the modes' loops
 * more than the work it does.  Include after tl.h and treeio.h.
 */
#ifndef TL_TREE_H
#define TL_TREE_H

/* The options, as main read them; each mode reads those it takes. */
struct opts {
	int exact;		/* -x: exact ns instead of TraceLens's doubles */
	int python;		/* -p: python_function events join the tree */
	int legacy;		/* -L: follow the older flows (-C, TraceLens's reading: not) */
	int recompute;		/* -k: split: the recompute roots go to host */
	int nogpu;		/* -N: merge: the GPU events are gpu mode's */
	const char *dir;	/* -d: split's work folder, merge's tree folder */
	const char *tpath;	/* -t: the tree records (host out, merge in) */
	const char *gpath;	/* -g: the launched-event records (link out, merge in) */
	const char *npath;	/* -n: the GPU-event counts per op (merge in) */
	const char *wpath;	/* -w: the forward links (merge in) */
	const char *opath;	/* -o: intervals.tsv (intervals out), walk.tsv
				 * (walk out), the gpu_work fact (gpu out) */
	const char *epath;	/* -e: the events (split out, a copy; later in) */
	const char *gvpath;	/* -G: the GPU events' lines (split out, later in) */
	const char *fpath;	/* -f: facts (out) */
	const char *apath;	/* -a: fwd TAB UID of each linked op (merge out) */
	const char *cpath;	/* -c: UIDs with communication below (intervals out) */
	const char *spath;	/* -s: the selected events (split out) */
	const char *qpath;	/* -q: the sequence records (split out; DIR/q) */
	const char *Opath;	/* -O: the GPU stream records (split out; DIR/o) */
	const char *Mpath;	/* -M: meta.tsv (split out; DIR/meta.tsv) */
	const char *rpath;	/* -r: the walk's records (host, link out) */
	const char *kpath;	/* -K: the UIDs in recompute subtrees (host out) */
	const char *Spath;	/* -S: each launch's call stack (host out) */
};

/* Key widths: a UID is UIDW hex digits (treeio.h), a time 16, a
 * pre-order number 16. */
enum { TIMEW = 16, PREW = 16 };

/* A time as the chosen arithmetic sees it. */
struct ttv {
	double us;	/* TraceLens: microseconds as a Python float */
	int64_t ns;	/* -x: exact nanoseconds */
};

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

/*
 * The columns of a GPU event's (or launched event's) line that intervals
 * and walk read, by the offset their records carry.
 */
enum { X_TS, X_DUR, X_NAME, X_STREAM, X_CAT, X_NF };

/* A file of event lines read by offset, and its columns X_*. */
struct xsrc {
	struct fetch ft;	/* the file */
	int col[X_NF];		/* the columns, in its header */
};

/* ---- the modes: split.c, host.c, link.c, walk.c, fwd.c, merge.c (merge, gpu) ---- */

int split(const struct opts *opt, const char *path);
int host(const struct opts *opt, const char *path);
int linkmode(const struct opts *opt, int argc, char *argv[]);
int intervals(const struct opts *opt, const char *path);
int fwd(const struct opts *opt, const char *path);
int overlap(const char *path);
int walk(const struct opts *opt, const char *path);
int merge(const struct opts *opt, const char *path);
int gpumode(const struct opts *opt, const char *path);

/* ---- shared.c ---- */

void key_pre(struct buf *b, long long pre, char role);
void xsrc_open(struct xsrc *x, const char *path);
void xsrc_put(struct buf *b, const struct xsrc *x, int i);
int gpucat(const char *cat, size_t len);
int isrecompute(const char *name, size_t len);
int holds(const char *s, size_t len, const char *t, size_t tl);
int csname(struct buf *b, const char *name, size_t len, int cpuop);
void key_text(struct buf *b, const char *s, size_t len);
int tfield(int exact, const struct rec_reader *r, int col, struct ttv *t);
int next(struct rec_reader *r, struct buf *prev, int unique);
int samegroup(const struct buf *g, const struct rec_reader *r, size_t n);
int lazy_read(struct lazy *z);
/* lazy_get's slow path: split the line up to field col. */
const char *lazy_split(struct lazy *z, int col, size_t *len);

/* Field col of the current line ("" past its end), split on demand. */
static inline const char *
lazy_get(struct lazy *z, int col, size_t *len)
{
	/* (inline: a pass asks for a dozen fields of each line, mostly
	 * split already) */
	if ((size_t)col < z->nf) {
		*len = z->f[col].len;
		return z->f[col].s;
	}
	return lazy_split(z, col, len);
}
long long lazy_uid(struct lazy *z, int col);
void evcols(struct rec_reader *r, struct evcols *c);

/* ---- per-record helpers (exact: -x, times as exact ns) ---- */

static inline int
lower(char c)
{
	return c >= 'A' && c <= 'Z' ? c + 'a' - 'A' : c;
}

/* A field that Python would read as a missing args key or None. */
static inline int
missing(const char *s, size_t len)
{
	return len == 0 || fld_eq(s, len, "null");
}

/*
 * Times sort as their values: the sign bit flipped, or all bits for
 * negative values.
 */
static inline void
key_time(int exact, struct buf *b, const struct ttv *t)
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

static inline int
tparse(int exact, const char *s, size_t len, struct ttv *t)
{
	t->us = 0;
	t->ns = 0;
	if (exact)
		return num_us_to_ns(s, len, &t->ns);
	return num_double(s, len, &t->us);
}

static inline int
tcmp(int exact, const struct ttv *a, const struct ttv *b)
{
	if (exact)
		return (a->ns > b->ns) - (a->ns < b->ns);
	return (a->us > b->us) - (a->us < b->us);
}

/* The length of the group part of a key whose last n bytes are not. */
static inline size_t
grouplen(const struct rec_reader *r, size_t n)
{
	if (r->f[0].len < n)
		tl_die("%s: line %zu: key too short", r->name, r->lineno);
	return r->f[0].len - n;
}

static inline void
setgroup(struct buf *g, const struct rec_reader *r, size_t n)
{
	buf_reset(g);
	buf_add(g, r->f[0].s, grouplen(r, n));
}

static inline void
fact(FILE *fp, const char *name, long long n)
{
	fprintf(fp, "%s\t%lld\n", name, n);
}

static inline void
lazy_put(struct buf *b, struct lazy *z, int col)
{
	size_t len;
	const char *s = lazy_get(z, col, &len);

	buf_add(b, s, len);
}

#endif
