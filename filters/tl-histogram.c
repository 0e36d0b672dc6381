/* See LICENSE file for copyright and license details. */
/*
 * tl-histogram: numpy.histogram of one field of a record stream, as
 * TraceLens's short-kernel study takes it: equal bins from the least
 * to the greatest value (a range of one around a single value), each
 * value in the bin numpy puts it in.  The file is read twice (the
 * range, then the counts): memory is the bins.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: %s -b bins [-u limit] field file\n", tl_progname());
	exit(status);
}

/*
 * The next value of field col below limit (all with no limit); 0 at
 * EOF.  An empty field is 0.
 */
static int
next(struct rec_reader *r, int col, int haslimit, double limit, double *d)
{
	while (rec_read(r)) {
		*d = 0;
		rec_double(r, col, d);
		if (!haslimit || *d < limit)
			return 1;
	}
	return 0;
}

/* A column's values: where they lie and how many there are. */
struct range {
	double lo;	/* the least */
	double hi;	/* the greatest */
	size_t n;	/* their number (those under -u's limit) */
};

/* One pass over fp: the range of column name's values. */
static int
range(FILE *fp, const char *path, const char *name, int haslimit,
    double limit, struct range *g)
{
	struct rec_reader r;
	double d;
	int col;

	rec_open(&r, fp, path);
	rec_read_header(&r);
	col = rec_need(&r, name);
	g->n = 0;
	while (next(&r, col, haslimit, limit, &d)) {
		if (g->n == 0 || d < g->lo)
			g->lo = d;
		if (g->n == 0 || d > g->hi)
			g->hi = d;
		g->n++;
	}
	rec_close(&r);
	return col;
}

/*
 * A second pass over fp: the histogram of column col in bins bins over
 * g (numpy's histogram), as records.
 */
static void
histogram(FILE *fp, const char *path, int col, int haslimit, double limit,
    struct range g, size_t bins)
{
	struct rec_reader r;
	double d, step, norm, *e;
	size_t *cnt, i;
	long j;
	char a[64], b[64];

	/* numpy's edges: linspace(lo, hi, bins + 1), the last one hi */
	if (g.lo == g.hi) {
		g.lo -= 0.5;
		g.hi += 0.5;
	}
	e = tl_calloc(bins + 1, sizeof(*e));
	cnt = tl_calloc(bins, sizeof(*cnt));
	step = (g.hi - g.lo) / (double)bins;
	for (i = 0; i < bins; i++)
		e[i] = (double)i * step + g.lo;
	e[bins] = g.hi;
	norm = (double)bins / (g.hi - g.lo);

	/* The counts: numpy's bin of each value, mended at the edges. */
	if (fseeko(fp, 0, SEEK_SET) != 0)
		tl_die("%s: cannot read it again (not a file?)", path);
	rec_open(&r, fp, path);
	rec_read_header(&r);
	while (next(&r, col, haslimit, limit, &d)) {
		j = (long)((d - g.lo) * norm);
		if (j == (long)bins)
			j--;
		if (j > 0 && d < e[j])
			j--;
		if ((size_t)j + 1 < bins && d >= e[j + 1])
			j++;
		if (j < 0 || (size_t)j >= bins)
			tl_die("%s: line %zu: %g is out of the range", r.name,
			    r.lineno, d);
		cnt[j]++;
	}
	rec_close(&r);
	for (i = 0; i < bins; i++)
		printf("%s\t%s\t%zu\n", num_pyrepr(e[i], a, sizeof(a)),
		    num_pyrepr(e[i + 1], b, sizeof(b)), cnt[i]);
	free(e);
	free(cnt);
}

int
main(int argc, char *argv[])
{
	struct range g;
	FILE *fp;
	double limit = 0;
	size_t bins = 0;
	int c, col, haslimit = 0;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((c = getopt(argc, argv, "b:u:")) != -1) {
		switch (c) {
		case 'b':
			bins = (size_t)tl_strtonum(optarg, 1, 1 << 24, "-b");
			break;
		case 'u':
			if (num_double(optarg, strlen(optarg), &limit) < 0)
				tl_usage_die("-u %s: not a number", optarg);
			haslimit = 1;
			break;
		default:
			usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2 || bins == 0)
		usage(TL_EUSAGE);

	fp = tl_fopen(argv[1], "r");
	col = range(fp, argv[1], argv[0], haslimit, limit, &g);
	fputs("bin_start\tbin_end\tcount\n", stdout);
	if (g.n > 0)
		histogram(fp, argv[1], col, haslimit, limit, g, bins);
	fclose(fp);
	return tl_fshut(stdout, "<stdout>");
}
