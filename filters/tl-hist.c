/* See LICENSE file for copyright and license details. */
/*
 * tl-hist: numpy.histogram of one field of a record file, as TraceLens's
 * short_kernel_histogram sheets take it: equal bins between the least
 * and the greatest value, edges from numpy.linspace, and each value
 * put in its bin by numpy's own arithmetic (the scaled index, then the
 * one-off corrections against the edges).  The file is read twice,
 * first for the range, then for the counts: memory is the bins.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: %s [-b bins] -f field file\n", tl_progname());
	exit(status);
}

/* The value of the field in the current record; 0 if it is empty. */
static int
value(struct rec_reader *r, int col, double *d)
{
	const char *s;
	size_t len;

	s = rec_get(r, col, &len);
	if (len == 0)
		return 0;
	if (num_double(s, len, d) < 0)
		tl_die("%s: line %zu: '%s' is not a number: %.40s", r->name,
		    r->lineno, r->hdr[col], s);
	return 1;
}

static void
putnum(double d)
{
	char b[64];

	fputs(num_pyrepr(d, b, sizeof(b)), stdout);
}

int
main(int argc, char *argv[])
{
	struct rec_reader r;
	const char *field = NULL, *path;
	double lo = 0, hi = 0, x, norm, *edge;
	size_t n = 0, bins = 100, i, *count;
	FILE *fp;
	long idx;
	int c, col;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((c = getopt(argc, argv, "b:f:h")) != -1) {
		switch (c) {
		case 'b':
			bins = (size_t)tl_strtonum(optarg, 1, 1 << 24, "-b");
			break;
		case 'f':
			field = optarg;
			break;
		case 'h':
			usage(TL_OK);
			break;
		default:
			usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1 || field == NULL)
		usage(TL_EUSAGE);
	path = argv[0];
	fp = tl_fopen(path, "r");
	if (fseek(fp, 0, SEEK_SET) != 0)
		tl_die("%s: cannot read it twice (not a regular file?):", path);

	/* first pass: the range */
	rec_open(&r, fp, path);
	rec_read_header(&r);
	col = rec_need(&r, field);
	while (rec_read(&r)) {
		if (!value(&r, col, &x))
			continue;
		if (n == 0 || x < lo)
			lo = x;
		if (n == 0 || x > hi)
			hi = x;
		n++;
	}
	printf("bin_start\tbin_end\tcount\n");
	if (n == 0)
		goto out;
	if (lo == hi) {
		lo -= 0.5;
		hi += 0.5;
	}
	/* numpy.linspace(lo, hi, bins + 1): i * step + lo, the last one hi */
	edge = tl_calloc(bins + 1, sizeof(*edge));
	count = tl_calloc(bins, sizeof(*count));
	for (i = 0; i < bins; i++)
		edge[i] = (double)i * ((hi - lo) / (double)bins) + lo;
	edge[bins] = hi;
	norm = (double)bins / (hi - lo);

	/* second pass: the counts */
	rec_close(&r);
	if (fseek(fp, 0, SEEK_SET) != 0)
		tl_die("%s: cannot rewind:", path);
	rec_open(&r, fp, path);
	rec_read_header(&r);
	while (rec_read(&r)) {
		if (!value(&r, col, &x))
			continue;
		idx = (long)((x - lo) * norm);
		if (idx == (long)bins)
			idx--;
		if (x < edge[idx])
			idx--;
		if (x >= edge[idx + 1] && idx != (long)bins - 1)
			idx++;
		count[idx]++;
	}
	for (i = 0; i < bins; i++) {
		putnum(edge[i]);
		putchar('\t');
		putnum(edge[i + 1]);
		printf("\t%zu\n", count[i]);
	}
	free(edge);
	free(count);
out:
	rec_close(&r);
	fclose(fp);
	return tl_fshut(stdout, "<stdout>");
}
