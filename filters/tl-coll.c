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
 *
 * This file reads the options and runs the stage; the stages are in
 * tl-coll/: rank.c (-r, -n), merge.c (-m), isync.c (-i), a2a.c (-a),
 * heatmap.c (-p) and csv.c (-s, -c), with the sheets' layout in
 * layout.c and what they share in shared.c and stages.h.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"
#include "coll.h"
#include "numpy.h"
#include "tl-coll/stages.h"

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
setmode(struct opts *opt, int c)
{
	if (opt->mode && opt->mode != c)
		tl_usage_die("-%c and -%c are two stages", opt->mode, c);
	opt->mode = c;
}

int
main(int argc, char *argv[])
{
	struct opts opt;
	int c;

	memset(&opt, 0, sizeof(opt));
	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((c = getopt(argc, argv, "a:c:D:F:g:HhI:i:mNno:pr:Ss:t:W:")) != -1) {
		switch (c) {
		case 'a':
		case 'i':
			setmode(&opt, c);
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
			setmode(&opt, c);
			break;
		case 'N':
			opt.nodetail = 1;
			break;
		case 'o':
			opt.dir = optarg;
			break;
		case 'r':
			setmode(&opt, c);
			opt.rank = (long)tl_strtonum(optarg, 0, 1 << 30, "-r");
			break;
		case 'S':
			opt.lenient = 1;
			break;
		case 's':
			if (opt.mode == 'c')
				opt.mode = 0;
			setmode(&opt, c);
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
	case 'r': selectrank(&opt); break;
	case 'n': number(); break;
	case 'm': merge(&opt); break;
	case 'i': isyncsheet(&opt); break;
	case 'a': a2asheet(&opt); break;
	case 'p': heatmap(); break;
	default: tocsv(&opt); break;
	}
	free(opt.div);
	free(opt.ints);
	return tl_fshut(stdout, "<stdout>");
}
