/* See LICENSE file for copyright and license details. */
/*
 * records.c: the sections read from the record streams tl-summary(1)
 * prepares: kernel_summary grouped by kernel (-k), TraceDiff's
 * diff_stats grouped by lowest common ancestor (-l).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "csvread.h"
#include "rank.h"

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
void
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

/* ---- TraceDiff's subtrees ---- */

/*
 * diff_stats as tl-join -p -k lowest_common_ancestor_id writes it,
 * sorted stably by #key: a subtree's time in each trace is the busy
 * time of its first row from that trace (0 with none), as TraceLens's
 * perf report takes it.
 */
void
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
