/* See LICENSE file for copyright and license details. */
/*
 * gpuarch.c: a GPU spec (gpuarch.h) from the user's JSON, with jsmn.
 * The file is outside input: every token index is checked against the
 * count, and a member must have its value (jsmn, not built strict,
 * takes {"a"}).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSMN_STATIC
#include <jsmn.h>

#include "tl.h"
#include "jtok.h"
#include "gpuarch.h"

static int
tokeq(const char *js, const jsmntok_t *t, const char *s)
{
	return t->type == JSMN_STRING && (size_t)(t->end - t->start) == strlen(s) &&
	    memcmp(js + t->start, s, (size_t)(t->end - t->start)) == 0;
}

/* A number token as a double: 0 for a number, 1 for null, -1 else. */
static int
toknum(const char *js, const jsmntok_t *t, double *d)
{
	if (t->type != JSMN_PRIMITIVE)
		return -1;
	if (t->end - t->start == 4 && memcmp(js + t->start, "null", 4) == 0)
		return 1;
	return num_double(js + t->start, (size_t)(t->end - t->start), d) == 0 ? 0 : -1;
}

/*
 * The member whose key is token i: a string key with one value, both
 * tokens present; its value's index in *val.  The index of the next
 * member's key, or -1.
 */
static int
member(const jsmntok_t *t, int nt, int i, int *val)
{
	if (i + 1 >= nt || t[i].type != JSMN_STRING || t[i].size != 1)
		return -1;
	*val = i + 1;
	return jtok_skip(t, i + 1, nt);
}

int
gpuarch_parse(struct gpuarch *a, const char *js, size_t len, const char **err)
{
	jsmn_parser p;
	jsmntok_t *t;
	int nt, i, next, m, j, k, v, w, r, st = -1;
	size_t kl;

	memset(a, 0, sizeof(*a));
	jsmn_init(&p);
	if ((nt = jsmn_parse(&p, js, len, NULL, 0)) < 1) {
		*err = "not a JSON object";
		return -1;
	}
	t = tl_calloc((size_t)nt, sizeof(*t));
	jsmn_init(&p);
	/* (only the second call, with tokens, finds an unclosed value) */
	if (jsmn_parse(&p, js, len, t, (unsigned)nt) != nt ||
	    t[0].type != JSMN_OBJECT) {
		*err = "not a JSON object";
		goto out;
	}
	*err = "a member that is not \"name\": value";
	for (m = 0, i = 1; m < t[0].size; m++, i = next) {
		if ((next = member(t, nt, i, &v)) < 0)
			goto out;
		if (tokeq(js, &t[i], "mem_bw_gbps")) {
			if ((r = toknum(js, &t[v], &a->bw)) < 0) {
				*err = "mem_bw_gbps is not a number";
				goto out;
			}
			a->has_bw = r == 0;
			if (a->has_bw && !(a->bw > 0)) {
				*err = "mem_bw_gbps must be positive";
				goto out;
			}
		} else if (tokeq(js, &t[i], "max_achievable_tflops")) {
			if (t[v].type != JSMN_OBJECT) {
				*err = "max_achievable_tflops is not an object";
				goto out;
			}
			for (k = 0, j = v + 1; k < t[v].size; k++, j = w) {
				*err = "a member that is not \"name\": value";
				if ((w = member(t, nt, j, &r)) < 0)
					goto out;
				kl = (size_t)(t[j].end - t[j].start);
				if (a->npeak == GPUARCH_NPEAK || kl >= GPUARCH_KEYLEN) {
					*err = "too many or too long keys in "
					    "max_achievable_tflops";
					goto out;
				}
				memcpy(a->key[a->npeak], js + t[j].start, kl);
				a->key[a->npeak][kl] = '\0';
				if ((r = toknum(js, &t[r], &a->peak[a->npeak])) < 0) {
					*err = "a max_achievable_tflops value is not a number";
					goto out;
				}
				a->has_peak[a->npeak] = r == 0;
				if (r == 0 && !(a->peak[a->npeak] > 0)) {
					*err = "a max_achievable_tflops value is not positive";
					goto out;
				}
				a->npeak++;
			}
		}
	}
	st = 0;
out:
	free(t);
	return st;
}

const double *
gpuarch_peak(const struct gpuarch *a, const char *spec)
{
	size_t i;

	for (i = 0; i < a->npeak; i++)
		if (strcmp(a->key[i], spec) == 0)
			return a->has_peak[i] ? &a->peak[i] : NULL;
	return NULL;
}
