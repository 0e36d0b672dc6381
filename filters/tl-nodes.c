/* See LICENSE file for copyright and license details. */
/*
 * tl-nodes: the node records that tl-diff reads, from the ops.tsv and
 * gpu.tsv of a tree (tl-tree), in two passes around a sort(1):
 *
 *   tl-nodes ops.tsv gpu.tsv | sort | tl-nodes -r | sort
 *
 * The first pass writes each host event and linked GPU event keyed by
 * its top-level tree (root) and, for TraceLens's cpu_root ops, by
 * (ts, UID) as bytes; sorted, each tree comes together with its first
 * cpu_root op first.  The second pass gives each record of a tree that
 * key, its rank (TraceLens's root order), and leaves out the trees
 * without a cpu_root op; sorted again, the trees come in rank order.
 * Memory: one record.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "treeio.h"

/* The node record's fields after rank (tl(7), DIFF RECORDS). */
static const char *const nodecols[] = {
	"rank", "UID", "parent", "cat", "name", "ts", "dur", "ngpu", "cpu_op",
	"cpu_op_name", "Input Dims", "Input type", "Input Strides",
	"Concrete Inputs"
};

/* Columns of ops.tsv and gpu.tsv read, in the order they are written. */
enum { C_UID, C_PARENT, C_CAT, C_NAME, C_TS, C_DUR, C_NGPU, C_CPUOP,
    C_CPUOPNAME, C_DIMS, C_TYPE, C_STRIDES, C_CONCRETE, C_ROOT, C_FLAG, NC };

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-nodes OPS GPU\n"
	    "       tl-nodes -r [KEYED]\n");
	exit(status);
}

/*
 * The bytes of ts as a double, then of UID, that sort(1) orders as
 * (ts, UID).
 */
static void
rootkey(struct buf *b, const struct rec_reader *r, int tcol, int ucol)
{
	const char *s;
	size_t len;
	double d = 0;

	if (!rec_double(r, tcol, &d))
		tl_die("%s: line %zu: a cpu_root op without ts", r->name, r->lineno);
	key_double(b, d);
	s = rec_get(r, ucol, &len);
	key_uid(b, atoid(s));
}

/*
 * One tree file: gpu is 0 for ops.tsv (every record; the cpu_root ops
 * keyed), 1 for gpu.tsv (the linked events under a tree).  A column
 * absent from the file (-1) is written empty.
 */
static void
keyed(const char *path, int gpu, struct buf *b)
{
	static const char *const opsnames[NC] = {
		"UID", "parent", "cat", "name", "ts", "dur", "ngpu", NULL, NULL,
		"Input Dims", "Input type", "Input Strides", "Concrete Inputs",
		"root", "cpu_root"
	};
	static const char *const gpunames[NC] = {
		"UID", "runtime", "cat", "name", "ts", "dur", NULL, "cpu_op",
		"cpu_op_name", "Input Dims", "Input type", "Input Strides",
		"Concrete Inputs", "root", "linked"
	};
	const char *const *names = gpu ? gpunames : opsnames;
	struct rec_reader r;
	FILE *fp = tl_fopen(path, "r");
	int col[NC], i;
	const char *s;
	size_t len;

	rec_open(&r, fp, path);
	rec_read_header(&r);
	for (i = 0; i < NC; i++)
		col[i] = names[i] ? rec_need(&r, names[i]) : -1;
	while (rec_read(&r)) {
		rec_check_width(&r);
		s = rec_get(&r, col[C_FLAG], &len);
		/* GPU events: the linked ones under a tree */
		if (gpu && !(len == 1 && s[0] == '1'))
			continue;
		s = rec_get(&r, col[C_ROOT], &len);
		if (gpu && len == 0)
			continue;
		buf_reset(b);
		buf_add(b, s, len);
		buf_addc(b, '\t');
		s = rec_get(&r, col[C_FLAG], &len);
		if (!gpu && len == 1 && s[0] == '1') {
			buf_addc(b, '0');
			rootkey(b, &r, col[C_TS], col[C_UID]);
		} else
			buf_addc(b, '1');
		for (i = 0; i < C_ROOT; i++) {
			buf_addc(b, '\t');
			if (col[i] >= 0) {
				s = rec_get(&r, col[i], &len);
				buf_add(b, s, len);
			}
		}
		buf_addc(b, '\n');
		fwrite(b->s, 1, b->len, stdout);
	}
	rec_close(&r);
	fclose(fp);
}

/*
 * The keyed records, sorted as bytes, ranked: each tree's records with
 * the key of its first record when that is a cpu_root op's, else left
 * out.  Dies when the lines are not in byte order.
 */
static void
ranked(FILE *fp, const char *name)
{
	struct rec_reader r;
	struct buf prev = {0}, root = {0}, rank = {0};
	const char *t1, *t2;
	int have = 0, keep = 0;

	rec_open(&r, fp, name);
	rec_write(stdout, nodecols, LEN(nodecols));
	while (rec_next(&r)) {
		if ((t1 = memchr(r.cur, '\t', r.curlen)) == NULL ||
		    (t2 = memchr(t1 + 1, '\t', r.curlen - (size_t)(t1 + 1 - r.cur))) == NULL)
			tl_die("%s: line %zu: not a keyed node record", name, r.lineno);
		if (have && strcmp(r.cur, prev.s) < 0)
			tl_die("%s: line %zu: not sorted (LC_ALL=C sort)", name, r.lineno);
		buf_reset(&prev);
		buf_add(&prev, r.cur, r.curlen);
		if (!have || root.len != (size_t)(t1 - r.cur) ||
		    memcmp(root.s, r.cur, root.len) != 0) {
			/* a new tree: ranked by its first record, a cpu_root op's */
			buf_reset(&root);
			buf_add(&root, r.cur, (size_t)(t1 - r.cur));
			keep = t1[1] == '0' && t2 - t1 > 2;
			buf_reset(&rank);
			if (keep)
				buf_add(&rank, t1 + 2, (size_t)(t2 - t1 - 2));
			have = 1;
		}
		if (!keep)
			continue;
		fwrite(rank.s, 1, rank.len, stdout);
		fwrite(t2, 1, r.curlen - (size_t)(t2 - r.cur), stdout);
		putchar('\n');
	}
	buf_free(&prev);
	buf_free(&root);
	buf_free(&rank);
	rec_close(&r);
}

int
main(int argc, char *argv[])
{
	struct buf b = {0};
	FILE *fp;
	int c, rflag = 0;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((c = getopt(argc, argv, "r")) != -1) {
		switch (c) {
		case 'r':
			rflag = 1;
			break;
		default:
			usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (rflag) {
		if (argc > 1)
			usage(TL_EUSAGE);
		fp = argc == 1 ? tl_fopen(argv[0], "r") : stdin;
		ranked(fp, argc == 1 ? argv[0] : "<stdin>");
		if (fp != stdin)
			fclose(fp);
	} else {
		if (argc != 2)
			usage(TL_EUSAGE);
		keyed(argv[0], 0, &b);
		keyed(argv[1], 1, &b);
		buf_free(&b);
	}
	return tl_fshut(stdout, "<stdout>");
}
