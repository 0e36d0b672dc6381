/* See LICENSE file for copyright and license details. */
/*
 * read.c: the sections read from the comparison's sheets: gpu_timeline,
 * ops_summary and its categories, and the perf-model splits.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "csvread.h"
#include "rank.h"

/* gpu_timeline's rows the summary shows, in its order. */
const struct tltype tltype[NTT] = {
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

void
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

void
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
void
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
void
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
