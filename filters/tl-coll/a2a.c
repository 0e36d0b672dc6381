/* See LICENSE file for copyright and license details. */
/*
 * tl-coll -a FILE: the all_to_allv sheet (nccl_all2allv) and the
 * summary's rows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "coll.h"
#include "numpy.h"
#include "stages.h"

/* -a: nccl_all2allv, rows in pandas' order, and the summary's rows. */
void
a2asheet(const struct opts *opt)
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

	in = openrows(opt->file, &w);
	if (!readrow(in, &w, 0, 0))
		tl_die("%s: no header", opt->file);
	ngen = w.nf;
	node = strcmp(w.f[ngen - 1], "node_span") == 0;
	nsc = LEN(sumcols) - (node ? 0 : 1);
	for (k = 0; k < nsc; k++) {
		gcol[k] = -1;
		for (i = 0; i < ngen; i++)
			if (strcmp(w.f[i], sumcols[k]) == 0)
				gcol[k] = (int)i;
		if (gcol[k] < 0)
			tl_die("%s: no column %s", opt->file, sumcols[k]);
	}
	layinit(&L, opt->world, 10);
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
	if (!opt->nodetail && ntot > 0) {
		out = xfopen(opt->dir, "nccl_all2allv.csv", "w");
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
	sum = xfopen(opt->dir, "a2asum.tsv", "w");
	fputs("skey", sum);
	for (k = 0; k < nsc; k++)
		fprintf(sum, "\t%s", sumcols[k]);
	putc('\n', sum);
	for (i = 0; i < ntot; i++) {
		fseeko(in, off[ord[i]], SEEK_SET);
		w.lineno = 1;
		readrow(in, &w, ngen, 11);
		if (out != NULL)
			layrow(out, &L, &w, ngen, 4, node, 11, 8, 2, &tmp);
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
