/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer target for common/coll.c, which tl-coll reads a kernel's
 * args with: any bytes taken as args JSON (in a buffer of their exact
 * size) must give cells or a refusal, and every cell must render in
 * each print class, read as split sizes and process group ranks, and
 * give a sort key, without a sanitizer report; a sort key holds no TAB,
 * newline, CR or NUL, and a None cell renders empty.  The bytes also go
 * through coll_numcell as a trace's ts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "coll.h"

#define CHECK(c) do { if (!(c)) { \
	fprintf(stderr, "fuzz_coll: %s:%d: check failed: %s\n", \
	    __FILE__, __LINE__, #c); abort(); } } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
cell(const char *s, size_t len)
{
	struct buf b = {0};
	struct cnum v;
	int64_t *r = NULL;
	size_t cap = 0, i;
	int k;

	for (k = K_NONE; k <= K_OBJ; k++) {
		buf_reset(&b);
		coll_render(&b, s, len, k);
		if (len == 0 || s[0] == 'z')
			CHECK(b.len == 0);
	}
	buf_reset(&b);
	coll_sortkey(&b, s, len);
	for (i = 0; i < b.len; i++)
		CHECK(b.s[i] != '\t' && b.s[i] != '\n' && b.s[i] != '\r' &&
		    b.s[i] != '\0');
	if (coll_num(s, len, &v) == 0) {
		buf_reset(&b);
		coll_putnum(&b, &v);
	}
	coll_splits(s, len, &r, &cap);
	coll_pgranks(s, len, &r, &cap);
	(void)coll_fact(s, len);
	free(r);
	buf_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf c[NCA];
	char *js = malloc(size ? size : 1);
	int a;

	memcpy(js, data, size);
	memset(c, 0, sizeof(c));
	if (coll_args(c, js, size) == 0)
		for (a = 0; a < NCA; a++)
			cell(c[a].s, c[a].len);
	/* the bytes as a cell themselves, and as a number */
	cell(js, size);
	buf_reset(&c[0]);
	coll_numcell(&c[0], js, size);
	for (a = 0; a < NCA; a++)
		buf_free(&c[a]);
	free(js);
	return 0;
}
