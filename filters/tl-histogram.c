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
	const char *s;
	size_t len;

	while (rec_read(r)) {
		s = rec_get(r, col, &len);
		*d = 0;
		if (len > 0 && num_double(s, len, d) < 0)
			tl_die("%s: line %zu: %s: not a number: %.*s", r->name,
			    r->lineno, r->hdr[col], (int)MIN(len, 40), s);
		if (!haslimit || *d < limit)
			return 1;
	}
	return 0;
}

int
main(int argc, char *argv[])
{
	struct rec_reader r;
	FILE *fp;
	double limit = 0, lo = 0, hi = 0, d, step, norm, *e;
	size_t *cnt, n = 0, bins = 0, i;
	long j;
	int c, col, haslimit = 0;
	char a[64], b[64];

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

	/* The range. */
	fp = tl_fopen(argv[1], "r");
	rec_open(&r, fp, argv[1]);
	rec_read_header(&r);
	col = rec_need(&r, argv[0]);
	while (next(&r, col, haslimit, limit, &d)) {
		if (n == 0 || d < lo)
			lo = d;
		if (n == 0 || d > hi)
			hi = d;
		n++;
	}
	rec_close(&r);
	fputs("bin_start\tbin_end\tcount\n", stdout);
	if (n == 0) {
		fclose(fp);
		return tl_fshut(stdout, "<stdout>");
	}

	/* numpy's edges: linspace(lo, hi, bins + 1), the last one hi */
	if (lo == hi) {
		lo -= 0.5;
		hi += 0.5;
	}
	e = tl_calloc(bins + 1, sizeof(*e));
	cnt = tl_calloc(bins, sizeof(*cnt));
	step = (hi - lo) / (double)bins;
	for (i = 0; i < bins; i++)
		e[i] = (double)i * step + lo;
	e[bins] = hi;
	norm = (double)bins / (hi - lo);

	/* The counts: numpy's bin of each value, mended at the edges. */
	if (fseeko(fp, 0, SEEK_SET) != 0)
		tl_die("%s: cannot read it again (not a file?)", argv[1]);
	rec_open(&r, fp, argv[1]);
	rec_read_header(&r);
	while (next(&r, col, haslimit, limit, &d)) {
		j = (long)((d - lo) * norm);
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
	fclose(fp);
	for (i = 0; i < bins; i++)
		printf("%s\t%s\t%zu\n", num_pyrepr(e[i], a, sizeof(a)),
		    num_pyrepr(e[i + 1], b, sizeof(b)), cnt[i]);
	free(e);
	free(cnt);
	return tl_fshut(stdout, "<stdout>");
}
