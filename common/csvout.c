/* See LICENSE file for copyright and license details. */
/*
 * CSV cells as pandas' DataFrame.to_csv() writes them (QUOTE_MINIMAL):
 * a cell is quoted only when it holds a comma, a double quote, CR or
 * LF, and libcsv does the quoting, so a tl CSV and a TraceLens CSV of
 * the same data are the same bytes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>

#include "tl.h"

void
csv_cell(FILE *fp, const char *s, size_t len)
{
	if (memchr(s, ',', len) || memchr(s, '"', len) ||
	    memchr(s, '\r', len) || memchr(s, '\n', len))
		csv_fwrite(fp, s, len);
	else
		fwrite(s, 1, len, fp);
}

void
csv_sep(FILE *fp, int first)
{
	if (!first)
		putc(',', fp);
}

void
csv_bcell(struct buf *b, const char *s, size_t len)
{
	size_t i;

	if (!memchr(s, ',', len) && !memchr(s, '"', len) &&
	    !memchr(s, '\r', len) && !memchr(s, '\n', len)) {
		buf_add(b, s, len);
		return;
	}
	buf_addc(b, '"');
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			buf_addc(b, '"');
		buf_addc(b, s[i]);
	}
	buf_addc(b, '"');
}

void
csv_bfield(struct buf *b, const char *s, size_t len)
{
	char *t;

	if (memchr(s, '\\', len) == NULL) {
		csv_bcell(b, s, len);
		return;
	}
	t = tl_strndup(s, len);
	len = rec_unescape(t, len);
	csv_bcell(b, t, len);
	free(t);
}

void
csv_bnum(struct buf *b, double d)
{
	char num[64];

	if (!isnan(d))
		buf_adds(b, num_pyrepr(d, num, sizeof(num)));
}

void
csv_blist(struct buf *b, const char *s, size_t len)
{
	struct buf lit = {0};
	char *t = tl_strndup(s, len);
	size_t n = rec_unescape(t, len);

	if (n > 0 && pylit(&lit, t, n, 0) == 0) {
		/* a null arg is None: pandas writes an empty cell */
		if (lit.len == 4 && memcmp(lit.s, "None", 4) == 0)
			lit.len = 0;
		csv_bcell(b, lit.s, lit.len);
	}
	else
		csv_bcell(b, t, n);
	buf_free(&lit);
	free(t);
}
