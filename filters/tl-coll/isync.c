/* See LICENSE file for copyright and license details. */
/*
 * tl-coll -i FILE: the implicit-sync sheet (nccl_implicit_sync), the
 * straggler summary and the summary's rows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "coll.h"
#include "numpy.h"
#include "stages.h"

/* numpy's round(x, 1): x * 10, rint, / 10. */
static double
round1(double x)
{
	return rint(x * 10.0) / 10.0;
}

/*
 * Each rank's total kernel time (-t): pandas' group sum of the long
 * table's dur, by rank, in its row order (rank, then UID): Kahan's
 * summation over float64, an exact sum over int64.  *isint: the
 * column is int64 (its cells have no '.' or exponent).
 */
static double *
readtotals(const struct opts *opt, long world, int *isint)
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
	if ((fp = fopen(opt->totals, "r")) == NULL)
		tl_die("%s:", opt->totals);
	rec_open(&r, fp, opt->totals);
	rec_read_header(&r);
	cdur = rec_need(&r, "dur");
	for (k = 0; k <= world; k++)
		t[k] = NAN;
	while (rec_read(&r)) {
		s = rec_get(&r, 0, &len);
		rank = fieldlong(s, len, "rank", opt->totals, r.lineno);
		s = rec_get(&r, cdur, &len);
		if (rank >= world || num_double(s, len, &d) < 0)
			tl_die("%s: line %zu: bad rank or dur", opt->totals,
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
straggler(const struct opts *opt, const struct layout *L,
    const struct np_cols *sums, const int64_t *isum, const int64_t *nlast,
    const int64_t *nfirst, int waitint)
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
	dur = readtotals(opt, L->world, &durint);
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
	fp = xfopen(opt->dir, "straggler_summary.csv", "w");
	for (i = 0; i < LEN(hdr) - (opt->gpn > 0 ? 0 : 1); i++)
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
		if (opt->gpn > 0)
			fprintf(fp, ",%ld", r / opt->gpn);
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

/* -i: nccl_implicit_sync, straggler_summary, and the summary's rows. */
void
isyncsheet(const struct opts *opt)
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

	in = openrows(opt->file, &w);
	if (!readrow(in, &w, 0, 0))
		tl_die("%s: no header", opt->file);
	hdrn = w.nf;
	node = hdrn > 0 && strcmp(w.f[hdrn - 1], "node_span") == 0;
	ngen = hdrn;
	for (k = 0; k < LEN(sumcols); k++) {
		gcol[k] = -1;
		for (i = 0; i < hdrn; i++)
			if (strcmp(w.f[i], sumcols[k]) == 0)
				gcol[k] = (int)i;
		if (gcol[k] < 0)
			tl_die("%s: no column %s", opt->file, sumcols[k]);
	}
	for (i = 0; i < hdrn; i++)
		if (strcmp(w.f[i], "earliest arrival rank") == 0)
			ecol = (int)i;
	layinit(&L, opt->world, 3);
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
	in = openrows(opt->file, &w);
	readrow(in, &w, 0, 0);
	if (!opt->nodetail && L.rows > 0) {
		out = xfopen(opt->dir, "nccl_implicit_sync.csv", "w");
		for (i = 2; i < ngen - (size_t)node; i++)
			csvname(out, w.f[i], i == 2);
		layhead(out, &L, kinds, 2, 1);
		if (node)
			csvname(out, "node_span", 0);
		putc('\n', out);
	} else if (!opt->nodetail) {
		/* TraceLens writes an empty table as one empty line */
		out = xfopen(opt->dir, "nccl_implicit_sync.csv", "w");
		putc('\n', out);
	}
	sum = xfopen(opt->dir, "isum.tsv", "w");
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
		if (out != NULL && L.rows > 0)
			layrow(out, &L, &w, ngen, 2, node, 4, 2, 1, &tmp);
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
	straggler(opt, &L, &sums, isum, nlast, nfirst, waitint);
	/* the summary's metric columns: the bandwidths when not all NaN */
	cols = xfopen(opt->dir, "isum.cols", "w");
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
