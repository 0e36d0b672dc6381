/* See LICENSE file for copyright and license details. */
/*
 * tl-tree: TraceLens's call tree (TraceToTree and the kernel-launcher
 * rule) from tl-parse records, without holding the trace.
 *
 * The work is split into modes that sort(1) connects (tl_tree_stage in
 * tl-lib.sh runs them all at once through pipes and fifos; tl-tree(1)
 * gives every record format):
 *   split      events, in trace order -> host, link, sequence, stream
 *              records, each led by a key that sorts as bytes
 *   host       host records by (thread, ts, UID) -> one stack per
 *              thread: tree records, per runtime event its launcher,
 *              nearest cpu_op and pre-order number, and each event's
 *              range of pre-order numbers
 *   link       runtime, flow and GPU records by linking id -> which
 *              launch each GPU event hangs under, its launcher's
 *              direct-kernel interval and the walk's launch record
 *   walk       ranges and launch records by pre-order number -> each
 *              event's subtree record (count, busy time) and walk.tsv
 *   intervals  interval and subtree records by op -> intervals.tsv,
 *              the GPU-event count of every op and the ops with
 *              communication below
 *   fwd        sequence records by (sequence number, UID) -> the forward
 *              op of every autograd::engine::evaluate_function: node
 *   overlap    GPU events by (pid, stream, ts) -> same-stream overlaps
 *   gpu        GPU events, with link's records by UID -> gpu.tsv, and
 *              the records of the other launched events for merge
 *   merge      events again, in trace order, with the sorted results ->
 *              ops.tsv and (unless gpu made it) gpu.tsv
 * Every mode keeps at most one group (one thread's stack, one linking
 * id, one sequence number, one stream) in memory.  Bulky fields (names
 * of GPU events, inputs) do not travel through the sorts: records carry
 * the byte offset of the event's line instead, read back with pread.
 * tl-tree builds the tree and only that: the programs that read its
 * files for tl-report are tl-kernels, tl-launchers, tl-forest, tl-pick,
 * tl-perfrows and tl-unified; what they share with it is treeio.h's.
 *
 * This file reads the options and runs the mode; the modes are in
 * tl-tree/: split.c, host.c, link.c (link and intervals), walk.c,
 * fwd.c (fwd and overlap) and merge.c (merge and gpu), with what they
 * share in shared.c and tree.h.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"
#include "treeio.h"
#include "tl-tree/tree.h"

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-tree -m split [-CLkpx] -d dir [-e copy] [-G gpuevents]"
	    " [-O streamrecs] [-q seqrecs]\n"
	    "                [-M meta] [-s selected] [events]\n"
	    "       tl-tree -m host [-x] -t tree [-f facts] [-K recompute]"
	    " [-r walkrecs]\n"
	    "                [-S callstacks] [hostrecs]\n"
	    "       tl-tree -m link [-x] -g gpurecs [-f facts] [-r walkrecs]"
	    " [linkrecs ...]\n"
	    "       tl-tree -m walk [-x] -e events [-G gpuevents] [-o walk.tsv]"
	    " [walkrecs]\n"
	    "       tl-tree -m intervals -e events [-G gpuevents] -o intervals.tsv"
	    " [-c comm] [xrecs]\n"
	    "       tl-tree -m fwd [-x] [seqrecs]\n"
	    "       tl-tree -m overlap [streamrecs]\n"
	    "       tl-tree -m gpu -d outdir -e events -G gpuevents [-f facts]"
	    " [-o work]\n"
	    "                [gpurecs]\n"
	    "       tl-tree -m merge [-N] -d outdir -t tree -n ngpu -w fwd"
	    " -g gpurecs\n"
	    "                [-a fwdlinks] [-f facts] [-G gpuevents] events\n");
	exit(status);
}

/* The three long options every mode takes, as their short forms. */
static void
longopts(int argc, char *argv[])
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--python") == 0)
			argv[i] = "-p";
		else if (strcmp(argv[i], "--exact-time") == 0)
			argv[i] = "-x";
		else if (strcmp(argv[i], "--tracelens-compat") == 0)
			argv[i] = "-C";
		else if (strcmp(argv[i], "--legacy-flows") == 0)
			argv[i] = "-L";
	}
}

int
main(int argc, char *argv[])
{
	struct opts opt;
	const char *mode = NULL, *in;
	int ch;

	memset(&opt, 0, sizeof(opt));
	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	longopts(argc, argv);
	while ((ch = getopt(argc, argv, "a:CLc:d:e:f:G:g:K:kM:m:Nn:O:o:pq:r:S:s:t:w:x")) != -1) {
		switch (ch) {
		case 'a': opt.apath = optarg; break;
		case 'C': opt.legacy = 0; break;
		case 'L': opt.legacy = 1; break;
		case 'c': opt.cpath = optarg; break;
		case 'd': opt.dir = optarg; break;
		case 'e': opt.epath = optarg; break;
		case 'f': opt.fpath = optarg; break;
		case 'G': opt.gvpath = optarg; break;
		case 'g': opt.gpath = optarg; break;
		case 'K': opt.kpath = optarg; break;
		case 'k': opt.recompute = 1; break;
		case 'M': opt.Mpath = optarg; break;
		case 'm': mode = optarg; break;
		case 'N': opt.nogpu = 1; break;
		case 'n': opt.npath = optarg; break;
		case 'O': opt.Opath = optarg; break;
		case 'o': opt.opath = optarg; break;
		case 'p': opt.python = 1; break;
		case 'q': opt.qpath = optarg; break;
		case 'r': opt.rpath = optarg; break;
		case 'S': opt.Spath = optarg; break;
		case 's': opt.spath = optarg; break;
		case 't': opt.tpath = optarg; break;
		case 'w': opt.wpath = optarg; break;
		case 'x': opt.exact = 1; break;
		default: usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (mode == NULL)
		usage(TL_EUSAGE);
	if (strcmp(mode, "link") == 0) {
		if (opt.gpath == NULL)
			usage(TL_EUSAGE);
		return linkmode(&opt, argc, argv) |
		    tl_fshut(stdout, "<stdout>");
	}
	if (argc > 1)
		usage(TL_EUSAGE);
	in = argc ? argv[0] : "-";
	if (strcmp(mode, "split") == 0 && opt.dir)
		return split(&opt, in);	/* closes the standard output */
	if (strcmp(mode, "host") == 0 && opt.tpath)
		return host(&opt, in) | tl_fshut(stdout, "<stdout>");
	if (strcmp(mode, "walk") == 0 && opt.epath)
		return walk(&opt, in) | tl_fshut(stdout, "<stdout>");
	if (strcmp(mode, "intervals") == 0 && opt.opath && opt.epath)
		return intervals(&opt, in) | tl_fshut(stdout, "<stdout>");
	if (strcmp(mode, "fwd") == 0)
		return fwd(&opt, in);
	if (strcmp(mode, "overlap") == 0)
		return overlap(in);
	if (strcmp(mode, "gpu") == 0 && opt.dir && opt.epath && opt.gvpath)
		return gpumode(&opt, in) | tl_fshut(stdout, "<stdout>");
	if (strcmp(mode, "merge") == 0 && opt.dir && opt.tpath && opt.npath &&
	    opt.wpath && opt.gpath && argc == 1)
		return merge(&opt, in);
	usage(TL_EUSAGE);
}
