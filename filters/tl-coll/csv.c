/* See LICENSE file for copyright and license details. */
/*
 * tl-coll -s COL, -c N: records to CSV, a summary sheet in pandas' row
 * order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "coll.h"
#include "numpy.h"
#include "stages.h"

static int
isnamed(const char *s, const char **list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(s, list[i]) == 0)
			return 1;
	return 0;
}

/*
 * Records (a header, then rows) to CSV, the first -c fields left out;
 * with -s, the rows in pandas' descending order of that column, after
 * -D columns are divided by 1000 and -I ones written as integers.
 */
void
tocsv(const struct opts *opt)
{
	struct rec_reader r;
	struct buf tmp = {0};
	double *key = NULL, d;
	off_t *off = NULL;
	uint32_t *ord;
	size_t n = 0, cap = 0, ocap = 0, i, nf, lcap = 0;
	int *divc, *intc, scol = -1;
	char num[40], *line = NULL;
	ssize_t got;
	FILE *dst = stdout;

	rec_open(&r, stdin, "<stdin>");
	rec_read_header(&r);
	nf = r.nhdr;
	if ((size_t)opt->drop > nf)
		tl_die("<stdin>: %zu fields, fewer than -c %ld", nf, opt->drop);
	divc = tl_calloc(nf + 1, sizeof(*divc));
	intc = tl_calloc(nf + 1, sizeof(*intc));
	for (i = 0; i < nf; i++) {
		divc[i] = isnamed(r.hdr[i], opt->div, opt->ndiv);
		intc[i] = isnamed(r.hdr[i], opt->ints, opt->nints);
		if (opt->sortcol && strcmp(r.hdr[i], opt->sortcol) == 0)
			scol = (int)i;
	}
	if (opt->sortcol && scol < 0)
		tl_die("<stdin>: no column %s", opt->sortcol);
	for (i = (size_t)opt->drop; i < nf; i++)
		csvname(stdout, r.hdr[i], i == (size_t)opt->drop);
	putchar('\n');
	/* sorted rows wait in a file: 16 bytes each stay in memory */
	if (opt->sortcol && (dst = tmpfile()) == NULL)
		tl_die("tmpfile:");
	while (rec_read(&r)) {
		rec_check_width(&r);
		if (dst != stdout) {
			tl_grow((void **)&off, &ocap, n + 1, sizeof(*off));
			tl_grow((void **)&key, &cap, n + 1, sizeof(*key));
			off[n] = ftello(dst);
			key[n] = NAN;
		}
		for (i = (size_t)opt->drop; i < nf; i++) {
			const char *s = r.f[i].s;
			size_t len = r.f[i].len;

			if ((divc[i] || intc[i]) && len > 0) {
				if (num_double(s, len, &d) < 0)
					tl_die("<stdin>: line %zu: %s is not a "
					    "number", r.lineno, r.hdr[i]);
				if (divc[i])
					d /= 1000;
				if (intc[i] && d == trunc(d) && fabs(d) < 9e18)
					snprintf(num, sizeof(num), "%lld",
					    (long long)d);
				else
					num_pyrepr(d, num, sizeof(num));
				s = num;
				len = strlen(num);
			}
			if ((int)i == scol && len > 0 &&
			    num_double(s, len, &d) == 0)
				key[n] = d;
			csvfield(dst, s, len, i == (size_t)opt->drop, &tmp);
		}
		putc('\n', dst);
		n++;
	}
	if (dst != stdout) {
		/* (a quoted cell may hold a newline: rows go by length) */
		tl_grow((void **)&off, &ocap, n + 1, sizeof(*off));
		off[n] = ftello(dst);
		ord = tl_calloc(n + 1, sizeof(*ord));
		pd_order(key, n, 1, ord);
		if (fflush(dst) == EOF || ferror(dst))
			tl_die("tmpfile:");
		for (i = 0; i < n; i++) {
			got = (ssize_t)(off[ord[i] + 1] - off[ord[i]]);
			if ((size_t)got > lcap) {
				lcap = (size_t)got;
				line = tl_realloc(line, lcap);
			}
			if (fseeko(dst, off[ord[i]], SEEK_SET) < 0 ||
			    fread(line, 1, (size_t)got, dst) != (size_t)got)
				tl_die("tmpfile: read error");
			fwrite(line, 1, (size_t)got, stdout);
		}
		free(ord);
		fclose(dst);
	}
	free(line);
	free(key);
	free(off);
	free(divc);
	free(intc);
	buf_free(&tmp);
	rec_close(&r);
}
