/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer target for common/gpuarch.c, the GPU spec a user names
 * with --gpu-arch FILE: any bytes either fail with a message or give a
 * spec whose bandwidth and peaks are positive, whose keys are
 * NUL-terminated within their room, and whose every key gpuarch_peak
 * finds; never a read past the input (kept in a buffer of its size).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"
#include "gpuarch.h"

#define CHECK(c) do { if (!(c)) { \
	fprintf(stderr, "fuzz_gpuarch: %s:%d: check failed: %s\n", \
	    __FILE__, __LINE__, #c); abort(); } } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gpuarch a;
	const char *err = NULL;
	char *js = malloc(size ? size : 1);
	size_t i;

	memcpy(js, data, size);
	if (gpuarch_parse(&a, js, size, &err) < 0) {
		CHECK(err != NULL && *err != '\0');
	} else {
		CHECK(!a.has_bw || a.bw > 0);
		CHECK(a.npeak <= GPUARCH_NPEAK);
		for (i = 0; i < a.npeak; i++) {
			CHECK(memchr(a.key[i], '\0', GPUARCH_KEYLEN) != NULL);
			CHECK(!a.has_peak[i] || a.peak[i] > 0);
			/* (a repeated key: the first one's value is found) */
			CHECK(gpuarch_peak(&a, a.key[i]) == NULL || *gpuarch_peak(&a, a.key[i]) > 0);
		}
	}
	free(js);
	return 0;
}
