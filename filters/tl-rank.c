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
 *
 * This file reads the command line and runs the parts, in tl-rank/:
 * read.c and records.c read the sections from the sheets and the
 * record streams into the tables of table.c (sheets read by sheet.c,
 * rows checked against the gates by gate.c), then markdown.c writes
 * the summary and plot.c the charts' data; rank.h is what they share.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tl.h"
#include "csvread.h"
#include "tl-rank/rank.h"

enum { TL_EGATE = 3 };	/* a regression gate was exceeded */

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: %s [-n rows] [-w width] [-g gate]... [-k kernels] "
	    "[-l lcas]\n"
	    "       [-p datadir] [-L linkdir] comparison_dir\n"
	    "       %s -c [-g gate]...\n",
	    tl_progname(), tl_progname());
	exit(status);
}

/* Read the comparison in c->dir: every sheet the options ask for. */
static void
readall(struct ctx *c)
{
	const struct opts *opt = c->opt;
	struct stat sb;
	size_t i, k;

	if (stat(c->dir, &sb) != 0)
		tl_die("%s:", c->dir);
	if (!S_ISDIR(sb.st_mode))
		tl_die("%s: not a directory", c->dir);
	timeline(c);
	ops(c);
	if (opt->kpath != NULL)
		kernels(c);
	if (c->tagsrc == NULL)
		tl_die("%s: no gpu_timeline, ops_summary or kernel_summary "
		    "sheet", c->dir);
	c->roof = tl_calloc(c->ntag, sizeof(*c->roof));
	for (i = 1; i < c->ntag; i++)
		roofline(c, i);
	cats(c);
	for (k = 0; k < opt->ngate; k++)
		if (!opt->gates[k].seen && strcmp(opt->gates[k].key, "*") != 0)
			tl_die("gate %s: %s is in no report's %s",
			    opt->gates[k].spec, opt->gates[k].key,
			    opt->gates[k].sheet);
	if (opt->lpath != NULL)
		lcas(c);
}

/* Rank every table of c, largest change first. */
static void
rankall(struct ctx *c)
{
	size_t i;

	top_sort(&c->ops.both);
	top_sort(&c->ops.one);
	top_sort(&c->kern.both);
	top_sort(&c->kern.one);
	top_sort(&c->cats.both);
	top_sort(&c->cats.one);
	top_sort(&c->lca.both);
	for (i = 1; i < c->ntag; i++)
		top_sort(&c->roof[i]);
}

static void
ctx_free(struct ctx *c)
{
	size_t i;

	for (i = 0; i < LEN(c->tl); i++)
		ent_free(&c->tl[i]);
	section_free(&c->ops);
	section_free(&c->kern);
	section_free(&c->cats);
	section_free(&c->lca);
	for (i = 0; i < c->ntag; i++) {
		if (c->roof != NULL)
			top_free(&c->roof[i]);
		free(c->tag[i]);
	}
	free(c->roof);
	free(c->tag);
	free(c->tagsrc);
}

static void
gates_free(struct opts *opt)
{
	size_t k;

	for (k = 0; k < opt->ngate; k++)
		free(opt->gates[k].key);
	free(opt->gates);
}

int
main(int argc, char *argv[])
{
	struct opts opt;
	struct ctx c;
	int ch, st, check = 0;

	memset(&opt, 0, sizeof(opt));
	opt.topn = 10;
	opt.width = 80;
	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((ch = getopt(argc, argv, "cg:k:l:L:n:p:w:")) != -1) {
		switch (ch) {
		case 'c': check = 1; break;
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
	/* (-c: the gates' syntax only, before a comparison is made) */
	if (argc != (check ? 0 : 1))
		usage(TL_EUSAGE);
	if (check) {
		gates_free(&opt);
		return TL_OK;
	}

	memset(&c, 0, sizeof(c));
	c.opt = &opt;
	c.dir = argv[0];
	readall(&c);
	rankall(&c);
	markdown(stdout, &c);
	st = opt.datadir != NULL ? plotdata(&c) : 0;
	st |= tl_fshut(stdout, "<stdout>");
	ctx_free(&c);
	gates_free(&opt);
	if (st != 0)
		return st;
	return c.over > 0 ? TL_EGATE : TL_OK;
}
