/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer target for common/xlsxread.c: any bytes, opened as a
 * workbook (a zip of XML parts) and every sheet read row by row, must
 * neither crash nor leak nor loop; errors come back as -1 with a
 * message.  Each row handed out must be well formed: numbered after
 * the last, at most XLSX_MAXCOL cells, every cell's text inside the
 * row's text and NUL-ended.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "xlsxread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the row function has seen of a sheet. */
struct seen {
	size_t last;	/* number of the last row */
	size_t rows;	/* rows seen */
};

static int
onrow(const struct xrow *r, void *arg)
{
	struct seen *s = arg;
	size_t j;

	if (r->num <= s->last || r->num > XLSX_MAXROW || r->n > XLSX_MAXCOL)
		abort();
	s->last = r->num;
	for (j = 0; j < r->n; j++) {
		const struct xcell *c = &r->c[j];

		if (c->kind < XC_NONE || c->kind > XC_ERR)
			abort();
		if (c->off + c->len >= r->text.len + 1 ||
		    r->text.s[c->off + c->len] != '\0')
			abort();
		if (c->kind == XC_NONE && c->len != 0)
			abort();
	}
	return ++s->rows > 100000;	/* (a bound on time, not a fault) */
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xlsx x;
	struct seen s;
	size_t i;

	if (xlsx_openmem(&x, data, size, "fuzz") == 0) {
		for (i = 0; i < x.nsheet && i < 8; i++) {
			memset(&s, 0, sizeof(s));
			if (xlsx_read(&x, i, onrow, &s) < 0 && x.err[0] == '\0')
				abort();
			(void)xlsx_find(&x, x.sheet[i].name);
		}
	} else if (x.err[0] == '\0')
		abort();
	xlsx_close(&x);
	return 0;
}
