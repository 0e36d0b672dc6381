/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer target for common/csvread.c: any bytes, read as a CSV or
 * tl(7) table row by row, must neither crash nor leak; errors come
 * back as -1 from csvr_next().  Fields must be NUL-terminated with the
 * length given.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "csvread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct csvr r;
	FILE *fp;
	size_t i, n = 0;
	int st;

	if (size == 0)
		return 0;
	if ((fp = fmemopen((void *)data, size, "r")) == NULL)
		return 0;
	csvr_open(&r, fp, "fuzz");
	while ((st = csvr_next(&r)) > 0) {
		for (i = 0; i < r.nf; i++)
			if (r.f[i][r.flen[i]] != '\0')
				abort();
		if (++n > size + 1)
			abort();	/* more rows than bytes: a loop */
	}
	if (st < 0 && r.err == NULL)
		abort();
	csvr_close(&r);
	fclose(fp);
	return 0;
}
