/* See LICENSE file for copyright and license details. */
/*
 * tl-coll: TraceLens's multi-rank collective report (its NcclAnalyser
 * and generate_multi_rank_collective_report_pytorch), as stages that
 * each hold one record, or the ranks of one collective, at a time.
 * tl-ranks(1) joins them with sort(1) and tl-aggregate(1):
 *
 *   -r RANK   a rank's collective kernels, from tl-parse records, with
 *             their values typed (common/coll.h) and their facts
 *   -n        each kernel's index in its process group (sorted input)
 *   -m        the ranks of each collective side by side: the long
 *             table, the implicit-sync and all_to_allv rows, the
 *             heatmap's pairs, the health counts
 *   -i FILE   the implicit-sync sheet and the straggler summary
 *   -a FILE   the all_to_allv sheet
 *   -p        the all_to_allv heatmap
 *   -s COL    a summary sheet in pandas' row order
 *   -c N      records to CSV
 *
 * Values are printed as pandas prints their column (coll.h), and
 * computed as numpy computes them: integers while the column is int64,
 * doubles in TraceLens's order of operations otherwise.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"
#include "coll.h"
#include "numpy.h"

/* The cells of a collective record, after its four key fields. */
enum {
	C_TS, C_DUR, C_PG, C_PGR, C_COLL, C_GSIZE, C_DTYPE, C_INNEL, C_OUTNEL,
	C_INSPLIT, C_OUTSPLIT, C_STREAM, C_INMB, C_OUTMB, NCOL
};
#define NKEY 4		/* process group, order (or index), rank, UID */
static const char *const colname[NCOL] = {
	"ts", "dur", "Process Group Name", "Process Group Ranks",
	"Collective name", "Group size", "dtype", "In msg nelems",
	"Out msg nelems", "In split size", "Out split size", "stream",
	"In msg size (MB)", "Out msg size (MB)"
};

/* NcclAnalyser's collective types. */
enum { T_ALLREDUCE, T_REDUCESCATTER, T_ALLGATHER, T_ALLTOALL, T_ALLTOALLV };
static const struct {
	const char *name;	/* Collective name */
	int type;		/* T_* */
} colltypes[] = {
	{ "allreduce", T_ALLREDUCE }, { "allreduce_coalesced", T_ALLREDUCE },
	{ "reducescatter", T_REDUCESCATTER },
	{ "_reduce_scatter_base", T_REDUCESCATTER },
	{ "reduce_scatter_tensor_coalesced", T_REDUCESCATTER },
	{ "allgather", T_ALLGATHER }, { "all_gather", T_ALLGATHER },
	{ "_allgather_base", T_ALLGATHER },
	{ "all_gather_into_tensor_coalesced", T_ALLGATHER },
	{ "allgather_into_tensor_coalesced", T_ALLGATHER },
	{ "all_to_all", T_ALLTOALL }, { "all_to_allv", T_ALLTOALLV },
};

/* NcclAnalyser's bytes per element. */
static const struct {
	const char *name;	/* dtype */
	int bytes;		/* its size */
} dtypes[] = {
	{ "Float", 4 }, { "Int", 4 }, { "Long", 8 }, { "BFloat16", 2 },
	{ "Bool", 1 }, { "Byte", 1 }, { "Double", 8 }, { "Half", 2 },
	{ "Short", 2 },
};

static struct {
	int mode;		/* the stage: r n m i a p s c */
	long rank;		/* -r */
	const char *facts;	/* -F: the ranks' facts */
	long world;		/* -W: ranks in the job */
	long gpn;		/* -g: GPUs a node, 0 for no node columns */
	int heat;		/* -H: write the heatmap's pairs */
	int lenient;		/* -S: metadata mismatches are warnings */
	int nodetail;		/* -N: no per-rank sheets */
	const char *dir;	/* -o: the output folder */
	const char *file;	/* -i, -a: the rows, sorted */
	const char *totals;	/* -t: the long table, by rank and UID */
	const char *sortcol;	/* -s */
	long drop;		/* -c: leading fields not written */
	const char **div;	/* -D: columns divided by 1000 */
	size_t ndiv;
	const char **ints;	/* -I: columns written as integers */
	size_t nints;
} opt;

static void
usage(int status)
{
	fputs("usage: tl-coll -r rank -F facts\n"
	    "       tl-coll -n\n"
	    "       tl-coll -m -F facts -W world [-g gpus] [-HS] -o dir\n"
	    "       tl-coll -i rows -W world -t long [-g gpus] [-N] -o dir\n"
	    "       tl-coll -a rows -W world [-N] -o dir\n"
	    "       tl-coll -p\n"
	    "       tl-coll -s column [-c n] [-D column,...] [-I column,...]\n"
	    "       tl-coll -c n\n", status ? stderr : stdout);
	exit(status);
}

/* ---- small helpers ---- */

/* Does s[0..n) hold pat, in any case (ASCII, as re.IGNORECASE does here)? */
static int
cicontains(const char *s, size_t n, const char *pat)
{
	size_t m = strlen(pat), i, j;

	for (i = 0; i + m <= n; i++) {
		for (j = 0; j < m; j++)
			if ((s[i + j] >= 'A' && s[i + j] <= 'Z' ? s[i + j] | 0x20 :
			    s[i + j]) != pat[j])
				break;
		if (j == m)
			return 1;
	}
	return 0;
}

/* TraceLens's communication kernels: nccl, rccl, cross_device_reduce. */
static int
iscomm(const char *s, size_t n)
{
	return cicontains(s, n, "nccl") || cicontains(s, n, "rccl") ||
	    cicontains(s, n, "cross_device_reduce");
}

/* Is the cell the string s (escaped payload compared)? */
static int
cellis(const char *cell, size_t len, const char *s)
{
	return len == strlen(s) + 1 && cell[0] == 's' &&
	    memcmp(cell + 1, s, len - 1) == 0;
}

/* The collective type of a Collective name cell, or -1. */
static int
colltype(const char *cell, size_t len)
{
	size_t i;

	for (i = 0; i < LEN(colltypes); i++)
		if (cellis(cell, len, colltypes[i].name))
			return colltypes[i].type;
	return -1;
}

/* Bytes per element of a dtype cell, or 0. */
static int
dtypebytes(const char *cell, size_t len)
{
	size_t i;

	for (i = 0; i < LEN(dtypes); i++)
		if (cellis(cell, len, dtypes[i].name))
			return dtypes[i].bytes;
	return 0;
}

static FILE *
xfopen(const char *dir, const char *name, const char *mode)
{
	struct buf p = {0};
	FILE *fp;

	buf_adds(&p, dir);
	buf_addc(&p, '/');
	buf_adds(&p, name);
	if ((fp = fopen(p.s, mode)) == NULL)
		tl_die("%s:", p.s);
	buf_free(&p);
	return fp;
}

static void
xclose(FILE *fp, const char *name)
{
	if (tl_fshut(fp, name) != TL_OK)
		exit(TL_EDATA);
}

/* Write field s[0..len) (already escaped) and a TAB or newline. */
static void
put(FILE *fp, const char *s, size_t len, int last)
{
	fwrite(s, 1, len, fp);
	putc(last ? '\n' : '\t', fp);
}

static void
puts_(FILE *fp, const char *s, int last)
{
	put(fp, s, strlen(s), last);
}

/* Split line (NUL-ended, newline removed) at TABs into f, lens. */
static size_t
split(char *line, size_t len, char ***f, size_t **fl, size_t *cap)
{
	size_t n = 0;
	char *p = line, *e = line + len, *t;

	for (;;) {
		tl_grow((void **)f, cap, n + 1, sizeof(**f));
		*fl = tl_realloc(*fl, *cap * sizeof(**fl));
		t = memchr(p, '\t', (size_t)(e - p));
		(*f)[n] = p;
		(*fl)[n] = (t ? t : e) - p;
		n++;
		if (t == NULL)
			break;
		*t = '\0';
		p = t + 1;
	}
	return n;
}

/* A CSV cell from an escaped record field. */
static void
csvfield(FILE *fp, const char *s, size_t len, int first, struct buf *tmp)
{
	buf_reset(tmp);
	buf_add(tmp, s, len);
	csv_sep(fp, first);
	csv_cell(fp, tmp->s, rec_unescape(tmp->s, tmp->len));
}

/* A CSV header cell. */
static void
csvname(FILE *fp, const char *s, int first)
{
	csv_sep(fp, first);
	csv_cell(fp, s, strlen(s));
}

static long
fieldlong(const char *s, size_t len, const char *what, const char *name,
    size_t line)
{
	int64_t v;

	if (num_int64(s, len, &v) < 0 || v < 0 || v > 1000000000000LL)
		tl_die("%s: line %zu: %s is not a whole number: %.*s", name, line,
		    what, (int)(len > 40 ? 40 : len), s);
	return (long)v;
}

/* numpy's round(x, 1): x * 10, rint, / 10. */
static double
round1(double x)
{
	return rint(x * 10.0) / 10.0;
}

/* ---- numbers as numpy computes them ---- */

static struct cnum
nadd(struct cnum a, struct cnum b)
{
	struct cnum r;

	r.isint = a.isint && b.isint;
	r.i = r.isint ? a.i + b.i : 0;
	r.d = r.isint ? (double)r.i : a.d + b.d;
	return r;
}

static struct cnum
nsub(struct cnum a, struct cnum b)
{
	struct cnum r;

	r.isint = a.isint && b.isint;
	r.i = r.isint ? a.i - b.i : 0;
	r.d = r.isint ? (double)r.i : a.d - b.d;
	return r;
}

/* a < b, as numpy compares them (an integer exactly). */
static int
nlt(struct cnum a, struct cnum b)
{
	return a.isint && b.isint ? a.i < b.i : a.d < b.d;
}

static struct cnum
nfloat(double d)
{
	struct cnum r = { 0, 0, d };

	return r;
}

/* A cell in a column of class k, as numpy holds it: an int64 becomes a
 * double in a float64 column. */
static int
cellnum(const char *cell, size_t len, int k, struct cnum *v)
{
	if (len == 0 || cell[0] == 'z') {
		if (k != K_FLOAT)
			return -1;
		*v = nfloat(NAN);
		return 0;
	}
	if (coll_num(cell, len, v) < 0)
		return -1;
	if (k == K_FLOAT && v->isint)
		*v = nfloat(v->d);
	return 0;
}

/* Append a number as a cell (tag i or f). */
static void
numcell(struct buf *b, struct cnum v)
{
	buf_addc(b, v.isint ? 'i' : 'f');
	if (!v.isint && v.d != v.d)
		buf_adds(b, "nan");
	else
		coll_putnum(b, &v);
}

/* ---- -r: a rank's collective kernels ---- */

/* What the cross-rank stage must know of all ranks before it starts. */
struct facts {
	int64_t n;		/* collective kernels */
	int pgset;		/* a Process Group Name is set, not Unknown_Group */
	int nstream;		/* distinct streams: 0, 1, or 2 for more */
	struct buf stream0;	/* the key of the first stream */
	unsigned col[NCOL];	/* fact bits of each cell column */
};

static void
factput(FILE *fp, long rank, const struct facts *f)
{
	static const char bits[] = "zifsx";
	int c, b;

	fprintf(fp, "%ld\t%lld\t%d\t%d", rank, (long long)f->n, f->pgset,
	    f->nstream);
	for (c = 0; c < NCOL; c++) {
		putc('\t', fp);
		for (b = 0; b < 5; b++)
			if (f->col[c] & 1u << b)
				putc(bits[b], fp);
	}
	putc('\n', fp);
}

/* Note a stream cell: nunique(), which drops None and sees 20 == 20.0. */
static void
seestream(struct facts *f, const char *cell, size_t len)
{
	struct buf k = {0};
	struct cnum v;
	char tmp[40];

	if (len == 0 || cell[0] == 'z' || f->nstream > 1)
		return;
	if (coll_num(cell, len, &v) == 0) {
		buf_addc(&k, 'n');
		buf_adds(&k, num_pyrepr(v.d, tmp, sizeof(tmp)));
	} else
		buf_add(&k, cell, len);
	if (f->nstream == 0) {
		buf_reset(&f->stream0);
		buf_add(&f->stream0, k.s, k.len);
		f->nstream = 1;
	} else if (k.len != f->stream0.len ||
	    memcmp(k.s, f->stream0.s, k.len) != 0)
		f->nstream = 2;
	buf_free(&k);
}

/* In or Out msg size (MB): nelems * bytes / 1024**2, or None. */
static void
msgsize(struct buf *out, const char *cell, size_t len, int bytes,
    int64_t uid, const char *what)
{
	struct cnum v;
	long double x;
	char tmp[40];

	buf_reset(out);
	if (bytes == 0) {
		buf_addc(out, 'z');
		return;
	}
	if (coll_num(cell, len, &v) < 0)
		tl_die("<stdin>: event %lld: %s is not a number (TraceLens "
		    "fails on it)", (long long)uid, what);
	/* an int product is exact (Python), then one rounding */
	x = v.isint ? (long double)v.i * bytes : (long double)(v.d * bytes);
	buf_addc(out, 'f');
	buf_adds(out, num_pyrepr((double)(x / 1048576.0L), tmp, sizeof(tmp)));
}

static void
selectrank(void)
{
	struct rec_reader r;
	struct buf cell[NCA], name = {0}, args = {0}, tsc = {0}, durc = {0};
	struct buf inmb = {0}, outmb = {0};
	struct facts f;
	const char *s, *pg;
	size_t len, pglen;
	int cuid, cname, cts, cdur, cargs, ccat, st, bytes, c, j;
	int64_t uid;
	uint64_t u;
	double d;
	FILE *ff;

	memset(cell, 0, sizeof(cell));
	memset(&f, 0, sizeof(f));
	rec_open(&r, stdin, "<stdin>");
	rec_read_header(&r);
	cuid = rec_need(&r, "UID");
	cname = rec_need(&r, "name");
	cts = rec_need(&r, "ts");
	cdur = rec_need(&r, "dur");
	cargs = rec_need(&r, "args");
	ccat = rec_col(&r, "cat");
	while (rec_read(&r)) {
		if (ccat >= 0) {
			s = rec_get(&r, ccat, &len);
			if (len != 6 || memcmp(s, "kernel", 6) != 0)
				continue;
		}
		s = rec_get(&r, cname, &len);
		buf_reset(&name);
		buf_add(&name, s, len);
		name.len = rec_unescape(name.s, name.len);
		if (!iscomm(name.s, name.len))
			continue;
		s = rec_get(&r, cuid, &len);
		if (num_int64(s, len, &uid) < 0 || uid < 0)
			tl_die("<stdin>: line %zu: UID is not a whole number",
			    r.lineno);
		s = rec_get(&r, cargs, &len);
		buf_reset(&args);
		buf_add(&args, s, len);
		args.len = rec_unescape(args.s, args.len);
		st = coll_args(cell, args.s ? args.s : "", args.len);
		if (st == -1)
			continue;	/* args is no object: nothing links it */
		if (st == -2)
			tl_die("<stdin>: event %lld: a number in args does not "
			    "fit in 64 bits (TraceLens's parser refuses it)",
			    (long long)uid);
		if (cell[CA_CORR].s[0] == 'z' && cell[CA_EXT].s[0] == 'z')
			continue;
		s = rec_get(&r, cts, &len);
		if (coll_numcell(&tsc, s, len) < 0)
			tl_die("<stdin>: event %lld: collective kernel without a "
			    "numeric ts (TraceLens fails on it)", (long long)uid);
		s = rec_get(&r, cdur, &len);
		if (coll_numcell(&durc, s, len) < 0)
			tl_die("<stdin>: event %lld: collective kernel without a "
			    "numeric dur (TraceLens fails on it)", (long long)uid);
		/* a custom collective kernel names its own type */
		if (cell[CA_COLL].s[0] == 'z' &&
		    cicontains(name.s, name.len, "cross_device_reduce")) {
			buf_reset(&cell[CA_COLL]);
			buf_adds(&cell[CA_COLL], "sallreduce");
		}
		bytes = dtypebytes(cell[CA_DTYPE].s, cell[CA_DTYPE].len);
		if (cell[CA_INNEL].s[0] == 'z')
			bytes = 0;
		msgsize(&inmb, cell[CA_INNEL].s, cell[CA_INNEL].len, bytes, uid,
		    "In msg nelems");
		msgsize(&outmb, cell[CA_OUTNEL].s, cell[CA_OUTNEL].len, bytes,
		    uid, "Out msg nelems");
		/* the process group, as the match key sees it */
		if (cell[CA_PG].s[0] == 'z') {
			pg = "Unknown_Group";
			pglen = strlen(pg);
		} else if (cell[CA_PG].s[0] == 's') {
			pg = cell[CA_PG].s + 1;
			pglen = cell[CA_PG].len - 1;
			if (pglen != 13 || memcmp(pg, "Unknown_Group", 13) != 0)
				f.pgset = 1;
		} else
			tl_die("<stdin>: event %lld: Process Group Name is not a "
			    "string (TraceLens fails on it)", (long long)uid);
		fwrite(pg, 1, pglen, stdout);
		num_double(tsc.s + 1, tsc.len - 1, &d);
		if (d == 0)
			d = 0;
		memcpy(&u, &d, sizeof(u));
		u = u >> 63 ? ~u : u | (uint64_t)1 << 63;
		printf("\t%016llx%016llx\t%ld\t%lld", (unsigned long long)u,
		    (unsigned long long)uid, opt.rank, (long long)uid);
		for (c = 0; c < NCOL; c++) {
			const struct buf *b;

			switch (c) {
			case C_TS: b = &tsc; break;
			case C_DUR: b = &durc; break;
			case C_INMB: b = &inmb; break;
			case C_OUTMB: b = &outmb; break;
			default: b = &cell[c - C_PG]; break;
			}
			putchar('\t');
			fwrite(b->s, 1, b->len, stdout);
			f.col[c] |= coll_fact(b->s, b->len);
			if (c == C_STREAM)
				seestream(&f, b->s, b->len);
		}
		putchar('\n');
		f.n++;
	}
	ff = opt.facts ? fopen(opt.facts, "w") : NULL;
	if (opt.facts && ff == NULL)
		tl_die("%s:", opt.facts);
	if (ff != NULL) {
		factput(ff, opt.rank, &f);
		xclose(ff, opt.facts);
	}
	for (j = 0; j < NCA; j++)
		buf_free(&cell[j]);
	buf_free(&name);
	buf_free(&args);
	buf_free(&tsc);
	buf_free(&durc);
	buf_free(&inmb);
	buf_free(&outmb);
	buf_free(&f.stream0);
	rec_close(&r);
}

/* ---- -n: each kernel's index in its process group ---- */

/* memcmp of two byte strings, the shorter first on a tie. */
static int
bytecmp(const char *a, size_t al, const char *b, size_t bl)
{
	int c = memcmp(a, b, MIN(al, bl));

	return c ? c : al < bl ? -1 : al > bl;
}

static void
number(void)
{
	struct rec_reader r;
	struct buf pg = {0}, key = {0};
	const char *s, *k;
	size_t len, klen, i;
	int64_t idx = 0;
	int c = 1, first = 1;

	rec_open(&r, stdin, "<stdin>");
	while (rec_read(&r)) {
		if (r.nf != NKEY + NCOL)
			tl_die("<stdin>: line %zu: %zu fields, not a collective "
			    "record", r.lineno, r.nf);
		s = rec_get(&r, 0, &len);
		k = rec_get(&r, 1, &klen);
		if (!first) {
			c = bytecmp(s, len, pg.s, pg.len);
			if (c < 0 || (c == 0 &&
			    bytecmp(k, klen, key.s, key.len) <= 0))
				tl_die("<stdin>: line %zu: not sorted by process "
				    "group and time", r.lineno);
		}
		if (first || c != 0) {
			buf_reset(&pg);
			buf_add(&pg, s, len);
			idx = 0;
		}
		first = 0;
		buf_reset(&key);
		buf_add(&key, k, klen);
		fwrite(s, 1, len, stdout);
		printf("\t%lld", (long long)idx++);
		for (i = 2; i < r.nf; i++) {
			putchar('\t');
			fwrite(r.f[i].s, 1, r.f[i].len, stdout);
		}
		putchar('\n');
	}
	buf_free(&pg);
	buf_free(&key);
	rec_close(&r);
}

/* ---- -m: the ranks of each collective side by side ---- */

/* One rank's record of a collective. */
struct member {
	long rank;		/* its rank */
	int64_t uid;		/* its event's UID */
	size_t off[NCOL];	/* its cells in the group's data */
	size_t len[NCOL];	/* their lengths */
};

/* The records of one collective: one (process group, index) pair. */
struct group {
	struct buf pg;		/* the process group (escaped) */
	int64_t idx;		/* the index in it */
	struct buf data;	/* every member's cells, owned */
	struct member *m;	/* the members, by rank */
	size_t n, cap;		/* members, allocated */
};

/* What the cross-rank stage counts for the health sheet. */
struct health {
	int64_t colls;		/* collectives */
	int64_t missing;	/* collectives on fewer ranks than their group */
	int64_t unreported;	/* collectives in no per-collective sheet */
	int64_t mismatch;	/* collectives whose ranks disagree (-S) */
	int64_t heatskip;	/* all_to_allv events the heatmap skips */
};

struct merge {
	int klass[NCOL];	/* how each cell column prints (K_*) */
	int simplified;		/* TraceLens's stream-order matching */
	FILE *lng, *isy, *a2a, *heat;	/* the outputs */
	struct health h;	/* counts */
	struct buf t, u, v;	/* scratch */
	int64_t *ranks;		/* scratch for Process Group Ranks */
	size_t rcap;
	int64_t *spl;		/* scratch for split sizes */
	size_t scap;
};

#define CELL(g, mb, c) ((g)->data.s + (mb)->off[c])

/* A cell of member mb as numpy holds it. */
static struct cnum
mnum(const struct merge *M, const struct group *g, const struct member *mb,
    int c)
{
	struct cnum v;

	if (cellnum(CELL(g, mb, c), mb->len[c], M->klass[c], &v) < 0)
		tl_die("collective %s_%lld: rank %ld: %s is not a number "
		    "(TraceLens fails on it)", g->pg.s, (long long)g->idx,
		    mb->rank, colname[c]);
	return v;
}

/* Append cell c of member mb as pandas prints it. */
static void
mrender(const struct merge *M, struct buf *b, const struct group *g,
    const struct member *mb, int c)
{
	coll_render(b, CELL(g, mb, c), mb->len[c], M->klass[c]);
}

/* Append cell c as numpy hands it to a new table: as its column held it. */
static void
mconv(const struct merge *M, struct buf *b, const struct group *g,
    const struct member *mb, int c)
{
	struct cnum v;
	const char *s = CELL(g, mb, c);

	if (M->klass[c] == K_FLOAT && cellnum(s, mb->len[c], K_FLOAT, &v) == 0)
		numcell(b, v);
	else if (M->klass[c] == K_FLOAT)
		buf_addc(b, 'z');
	else
		buf_add(b, s, mb->len[c]);
}

/* node_span of a Process Group Ranks cell. */
static const char *
nodespan(struct merge *M, const char *cell, size_t len)
{
	size_t n = coll_pgranks(cell, len, &M->ranks, &M->rcap), i;
	int64_t node, first = 0;

	if (n == 0)
		return "unknown";
	for (i = 0; i < n; i++) {
		/* Python's //: toward minus infinity */
		node = M->ranks[i] / opt.gpn - (M->ranks[i] % opt.gpn < 0);
		if (i == 0)
			first = node;
		else if (node != first)
			return "inter_node";
	}
	return "intra_node";
}

/* The collective's name for messages: its collective_id. */
static void
cid(const struct merge *M, const struct group *g, struct buf *b)
{
	char tmp[32];

	buf_reset(b);
	if (!M->simplified) {
		buf_add(b, g->pg.s, g->pg.len);
		buf_addc(b, '_');
	}
	snprintf(tmp, sizeof(tmp), "%lld", (long long)g->idx);
	buf_adds(b, tmp);
}

/* TraceLens's metadata check: every rank agrees on each field. */
static void
samemeta(struct merge *M, const struct group *g, const int *cols, int ncols,
    const char *id, int *counted)
{
	const struct member *a = &g->m[0], *b;
	size_t i;
	int k;

	for (k = 0; k < ncols; k++) {
		buf_reset(&M->t);
		mrender(M, &M->t, g, a, cols[k]);
		for (i = 1; i < g->n; i++) {
			b = &g->m[i];
			buf_reset(&M->u);
			mrender(M, &M->u, g, b, cols[k]);
			if (M->t.len == M->u.len &&
			    memcmp(M->t.s, M->u.s, M->t.len) == 0)
				continue;
			buf_addc(&M->t, '\0');
			buf_addc(&M->u, '\0');
			if (!opt.lenient)
				tl_die("collective %s: Metadata mismatch in '%s': "
				    "rank %ld has '%s', rank %ld '%s' (TraceLens "
				    "stops here)", id, colname[cols[k]], a->rank,
				    M->t.s, b->rank, M->u.s);
			tl_warn("collective %s: Metadata mismatch in '%s': rank "
			    "%ld has '%s', rank %ld '%s'", id, colname[cols[k]],
			    a->rank, M->t.s, b->rank, M->u.s);
			if (!*counted) {
				M->h.mismatch++;
				*counted = 1;
			}
			return;
		}
	}
}

/* Append "%010ld.%020lld": a byte-sortable (rank, UID) key. */
static void
firstkey(struct buf *b, const struct member *mb)
{
	char tmp[48];

	snprintf(tmp, sizeof(tmp), "%010ld.%020lld", mb->rank,
	    (long long)mb->uid);
	buf_adds(b, tmp);
}

static void
putbuf(FILE *fp, const struct buf *b, int last)
{
	put(fp, b->s ? b->s : "", b->len, last);
}

/* Append number v as a rendered cell (an empty one for NaN). */
static void
putnum(struct buf *b, struct cnum v)
{
	coll_putnum(b, &v);
}

/* A row of nccl_implicit_sync (build_df_nccl_implicit_sync_cat). */
static void
isyncrow(struct merge *M, const struct group *g, int type, const char *id,
    const char *pgdisp)
{
	static const int meta[] = {
		C_PGR, C_COLL, C_GSIZE, C_DTYPE, C_INNEL, C_OUTNEL, C_INMB,
		C_OUTMB
	};
	const struct member *mb;
	struct cnum ls, ee, le, lat, w, mw, sum, ts, dur, full, gs;
	struct buf *b = &M->v;
	double algo = NAN, bus = NAN, f;
	size_t i;
	long ear = 0;
	int counted = 0, c, haveg;

	if (!M->simplified)
		samemeta(M, g, meta, (int)LEN(meta), id, &counted);
	/* latest start, earliest and latest end, the fastest rank's time */
	for (i = 0; i < g->n; i++) {
		mb = &g->m[i];
		ts = mnum(M, g, mb, C_TS);
		dur = mnum(M, g, mb, C_DUR);
		if (i == 0 || nlt(ls, ts))
			ls = ts;
		if (i == 0 || nlt(nadd(ts, dur), ee))
			ee = nadd(ts, dur);
		if (i == 0 || nlt(le, nadd(ts, dur)))
			le = nadd(ts, dur);
		if (i == 0 || nlt(dur, lat))
			lat = dur;
	}
	/* waits: the largest, ties to the higher rank; their mean */
	sum.isint = 1;
	sum.i = 0;
	sum.d = 0;
	for (i = 0; i < g->n; i++) {
		mb = &g->m[i];
		w = nsub(ls, mnum(M, g, mb, C_TS));
		if (i == 0 || !nlt(w, mw)) {
			mw = w;
			ear = mb->rank;
		}
		sum = nadd(sum, w);
	}
	/* the message and the bandwidths, when the metadata allow */
	full = nfloat(NAN);
	mb = &g->m[0];
	c = type == T_ALLGATHER ? C_OUTMB : C_INMB;
	/* (None only in an all-None column; NaN goes on as NaN) */
	if (type >= 0 && M->klass[C_INMB] == K_FLOAT &&
	    M->klass[C_OUTMB] == K_FLOAT) {
		if (cellnum(CELL(g, mb, c), mb->len[c], K_FLOAT, &full) < 0)
			full = nfloat(NAN);
		algo = lat.d > 0 ? (full.d / 1024) / (lat.d / 1e6) : NAN;
		haveg = M->klass[C_GSIZE] == K_FLOAT ||
		    (mb->len[C_GSIZE] && CELL(g, mb, C_GSIZE)[0] != 'z');
		if (haveg && type != T_ALLTOALLV) {
			if (cellnum(CELL(g, mb, C_GSIZE), mb->len[C_GSIZE],
			    M->klass[C_GSIZE], &gs) < 0)
				tl_die("collective %s: Group size is not a number "
				    "(TraceLens fails on it)", id);
			f = type == T_ALLREDUCE ? (gs.isint ?
			    (double)(2 * (gs.i - 1)) / (double)gs.i :
			    2 * (gs.d - 1) / gs.d) : (gs.isint ?
			    (double)(gs.i - 1) / (double)gs.i : (gs.d - 1) / gs.d);
			bus = algo * f;
		}
	}

	buf_reset(b);
	firstkey(b, &g->m[0]);
	putbuf(M->isy, b, 0);
	/* the summary's group key, None as "Unknown" */
	buf_reset(b);
	for (i = 0; i < 3; i++) {
		c = i == 0 ? C_COLL : i == 1 ? C_DTYPE : C_INNEL;
		buf_reset(&M->t);
		if (mb->len[c] == 0 || CELL(g, mb, c)[0] == 'z')
			buf_adds(&M->t, "sUnknown");
		else
			mconv(M, &M->t, g, mb, c);
		coll_sortkey(b, M->t.s, M->t.len);
	}
	buf_reset(&M->u);
	rec_bput(&M->u, b->s, b->len);
	putbuf(M->isy, &M->u, 0);
	puts_(M->isy, id, 0);
	puts_(M->isy, pgdisp, 0);
	for (i = 0; i < LEN(meta); i++) {
		buf_reset(b);
		mrender(M, b, g, mb, meta[i]);
		putbuf(M->isy, b, 0);
	}
	buf_reset(b);
	putnum(b, full);
	putbuf(M->isy, b, 0);
	buf_reset(b);
	putnum(b, lat);
	putbuf(M->isy, b, 0);
	buf_reset(b);
	putnum(b, mw);
	putbuf(M->isy, b, 0);
	fprintf(M->isy, "%ld\t", ear);
	buf_reset(b);
	putnum(b, nfloat(sum.d / (double)g->n));
	putbuf(M->isy, b, 0);
	buf_reset(b);
	putnum(b, nsub(le, ee));
	putbuf(M->isy, b, 0);
	buf_reset(b);
	putnum(b, nfloat(algo));
	putbuf(M->isy, b, 0);
	buf_reset(b);
	putnum(b, nfloat(bus));
	putbuf(M->isy, b, 0);
	if (opt.gpn > 0)
		puts_(M->isy, nodespan(M, CELL(g, mb, C_PGR), mb->len[C_PGR]), 0);
	fprintf(M->isy, "%zu", g->n);
	for (i = 0; i < g->n; i++) {
		mb = &g->m[i];
		buf_reset(b);
		fprintf(M->isy, "\t%ld\t", mb->rank);
		mconv(M, b, g, mb, C_TS);
		buf_addc(b, '\t');
		mconv(M, b, g, mb, C_DUR);
		buf_addc(b, '\t');
		numcell(b, nsub(ls, mnum(M, g, mb, C_TS)));
		fwrite(b->s, 1, b->len, M->isy);
	}
	putc('\n', M->isy);
}

/* A row of nccl_all2allv (build_df_nccl_all2allv). */
static void
a2arow(struct merge *M, const struct group *g, const char *id,
    const char *pgdisp)
{
	static const int meta[] = { C_PGR, C_COLL, C_GSIZE, C_DTYPE, C_STREAM };
	const struct member *mb = &g->m[0];
	struct cnum es, ls, ee, le, ts, dur, end, nel, tnel, mx, mn, dsum;
	struct buf *b = &M->v;
	double tsize = 0, sz, rt, rmax = NAN, rmin = NAN, smax = 0, wall, thr;
	size_t i;
	int counted = 0, c, nrt = 0;

	samemeta(M, g, meta, (int)LEN(meta), id, &counted);
	if (M->klass[C_INMB] == K_NONE || M->klass[C_INNEL] == K_NONE)
		tl_die("collective %s: all_to_allv without message sizes "
		    "(TraceLens fails on it)", id);
	tnel.isint = 1;
	tnel.i = 0;
	tnel.d = 0;
	dsum = tnel;
	for (i = 0; i < g->n; i++) {
		mb = &g->m[i];
		ts = mnum(M, g, mb, C_TS);
		dur = mnum(M, g, mb, C_DUR);
		end = nadd(ts, dur);
		if (i == 0 || nlt(ts, es))
			es = ts;
		if (i == 0 || nlt(ls, ts))
			ls = ts;
		if (i == 0 || nlt(end, ee))
			ee = end;
		if (i == 0 || nlt(le, end))
			le = end;
		if (i == 0 || nlt(mx, dur))
			mx = dur;
		if (i == 0 || nlt(dur, mn))
			mn = dur;
		dsum = nadd(dsum, dur);
		sz = mnum(M, g, mb, C_INMB).d;
		tsize += sz;
		if (i == 0 || smax < sz)
			smax = sz;
		nel = mnum(M, g, mb, C_INNEL);
		tnel = nadd(tnel, nel);
		if (sz > 0 && dur.d > 0) {
			rt = (sz / 1024) / (dur.d / 1e6);
			if (nrt++ == 0 || rmax < rt)
				rmax = rt;
			if (nrt == 1 || rt < rmin)
				rmin = rt;
		}
	}
	wall = nsub(le, es).d;
	thr = wall > 0 ? (tsize / 1024) / (wall / 1e6) : NAN;
	mb = &g->m[0];

	buf_reset(b);
	firstkey(b, mb);
	putbuf(M->a2a, b, 0);
	/* the summary's group key, and whether it has a None */
	buf_reset(b);
	buf_reset(&M->t);
	buf_addc(&M->t, 's');
	buf_adds(&M->t, pgdisp);
	coll_sortkey(b, M->t.s, M->t.len);
	buf_reset(&M->t);
	mconv(M, &M->t, g, mb, C_DTYPE);
	coll_sortkey(b, M->t.s, M->t.len);
	buf_reset(&M->u);
	rec_bput(&M->u, b->s, b->len);
	putbuf(M->a2a, &M->u, 0);
	fprintf(M->a2a, "%d\t", M->t.s[0] == 'z');
	buf_reset(b);
	putnum(b, nfloat(tsize));
	putbuf(M->a2a, b, 0);
	puts_(M->a2a, id, 0);
	puts_(M->a2a, pgdisp, 0);
	for (i = 0; i < LEN(meta); i++) {
		buf_reset(b);
		mrender(M, b, g, mb, meta[i]);
		putbuf(M->a2a, b, 0);
	}
	buf_reset(b);
	putnum(b, nfloat(tsize));
	buf_addc(b, '\t');
	putnum(b, tnel);
	buf_addc(b, '\t');
	putnum(b, nsub(le, es));
	buf_addc(b, '\t');
	putnum(b, mx);
	buf_addc(b, '\t');
	putnum(b, mn);
	buf_addc(b, '\t');
	putnum(b, nfloat(dsum.d / (double)g->n));
	buf_addc(b, '\t');
	putnum(b, nfloat(thr));
	buf_addc(b, '\t');
	putnum(b, nfloat(rmax));
	buf_addc(b, '\t');
	putnum(b, nfloat(rmin));
	buf_addc(b, '\t');
	putnum(b, nfloat(tsize / (double)g->n > 0 ?
	    smax / (tsize / (double)g->n) : NAN));
	buf_addc(b, '\t');
	putnum(b, nsub(ls, es));
	buf_addc(b, '\t');
	putnum(b, nsub(le, ee));
	putbuf(M->a2a, b, 0);
	if (opt.gpn > 0)
		puts_(M->a2a, nodespan(M, CELL(g, mb, C_PGR), mb->len[C_PGR]), 0);
	fprintf(M->a2a, "%zu", g->n);
	for (i = 0; i < g->n; i++) {
		static const int per[] = {
			C_TS, C_DUR, C_INNEL, C_OUTNEL, C_INMB, C_OUTMB,
			C_INSPLIT, C_OUTSPLIT
		};

		mb = &g->m[i];
		buf_reset(b);
		for (c = 0; c < (int)LEN(per); c++) {
			buf_addc(b, '\t');
			mconv(M, b, g, mb, per[c]);
		}
		ts = mnum(M, g, mb, C_TS);
		buf_addc(b, '\t');
		numcell(b, nsub(ts, es));
		buf_addc(b, '\t');
		numcell(b, nsub(le, nadd(ts, mnum(M, g, mb, C_DUR))));
		fprintf(M->a2a, "\t%ld", mb->rank);
		fwrite(b->s, 1, b->len, M->a2a);
	}
	putc('\n', M->a2a);
}

/* The heatmap's pairs of one all_to_allv event (build_df_all2allv_heatmap). */
static void
heatpairs(struct merge *M, const struct group *g, const struct member *mb)
{
	struct cnum gs;
	long n, j;
	int bytes;

	n = coll_splits(CELL(g, mb, C_INSPLIT), mb->len[C_INSPLIT], &M->spl,
	    &M->scap);
	if (n < 0) {
		M->h.heatskip++;
		return;
	}
	/* a None group size is not checked; NaN never equals */
	if (cellnum(CELL(g, mb, C_GSIZE), mb->len[C_GSIZE], M->klass[C_GSIZE],
	    &gs) == 0 && (gs.isint ? gs.i != n : gs.d != (double)n)) {
		M->h.heatskip++;
		return;
	}
	if (M->klass[C_GSIZE] == K_OBJ && mb->len[C_GSIZE] &&
	    CELL(g, mb, C_GSIZE)[0] != 'z' && CELL(g, mb, C_GSIZE)[0] != 'i' &&
	    CELL(g, mb, C_GSIZE)[0] != 'f') {
		M->h.heatskip++;
		return;
	}
	if ((bytes = dtypebytes(CELL(g, mb, C_DTYPE), mb->len[C_DTYPE])) == 0) {
		M->h.heatskip++;
		return;
	}
	for (j = 0; j < n; j++)
		fprintf(M->heat, "%ld\t%ld\t%lld\n", mb->rank, j,
		    (long long)(M->spl[j] * bytes));
}

static void
flush(struct merge *M, struct group *g)
{
	static const int keys[] = {
		C_PGR, C_COLL, C_GSIZE, C_DTYPE, C_INNEL, C_OUTNEL, C_INSPLIT,
		C_OUTSPLIT, C_STREAM
	};
	static const int longcols[] = {
		C_PGR, C_COLL, C_GSIZE, C_DTYPE, C_INNEL, C_INMB, C_OUTNEL,
		C_OUTMB, C_INSPLIT, C_OUTSPLIT, C_STREAM, C_TS, C_DUR
	};
	struct buf id = {0}, pgd = {0}, *b = &M->v;
	const struct member *mb;
	size_t i, k, np;
	int type, implicit, keyna;
	char tmp[48];
	int64_t want;
	struct cnum gs;

	if (g->n == 0)
		return;
	cid(M, g, &id);
	buf_addc(&id, '\0');
	id.len--;
	if (M->simplified)
		buf_adds(&pgd, "all");
	else
		buf_add(&pgd, g->pg.s, g->pg.len);
	buf_addc(&pgd, '\0');
	pgd.len--;
	/* the long table: each record as pandas prints it */
	for (i = 0; i < g->n; i++) {
		mb = &g->m[i];
		fprintf(M->lng, "%ld\t%lld\t", mb->rank, (long long)mb->uid);
		buf_reset(b);
		snprintf(tmp, sizeof(tmp), "i%ld", mb->rank);
		coll_sortkey(b, tmp, strlen(tmp));
		buf_reset(&M->t);
		buf_addc(&M->t, 's');
		buf_add(&M->t, pgd.s, pgd.len);
		coll_sortkey(b, M->t.s, M->t.len);
		keyna = 0;
		for (k = 0; k < LEN(keys); k++) {
			buf_reset(&M->t);
			mconv(M, &M->t, g, mb, keys[k]);
			coll_sortkey(b, M->t.s, M->t.len);
			keyna |= M->t.s[0] == 'z';
		}
		buf_reset(&M->u);
		rec_bput(&M->u, b->s, b->len);
		putbuf(M->lng, &M->u, 0);
		fprintf(M->lng, "%d\t%s\t%lld\t%ld\t%s", keyna, id.s,
		    (long long)g->idx, mb->rank, pgd.s);
		for (k = 0; k < LEN(longcols); k++) {
			buf_reset(b);
			mrender(M, b, g, mb, longcols[k]);
			putc('\t', M->lng);
			fwrite(b->s, 1, b->len, M->lng);
		}
		if (opt.gpn > 0)
			fprintf(M->lng, "\t%ld\t%s", mb->rank / opt.gpn,
			    nodespan(M, CELL(g, mb, C_PGR), mb->len[C_PGR]));
		putc('\n', M->lng);
	}

	mb = &g->m[0];
	type = colltype(CELL(g, mb, C_COLL), mb->len[C_COLL]);
	if (M->simplified)
		implicit = CELL(g, mb, C_COLL)[0] != 's' || type < 0 ||
		    type != T_ALLTOALLV;
	else
		implicit = type >= 0 && type != T_ALLTOALLV;
	if (implicit)
		isyncrow(M, g, type, id.s, pgd.s);
	if (type == T_ALLTOALLV)
		a2arow(M, g, id.s, pgd.s);
	for (i = 0; opt.heat && i < g->n; i++)
		if (colltype(CELL(g, &g->m[i], C_COLL), g->m[i].len[C_COLL]) ==
		    T_ALLTOALLV)
			heatpairs(M, g, &g->m[i]);

	/* health: a collective some ranks of its group lack */
	M->h.colls++;
	if (!implicit && type != T_ALLTOALLV)
		M->h.unreported++;
	np = coll_pgranks(CELL(g, mb, C_PGR), mb->len[C_PGR], &M->ranks,
	    &M->rcap);
	want = opt.world;
	if (np > 0) {
		for (want = 0, k = 0; k < np; k++)
			want += M->ranks[k] >= 0 && M->ranks[k] < opt.world;
	} else if (cellnum(CELL(g, mb, C_GSIZE), mb->len[C_GSIZE], K_INT,
	    &gs) == 0 && gs.isint && gs.i > 0)
		want = gs.i;
	if ((int64_t)g->n < want)
		M->h.missing++;
	buf_free(&id);
	buf_free(&pgd);
}

/* Read the ranks' facts (-F): the column classes and the matching mode. */
static void
readfacts(struct merge *M)
{
	struct rec_reader r;
	unsigned col[NCOL] = {0};
	const char *s;
	size_t len, i;
	int pgset = 0, multi = 0, c;
	FILE *fp;

	if ((fp = fopen(opt.facts, "r")) == NULL)
		tl_die("%s:", opt.facts);
	rec_open(&r, fp, opt.facts);
	while (rec_read(&r)) {
		if (r.nf != 4 + NCOL)
			tl_die("%s: line %zu: %zu fields, not a facts record",
			    opt.facts, r.lineno, r.nf);
		s = rec_get(&r, 2, &len);
		pgset |= len == 1 && s[0] == '1';
		s = rec_get(&r, 3, &len);
		/* (a rank without collectives has no say) */
		multi |= len == 1 && s[0] == '2';
		for (c = 0; c < NCOL; c++) {
			s = rec_get(&r, 4 + c, &len);
			for (i = 0; i < len; i++)
				col[c] |= s[i] == 'z' ? F_Z : s[i] == 'i' ? F_I :
				    s[i] == 'f' ? F_F : s[i] == 's' ? F_S : F_X;
		}
	}
	rec_close(&r);
	fclose(fp);
	M->simplified = !pgset && !multi;
	for (c = 0; c < NCOL; c++)
		M->klass[c] = coll_class(col[c]);
}

static void
merge(void)
{
	static const char *const longhdr[] = {
		"#rank", "#uid", "#skey", "#keyna", "collective_id",
		"index_in_group", "rank", "Process Group Name",
		"Process Group Ranks", "Collective name", "Group size", "dtype",
		"In msg nelems", "In msg size (MB)", "Out msg nelems",
		"Out msg size (MB)", "In split size", "Out split size", "stream",
		"ts", "dur", "node_id", "node_span"
	};
	static const char *const isyhdr[] = {
		"fkey", "skey", "collective_id", "Process Group Name",
		"Process Group Ranks", "Collective name", "Group size", "dtype",
		"In msg nelems", "Out msg nelems", "In msg size (MB)",
		"Out msg size (MB)", "Full msg size (MB)", "comm_latency",
		"skew in start time", "earliest arrival rank", "avg_wait_time",
		"skew in end time", "algo bw (GB/s)", "bus bw (GB/s)", "node_span"
	};
	static const char *const a2ahdr[] = {
		"fkey", "skey", "keyna", "total", "collective_id",
		"Process Group Name", "Process Group Ranks", "Collective name",
		"Group size", "dtype", "stream", "total data communicated (MB)",
		"total nelems communicated", "wall_time (us)",
		"max_rank_dur (us)", "min_rank_dur (us)", "avg_rank_dur (us)",
		"throughput (GB/s)", "max_rank_throughput (GB/s)",
		"min_rank_throughput (GB/s)", "size_imbalance",
		"skew in start time", "skew in end time", "node_span"
	};
	struct merge M;
	struct group g;
	struct rec_reader r;
	struct member *mb;
	const char *s;
	size_t len, k;
	int64_t idx;
	long rank;
	int c, nk;
	FILE *fp;

	memset(&M, 0, sizeof(M));
	memset(&g, 0, sizeof(g));
	readfacts(&M);
	M.lng = xfopen(opt.dir, "long.tsv", "w");
	M.isy = xfopen(opt.dir, "isync.tsv", "w");
	M.a2a = xfopen(opt.dir, "a2a.tsv", "w");
	M.heat = opt.heat ? xfopen(opt.dir, "heat.tsv", "w") : NULL;
	nk = opt.gpn > 0 ? 0 : 2;
	rec_write(M.lng, longhdr, LEN(longhdr) - (size_t)nk);
	rec_write(M.isy, isyhdr, LEN(isyhdr) - (opt.gpn > 0 ? 0 : 1));
	rec_write(M.a2a, a2ahdr, LEN(a2ahdr) - (opt.gpn > 0 ? 0 : 1));
	if (M.heat != NULL)
		fputs("src_rank\tdst_rank\tbytes\n", M.heat);

	rec_open(&r, stdin, "<stdin>");
	while (rec_read(&r)) {
		if (r.nf != NKEY + NCOL)
			tl_die("<stdin>: line %zu: %zu fields, not a collective "
			    "record", r.lineno, r.nf);
		s = rec_get(&r, 1, &len);
		if (num_int64(s, len, &idx) < 0 || idx < 0)
			tl_die("<stdin>: line %zu: bad index", r.lineno);
		s = rec_get(&r, 2, &len);
		rank = fieldlong(s, len, "rank", "<stdin>", r.lineno);
		if (rank >= opt.world)
			tl_die("<stdin>: line %zu: rank %ld of a job of %ld",
			    r.lineno, rank, opt.world);
		s = rec_get(&r, 0, &len);
		c = g.n == 0 ? 1 : 0;
		if (!c) {
			c = bytecmp(s, len, g.pg.s, g.pg.len);
			if (c == 0)
				c = idx < g.idx ? -1 : idx > g.idx;
			if (c == 0)
				c = rank <= g.m[g.n - 1].rank ? -1 : 0;
			if (c < 0)
				tl_die("<stdin>: line %zu: not sorted by process "
				    "group, index and rank", r.lineno);
		}
		if (c) {
			flush(&M, &g);
			g.n = 0;
			buf_reset(&g.data);
			buf_reset(&g.pg);
			buf_add(&g.pg, s, len);
			buf_addc(&g.pg, '\0');
			g.pg.len--;
			g.idx = idx;
		}
		tl_grow((void **)&g.m, &g.cap, g.n + 1, sizeof(*g.m));
		mb = &g.m[g.n++];
		mb->rank = rank;
		s = rec_get(&r, 3, &len);
		if (num_int64(s, len, &mb->uid) < 0)
			tl_die("<stdin>: line %zu: bad UID", r.lineno);
		for (k = 0; k < NCOL; k++) {
			s = rec_get(&r, NKEY + (int)k, &len);
			if (len == 0 || strchr("zifsblo", s[0]) == NULL)
				tl_die("<stdin>: line %zu: %s: not a typed cell",
				    r.lineno, colname[k]);
			mb->off[k] = g.data.len;
			mb->len[k] = len;
			buf_add(&g.data, s, len);
		}
		buf_addc(&g.data, '\0');
	}
	flush(&M, &g);
	rec_close(&r);

	fp = xfopen(opt.dir, "health.tsv", "w");
	fprintf(fp, "collectives\t%lld\n", (long long)M.h.colls);
	fprintf(fp, "collectives_missing_ranks\t%lld\n", (long long)M.h.missing);
	fprintf(fp, "collectives_not_reported\t%lld\n",
	    (long long)M.h.unreported);
	fprintf(fp, "metadata_mismatches\t%lld\n", (long long)M.h.mismatch);
	fprintf(fp, "matching_by_stream_order\t%d\n", M.simplified);
	if (opt.heat)
		fprintf(fp, "heatmap_events_skipped\t%lld\n",
		    (long long)M.h.heatskip);
	xclose(fp, "health.tsv");
	/* how ts and dur print: the sums over them follow */
	fp = xfopen(opt.dir, "classes.tsv", "w");
	for (k = 0; k < NCOL; k++)
		fprintf(fp, "%s\t%s\n", colname[k], (const char *[]){
		    "none", "int", "float", "object" }[M.klass[k]]);
	xclose(fp, "classes.tsv");
	xclose(M.lng, "long.tsv");
	xclose(M.isy, "isync.tsv");
	xclose(M.a2a, "a2a.tsv");
	if (M.heat != NULL)
		xclose(M.heat, "heat.tsv");
	buf_free(&g.data);
	buf_free(&g.pg);
	free(g.m);
	buf_free(&M.t);
	buf_free(&M.u);
	buf_free(&M.v);
	free(M.ranks);
	free(M.spl);
}

/* ---- -i, -a: the per-collective sheets ---- */

/*
 * The per-rank columns of a sheet made of rows that each hold some
 * ranks: pandas orders the columns as the ranks first appear, a batch
 * a row, and a rank's column is a float64 one when a row lacks it.
 */
struct layout {
	long *order;		/* ranks in column order */
	size_t n;		/* ranks seen */
	size_t *bend;		/* end of each batch in order */
	size_t nb;		/* batches */
	long *pos;		/* rank -> its index in order, -1 */
	int64_t *present;	/* rank -> rows holding it */
	unsigned *facts;	/* rank * nkind + kind -> fact bits */
	int nkind;		/* values a rank has in a row */
	long world;		/* ranks possible */
	int64_t rows;		/* rows seen */
	long *at;		/* rank -> its place in the row written, -1 */
};

static void
layinit(struct layout *L, long world, int nkind)
{
	long r;

	memset(L, 0, sizeof(*L));
	L->world = world;
	L->nkind = nkind;
	L->order = tl_calloc((size_t)world + 1, sizeof(*L->order));
	L->bend = tl_calloc((size_t)world + 1, sizeof(*L->bend));
	L->pos = tl_calloc((size_t)world + 1, sizeof(*L->pos));
	L->present = tl_calloc((size_t)world + 1, sizeof(*L->present));
	L->facts = tl_calloc((size_t)(world + 1) * (size_t)nkind,
	    sizeof(*L->facts));
	L->at = tl_calloc((size_t)world + 1, sizeof(*L->at));
	for (r = 0; r < world; r++)
		L->pos[r] = L->at[r] = -1;
}

static void
layfree(struct layout *L)
{
	free(L->order);
	free(L->bend);
	free(L->pos);
	free(L->present);
	free(L->facts);
	free(L->at);
}

/* The print class of kind k of rank r's columns. */
static int
layclass(const struct layout *L, long r, int k)
{
	unsigned f = L->facts[(size_t)r * (size_t)L->nkind + (size_t)k];

	if (L->present[r] < L->rows)
		f |= F_Z;
	return coll_class(f);
}

/* A row of the sheets: its fields, split. */
struct row {
	char *line;		/* the line, owned */
	size_t cap;		/* allocated size of line */
	char **f;		/* its fields */
	size_t *fl;		/* their lengths */
	size_t fcap;		/* allocated size of f and fl */
	size_t nf;		/* fields */
	size_t nr;		/* ranks in the row */
	const char *name;	/* the file, for messages */
	size_t lineno;		/* the line's number */
};

/* Read the next row of a per-collective sheet file; 0 at its end. */
static int
readrow(FILE *fp, struct row *w, size_t ngen, size_t per)
{
	ssize_t n;
	size_t k;

	errno = 0;
	if ((n = getline(&w->line, &w->cap, fp)) <= 0) {
		if (ferror(fp))
			tl_die("%s:", w->name);
		return 0;
	}
	w->lineno++;
	if (w->line[n - 1] == '\n')
		w->line[--n] = '\0';
	w->nf = split(w->line, (size_t)n, &w->f, &w->fl, &w->fcap);
	if (w->lineno == 1)
		return 1;
	if (w->nf < ngen + 1)
		tl_die("%s: line %zu: %zu fields, too few", w->name, w->lineno,
		    w->nf);
	w->nr = (size_t)fieldlong(w->f[ngen], w->fl[ngen], "rank count",
	    w->name, w->lineno);
	if (w->nf != ngen + 1 + w->nr * per)
		tl_die("%s: line %zu: %zu fields, not %zu ranks of %zu", w->name,
		    w->lineno, w->nf, w->nr, per);
	for (k = 0; k < w->nr; k++)
		fieldlong(w->f[ngen + 1 + k * per], w->fl[ngen + 1 + k * per],
		    "rank", w->name, w->lineno);
	return 1;
}

/* The rank of the k-th rank of row w. */
static long
rowrank(const struct row *w, size_t ngen, size_t per, size_t k)
{
	return strtol(w->f[ngen + 1 + k * per], NULL, 10);
}

/* Take row w's ranks into the layout (pass 1). */
static void
laysee(struct layout *L, const struct row *w, size_t ngen, size_t per)
{
	size_t k, j;
	long r;

	L->rows++;
	for (k = 0; k < w->nr; k++) {
		r = rowrank(w, ngen, per, k);
		if (r < 0 || r >= L->world)
			tl_die("%s: line %zu: rank %ld of a job of %ld", w->name,
			    w->lineno, r, L->world);
		if (L->pos[r] < 0) {
			L->pos[r] = (long)L->n;
			L->order[L->n++] = r;
		}
		L->present[r]++;
		for (j = 0; j < (size_t)L->nkind; j++) {
			size_t i = ngen + 1 + k * per + 1 + j;

			L->facts[(size_t)r * (size_t)L->nkind + j] |=
			    coll_fact(w->f[i], w->fl[i]);
		}
	}
	if (L->nb == 0 || L->bend[L->nb - 1] < L->n)
		L->bend[L->nb++] = L->n;
}

/* The header of the per-rank columns: per batch, kinds a, then kinds b. */
static void
layhead(FILE *fp, const struct layout *L, const char *const *kinds, int na,
    int nb)
{
	char name[160];
	size_t b, i, lo;
	int k;

	for (b = 0, lo = 0; b < L->nb; lo = L->bend[b++]) {
		for (i = lo; i < L->bend[b]; i++)
			for (k = 0; k < na; k++) {
				snprintf(name, sizeof(name), "rank_%ld_%s",
				    L->order[i], kinds[k]);
				csvname(fp, name, 0);
			}
		for (i = lo; i < L->bend[b]; i++)
			for (k = na; k < na + nb; k++) {
				snprintf(name, sizeof(name), "rank_%ld_%s",
				    L->order[i], kinds[k]);
				csvname(fp, name, 0);
			}
	}
}

/* The per-rank cells of row w, in the layout's order. */
static void
laycells(FILE *fp, const struct layout *L, const struct row *w, size_t ngen,
    size_t per, int na, int nb, struct buf *tmp)
{
	long *at = L->at;
	size_t b, i, lo, k;
	long r;
	int j;

	for (k = 0; k < w->nr; k++)
		at[rowrank(w, ngen, per, k)] = (long)k;
	for (b = 0, lo = 0; b < L->nb; lo = L->bend[b++]) {
		for (int half = 0; half < 2; half++)
			for (i = lo; i < L->bend[b]; i++) {
				r = L->order[i];
				for (j = half ? na : 0; j < (half ? na + nb : na);
				    j++) {
					csv_sep(fp, 0);
					if (at[r] < 0)
						continue;
					k = ngen + 1 + (size_t)at[r] * per + 1 +
					    (size_t)j;
					buf_reset(tmp);
					coll_render(tmp, w->f[k], w->fl[k],
					    layclass(L, r, j));
					tmp->len = rec_unescape(tmp->s ? tmp->s :
					    "", tmp->len);
					csv_cell(fp, tmp->s ? tmp->s : "",
					    tmp->len);
				}
			}
	}
	for (k = 0; k < w->nr; k++)
		at[rowrank(w, ngen, per, k)] = -1;
}

/*
 * Each rank's total kernel time (-t): pandas' group sum of the long
 * table's dur, by rank, in its row order (rank, then UID): Kahan's
 * summation over float64, an exact sum over int64.  *isint: the
 * column is int64 (its cells have no '.' or exponent).
 */
static double *
readtotals(long world, int *isint)
{
	struct rec_reader r;
	const char *s;
	size_t len;
	double *t = tl_calloc((size_t)world + 1, sizeof(*t));
	double *comp = tl_calloc((size_t)world + 1, sizeof(*comp));
	int64_t *it = tl_calloc((size_t)world + 1, sizeof(*it)), iv;
	double d, y, u;
	long k, rank;
	int cdur;
	FILE *fp;

	*isint = 1;
	if ((fp = fopen(opt.totals, "r")) == NULL)
		tl_die("%s:", opt.totals);
	rec_open(&r, fp, opt.totals);
	rec_read_header(&r);
	cdur = rec_need(&r, "dur");
	for (k = 0; k <= world; k++)
		t[k] = NAN;
	while (rec_read(&r)) {
		s = rec_get(&r, 0, &len);
		rank = fieldlong(s, len, "rank", opt.totals, r.lineno);
		s = rec_get(&r, cdur, &len);
		if (rank >= world || num_double(s, len, &d) < 0)
			tl_die("%s: line %zu: bad rank or dur", opt.totals,
			    r.lineno);
		if (memchr(s, '.', len) || memchr(s, 'e', len) ||
		    num_int64(s, len, &iv) < 0)
			*isint = 0;
		else
			it[rank] += iv;
		if (t[rank] != t[rank])
			t[rank] = comp[rank] = 0;
		y = d - comp[rank];
		u = t[rank] + y;
		comp[rank] = u - t[rank] - y;
		t[rank] = u;
	}
	for (k = 0; *isint && k < world; k++)
		if (t[k] == t[k])
			t[k] = (double)it[k];
	rec_close(&r);
	fclose(fp);
	free(comp);
	free(it);
	return t;
}

/* Write a straggler value: an integer column's as one, else repr(). */
static void
stragnum(FILE *fp, double v, int isint)
{
	char tmp[40];

	csv_sep(fp, 0);
	if (v != v)
		return;
	if (isint)
		fprintf(fp, "%.0f", v);
	else
		fputs(num_pyrepr(v, tmp, sizeof(tmp)), fp);
}

/*
 * straggler_summary (build_df_straggler_summary): per rank of the
 * wait columns, the sums and counts gathered over the rows.
 */
static void
straggler(const struct layout *L, const struct np_cols *sums,
    const int64_t *isum, const int64_t *nlast, const int64_t *nfirst,
    int waitint)
{
	static const char *const hdr[] = {
		"rank", "total_wait_time_us", "mean_wait_time_us",
		"times_arrived_last", "times_arrived_first", "pct_arrived_last",
		"num_collectives", "total_nccl_dur_us", "node_id"
	};
	double *tot, *mean, *dur, *key;
	uint32_t *ord;
	size_t i, n = L->n, k;
	long *rk, r;
	int allint = 1, durint, *colint;
	FILE *fp;

	if (n == 0 || L->rows == 0)
		return;
	dur = readtotals(L->world, &durint);
	tot = tl_calloc(n, sizeof(*tot));
	mean = tl_calloc(n, sizeof(*mean));
	key = tl_calloc(n, sizeof(*key));
	ord = tl_calloc(n, sizeof(*ord));
	rk = tl_calloc(n, sizeof(*rk));
	colint = tl_calloc(n, sizeof(*colint));
	/* the ranks in numeric order */
	for (i = 0, r = 0; r < L->world; r++)
		if (L->pos[r] >= 0)
			rk[i++] = r;
	for (i = 0; i < n; i++) {
		k = (size_t)L->pos[rk[i]];
		colint[i] = waitint && layclass(L, rk[i], 2) == K_INT;
		allint &= colint[i];
		if (colint[i]) {
			tot[i] = (double)isum[k];
			mean[i] = (double)isum[k] / (double)L->present[rk[i]];
		} else {
			tot[i] = np_cols_sum(sums, k);
			mean[i] = tot[i] / (double)L->present[rk[i]];
			tot[i] = round1(tot[i]);
		}
		mean[i] = round1(mean[i]);
		key[i] = tot[i];
	}
	pd_order(key, n, 0, ord);
	fp = xfopen(opt.dir, "straggler_summary.csv", "w");
	for (i = 0; i < LEN(hdr) - (opt.gpn > 0 ? 0 : 1); i++)
		csvname(fp, hdr[i], i == 0);
	putc('\n', fp);
	for (i = 0; i < n; i++) {
		size_t j = ord[i];

		r = rk[j];
		k = (size_t)L->pos[r];
		fprintf(fp, "%ld", r);
		stragnum(fp, tot[j], allint);
		stragnum(fp, mean[j], 0);
		fprintf(fp, ",%lld,%lld", (long long)nlast[k],
		    (long long)nfirst[r]);
		stragnum(fp, round1(100.0 * (double)nlast[k] /
		    (double)L->rows), 0);
		fprintf(fp, ",%lld", (long long)L->rows);
		stragnum(fp, durint ? dur[r] : round1(dur[r]), durint);
		if (opt.gpn > 0)
			fprintf(fp, ",%ld", r / opt.gpn);
		putc('\n', fp);
	}
	xclose(fp, "straggler_summary.csv");
	free(dur);
	free(tot);
	free(mean);
	free(key);
	free(ord);
	free(rk);
	free(colint);
}

static FILE *
openrows(const char *path, struct row *w)
{
	FILE *fp;

	if ((fp = fopen(path, "r")) == NULL)
		tl_die("%s:", path);
	w->name = path;
	w->lineno = 0;
	return fp;
}

static void
rowfree(struct row *w)
{
	free(w->line);
	free(w->f);
	free(w->fl);
}

/* -i: nccl_implicit_sync, straggler_summary, and the summary's rows. */
static void
isyncsheet(void)
{
	static const char *const kinds[] = { "ts", "dur", "wait_time" };
	static const char *const sumcols[] = {
		"Collective name", "dtype", "In msg nelems",
		"Process Group Name", "Group size", "Full msg size (MB)",
		"comm_latency", "skew in start time", "skew in end time",
		"algo bw (GB/s)", "bus bw (GB/s)"
	};
	struct row w = {0};
	struct layout L;
	struct np_cols sums;
	struct buf tmp = {0};
	size_t ngen, i, k, nk, hdrn;
	int node, algo = 0, bus = 0, ecol = -1, waitint = 1, gcol[LEN(sumcols)];
	int64_t *isum, *nlast, *nfirst;
	double *wv, minv;
	long r, ear;
	FILE *in, *out = NULL, *sum, *cols;

	in = openrows(opt.file, &w);
	if (!readrow(in, &w, 0, 0))
		tl_die("%s: no header", opt.file);
	hdrn = w.nf;
	node = hdrn > 0 && strcmp(w.f[hdrn - 1], "node_span") == 0;
	ngen = hdrn;
	for (k = 0; k < LEN(sumcols); k++) {
		gcol[k] = -1;
		for (i = 0; i < hdrn; i++)
			if (strcmp(w.f[i], sumcols[k]) == 0)
				gcol[k] = (int)i;
		if (gcol[k] < 0)
			tl_die("%s: no column %s", opt.file, sumcols[k]);
	}
	for (i = 0; i < hdrn; i++)
		if (strcmp(w.f[i], "earliest arrival rank") == 0)
			ecol = (int)i;
	layinit(&L, opt.world, 3);
	while (readrow(in, &w, ngen, 4)) {
		laysee(&L, &w, ngen, 4);
		algo |= w.fl[gcol[9]] > 0;
		bus |= w.fl[gcol[10]] > 0;
	}
	for (r = 0; r < L.world; r++)
		if (L.pos[r] >= 0 && layclass(&L, r, 2) != K_INT)
			waitint = 0;

	/* pass 2 */
	fclose(in);
	in = openrows(opt.file, &w);
	readrow(in, &w, 0, 0);
	if (!opt.nodetail && L.rows > 0) {
		out = xfopen(opt.dir, "nccl_implicit_sync.csv", "w");
		for (i = 2; i < ngen - (size_t)node; i++)
			csvname(out, w.f[i], i == 2);
		layhead(out, &L, kinds, 2, 1);
		if (node)
			csvname(out, "node_span", 0);
		putc('\n', out);
	} else if (!opt.nodetail) {
		/* TraceLens writes an empty table as one empty line */
		out = xfopen(opt.dir, "nccl_implicit_sync.csv", "w");
		putc('\n', out);
	}
	sum = xfopen(opt.dir, "isum.tsv", "w");
	fputs("skey", sum);
	for (k = 0; k < LEN(sumcols); k++)
		fprintf(sum, "\t%s", sumcols[k]);
	putc('\n', sum);
	nk = L.n;
	np_cols_init(&sums, nk, (size_t)L.rows);
	isum = tl_calloc(nk + 1, sizeof(*isum));
	nlast = tl_calloc(nk + 1, sizeof(*nlast));
	nfirst = tl_calloc((size_t)L.world + 1, sizeof(*nfirst));
	wv = tl_calloc(nk + 1, sizeof(*wv));
	while (readrow(in, &w, ngen, 4)) {
		if (out != NULL && L.rows > 0) {
			for (i = 2; i < ngen - (size_t)node; i++)
				csvfield(out, w.f[i], w.fl[i], i == 2, &tmp);
			laycells(out, &L, &w, ngen, 4, 2, 1, &tmp);
			if (node)
				csvfield(out, w.f[ngen - 1], w.fl[ngen - 1], 0,
				    &tmp);
			putc('\n', out);
		}
		/* the summary's row: its key, None as Unknown */
		put(sum, w.f[1], w.fl[1], 0);
		for (k = 0; k < LEN(sumcols); k++) {
			i = (size_t)gcol[k];
			if (k < 3 && w.fl[i] == 0)
				puts_(sum, "Unknown", k + 1 == LEN(sumcols));
			else
				put(sum, w.f[i], w.fl[i], k + 1 == LEN(sumcols));
		}
		/* straggler: the waits, NaN as 0; the first minimum */
		for (k = 0; k < nk; k++)
			wv[k] = NAN;
		for (k = 0; k < w.nr; k++) {
			size_t f = ngen + 1 + k * 4 + 3;
			struct cnum v;

			r = rowrank(&w, ngen, 4, k);
			if (coll_num(w.f[f], w.fl[f], &v) < 0)
				tl_die("%s: line %zu: bad wait", w.name, w.lineno);
			wv[L.pos[r]] = v.d;
			isum[L.pos[r]] += v.isint ? v.i : 0;
		}
		for (minv = NAN, k = 0, i = nk; k < nk; k++)
			if (wv[k] == wv[k] && (minv != minv || wv[k] < minv)) {
				minv = wv[k];
				i = k;
			}
		if (i < nk)
			nlast[i]++;
		for (k = 0; k < nk; k++)
			if (wv[k] != wv[k])
				wv[k] = 0;
		np_cols_row(&sums, wv);
		if (ecol >= 0) {
			ear = fieldlong(w.f[ecol], w.fl[ecol], "rank", w.name,
			    w.lineno);
			if (ear < L.world)
				nfirst[ear]++;
		}
	}
	fclose(in);
	if (out != NULL)
		xclose(out, "nccl_implicit_sync.csv");
	xclose(sum, "isum.tsv");
	straggler(&L, &sums, isum, nlast, nfirst, waitint);
	/* the summary's metric columns: the bandwidths when not all NaN */
	cols = xfopen(opt.dir, "isum.cols", "w");
	fputs("comm_latency\nskew in start time\nskew in end time\n", cols);
	if (algo)
		fputs("algo bw (GB/s)\n", cols);
	if (bus)
		fputs("bus bw (GB/s)\n", cols);
	xclose(cols, "isum.cols");
	np_cols_free(&sums);
	free(isum);
	free(nlast);
	free(nfirst);
	free(wv);
	buf_free(&tmp);
	layfree(&L);
	rowfree(&w);
}

/* -a: nccl_all2allv, rows in pandas' order, and the summary's rows. */
static void
a2asheet(void)
{
	static const char *const kinds[] = {
		"ts", "dur", "In msg nelems", "Out msg nelems",
		"In msg size (MB)", "Out msg size (MB)", "In split size",
		"Out split size", "skew in start time", "skew in end time"
	};
	static const char *const sumcols[] = {
		"Process Group Name", "dtype", "total data communicated (MB)",
		"wall_time (us)", "throughput (GB/s)", "size_imbalance",
		"max_rank_dur (us)", "skew in start time", "skew in end time",
		"collective_id", "Process Group Ranks", "Collective name",
		"Group size", "node_span"
	};
	struct row w = {0};
	struct layout L;
	struct buf tmp = {0};
	double *tot = NULL, d;
	off_t *off = NULL, o;
	uint32_t *ord;
	size_t ntot = 0, cap = 0, ocap = 0, ngen, i, k, nsc;
	int node, gcol[LEN(sumcols)];
	FILE *in, *out = NULL, *sum;

	in = openrows(opt.file, &w);
	if (!readrow(in, &w, 0, 0))
		tl_die("%s: no header", opt.file);
	ngen = w.nf;
	node = strcmp(w.f[ngen - 1], "node_span") == 0;
	nsc = LEN(sumcols) - (node ? 0 : 1);
	for (k = 0; k < nsc; k++) {
		gcol[k] = -1;
		for (i = 0; i < ngen; i++)
			if (strcmp(w.f[i], sumcols[k]) == 0)
				gcol[k] = (int)i;
		if (gcol[k] < 0)
			tl_die("%s: no column %s", opt.file, sumcols[k]);
	}
	layinit(&L, opt.world, 10);
	for (;;) {
		o = ftello(in);
		if (!readrow(in, &w, ngen, 11))
			break;
		laysee(&L, &w, ngen, 11);
		tl_grow((void **)&tot, &cap, ntot + 1, sizeof(*tot));
		tl_grow((void **)&off, &ocap, ntot + 1, sizeof(*off));
		if (num_double(w.f[3], w.fl[3], &d) < 0)
			d = NAN;
		tot[ntot] = d;
		off[ntot++] = o;
	}
	ord = tl_calloc(ntot + 1, sizeof(*ord));
	pd_order(tot, ntot, 1, ord);
	if (!opt.nodetail && ntot > 0) {
		out = xfopen(opt.dir, "nccl_all2allv.csv", "w");
		fseeko(in, 0, SEEK_SET);
		w.lineno = 0;
		readrow(in, &w, 0, 0);
		for (i = 4; i < ngen - (size_t)node; i++)
			csvname(out, w.f[i], i == 4);
		layhead(out, &L, kinds, 8, 2);
		if (node)
			csvname(out, "node_span", 0);
		putc('\n', out);
	}
	sum = xfopen(opt.dir, "a2asum.tsv", "w");
	fputs("skey", sum);
	for (k = 0; k < nsc; k++)
		fprintf(sum, "\t%s", sumcols[k]);
	putc('\n', sum);
	for (i = 0; i < ntot; i++) {
		fseeko(in, off[ord[i]], SEEK_SET);
		w.lineno = 1;
		readrow(in, &w, ngen, 11);
		if (out != NULL) {
			for (k = 4; k < ngen - (size_t)node; k++)
				csvfield(out, w.f[k], w.fl[k], k == 4, &tmp);
			laycells(out, &L, &w, ngen, 11, 8, 2, &tmp);
			if (node)
				csvfield(out, w.f[ngen - 1], w.fl[ngen - 1], 0,
				    &tmp);
			putc('\n', out);
		}
		/* groupby drops a None key */
		if (w.fl[2] == 1 && w.f[2][0] == '1')
			continue;
		put(sum, w.f[1], w.fl[1], 0);
		for (k = 0; k < nsc; k++)
			put(sum, w.f[gcol[k]], w.fl[gcol[k]], k + 1 == nsc);
	}
	fclose(in);
	if (out != NULL)
		xclose(out, "nccl_all2allv.csv");
	xclose(sum, "a2asum.tsv");
	free(tot);
	free(off);
	free(ord);
	buf_free(&tmp);
	layfree(&L);
	rowfree(&w);
}

/* ---- -p: the heatmap, from the pairs sorted by src_rank, dst_rank ---- */

static void
heatmap(void)
{
	struct rec_reader r;
	const char *s;
	size_t len;
	long src = -1, dst = -1, a, b;
	int64_t tot = 0, cnt = 0, v;
	char t1[40], t2[40];
	int any = 0;

	rec_open(&r, stdin, "<stdin>");
	rec_read_header(&r);
	for (;;) {
		int more = rec_read(&r);

		if (more) {
			s = rec_get(&r, 0, &len);
			a = fieldlong(s, len, "src_rank", "<stdin>", r.lineno);
			s = rec_get(&r, 1, &len);
			b = fieldlong(s, len, "dst_rank", "<stdin>", r.lineno);
			s = rec_get(&r, 2, &len);
			if (num_int64(s, len, &v) < 0)
				tl_die("<stdin>: line %zu: bad byte count",
				    r.lineno);
			if (a < src || (a == src && b < dst))
				tl_die("<stdin>: line %zu: not sorted by "
				    "src_rank, dst_rank", r.lineno);
		}
		if ((!more || a != src || b != dst) && cnt > 0) {
			double mb = (double)tot / 1048576.0;

			if (!any++)
				puts("src_rank,dst_rank,total_sent_MB,"
				    "avg_sent_MB,count");
			printf("%ld,%ld,%s,%s,%lld\n", src, dst,
			    num_pyrepr(mb, t1, sizeof(t1)),
			    num_pyrepr(mb / (double)cnt, t2, sizeof(t2)),
			    (long long)cnt);
			tot = cnt = 0;
		}
		if (!more)
			break;
		src = a;
		dst = b;
		tot += v;
		cnt++;
	}
	rec_close(&r);
}

/* ---- -s, -c: records to CSV ---- */

static int
isnamed(const char *s, const char **list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(s, list[i]) == 0)
			return 1;
	return 0;
}

/*
 * Records (a header, then rows) to CSV, the first -c fields left out;
 * with -s, the rows in pandas' descending order of that column, after
 * -D columns are divided by 1000 and -I ones written as integers.
 */
static void
tocsv(void)
{
	struct rec_reader r;
	struct buf tmp = {0};
	double *key = NULL, d;
	off_t *off = NULL;
	uint32_t *ord;
	size_t n = 0, cap = 0, ocap = 0, i, nf, lcap = 0;
	int *divc, *intc, scol = -1;
	char num[40], *line = NULL;
	ssize_t got;
	FILE *dst = stdout;

	rec_open(&r, stdin, "<stdin>");
	rec_read_header(&r);
	nf = r.nhdr;
	if ((size_t)opt.drop > nf)
		tl_die("<stdin>: %zu fields, fewer than -c %ld", nf, opt.drop);
	divc = tl_calloc(nf + 1, sizeof(*divc));
	intc = tl_calloc(nf + 1, sizeof(*intc));
	for (i = 0; i < nf; i++) {
		divc[i] = isnamed(r.hdr[i], opt.div, opt.ndiv);
		intc[i] = isnamed(r.hdr[i], opt.ints, opt.nints);
		if (opt.sortcol && strcmp(r.hdr[i], opt.sortcol) == 0)
			scol = (int)i;
	}
	if (opt.sortcol && scol < 0)
		tl_die("<stdin>: no column %s", opt.sortcol);
	for (i = (size_t)opt.drop; i < nf; i++)
		csvname(stdout, r.hdr[i], i == (size_t)opt.drop);
	putchar('\n');
	/* sorted rows wait in a file: 16 bytes each stay in memory */
	if (opt.sortcol && (dst = tmpfile()) == NULL)
		tl_die("tmpfile:");
	while (rec_read(&r)) {
		rec_check_width(&r);
		if (dst != stdout) {
			tl_grow((void **)&off, &ocap, n + 1, sizeof(*off));
			tl_grow((void **)&key, &cap, n + 1, sizeof(*key));
			off[n] = ftello(dst);
			key[n] = NAN;
		}
		for (i = (size_t)opt.drop; i < nf; i++) {
			const char *s = r.f[i].s;
			size_t len = r.f[i].len;

			if ((divc[i] || intc[i]) && len > 0) {
				if (num_double(s, len, &d) < 0)
					tl_die("<stdin>: line %zu: %s is not a "
					    "number", r.lineno, r.hdr[i]);
				if (divc[i])
					d /= 1000;
				if (intc[i] && d == trunc(d) && fabs(d) < 9e18)
					snprintf(num, sizeof(num), "%lld",
					    (long long)d);
				else
					num_pyrepr(d, num, sizeof(num));
				s = num;
				len = strlen(num);
			}
			if ((int)i == scol && len > 0 &&
			    num_double(s, len, &d) == 0)
				key[n] = d;
			csvfield(dst, s, len, i == (size_t)opt.drop, &tmp);
		}
		putc('\n', dst);
		n++;
	}
	if (dst != stdout) {
		/* (a quoted cell may hold a newline: rows go by length) */
		tl_grow((void **)&off, &ocap, n + 1, sizeof(*off));
		off[n] = ftello(dst);
		ord = tl_calloc(n + 1, sizeof(*ord));
		pd_order(key, n, 1, ord);
		if (fflush(dst) == EOF || ferror(dst))
			tl_die("tmpfile:");
		for (i = 0; i < n; i++) {
			got = (ssize_t)(off[ord[i] + 1] - off[ord[i]]);
			if ((size_t)got > lcap) {
				lcap = (size_t)got;
				line = tl_realloc(line, lcap);
			}
			if (fseeko(dst, off[ord[i]], SEEK_SET) < 0 ||
			    fread(line, 1, (size_t)got, dst) != (size_t)got)
				tl_die("tmpfile: read error");
			fwrite(line, 1, (size_t)got, stdout);
		}
		free(ord);
		fclose(dst);
	}
	free(line);
	free(key);
	free(off);
	free(divc);
	free(intc);
	buf_free(&tmp);
	rec_close(&r);
}

/* Add the comma-separated column names of s (modified) to v. */
static void
addnames(const char ***v, size_t *n, char *s)
{
	char *p;

	for (p = strtok(s, ","); p != NULL; p = strtok(NULL, ",")) {
		*v = tl_realloc(*v, (*n + 1) * sizeof(**v));
		(*v)[(*n)++] = p;
	}
}

static void
setmode(int c)
{
	if (opt.mode && opt.mode != c)
		tl_usage_die("-%c and -%c are two stages", opt.mode, c);
	opt.mode = c;
}

int
main(int argc, char *argv[])
{
	int c;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((c = getopt(argc, argv, "a:c:D:F:g:HhI:i:mNno:pr:Ss:t:W:")) != -1) {
		switch (c) {
		case 'a':
		case 'i':
			setmode(c);
			opt.file = optarg;
			break;
		case 'c':
			opt.drop = (long)tl_strtonum(optarg, 0, 1000, "-c");
			if (!opt.mode)
				opt.mode = 'c';
			break;
		case 'D':
			addnames(&opt.div, &opt.ndiv, optarg);
			break;
		case 'F':
			opt.facts = optarg;
			break;
		case 'g':
			opt.gpn = (long)tl_strtonum(optarg, 0, 1 << 20, "-g");
			break;
		case 'H':
			opt.heat = 1;
			break;
		case 'h':
			usage(TL_OK);
			break;
		case 'I':
			addnames(&opt.ints, &opt.nints, optarg);
			break;
		case 'm':
		case 'n':
		case 'p':
			setmode(c);
			break;
		case 'N':
			opt.nodetail = 1;
			break;
		case 'o':
			opt.dir = optarg;
			break;
		case 'r':
			setmode(c);
			opt.rank = (long)tl_strtonum(optarg, 0, 1 << 30, "-r");
			break;
		case 'S':
			opt.lenient = 1;
			break;
		case 's':
			if (opt.mode == 'c')
				opt.mode = 0;
			setmode(c);
			opt.sortcol = optarg;
			break;
		case 't':
			opt.totals = optarg;
			break;
		case 'W':
			opt.world = (long)tl_strtonum(optarg, 1, 1 << 30, "-W");
			break;
		default:
			usage(TL_EUSAGE);
		}
	}
	if (optind != argc || opt.mode == 0)
		usage(TL_EUSAGE);
	if ((opt.mode == 'm' || opt.mode == 'i' || opt.mode == 'a') &&
	    (opt.dir == NULL || opt.world == 0))
		tl_usage_die("-%c needs -o and -W", opt.mode);
	if (opt.mode == 'm' && opt.facts == NULL)
		tl_usage_die("-m needs -F");
	if (opt.mode == 'i' && opt.totals == NULL)
		tl_usage_die("-i needs -t");
	switch (opt.mode) {
	case 'r': selectrank(); break;
	case 'n': number(); break;
	case 'm': merge(); break;
	case 'i': isyncsheet(); break;
	case 'a': a2asheet(); break;
	case 'p': heatmap(); break;
	default: tocsv(); break;
	}
	free(opt.div);
	free(opt.ints);
	return tl_fshut(stdout, "<stdout>");
}
