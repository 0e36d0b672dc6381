/* See LICENSE file for copyright and license details. */
/*
 * tl-kernels: what the launcher table needs of every op's kernels,
 * from the tree stage's intervals.tsv (sorted by op, each op's records
 * by ts): its direct kernels' busy time, count, first GPU UID, first
 * name and list, and its subtree's busy time, as
 * op direct count g1 k1 kd subtree.  Busy times are TraceLens's union
 * in double microseconds (-x: exact nanoseconds); the subtree's comes
 * made, in the op's r record (the tree stage's walk), or is summed from
 * its s records.  Memory: one op's direct kernel list.  tl-kernels(1)
 * gives the format.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"
#include "treeio.h"

static int exact;	/* -x: exact ns instead of TraceLens's doubles */

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-kernels [-x] [intervals.tsv]\n");
	exit(status);
}

static int
kernels(const char *path)
{
	struct ivin *in = tl_calloc(1, sizeof(*in));
	struct kacc d = {0}, st = {0};
	struct buf b = {0}, sub = {0};	/* sub: the r record's busy time */
	long long op = -1;
	int hassub = 0;
	int more;
	size_t len;
	char k;

	ivin_open(in, path, NULL);
	d.list = 1;
	kacc_reset(&d, exact);
	kacc_reset(&st, exact);
	fputs("op\tdirect\tcount\tg1\tk1\tkd\tsubtree\n", stdout);
	do {
		more = ivin_next(in);
		if (op >= 0 && (!more || in->op != op)) {
			buf_num(&b, op);
			kacc_time(&b, &d);
			buf_tab(&b), buf_num(&b, (long long)d.n);
			buf_tab(&b);
			if (d.n > 0)
				buf_num(&b, d.g1);
			buf_tab(&b), buf_add(&b, d.k1.s, d.k1.len);
			kacc_list(&b, &d);
			if (hassub)
				buf_tab(&b), buf_add(&b, sub.s, sub.len);
			else
				kacc_time(&b, &st);
			buf_emit(stdout, &b);
			kacc_reset(&d, exact);
			kacc_reset(&st, exact);
			hassub = 0;
		}
		if (!more)
			break;
		op = in->op;
		if ((k = ivin_kind(in)) == 'd')
			kacc_add(&d, in);
		else if (k == 's')
			kacc_add(&st, in);
		else if (k == 'r') {
			const char *t = rec_get(&in->r, in->c[IDUR], &len);

			buf_reset(&sub);
			buf_add(&sub, t, len);
			hassub = 1;
		}
	} while (more);
	kacc_free(&d);
	kacc_free(&st);
	buf_free(&b);
	buf_free(&sub);
	ivin_close(in);
	free(in);
	return TL_OK;
}

int
main(int argc, char *argv[])
{
	int ch;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((ch = getopt(argc, argv, "x")) != -1) {
		switch (ch) {
		case 'x': exact = 1; break;
		default: usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(TL_EUSAGE);
	return kernels(argc ? argv[0] : "-") | tl_fshut(stdout, "<stdout>");
}
