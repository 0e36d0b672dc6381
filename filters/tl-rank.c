/* See LICENSE file for copyright and license details. */
/*
 * tl-rank: what changed between the reports of a comparison, ranked,
 * as Markdown.  It reads the sheets tl-compare(1) wrote (gpu_timeline,
 * ops_summary, the perf-model splits) and two record streams that
 * tl-summary(1) prepares with tl-join -p and sort: kernel_summary's
 * rows grouped by kernel, and TraceDiff's diff_stats rows grouped by
 * lowest common ancestor.  It writes the headline, the top N ops,
 * kernels, op categories, modelled shapes and subtrees by the size of
 * their change, the data of the charts, and checks the regression
 * gates (exit 3).
 *
 * Memory: each table keeps its N best rows in a heap; a kernel keeps
 * its rows' cells (to count each report's distinct rows once), a
 * subtree one row; the op categories, a closed set, one entry each.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tl.h"
#include "csvread.h"

enum { U_MS, U_US, U_TFLOPS, U_TBS };	/* unit of a table's values */

enum { TL_EGATE = 3 };	/* a regression gate was exceeded */

#define FMTSZ	80	/* room for a formatted value, its sign and unit */

/* A regression gate, -g [SHEET:KEY=]PCT. */
struct gate {
	const char *spec;	/* as given, for messages; not owned */
	const char *sheet;	/* the sheet whose rows it limits; static */
	char *key;		/* the row's key, or "*" for every row; owned */
	double limit;		/* the most a row may grow, percent */
	int seen;		/* some report has a row of that key */
	size_t over;		/* rows and variants over the limit */
};

/* The options, as main read them. */
struct opts {
	long topn;		/* -n: rows of each table */
	long width;		/* -w: names cut to this many characters; 0 never */
	const char *kpath;	/* -k: kernel_summary records, grouped by kernel */
	const char *lpath;	/* -l: diff_stats records, grouped by ancestor */
	const char *datadir;	/* -p: the charts' data are written here */
	const char *linkdir;	/* -L: the charts are linked from here */
	struct gate *gates;	/* -g, in the order given; owned */
	size_t ngate;		/* entries of gates */
};

/*
 * A ranked row.  x holds ntag values (the baseline's first), then ntag
 * changes and ntag percent changes against the baseline (index 0 of
 * those unused); NAN is none.  V, D and P read them, with the number
 * of reports in a variable ntag.
 */
struct ent {
	char *name;	/* the row's key as shown, uncut; owned */
	char *extra;	/* a second label (shape, merged id), owned; or NULL */
	double rank;	/* what ranks it: larger first */
	long seq;	/* ties: the name, then this, lower first */
	int unit;	/* U_* of its values and changes */
	double *x;	/* values, changes, percents; owned */
};
#define V(e, i)	((e)->x[(i)])
#define D(e, i)	((e)->x[ntag + (i)])
#define P(e, i)	((e)->x[2 * ntag + (i)])

/* The best rows of a table: a heap, the worst at the root, until sorted. */
struct top {
	struct ent *e;	/* the rows kept; owned */
	size_t n;	/* rows kept */
	size_t rows;	/* rows offered */
	size_t same;	/* rows not offered: they did not change */
};

/* A table's two parts and what its shares are taken of. */
struct section {
	struct top both;	/* rows in the baseline and some variant */
	struct top one;		/* rows new or gone */
	double *gross;		/* per variant: the sum of every row's |change|; owned */
};

/* One op category: its kernel time in each report. */
struct cat {
	char *name;	/* category, from ops_summary's Categories; owned */
	double *t;	/* per report: summed time, NAN when none; owned */
};

/* One sheet of the comparison, read row by row. */
struct sheet {
	struct csvr r;	/* the reader */
	FILE *fp;	/* the file; owned */
	char *path;	/* DIR/NAME.csv; owned */
	char **hdr;	/* column names; owned */
	size_t nhdr;	/* columns */
};

/* What every part shares: the reports and the sections. */
struct ctx {
	struct opts *opt;	/* the options; the gates count what they see */
	const char *dir;	/* the comparison directory */
	char **tag;		/* the reports' tags, the baseline's first; owned */
	size_t ntag;		/* reports */
	char *tagsrc;		/* the sheet the tags came from; owned */
	struct ent tl[10];	/* gpu_timeline rows, as in tltype[] */
	int hastl;		/* gpu_timeline was read */
	struct section ops;	/* ops_summary's ops */
	int hasops;		/* ops_summary was read */
	struct section kern;	/* kernel_summary's kernels */
	int haskern;		/* -k was read */
	int kunit;		/* U_* of the kernel times */
	int hascats;		/* ops_summary has Categories */
	struct section cats;	/* op categories */
	struct cat *cat;	/* the categories; owned */
	size_t ncat;		/* entries of cat */
	struct top *roof;	/* per variant (from 1): modelled shapes; owned */
	struct section lca;	/* TraceDiff's subtrees (both holds them all) */
	int haslca;		/* -l was read */
	int lcasame;		/* the traces gave the same rows */
	size_t over;		/* gate lines written */
};

/* gpu_timeline's rows the summary shows, in its order. */
static const struct {
	const char *type;	/* the sheet's type */
	const char *label;	/* as shown */
} tltype[] = {
	{ "total_time", "total time" },
	{ "busy_time", "busy time" },
	{ "idle_time", "idle time" },
	{ "micro_idle_time", "micro idle time" },
	{ "macro_idle_time", "macro idle time" },
	{ "computation_time", "computation" },
	{ "exposed_comm_time", "exposed communication" },
	{ "exposed_memcpy_time", "exposed memcpy" },
	{ "kernel", "kernels" },	/* rocprof's */
	{ "memory", "memory" },
};
enum { TT_TOTAL, TT_BUSY, TT_IDLE, TT_MICRO, TT_MACRO, TT_COMP, TT_XCOMM,
    TT_XMEMCPY, TT_KERNEL, TT_MEMORY };

/* The perf-model splits, and the throughput each is judged by. */
static const struct {
	const char *sheet;	/* split name before _intersect_TAG */
	const char *metric;	/* the column compared */
	int unit;		/* U_TFLOPS or U_TBS */
} rooftab[] = {
	{ "GEMM", "TFLOPS/s_mean", U_TFLOPS },
	{ "SDPA_fwd", "TFLOPS/s_mean", U_TFLOPS },
	{ "SDPA_bwd", "TFLOPS/s_mean", U_TFLOPS },
	{ "CONV_fwd", "TFLOPS/s_mean", U_TFLOPS },
	{ "CONV_bwd", "TFLOPS/s_mean", U_TFLOPS },
	{ "un_eltwise", "TB/s_mean", U_TBS },
	{ "bin_eltwise", "TB/s_mean", U_TBS },
};

/* Sheets a gate may name. */
static const char *const gatesheet[] = {
	"gpu_timeline", "ops_summary", "kernel_summary",
	"ops_summary_by_category"
};

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: %s [-n rows] [-w width] [-g gate]... [-k kernels] "
	    "[-l lcas]\n"
	    "       [-p datadir] [-L linkdir] comparison_dir\n",
	    tl_progname());
	exit(status);
}

/* ---- rows and tables ---- */

static void
ent_init(struct ent *e, size_t ntag)
{
	size_t i;

	memset(e, 0, sizeof(*e));
	e->x = tl_malloc(3 * ntag * sizeof(*e->x));
	for (i = 0; i < 3 * ntag; i++)
		e->x[i] = NAN;
}

static void
ent_free(struct ent *e)
{
	free(e->name);
	free(e->extra);
	free(e->x);
	memset(e, 0, sizeof(*e));
}

/* 1 when a ranks before b. */
static int
better(const struct ent *a, const struct ent *b)
{
	int c;

	if (a->rank != b->rank)
		return a->rank > b->rank;
	if ((c = strcmp(a->name, b->name)) != 0)
		return c < 0;
	return a->seq < b->seq;
}

static void
swapent(struct ent *a, struct ent *b)
{
	struct ent t = *a;

	*a = *b;
	*b = t;
}

/* Restore the heap below i: no child is worse than its parent. */
static void
siftdown(struct top *t, size_t i)
{
	size_t c;

	for (; (c = 2 * i + 1) < t->n; i = c) {
		if (c + 1 < t->n && better(&t->e[c], &t->e[c + 1]))
			c++;
		if (!better(&t->e[i], &t->e[c]))
			break;
		swapent(&t->e[i], &t->e[c]);
	}
}

/* Offer e; the table (topn rows) takes it (and its memory) or frees it. */
static void
top_offer(struct top *t, struct ent *e, long topn)
{
	size_t i, p;

	t->rows++;
	if (t->e == NULL)
		t->e = tl_calloc((size_t)topn, sizeof(*t->e));
	if (t->n < (size_t)topn) {
		i = t->n++;
		t->e[i] = *e;
		for (; i > 0 && better(&t->e[p = (i - 1) / 2], &t->e[i]); i = p)
			swapent(&t->e[i], &t->e[p]);
	} else if (better(e, &t->e[0])) {
		ent_free(&t->e[0]);
		t->e[0] = *e;
		siftdown(t, 0);
	} else
		ent_free(e);
	memset(e, 0, sizeof(*e));
}

static int
entcmp(const void *a, const void *b)
{
	return better(a, b) ? -1 : better(b, a) ? 1 : 0;
}

/* Best first, once every row was offered. */
static void
top_sort(struct top *t)
{
	if (t->n > 0)
		qsort(t->e, t->n, sizeof(*t->e), entcmp);
}

static void
top_free(struct top *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		ent_free(&t->e[i]);
	free(t->e);
	memset(t, 0, sizeof(*t));
}

/* ---- sheets ---- */

/* Open DIR/NAME.csv and read its header; 0 when it is absent or empty. */
static int
sheet_open(struct sheet *s, const char *dir, const char *name)
{
	struct buf p = { 0 };
	size_t i;

	memset(s, 0, sizeof(*s));
	buf_adds(&p, dir);
	buf_addc(&p, '/');
	buf_adds(&p, name);
	buf_adds(&p, ".csv");
	if ((s->fp = fopen(p.s, "r")) == NULL) {
		if (errno != ENOENT)
			tl_die("%s:", p.s);
		buf_free(&p);
		return 0;
	}
	s->path = p.s;
	csvr_open(&s->r, s->fp, s->path);
	if (csvr_read(&s->r) == 0) {
		csvr_close(&s->r);
		fclose(s->fp);
		free(s->path);
		memset(s, 0, sizeof(*s));
		return 0;
	}
	s->nhdr = s->r.nf;
	s->hdr = tl_malloc(s->nhdr * sizeof(*s->hdr));
	for (i = 0; i < s->nhdr; i++)
		s->hdr[i] = tl_strndup(s->r.f[i], s->r.flen[i]);
	return 1;
}

static void
sheet_close(struct sheet *s)
{
	size_t i;

	for (i = 0; i < s->nhdr; i++)
		free(s->hdr[i]);
	free(s->hdr);
	csvr_close(&s->r);
	if (s->fp != NULL && ferror(s->fp))
		tl_die("%s: read error", s->path);
	if (s->fp != NULL)
		fclose(s->fp);
	free(s->path);
	memset(s, 0, sizeof(*s));
}

/* Index of the column named a followed by b (may be ""), or -1. */
static int
col2(char *const *hdr, size_t n, const char *a, const char *b)
{
	size_t i, la = strlen(a);

	for (i = 0; i < n; i++)
		if (strncmp(hdr[i], a, la) == 0 && strcmp(hdr[i] + la, b) == 0)
			return (int)i;
	return -1;
}

/* col2, but a missing column is bad data. */
static int
need2(char *const *hdr, size_t n, const char *path, const char *a,
    const char *b)
{
	int i = col2(hdr, n, a, b);

	if (i < 0)
		tl_die("%s: no column %s%s", path, a, b);
	return i;
}

/* Column "tag::name" of every report, into idx[ntag]. */
static void
sidecols(const struct ctx *c, char *const *hdr, size_t n, const char *path,
    const char *name, int *idx)
{
	struct buf b = { 0 };
	size_t i;

	for (i = 0; i < c->ntag; i++) {
		buf_reset(&b);
		buf_adds(&b, c->tag[i]);
		buf_adds(&b, "::");
		idx[i] = need2(hdr, n, path, b.s, name);
	}
	buf_free(&b);
}

/* Columns "name__tag_diff" and "name__tag_pct" of every variant. */
static void
diffcols(const struct ctx *c, char *const *hdr, size_t n, const char *path,
    const char *name, int *di, int *pi)
{
	struct buf b = { 0 };
	size_t i;

	di[0] = pi[0] = -1;
	for (i = 1; i < c->ntag; i++) {
		buf_reset(&b);
		buf_adds(&b, name);
		buf_adds(&b, "__");
		buf_adds(&b, c->tag[i]);
		di[i] = need2(hdr, n, path, b.s, "_diff");
		pi[i] = need2(hdr, n, path, b.s, "_pct");
	}
	buf_free(&b);
}

/*
 * The reports' tags, from the columns "TAG::name" in order: the first
 * sheet read sets them, the others must agree.
 */
static void
tags(struct ctx *c, char *const *hdr, size_t n, const char *path,
    const char *name)
{
	size_t i, k = 0, ln = strlen(name), lh;

	for (i = 0; i < n; i++) {
		lh = strlen(hdr[i]);
		if (lh < ln + 3 || strcmp(hdr[i] + lh - ln, name) != 0 ||
		    strncmp(hdr[i] + lh - ln - 2, "::", 2) != 0)
			continue;
		if (c->tagsrc == NULL) {
			c->tag = tl_realloc(c->tag, (k + 1) * sizeof(*c->tag));
			c->tag[k] = tl_strndup(hdr[i], lh - ln - 2);
		} else if (k >= c->ntag || strlen(c->tag[k]) != lh - ln - 2 ||
		    strncmp(c->tag[k], hdr[i], lh - ln - 2) != 0)
			tl_die("%s: its reports are not those of %s", path,
			    c->tagsrc);
		k++;
	}
	if (c->tagsrc == NULL) {
		if (k < 2)
			tl_die("%s: not a comparison: no two columns TAG::%s",
			    path, name);
		c->ntag = k;
		c->tagsrc = tl_strdup(path);
	} else if (k != c->ntag)
		tl_die("%s: its reports are not those of %s", path, c->tagsrc);
}

/* A cell as a number; NAN when empty or one of pandas' missing values. */
static double
num(const char *s, size_t len, const char *path, size_t line)
{
	static const char *const na[] = {
		"nan", "NaN", "NAN", "-nan", "-NaN", "None", "NA", "<NA>",
		"N/A", "n/a", "null", "NULL"
	};
	double d;
	size_t i;

	if (len == 0)
		return NAN;
	for (i = 0; i < LEN(na); i++)
		if (strlen(na[i]) == len && memcmp(s, na[i], len) == 0)
			return NAN;
	if (num_double(s, len, &d) != 0)
		tl_die("%s: line %zu: not a number: %.*s", path, line,
		    (int)MIN(len, 40), s);
	return d;
}

/* Cell i of the sheet's current row ("" past its end). */
static const char *
cell(const struct sheet *s, int i, size_t *len)
{
	if (i < 0 || (size_t)i >= s->r.nf) {
		*len = 0;
		return "";
	}
	*len = s->r.flen[i];
	return s->r.f[i];
}

static double
cellnum(const struct sheet *s, int i)
{
	size_t len;
	const char *v = cell(s, i, &len);

	return num(v, len, s->path, s->r.rowline);
}

/* ---- gates ---- */

static void
gate_parse(struct opts *o, const char *spec)
{
	struct gate *g;
	const char *colon, *eq, *pct = spec;
	double d;
	size_t i, len;

	o->gates = tl_realloc(o->gates, (o->ngate + 1) * sizeof(*o->gates));
	g = &o->gates[o->ngate++];
	memset(g, 0, sizeof(*g));
	g->spec = spec;
	g->sheet = gatesheet[0];
	if ((colon = strchr(spec, ':')) != NULL) {
		for (i = 0; i < LEN(gatesheet); i++)
			if (strlen(gatesheet[i]) == (size_t)(colon - spec) &&
			    strncmp(spec, gatesheet[i], (size_t)(colon - spec)) == 0)
				g->sheet = gatesheet[i];
		if (g->sheet == gatesheet[0] && strncmp(spec, "gpu_timeline:", 13) != 0)
			tl_usage_die("gate %s: no such sheet: %.*s", spec,
			    (int)(colon - spec), spec);
		if ((eq = strrchr(colon, '=')) == NULL || eq == colon + 1)
			tl_usage_die("gate %s: not SHEET:KEY=PCT", spec);
		g->key = tl_strndup(colon + 1, (size_t)(eq - colon - 1));
		pct = eq + 1;
	} else
		g->key = tl_strdup("total_time");
	len = strlen(pct);
	if (len > 0 && pct[len - 1] == '%')
		len--;	/* 5% is 5 */
	if (num_double(pct, len, &d) != 0 || !isfinite(d) || d < 0)
		tl_usage_die("gate %s: not a percentage: %s", spec, pct);
	g->limit = d;
}

/* The text of a value with its unit. */
static char *fmtval(char *buf, size_t size, double x, int unit, int sign);

/*
 * Check the row e of sheet (ntag reports) against the gates: a row
 * grew too much when its percent change is over the limit, or, for a
 * gate that names it, when the baseline lacks it or has 0.
 */
static void
gate_row(struct ctx *c, const char *sheet, const struct ent *e, size_t ntag)
{
	char a[FMTSZ], b[FMTSZ];
	struct gate *g;
	size_t i, k;
	int over;

	for (k = 0; k < c->opt->ngate; k++) {
		g = &c->opt->gates[k];
		if (g->sheet != sheet || (strcmp(g->key, "*") != 0 &&
		    strcmp(g->key, e->name) != 0))
			continue;
		g->seen = 1;
		for (i = 1; i < ntag; i++) {
			if (isnan(V(e, i)))
				continue;
			if (!isnan(P(e, i)))
				over = P(e, i) > g->limit;
			else	/* from nothing: only a gate naming it counts it */
				over = strcmp(g->key, "*") != 0 &&
				    (isnan(V(e, 0)) || V(e, 0) == 0) && V(e, i) > 0;
			if (!over)
				continue;
			g->over++;
			c->over++;
			fmtval(a, sizeof(a), isnan(V(e, 0)) ? 0 : V(e, 0),
			    e->unit, 0);
			fmtval(b, sizeof(b), V(e, i), e->unit, 0);
			if (!isnan(P(e, i)))
				tl_warn("%s: %s grew %.2f%% in %s (limit %g%%): "
				    "%s -> %s", sheet, e->name, P(e, i),
				    c->tag[i], g->limit, a, b);
			else
				tl_warn("%s: %s grew from %s to %s in %s "
				    "(limit %g%%)", sheet, e->name, a, b,
				    c->tag[i], g->limit);
		}
	}
}

/* ---- filing rows ---- */

static void
section_free(struct section *s)
{
	top_free(&s->both);
	top_free(&s->one);
	free(s->gross);
}

/*
 * Complete the changes of a row with values: a variant's change and
 * percent, when absent, come from its values (the comparison leaves
 * them out where the baseline lacks the row); a row on one side only
 * changes by its whole time.  Then rank it by its largest change.
 */
static void
complete(struct ent *e, size_t ntag)
{
	size_t i;
	int b = !isnan(V(e, 0)), v;

	e->rank = 0;
	for (i = 1; i < ntag; i++) {
		v = !isnan(V(e, i));
		if (isnan(D(e, i)) && b && v) {
			D(e, i) = V(e, i) - V(e, 0);
			if (V(e, 0) != 0)
				P(e, i) = 100 * (D(e, i) / V(e, 0));
		} else if (isnan(D(e, i)) && b != v)
			D(e, i) = v ? V(e, i) : -V(e, 0);
		if (!isnan(D(e, i)) && fabs(D(e, i)) > e->rank)
			e->rank = fabs(D(e, i));
	}
}

/* File a completed row into its section: in both reports, or one. */
static void
file(struct ctx *c, struct section *s, struct ent *e, size_t ntag,
    const char *sheet, int split)
{
	size_t i;
	int b = !isnan(V(e, 0)), v = 0;

	if (s->gross == NULL)
		s->gross = tl_calloc(ntag, sizeof(*s->gross));
	for (i = 1; i < ntag; i++) {
		v |= !isnan(V(e, i));
		if (!isnan(D(e, i)))
			s->gross[i] += fabs(D(e, i));
	}
	if (sheet != NULL)
		gate_row(c, sheet, e, ntag);
	if (b && v && e->rank == 0) {
		s->both.same++;
		ent_free(e);
	} else if (!b && !v)
		ent_free(e);
	else
		top_offer(split && !(b && v) ? &s->one : &s->both, e,
		    c->opt->topn);
}

/* ---- gpu_timeline and ops_summary ---- */

/*
 * Open the comparison's sheet name, take the reports' tags from its
 * columns TAG::metric, and find in *cols (owned) its key column, each
 * report's metric column, then each variant's diff and pct columns
 * (index 1 + ntag + i and 1 + 2 ntag + i).  0 when it is absent.
 */
static int
metric_open(struct ctx *c, struct sheet *s, int **cols, const char *name,
    const char *key, const char *metric)
{
	size_t ntag;

	if (!sheet_open(s, c->dir, name))
		return 0;
	tags(c, s->hdr, s->nhdr, s->path, metric);
	ntag = c->ntag;
	*cols = tl_malloc((1 + 3 * ntag) * sizeof(**cols));
	(*cols)[0] = need2(s->hdr, s->nhdr, s->path, key, "");
	sidecols(c, s->hdr, s->nhdr, s->path, metric, *cols + 1);
	diffcols(c, s->hdr, s->nhdr, s->path, metric, *cols + 1 + ntag,
	    *cols + 1 + 2 * ntag);
	return 1;
}

/* The sheet's current row as a ranked row, by the columns of metric_open. */
static void
metric_row(const struct sheet *s, const int *cols, struct ent *e, size_t ntag)
{
	const char *t;
	size_t i, len;

	ent_init(e, ntag);
	t = cell(s, cols[0], &len);
	e->name = tl_strndup(t, len);
	e->seq = (long)s->r.rowno;
	for (i = 0; i < ntag; i++) {
		V(e, i) = cellnum(s, cols[1 + i]);
		if (i > 0) {
			D(e, i) = cellnum(s, cols[1 + ntag + i]);
			P(e, i) = cellnum(s, cols[1 + 2 * ntag + i]);
		}
	}
}

static void
timeline(struct ctx *c)
{
	struct sheet s;
	struct ent e;
	size_t k;
	int *cols;
	const char *t;

	if (!metric_open(c, &s, &cols, "gpu_timeline", "type", "time ms"))
		return;
	c->hastl = 1;
	for (k = 0; k < LEN(c->tl); k++)
		ent_init(&c->tl[k], c->ntag);
	while (csvr_read(&s.r)) {
		metric_row(&s, cols, &e, c->ntag);
		gate_row(c, "gpu_timeline", &e, c->ntag);
		t = strcmp(e.name, "idle") == 0 ? "idle_time" : e.name;
		for (k = 0; k < LEN(tltype); k++)
			if (strcmp(t, tltype[k].type) == 0 &&
			    c->tl[k].name == NULL) {
				free(c->tl[k].x);
				c->tl[k] = e;
				memset(&e, 0, sizeof(e));
				break;
			}
		ent_free(&e);
	}
	free(cols);
	sheet_close(&s);
}

/* The category of an op, from its Categories cell: ['GEMM'] is GEMM. */
static char *
catname(const char *s, size_t len)
{
	struct buf b = { 0 };
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] == '[' || s[i] == ']' || s[i] == '\'')
			continue;
		if (s[i] == ',') {
			buf_addc(&b, '+');
			while (i + 1 < len && s[i + 1] == ' ')
				i++;
		} else
			buf_addc(&b, s[i]);
	}
	return b.s != NULL ? b.s : tl_strdup("");
}

static void
cat_add(struct ctx *c, const char *s, size_t len, size_t side, double t)
{
	char *name = catname(s, len);
	size_t i, j;

	for (i = 0; i < c->ncat; i++)
		if (strcmp(c->cat[i].name, name) == 0)
			break;
	if (i == c->ncat) {
		c->cat = tl_realloc(c->cat, (c->ncat + 1) * sizeof(*c->cat));
		c->cat[i].name = name;
		c->cat[i].t = tl_malloc(c->ntag * sizeof(double));
		for (j = 0; j < c->ntag; j++)
			c->cat[i].t[j] = NAN;
		c->ncat++;
	} else
		free(name);
	c->cat[i].t[side] = isnan(c->cat[i].t[side]) ? t : c->cat[i].t[side] + t;
}

static void
ops(struct ctx *c)
{
	struct buf b = { 0 };
	struct sheet s;
	struct ent e;
	size_t i, len, ntag;
	int *cols, *ci;
	const char *t;

	if (!metric_open(c, &s, &cols, "ops_summary", "name",
	    "total_direct_kernel_time_ms"))
		return;
	ntag = c->ntag;
	c->hasops = 1;
	/* (older reports have no Categories: then no categories) */
	ci = tl_malloc(ntag * sizeof(*ci));
	c->hascats = 1;
	for (i = 0; i < ntag; i++) {
		buf_reset(&b);
		buf_adds(&b, c->tag[i]);
		buf_adds(&b, "::");
		if ((ci[i] = col2(s.hdr, s.nhdr, b.s, "Categories")) < 0)
			c->hascats = 0;
	}
	buf_free(&b);
	while (csvr_read(&s.r)) {
		metric_row(&s, cols, &e, ntag);
		for (i = 0; i < ntag && c->hascats; i++)
			if (!isnan(V(&e, i))) {
				t = cell(&s, ci[i], &len);
				cat_add(c, t, len, i, V(&e, i));
			}
		complete(&e, ntag);
		file(c, &c->ops, &e, ntag, "ops_summary", 1);
	}
	free(ci);
	free(cols);
	sheet_close(&s);
}

/* The categories' rows, once ops_summary was read. */
static void
cats(struct ctx *c)
{
	struct ent e;
	size_t i, k, ntag = c->ntag;

	for (k = 0; k < c->ncat; k++) {
		ent_init(&e, ntag);
		e.name = c->cat[k].name;
		c->cat[k].name = NULL;
		e.seq = (long)k;
		for (i = 0; i < ntag; i++)
			V(&e, i) = c->cat[k].t[i];
		complete(&e, ntag);
		file(c, &c->cats, &e, ntag, "ops_summary_by_category", 1);
		free(c->cat[k].t);
	}
	free(c->cat);
	c->cat = NULL;
	c->ncat = 0;
}

/* ---- kernel_summary, grouped by kernel ---- */

/* The rows of one kernel: each report's distinct rows, summed. */
struct kgroup {
	struct buf key;		/* the kernel's field, escaped */
	int open;		/* a kernel's rows are being read */
	struct buf *seen;	/* per report: its rows' cells, NUL-ended each */
	double *sum;		/* per report: the distinct rows' sums, NAN none */
};

/* 1 if row (its report's cells, as one string) is new to the group. */
static int
kseen(struct buf *seen, const char *row, size_t len)
{
	size_t at;

	for (at = 0; at < seen->len; at += strlen(seen->s + at) + 1)
		if (strlen(seen->s + at) == len &&
		    memcmp(seen->s + at, row, len) == 0)
			return 0;
	buf_add(seen, row, len);
	buf_addc(seen, '\0');
	return 1;
}

/* A field's text, escapes undone, in a new string. */
static char *
unesc(const char *s, size_t len)
{
	char *t = tl_strndup(s, len);

	t[rec_unescape(t, len)] = '\0';
	return t;
}

static void
kflush(struct ctx *c, struct kgroup *g)
{
	struct ent e;
	size_t i, ntag = c->ntag;

	ent_init(&e, ntag);
	e.name = unesc(g->key.s != NULL ? g->key.s : "", g->key.len);
	for (i = 0; i < ntag; i++) {
		V(&e, i) = g->sum[i];
		g->sum[i] = NAN;
		buf_reset(&g->seen[i]);
	}
	e.unit = c->kunit;
	complete(&e, ntag);
	file(c, &c->kern, &e, ntag, "kernel_summary", 1);
	g->open = 0;
}

/* Byte order of two fields, as sort(1) with LC_ALL=C compares them. */
static int
fieldcmp(const char *a, size_t la, const char *b, size_t lb)
{
	int c = memcmp(a, b, MIN(la, lb));

	return c != 0 ? c : la < lb ? -1 : la > lb;
}

/* Open a record stream; 0 when it is empty (a sheet without rows). */
static int
stream_open(struct rec_reader *r, FILE **fp, const char *path)
{
	int ch;

	*fp = tl_fopen(path, "r");
	if ((ch = getc(*fp)) == EOF) {
		if (ferror(*fp))
			tl_die("%s:", path);
		fclose(*fp);
		return 0;
	}
	ungetc(ch, *fp);
	rec_open(r, *fp, path);
	rec_read_header(r);
	return 1;
}

static void
stream_close(struct rec_reader *r, FILE *fp, const char *path)
{
	rec_close(r);
	if (ferror(fp))
		tl_die("%s: read error", path);
	fclose(fp);
}

/*
 * kernel_summary as tl-join -p writes it (an empty #key, then the
 * sheet's columns), sorted by its second field, the kernel: rows of a
 * kernel that a report has more than once come as a cartesian
 * product, so each report's distinct rows are summed, in the order
 * they come.
 */
static void
kernels(struct ctx *c)
{
	struct rec_reader r;
	struct kgroup g;
	struct buf row = { 0 };
	const char *val, *key, *metric = "Kernel duration (µs)_sum";
	const char *kpath = c->opt->kpath;
	size_t i, j, ntag, len, klen, lt;
	int *vi, *lo, *hi;
	double d;
	FILE *fp;

	if (!stream_open(&r, &fp, kpath))
		return;
	if (r.nhdr < 2)
		tl_die("%s: not kernel_summary records", kpath);
	c->kunit = U_US;
	/* rocprof's layout has Total Kernel Time (ms), and no Kernel name */
	if (rec_col(&r, "Kernel name") < 0) {
		metric = "Total Kernel Time (ms)";
		c->kunit = U_MS;
	}
	tags(c, r.hdr, r.nhdr, kpath, metric);
	ntag = c->ntag;
	c->haskern = 1;
	vi = tl_malloc(3 * ntag * sizeof(*vi));
	lo = vi + ntag;
	hi = lo + ntag;
	sidecols(c, r.hdr, r.nhdr, kpath, metric, vi);
	/* a report's row: its columns, from its first TAG:: to its last */
	for (i = 0; i < ntag; i++) {
		lo[i] = hi[i] = -1;
		lt = strlen(c->tag[i]);
		for (j = 0; j < r.nhdr; j++)
			if (strncmp(r.hdr[j], c->tag[i], lt) == 0 &&
			    strncmp(r.hdr[j] + lt, "::", 2) == 0) {
				if (lo[i] < 0)
					lo[i] = (int)j;
				hi[i] = (int)j;
			}
	}
	memset(&g, 0, sizeof(g));
	g.seen = tl_calloc(ntag, sizeof(*g.seen));
	g.sum = tl_malloc(ntag * sizeof(*g.sum));
	for (i = 0; i < ntag; i++)
		g.sum[i] = NAN;
	while (rec_read(&r)) {
		key = rec_get(&r, 1, &klen);
		if (g.open && fieldcmp(key, klen, g.key.s, g.key.len) < 0)
			tl_die("%s: line %zu: kernels out of order (sort by "
			    "the second field)", kpath, r.lineno);
		if (g.open && fieldcmp(key, klen, g.key.s, g.key.len) > 0)
			kflush(c, &g);
		if (!g.open) {
			buf_reset(&g.key);
			buf_add(&g.key, key, klen);
			g.open = 1;
		}
		for (i = 0; i < ntag; i++) {
			val = rec_get(&r, vi[i], &len);
			d = num(val, len, kpath, r.lineno);
			if (isnan(d))
				continue;	/* the report lacks the kernel */
			buf_reset(&row);
			for (j = (size_t)lo[i]; j <= (size_t)hi[i]; j++) {
				val = rec_get(&r, (int)j, &len);
				buf_add(&row, val, len);
				buf_addc(&row, '\t');
			}
			if (kseen(&g.seen[i], row.s, row.len))
				g.sum[i] = isnan(g.sum[i]) ? d : g.sum[i] + d;
		}
	}
	if (g.open)
		kflush(c, &g);
	for (i = 0; i < ntag; i++)
		buf_free(&g.seen[i]);
	free(g.seen);
	free(g.sum);
	buf_free(&g.key);
	buf_free(&row);
	free(vi);
	stream_close(&r, fp, kpath);
}

/* ---- the perf-model splits ---- */

/* A shape's label: its sheet and its param: columns, "GEMM: M=1, N=2". */
static char *
shape(const struct sheet *s, const char *sheet)
{
	struct buf b = { 0 };
	const char *v;
	size_t i, len;
	int first = 1;

	buf_adds(&b, sheet);
	buf_addc(&b, ':');
	for (i = 0; i < s->nhdr; i++) {
		if (strncmp(s->hdr[i], "param: ", 7) != 0)
			continue;
		v = cell(s, (int)i, &len);
		buf_adds(&b, first ? " " : ", ");
		buf_adds(&b, s->hdr[i] + 7);
		buf_addc(&b, '=');
		buf_add(&b, v, len);
		first = 0;
	}
	return b.s;
}

/* Variant i's intersect splits: the shapes whose throughput changed most. */
static void
roofline(struct ctx *c, size_t i)
{
	struct sheet s;
	struct buf b = { 0 };
	struct ent e;
	const char *t;
	size_t k, len, ntag = 2;	/* the baseline and variant i */
	int kn, vb, vv, di, pi;

	for (k = 0; k < LEN(rooftab); k++) {
		buf_reset(&b);
		buf_adds(&b, rooftab[k].sheet);
		buf_adds(&b, "_intersect_");
		buf_adds(&b, c->tag[i]);
		if (!sheet_open(&s, c->dir, b.s))
			continue;
		if (c->roof[i].e == NULL)	/* (so the section is shown) */
			c->roof[i].e = tl_calloc((size_t)c->opt->topn,
			    sizeof(*c->roof[i].e));
		kn = need2(s.hdr, s.nhdr, s.path, "name", "");
		buf_reset(&b);
		buf_adds(&b, c->tag[0]);
		buf_adds(&b, "::");
		vb = col2(s.hdr, s.nhdr, b.s, rooftab[k].metric);
		buf_reset(&b);
		buf_adds(&b, c->tag[i]);
		buf_adds(&b, "::");
		vv = col2(s.hdr, s.nhdr, b.s, rooftab[k].metric);
		buf_reset(&b);
		buf_adds(&b, rooftab[k].metric);
		buf_adds(&b, "__");
		buf_adds(&b, c->tag[i]);
		di = col2(s.hdr, s.nhdr, b.s, "_diff");
		pi = col2(s.hdr, s.nhdr, b.s, "_pct");
		/* (a split drops the columns it has all empty) */
		while (vb >= 0 && vv >= 0 && di >= 0 && pi >= 0 &&
		    csvr_read(&s.r)) {
			ent_init(&e, ntag);
			t = cell(&s, kn, &len);
			e.name = tl_strndup(t, len);
			e.extra = shape(&s, rooftab[k].sheet);
			e.seq = (long)(k * 1000000000 + s.r.rowno);
			e.unit = rooftab[k].unit;
			V(&e, 0) = cellnum(&s, vb);
			V(&e, 1) = cellnum(&s, vv);
			D(&e, 1) = cellnum(&s, di);
			P(&e, 1) = cellnum(&s, pi);
			e.rank = fabs(P(&e, 1));
			if (isnan(P(&e, 1)) || e.rank == 0) {
				c->roof[i].same += !isnan(P(&e, 1));
				ent_free(&e);
				continue;
			}
			top_offer(&c->roof[i], &e, c->opt->topn);
		}
		sheet_close(&s);
	}
	buf_free(&b);
}

/* ---- TraceDiff's subtrees ---- */

/*
 * diff_stats as tl-join -p -k lowest_common_ancestor_id writes it,
 * sorted stably by #key: a subtree's time in each trace is the busy
 * time of its first row from that trace (0 with none), as TraceLens's
 * perf report takes it.
 */
static void
lcas(struct ctx *c)
{
	struct rec_reader r;
	struct buf key = { 0 };
	struct ent e;
	const char *v;
	size_t len, klen, ngrp = 0;
	int kn, ki, ks, kb, open = 0, side, seen[2];
	FILE *fp;
	const char *lpath = c->opt->lpath;

	c->haslca = 1;
	if (!stream_open(&r, &fp, lpath))
		return;
	if (rec_col(&r, "#key") != 0)
		tl_die("%s: not records of tl-join -p", lpath);
	kn = rec_need(&r, "lowest_common_ancestor_name");
	ki = rec_need(&r, "lowest_common_ancestor_id");
	kb = rec_need(&r, "busy_time");
	if ((ks = rec_col(&r, "source")) < 0)
		c->lcasame = 1;
	memset(&e, 0, sizeof(e));
	while (!c->lcasame && rec_read(&r)) {
		v = rec_get(&r, 0, &klen);
		if (open && fieldcmp(v, klen, key.s, key.len) < 0)
			tl_die("%s: line %zu: rows out of order (sort by #key)",
			    lpath, r.lineno);
		if (open && fieldcmp(v, klen, key.s, key.len) > 0) {
			complete(&e, 2);
			file(c, &c->lca, &e, 2, NULL, 0);
			open = 0;
		}
		rec_get(&r, ki, &len);
		if (len == 0)
			continue;	/* a row without an ancestor */
		if (!open) {
			buf_reset(&key);
			buf_add(&key, v, klen);
			ent_init(&e, 2);
			v = rec_get(&r, kn, &len);
			e.name = unesc(v, len);
			v = rec_get(&r, ki, &len);
			if (len > 2 && strcmp(v + len - 2, ".0") == 0)
				len -= 2;	/* an id pandas wrote as a float */
			e.extra = unesc(v, len);
			e.seq = (long)ngrp++;
			e.unit = U_US;
			V(&e, 0) = V(&e, 1) = 0;
			seen[0] = seen[1] = 0;
			open = 1;
		}
		v = rec_get(&r, ks, &len);
		side = len == 6 && memcmp(v, "trace1", 6) == 0 ? 0 :
		    len == 6 && memcmp(v, "trace2", 6) == 0 ? 1 : -1;
		if (side < 0)
			tl_die("%s: line %zu: source is not trace1 or trace2",
			    lpath, r.lineno);
		if (!seen[side]) {
			v = rec_get(&r, kb, &len);
			V(&e, side) = num(v, len, lpath, r.lineno);
			if (isnan(V(&e, side)))
				V(&e, side) = 0;
			seen[side] = 1;
		}
	}
	if (open) {
		complete(&e, 2);
		file(c, &c->lca, &e, 2, NULL, 0);
	}
	buf_free(&key);
	stream_close(&r, fp, lpath);
}

/* ---- Markdown ---- */

static char *
fmtval(char *buf, size_t size, double x, int unit, int sign)
{
	double us = unit == U_MS ? x * 1000 : x, y = x;
	const char *u, *p;
	char n[48];
	int prec = 3;

	if (isnan(x)) {
		snprintf(buf, size, "—");
		return buf;
	}
	if (unit == U_TFLOPS || unit == U_TBS) {
		/* four significant digits, down to 0.000001 */
		u = unit == U_TFLOPS ? "TFLOPS/s" : "TB/s";
		prec = x == 0 ? 0 : 3 - (int)floor(log10(fabs(x)));
		prec = prec < 0 ? 0 : prec > 6 ? 6 : prec;
	} else if (fabs(us) >= 1e6) {
		y = us / 1e6;
		u = "s";
	} else if (fabs(us) >= 1e3) {
		y = unit == U_MS ? x : us / 1e3;
		u = "ms";
	} else {
		y = us;
		u = "µs";
	}
	/* (no time or throughput comes near 1e15; garbage might) */
	snprintf(n, sizeof(n), fabs(y) < 1e15 ? "%.*f" : "%.*e", prec, y);
	/* no sign on what rounds to zero */
	p = n + (n[0] == '-');
	if (strspn(p, "0.") == strlen(p))
		snprintf(buf, size, "%s %s", p, u);
	else
		snprintf(buf, size, "%s%s %s", sign && y > 0 ? "+" : "", n, u);
	return buf;
}

static char *
fmtpct(char *buf, size_t size, double p, int sign)
{
	char n[48];
	const char *q;

	snprintf(n, sizeof(n), fabs(p) < 1e15 ? sign ? "%+.1f" : "%.1f" :
	    sign ? "%+.1e" : "%.1e", p);
	q = n + (n[0] == '-' || n[0] == '+');
	snprintf(buf, size, "%s%%", strspn(q, "0.") == strlen(q) ? q : n);
	return buf;
}

/* Append s[0..len) cut to w characters (UTF-8), "…" marking the cut. */
static void
cutn(struct buf *b, const char *s, size_t len, long w)
{
	size_t i, n = 0, at = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && (long)n++ == w - 1)
			at = i;
	if (w <= 0 || (long)n <= w)
		buf_add(b, s, len);
	else {
		buf_add(b, s, at);
		buf_adds(b, "…");
	}
}

/*
 * Append s cut to the -w width; a TraceDiff name "name1 | name2" is
 * cut on each side, so that both show.
 */
static void
cut(struct buf *b, const char *s, long width)
{
	const char *bar = strstr(s, " | ");
	long w = (width - 3) / 2;

	if (width > 0 && bar != NULL && w > 0 && (long)strlen(s) > width) {
		cutn(b, s, (size_t)(bar - s), w);
		buf_adds(b, " | ");
		cutn(b, bar + 3, strlen(bar + 3), w);
	} else
		cutn(b, s, strlen(s), width);
}

/* Write s, cut to width, as a Markdown code span a table cell can hold. */
static void
mdcode(FILE *o, const char *s, long width)
{
	struct buf b = { 0 };
	size_t i, len, run = 0, most = 0;
	const unsigned char *p;
	int pad;

	cut(&b, s, width);
	p = (const unsigned char *)(b.s != NULL ? b.s : "");
	len = b.len;
	for (i = 0; i < len; i++) {
		run = p[i] == '`' ? run + 1 : 0;
		most = MAX(most, run);
	}
	/* a longer run of backquotes fences it; a space keeps one off an end */
	pad = len > 0 && (p[0] == '`' || p[len - 1] == '`');
	for (i = 0; i <= most; i++)
		putc('`', o);
	if (pad)
		putc(' ', o);
	for (i = 0; i < len; i++) {
		if (p[i] == '|')
			fputs("\\|", o);
		else if (p[i] == '\t')
			fputs("\\t", o);
		else if (p[i] == '\n')
			fputs("\\n", o);
		else if (p[i] < 0x20 || p[i] == 0x7f)
			fprintf(o, "\\x%02x", p[i]);
		else
			putc(p[i], o);
	}
	if (pad)
		putc(' ', o);
	for (i = 0; i <= most; i++)
		putc('`', o);
	buf_free(&b);
}

/* Write a report's tag as table header text. */
static void
mdtext(FILE *o, const char *s)
{
	for (; *s != '\0'; s++) {
		if (strchr("|\\`*_[]<>", *s) != NULL)
			putc('\\', o);
		putc((unsigned char)*s < 0x20 ? ' ' : *s, o);
	}
}

/* The headers of a table's columns of values: each report's, then each
 * variant's change (and share). */
static void
tagheads(FILE *o, char *const *tag, size_t ntag, int share)
{
	size_t i;

	for (i = 0; i < ntag; i++) {
		putc(' ', o);
		mdtext(o, tag[i]);
		fputs(" |", o);
	}
	for (i = 1; i < ntag; i++) {
		fputs(" Δ ", o);
		mdtext(o, tag[i]);
		fputs(" |", o);
		if (share)
			fputs(" share |", o);
	}
}

/* How a ranked table looks. */
struct tabspec {
	const char *what;	/* header of the name column */
	const char *extra;	/* header of the extra column, or NULL */
	char *const *tag;	/* the reports' tags */
	size_t ntag;		/* reports shown */
	const double *gross;	/* per variant: share denominators; NULL: no share */
	long width;		/* names cut to this many characters; 0 never */
};

static void
table(FILE *o, const struct tabspec *ts, const struct top *t)
{
	char a[FMTSZ], p[FMTSZ];
	const struct ent *e;
	size_t i, k, ntag = ts->ntag;

	fprintf(o, "| # | %s |", ts->what);
	if (ts->extra != NULL)
		fprintf(o, " %s |", ts->extra);
	tagheads(o, ts->tag, ntag, ts->gross != NULL);
	fputs("\n|--:|:--|", o);
	if (ts->extra != NULL)
		fputs(":--|", o);
	for (i = 0; i < ntag; i++)
		fputs("--:|", o);
	for (i = 1; i < ntag; i++)
		fputs(ts->gross != NULL ? "--:|--:|" : "--:|", o);
	putc('\n', o);
	for (k = 0; k < t->n; k++) {
		e = &t->e[k];
		fprintf(o, "| %zu | ", k + 1);
		mdcode(o, e->name, ts->width);
		fputs(" |", o);
		if (ts->extra != NULL) {
			putc(' ', o);
			mdcode(o, e->extra != NULL ? e->extra : "", ts->width);
			fputs(" |", o);
		}
		for (i = 0; i < ntag; i++)
			fprintf(o, " %s |", fmtval(a, sizeof(a), V(e, i),
			    e->unit, 0));
		for (i = 1; i < ntag; i++) {
			fprintf(o, " %s", fmtval(a, sizeof(a), D(e, i), e->unit, 1));
			if (isnan(D(e, i)))
				;
			else if (isnan(V(e, 0)))
				fputs(" (new)", o);
			else if (isnan(V(e, i)))
				fputs(" (gone)", o);
			else if (!isnan(P(e, i)))
				fprintf(o, " (%s)", fmtpct(p, sizeof(p), P(e, i), 1));
			fputs(" |", o);
			if (ts->gross == NULL)
				continue;
			if (isnan(D(e, i)) || ts->gross[i] <= 0)
				fputs(" — |", o);
			else
				fprintf(o, " %s |", fmtpct(p, sizeof(p),
				    100 * fabs(D(e, i)) / ts->gross[i], 0));
		}
		putc('\n', o);
	}
}

/* Link a chart in dir: end its alt text, give its path. */
static void
chart(FILE *o, const char *dir, const char *name)
{
	fprintf(o, "](%s/%s.svg)\n", dir, name);
}

/*
 * How many rows changed, of how many there are ("2 of 30"), or with
 * one set only the rows ("2"); and how many are shown.
 */
static void
nof(FILE *o, const struct top *t, int one)
{
	if (one)
		fprintf(o, "%zu", t->rows);
	else if (t->rows == 0 && t->same == 0)
		fputs("none", o);
	else if (t->rows == 0)
		fprintf(o, "none of %zu", t->same);
	else
		fprintf(o, "%zu of %zu", t->rows, t->rows + t->same);
	if (t->rows > t->n)
		fprintf(o, ", the top %zu shown", t->n);
}

static void
headline(FILE *o, const struct ctx *c)
{
	const struct ent *t = &c->tl[TT_TOTAL], *b = &c->tl[TT_BUSY];
	const struct ent *id = &c->tl[TT_IDLE];
	size_t i, ntag = c->ntag;
	char x[FMTSZ], y[FMTSZ], z[FMTSZ], p[FMTSZ];

	fputs("# Summary: ", o);
	mdtext(o, c->tag[0]);
	fputs(" (baseline) vs ", o);
	for (i = 1; i < ntag; i++) {
		if (i > 1)
			fputs(", ", o);
		mdtext(o, c->tag[i]);
	}
	fputs("\n\n", o);
	if (!c->hastl || t->name == NULL)
		return;
	for (i = 1; i < ntag; i++) {
		fputs("- **", o);
		mdtext(o, c->tag[i]);
		if (isnan(P(t, i)) || isnan(D(t, i)))
			fputs("** against **", o);
		else if (fabs(P(t, i)) < 0.05)
			fputs("** takes the same GPU time as **", o);
		else
			fprintf(o, "** takes %s %s GPU time than **",
			    fmtpct(p, sizeof(p), fabs(P(t, i)), 0),
			    P(t, i) < 0 ? "less" : "more");
		mdtext(o, c->tag[0]);
		fprintf(o, "**: total %s -> %s (%s)",
		    fmtval(x, sizeof(x), V(t, 0), U_MS, 0),
		    fmtval(y, sizeof(y), V(t, i), U_MS, 0),
		    fmtval(z, sizeof(z), D(t, i), U_MS, 1));
		if (b->name != NULL)
			fprintf(o, "; busy %s", fmtval(x, sizeof(x), D(b, i),
			    U_MS, 1));
		if (id->name != NULL)
			fprintf(o, ", idle %s", fmtval(x, sizeof(x), D(id, i),
			    U_MS, 1));
		fputs(".\n", o);
	}
	fputs("\n## GPU timeline\n\n|  |", o);
	tagheads(o, c->tag, ntag, 0);
	fputs("\n|:--|", o);
	for (i = 1; i < 2 * ntag; i++)
		fputs("--:|", o);
	putc('\n', o);
	for (t = c->tl; t < c->tl + LEN(c->tl); t++) {
		if (t->name == NULL)
			continue;
		fprintf(o, "| %s |", tltype[t - c->tl].label);
		for (i = 0; i < ntag; i++)
			fprintf(o, " %s |", fmtval(x, sizeof(x), V(t, i), U_MS, 0));
		for (i = 1; i < ntag; i++) {
			fprintf(o, " %s", fmtval(x, sizeof(x), D(t, i), U_MS, 1));
			if (!isnan(P(t, i)))
				fprintf(o, " (%s)", fmtpct(p, sizeof(p), P(t, i), 1));
			fputs(" |", o);
		}
		putc('\n', o);
	}
	if (c->opt->linkdir != NULL) {
		fputs("\n![GPU timeline", o);
		chart(o, c->opt->linkdir, "timeline");
	}
}

/*
 * A section of two tables: rows in both reports that changed, and rows
 * on one side only.  what: "ops" and so on; which: what changed.
 */
static void
twotables(FILE *o, const struct ctx *c, const struct section *s,
    const char *head, const char *what, const char *which,
    const char *share, const char *plot)
{
	struct tabspec ts = { head, NULL, c->tag, c->ntag, s->gross,
	    c->opt->width };

	fprintf(o, "%c%s in %s whose %s changed: ",
	    toupper((unsigned char)what[0]), what + 1, c->ntag > 2 ?
	    "the baseline and a variant" : "both reports", which);
	nof(o, &s->both, 0);
	if (s->both.rows > 0)
		fputs(", by the size of the change, regressions and "
		    "improvements together", o);
	fputs(".\n", o);
	if (s->both.rows > 0) {
		fprintf(o, "Share: the %s's part of the sum of every %s's |Δ|"
		    "%s.\n\n", head, head, share);
		table(o, &ts, &s->both);
		if (plot != NULL && c->opt->linkdir != NULL) {
			fputs("\n![", o);
			fprintf(o, "%c%s by change", toupper((unsigned char)what[0]),
			    what + 1);
			chart(o, c->opt->linkdir, plot);
		}
	}
	if (s->one.rows == 0)
		return;
	fprintf(o, "\n### %c%s on one side only\n\n",
	    toupper((unsigned char)what[0]), what + 1);
	fprintf(o, "%c%s that some report lacks: ",
	    toupper((unsigned char)what[0]), what + 1);
	nof(o, &s->one, 1);
	fputs(", by their time.\n\n", o);
	table(o, &ts, &s->one);
}

static void
markdown(FILE *o, struct ctx *c)
{
	struct tabspec ts = { "op", "shape", c->tag, 2, NULL, c->opt->width };
	struct tabspec ls = { "subtree", "id", c->tag, 2, NULL, c->opt->width };
	const struct gate *g;
	char *pair[2];
	size_t i;

	headline(o, c);
	if (c->hasops) {
		fputs("\n## Ops by kernel-time change\n\n", o);
		twotables(o, c, &c->ops, "op", "ops", "total direct kernel "
		    "time (ops_summary)", ", new and gone ones included", "ops");
	}
	if (c->haskern) {
		fputs("\n## Kernels by time change\n\n", o);
		twotables(o, c, &c->kern, "kernel", "kernels", "total "
		    "duration (kernel_summary, a kernel's rows summed)",
		    ", new and gone ones included", NULL);
	}
	if (c->hascats) {
		fputs("\n## Op categories by kernel-time change\n\n", o);
		twotables(o, c, &c->cats, "category", "categories", "ops' "
		    "total direct kernel time (ops_summary, by Categories; "
		    "several join with +)", "", "categories");
	}
	for (i = 1; i < c->ntag; i++) {
		if (c->roof[i].e == NULL)
			continue;
		fputs("\n## Modelled ops by throughput change", o);
		if (c->ntag > 2) {
			fputs(" (", o);
			mdtext(o, c->tag[i]);
			putc(')', o);
		}
		fputs("\n\nShapes in both reports (the perf-model sheets' "
		    "intersect splits) whose mean achieved throughput "
		    "(TFLOPS/s for GEMM, SDPA and CONV, TB/s for elementwise "
		    "ops) changed: ", o);
		nof(o, &c->roof[i], 0);
		if (c->roof[i].rows > 0)
			fputs(", by the size of the percent change", o);
		fputs(".\n", o);
		if (c->roof[i].rows == 0)
			continue;
		pair[0] = c->tag[0];
		pair[1] = c->tag[i];
		ts.tag = pair;
		putc('\n', o);
		table(o, &ts, &c->roof[i]);
	}
	if (c->haslca) {
		fputs("\n## Subtrees by time change (TraceDiff)\n\n", o);
		if (c->lcasame) {
			fputs("The two traces give the same TraceDiff rows: no "
			    "subtree differs.\n", o);
		} else {
			fputs("Lowest common ancestors of the merged call tree "
			    "(diff_stats: where the two trees differ, op names "
			    "across hardware or libraries included) whose busy "
			    "GPU time changed: ", o);
			nof(o, &c->lca.both, 0);
			if (c->lca.both.rows > 0)
				fputs(", by the size of the change", o);
			fputs("; trace1 is ", o);
			mdtext(o, c->tag[0]);
			fputs(", trace2 ", o);
			mdtext(o, c->tag[1]);
			fputs(".\n", o);
		}
		if (!c->lcasame && c->lca.both.rows > 0) {
			fputs("Share: the subtree's part of the sum of every "
			    "subtree's |Δ|.\n\n", o);
			ls.gross = c->lca.gross;
			table(o, &ls, &c->lca.both);
		}
	}
	if (c->opt->ngate > 0) {
		fputs("\n## Regression gates\n\n", o);
		for (i = 0; i < c->opt->ngate; i++) {
			g = &c->opt->gates[i];
			fputs("- ", o);
			mdcode(o, g->spec, c->opt->width);
			if (g->over > 0)
				fprintf(o, ": **exceeded** (%zu)\n", g->over);
			else
				fputs(": passed\n", o);
		}
	}
}

/* ---- the charts' data ---- */

/* A label gnuplot reads back whole: at most 40 characters, no quote. */
static void
label(FILE *o, const char *s)
{
	struct buf b = { 0 };
	size_t i;

	cutn(&b, s, strlen(s), 40);
	for (i = 0; i < b.len; i++)
		putc(b.s[i] == '"' ? '\'' : (unsigned char)b.s[i] < 0x20 ?
		    ' ' : b.s[i], o);
	buf_free(&b);
}

/* Open dir/name for writing; path gets its name. */
static FILE *
datafile(const char *dir, const char *name, struct buf *path)
{
	buf_reset(path);
	buf_adds(path, dir);
	buf_addc(path, '/');
	buf_adds(path, name);
	return tl_fopen(path->s, "w");
}

/* A header of the variants' tags; then a line a row: the label, then
 * each variant's change in ms. */
static int
bars(const struct top *t, char *const *tag, size_t ntag, const char *dir,
    const char *name)
{
	struct buf path = { 0 };
	FILE *fp;
	size_t i, k;
	int st;

	if (t->n == 0)
		return 0;
	fp = datafile(dir, name, &path);
	fputs("name", fp);
	for (i = 1; i < ntag; i++) {
		putc('\t', fp);
		label(fp, tag[i]);
	}
	putc('\n', fp);
	for (k = 0; k < t->n; k++) {
		label(fp, t->e[k].name);
		for (i = 1; i < ntag; i++)
			fprintf(fp, "\t%.17g", t->e[k].x[ntag + i]);
		putc('\n', fp);
	}
	st = tl_fshut(fp, path.s);
	buf_free(&path);
	return st;
}

/*
 * timeline.tsv: a header, then per report its tag and the parts of its
 * total time in ms: computation, exposed communication, exposed memcpy
 * and idle time, or (rocprof's timeline) busy and idle time;
 * ops.tsv and categories.tsv: the tables' rows and changes.
 */
static int
plotdata(const struct ctx *c)
{
	static const int torch[] = { TT_COMP, TT_XCOMM, TT_XMEMCPY, TT_IDLE };
	static const int roc[] = { TT_BUSY, TT_IDLE };
	struct buf path = { 0 };
	const struct ent *e;
	const int *part = torch;
	size_t i, k, ntag = c->ntag, npart = LEN(torch);
	double v;
	FILE *fp;
	int st = 0;

	if (c->hastl) {
		if (c->tl[TT_COMP].name == NULL) {
			part = roc;
			npart = LEN(roc);
		}
		fp = datafile(c->opt->datadir, "timeline.tsv", &path);
		fputs("report", fp);
		for (k = 0; k < npart; k++)
			fprintf(fp, "\t%s", tltype[part[k]].label);
		putc('\n', fp);
		for (i = 0; i < ntag; i++) {
			label(fp, c->tag[i]);
			for (k = 0; k < npart; k++) {
				e = &c->tl[part[k]];
				v = e->name != NULL ? V(e, i) : NAN;
				/* micro and macro idle time, when split */
				if (part[k] == TT_IDLE && e->name == NULL) {
					v = 0;
					if (c->tl[TT_MICRO].name != NULL)
						v += V(&c->tl[TT_MICRO], i);
					if (c->tl[TT_MACRO].name != NULL)
						v += V(&c->tl[TT_MACRO], i);
				}
				fprintf(fp, "\t%.17g", isnan(v) ? 0 : v);
			}
			putc('\n', fp);
		}
		st |= tl_fshut(fp, path.s);
	}
	st |= bars(&c->ops.both, c->tag, ntag, c->opt->datadir, "ops.tsv");
	st |= bars(&c->cats.both, c->tag, ntag, c->opt->datadir,
	    "categories.tsv");
	buf_free(&path);
	return st;
}

int
main(int argc, char *argv[])
{
	struct opts opt;
	struct ctx c;
	struct stat sb;
	size_t i, k;
	int ch, st;

	memset(&opt, 0, sizeof(opt));
	opt.topn = 10;
	opt.width = 80;
	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((ch = getopt(argc, argv, "g:k:l:L:n:p:w:")) != -1) {
		switch (ch) {
		case 'g': gate_parse(&opt, optarg); break;
		case 'k': opt.kpath = optarg; break;
		case 'l': opt.lpath = optarg; break;
		case 'L': opt.linkdir = optarg; break;
		case 'n': opt.topn = (long)tl_strtonum(optarg, 1, 1000000, "-n"); break;
		case 'p': opt.datadir = optarg; break;
		case 'w': opt.width = (long)tl_strtonum(optarg, 0, 1000000, "-w"); break;
		default: usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1)
		usage(TL_EUSAGE);

	if (stat(argv[0], &sb) != 0)
		tl_die("%s:", argv[0]);
	if (!S_ISDIR(sb.st_mode))
		tl_die("%s: not a directory", argv[0]);
	memset(&c, 0, sizeof(c));
	c.opt = &opt;
	c.dir = argv[0];
	timeline(&c);
	ops(&c);
	if (opt.kpath != NULL)
		kernels(&c);
	if (c.tagsrc == NULL)
		tl_die("%s: no gpu_timeline, ops_summary or kernel_summary "
		    "sheet", c.dir);
	c.roof = tl_calloc(c.ntag, sizeof(*c.roof));
	for (i = 1; i < c.ntag; i++)
		roofline(&c, i);
	cats(&c);
	for (k = 0; k < opt.ngate; k++)
		if (!opt.gates[k].seen && strcmp(opt.gates[k].key, "*") != 0)
			tl_die("gate %s: %s is in no report's %s",
			    opt.gates[k].spec, opt.gates[k].key,
			    opt.gates[k].sheet);
	if (opt.lpath != NULL)
		lcas(&c);
	top_sort(&c.ops.both);
	top_sort(&c.ops.one);
	top_sort(&c.kern.both);
	top_sort(&c.kern.one);
	top_sort(&c.cats.both);
	top_sort(&c.cats.one);
	top_sort(&c.lca.both);
	for (i = 1; i < c.ntag; i++)
		top_sort(&c.roof[i]);
	markdown(stdout, &c);
	st = opt.datadir != NULL ? plotdata(&c) : 0;
	st |= tl_fshut(stdout, "<stdout>");

	for (k = 0; k < LEN(c.tl); k++)
		ent_free(&c.tl[k]);
	section_free(&c.ops);
	section_free(&c.kern);
	section_free(&c.cats);
	section_free(&c.lca);
	for (i = 0; i < c.ntag; i++) {
		top_free(&c.roof[i]);
		free(c.tag[i]);
	}
	free(c.roof);
	free(c.tag);
	free(c.tagsrc);
	for (k = 0; k < opt.ngate; k++)
		free(opt.gates[k].key);
	free(opt.gates);
	if (st != 0)
		return st;
	return c.over > 0 ? TL_EGATE : TL_OK;
}
