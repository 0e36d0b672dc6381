/* See LICENSE file for copyright and license details. */
/*
 * tl-diff: merge the call trees of two traces the way TraceLens's
 * TraceDiff does (root pairing, name normalisation, Wagner-Fischer
 * alignment of children with its disambiguation and repair passes) and
 * write the merged tree as records, one per merged node, in pre-order.
 *
 * Each input is a stream of node records grouped by top-level root, the
 * groups in root order (tl(7) NODE RECORDS).  Groups are paired by
 * position, so memory is one pair of top-level subtrees.
 *
 * This file reads the command line; the work is in tl-diff/: side.c
 * reads the root groups, names.c normalises names, wf.c aligns two
 * children lists, children.c builds and repairs them, and merge.c walks
 * the merged tree and writes it, with what they share in diff.h.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "tl-diff/diff.h"

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-diff NODES1 NODES2\n");
	exit(status);
}

int
main(int argc, char *argv[])
{
	struct side a, b;
	int ch, st;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((ch = getopt(argc, argv, "")) != -1)
		usage(TL_EUSAGE);
	argc -= optind;
	argv += optind;
	if (argc != 2)
		usage(TL_EUSAGE);
	if (strcmp(argv[0], "-") == 0 && strcmp(argv[1], "-") == 0)
		tl_usage_die("only one input can be stdin");
	side_open(&a, argv[0]);
	side_open(&b, argv[1]);
	tldiff(&a, &b, stdout);
	st = tl_fshut(stdout, "<stdout>");
	side_free_group(&a);
	side_free_group(&b);
	free(a.n);
	free(b.n);
	free(a.rank);
	free(b.rank);
	free(a.prevrank);
	free(b.prevrank);
	rec_close(&a.r);
	rec_close(&b.r);
	if (a.fp != stdin)
		fclose(a.fp);
	if (b.fp != stdin)
		fclose(b.fp);
	return st;
}
