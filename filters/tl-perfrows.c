/* See LICENSE file for copyright and license details. */
/*
 * tl-perfrows: the rows of TraceLens's unified_perf_summary, each with
 * its perf-model metrics, kernel time and kernel list: the ops
 * tl-forest -m collect chose (P: a perf model, S: a backward op of a
 * modelled forward op, O: any other), and the synthetic ops (Y) of
 * -y.  Every input is read in UID order, as a merge join: memory is
 * one record of each.  tl-unified takes the rows on.  tl-perfrows(1)
 * gives the formats.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"
#include "treeio.h"

static const char *metrics;	/* -f: tl-roofline's fwd metrics */
static const char *kinfo;	/* -k: op kt kd, kernel time and list */
static const char *bwdmetrics;	/* -s: the S rows' bwd metrics */
static const char *synthetic;	/* -y: the synthetic ops */
static const char *synrows;	/* -o: out, the synthetic ops' rows */
static const char *synkinfo;	/* -K: the synthetic ops' kernels, by tag */

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-perfrows -f metrics -k kinfo [-s bwdmetrics]"
	    " [-y synthetic -o synrows [-K synkinfo]] [collected]\n");
	exit(status);
}

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
	struct uside met;	/* -f: the fwd metrics (tl-roofline's columns) */
	int mc[NMET];		/* their columns in met; -1 when absent */
	struct uside ki;	/* -k: kernel time and list by UID */
	struct uside sm;	/* -s: the S rows' bwd metrics, UID then NMET */
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
	if (uside_seek(&rw->ki, u)) {
		kt = rec_get(&rw->ki.r, 1, NULL);
		kd = rec_get(&rw->ki.r, 2, NULL);
	}
	if (*t == 'P') {
		if (uside_seek(&rw->met, u))
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
		if (rw->sm.fp != NULL && uside_seek(&rw->sm, u))
			for (i = 0; i < NMET; i++)
				x[i] = rec_get(&rw->sm.r, (int)i + 1, NULL);
		kt = x[9];
	}
	if (*t == 'Y')
		buf_adds(b, src);
	else
		buf_num(b, u);
	buf_tab(b), buf_num(b, u);
	buf_tabs(b, t);
	buf_tabs(b, *t == 'Y' ? name : "");
	buf_tabs(b, *t == 'P' || *t == 'S' ? "True" : "False");
	for (i = 0; i < 8; i++)
		buf_tabs(b, x[i]);
	buf_tabs(b, *t == 'S' ? x[8] : "");
	buf_tabs(b, kt);
	buf_tabs(b, kd);
	for (i = NMETBASE; i < NMET; i++)
		buf_tabs(b, x[i]);
	buf_emit(fp, b);
}

/*
 * The rows of unified_perf_summary (TraceLens's
 * collect_unified_perf_events) with their metrics, kernel time and
 * kernel list, for tl-unified: the collected ops (UID type
 * fwd, UID order) to the standard output; the synthetic ops of -y
 * (UID src name ..., UID order) to -o.  Memory: one record per input.
 */
static int
rows(const char *path)
{
	struct rows rw;
	struct uside k0;
	struct rec_reader r;
	FILE *fp = io_open(path, "r", NULL), *yo;
	size_t i;
	int st = TL_OK;

	memset(&rw, 0, sizeof(rw));
	rw.prev = -1;
	uside_openh(&rw.met, metrics, "UID");
	for (i = 0; i < NMET; i++)
		if ((rw.mc[i] = rec_col(&rw.met.r, metcols[i])) < 0 && i < NMETBASE)
			tl_die("%s: no column '%s'", metrics, metcols[i]);
	uside_openh(&rw.ki, kinfo, "op");
	if (bwdmetrics)
		uside_open(&rw.sm, bwdmetrics, 0, 0, NULL);
	rec_open(&r, fp, io_name(path));
	while (rec_read(&r)) {
		want_nf(&r, 3);	/* UID type fwd */
		row(&rw, stdout, &r, NULL, NULL);
	}
	rec_close(&r);
	if (fp != stdin)
		fclose(fp);
	if (synthetic) {
		/* -K: their kernels apart, not after the others in kinfo
		 * (which stays open to the end, as it did) */
		if (synkinfo) {
			k0 = rw.ki;
			uside_openh(&rw.ki, synkinfo, "tag");
		}
		fp = io_open(synthetic, "r", NULL);
		yo = io_open(synrows, "w", NULL);
		rec_open(&r, fp, synthetic);
		while (rec_read(&r)) {
			want_nf(&r, 8);	/* UID src name ts dur kname stream gpu */
			row(&rw, yo, &r, r.f[1].s, r.f[2].s);
		}
		rec_close(&r);
		fclose(fp);
		st = tl_fshut(yo, synrows);
	}
	uside_free(&rw.met);
	uside_free(&rw.ki);
	if (synkinfo)
		uside_free(&k0);
	if (bwdmetrics)
		uside_free(&rw.sm);
	buf_free(&rw.b);
	return st;
}


int
main(int argc, char *argv[])
{
	int ch;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((ch = getopt(argc, argv, "K:f:k:o:s:y:")) != -1) {
		switch (ch) {
		case 'K': synkinfo = optarg; break;
		case 'f': metrics = optarg; break;
		case 'k': kinfo = optarg; break;
		case 'o': synrows = optarg; break;
		case 's': bwdmetrics = optarg; break;
		case 'y': synthetic = optarg; break;
		default: usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (metrics == NULL || kinfo == NULL || !synthetic != !synrows ||
	    (synkinfo && !synthetic) || argc > 1)
		usage(TL_EUSAGE);
	return rows(argc ? argv[0] : "-") | tl_fshut(stdout, "<stdout>");
}
