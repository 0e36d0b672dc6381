/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer target for tl-aggregate's reader of kernel lists without
 * jsmn (kl_fast, filters/tl-aggregate/klist.c), built and run by
 * tests/fuzz/run.  For each input it checks that whenever kl_fast takes
 * the text (a plain JSON list of objects), jsmn, which reads every
 * other list, takes it too and finds the same: a list of that many
 * objects, and the same "dur" members (item, and value text) in the
 * same order; and that kl_fast never reads outside the text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../filters/tl-aggregate/klist.c"

#define CHECK(c) do { if (!(c)) abort(); } while (0)

/* (tl-aggregate.c's, which klist.c's summaries call: not reached here) */
double
median(double *v, size_t n)
{
	(void)v, (void)n;
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct klist o = {0};
	jsmntok_t *tok;
	jsmn_parser p;
	char *s = malloc(size ? size : 1);
	size_t ndv, x = 0;
	int nel, nt, ntok = 64, i, j, e, m;

	memcpy(s, data, size);
	if (kl_fast(&o, s, size, &nel, &ndv) == 0) {
		for (;;) {
			tok = malloc((size_t)ntok * sizeof(*tok));
			jsmn_init(&p);
			nt = jsmn_parse(&p, s, size, tok, (unsigned)ntok);
			if (nt != JSMN_ERROR_NOMEM)
				break;
			free(tok);
			ntok *= 2;
		}
		CHECK(nt >= 1 && tok[0].type == JSMN_ARRAY && tok[0].size == nel);
		for (e = 0, i = 1; e < nel; e++, i = jtok_skip(tok, i, nt)) {
			CHECK(tok[i].type == JSMN_OBJECT);
			for (m = 0, j = i + 1; m < tok[i].size; m++, j = jtok_skip(tok, j, nt)) {
				CHECK(j + 1 < nt && tok[j].size == 1);
				if (tok[j].end - tok[j].start != 3 ||
				    memcmp(s + tok[j].start, "dur", 3) != 0)
					continue;
				CHECK(x < ndv && o.dv[x].item == e &&
				    o.dv[x].s == s + tok[j + 1].start &&
				    o.dv[x].n == (size_t)(tok[j + 1].end - tok[j + 1].start));
				x++;
			}
		}
		CHECK(x == ndv);
		free(tok);
	}
	free(o.dv);
	free(s);
	return 0;
}
