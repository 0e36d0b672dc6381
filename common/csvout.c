/* See LICENSE file for copyright and license details. */
/*
 * CSV cells as pandas' DataFrame.to_csv() writes them (QUOTE_MINIMAL):
 * a cell is quoted only when it holds a comma, a double quote, CR or
 * LF, and libcsv does the quoting, so a tl CSV and a TraceLens CSV of
 * the same data are the same bytes.
 */
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
