/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer target for common/tmeta.c, the skimmer of a trace's
 * top-level members that tl-meta runs: any bytes, fed whole and again
 * in chunks whose sizes the first byte picks, must give the same
 * results, never read past the input, and keep every string it returns
 * NUL-terminated within its buffer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "tmeta.h"

#define CHECK(c) do { if (!(c)) { \
	fprintf(stderr, "fuzz_tmeta: %s:%d: check failed: %s\n", \
	    __FILE__, __LINE__, #c); abort(); } } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tmeta a, b;
	size_t step, off, n;
	char *buf;

	if (size == 0)
		return 0;
	step = (size_t)(data[0] % 17) + 1;
	data++;
	size--;
	/* each chunk in a buffer of its own size: a read past it shows */
	tmeta_init(&a);
	buf = malloc(size ? size : 1);
	memcpy(buf, data, size);
	tmeta_feed(&a, buf, size);
	free(buf);
	tmeta_init(&b);
	for (off = 0; off < size && !b.done; off += n) {
		n = size - off < step ? size - off : step;
		buf = malloc(n);
		memcpy(buf, data + off, n);
		tmeta_feed(&b, buf, n);
		free(buf);
	}
	CHECK(a.ndev == b.ndev);
	CHECK(a.ndev >= -1);
	CHECK(memchr(a.rank, '\0', sizeof(a.rank)) != NULL);
	CHECK(memchr(a.world, '\0', sizeof(a.world)) != NULL);
	CHECK(strcmp(a.rank, b.rank) == 0);
	CHECK(strcmp(a.world, b.world) == 0);
	CHECK(a.done == b.done);
	return 0;
}
