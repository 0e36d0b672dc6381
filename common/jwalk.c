/* See LICENSE file for copyright and license details. */
/* jwalk.c: chosen members of checked JSON text (jwalk.h). */
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define JSMN_HEADER
#include <jsmn.h>

#include "jscan.h"
#include "jwalk.h"

static int
isws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int
ws(const char *js, int i, int n)
{
	while (i < n && isws(js[i]))
		i++;
	return i;
}

/*
 * The index of the closing quote of the string whose opening quote is
 * at i, or n: the first quote or backslash, 16 bytes at a time with
 * SSE2 while 16 are left, else a byte at a time; a backslash and the
 * byte it escapes are stepped over, and counted in *esc when esc is
 * not NULL.  (Not memchr: keys are short, a call each cost more than
 * the scan.  Nor i += 1 + (c == '\\') a byte: each load then waits for
 * the one before.)
 */
static int
strclose(const char *js, int i, int n, int *esc)
{
#ifdef __SSE2__
	const __m128i q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\');
	__m128i c;
	unsigned m;
#endif

	for (i++; i < n; i += 2) {
#ifdef __SSE2__
		for (; n - i >= 16; i += 16) {
			c = _mm_loadu_si128((const __m128i *)(const void *)(js + i));
			m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
			    _mm_cmpeq_epi8(c, q), _mm_cmpeq_epi8(c, bs)));
			if (m != 0) {
				i += __builtin_ctz(m);
				break;
			}
		}
#endif
		while (i < n && js[i] != '"' && js[i] != '\\')
			i++;
		if (i >= n)
			return n;
		if (js[i] == '"')
			return i;
		if (esc != NULL)
			(*esc)++;
	}
	return n;
}

/* Whether the container whose opening bracket is at i has an element. */
static int
nonempty(const char *js, int i, int n)
{
	int j = ws(js, i + 1, n);

	return j < n && js[j] != '}' && js[j] != ']';
}

/* The index just past the value at i (not whitespace); its token in *t. */
static int
value(const char *js, int i, int n, jsmntok_t *t)
{
	int d;
	char c = js[i];

	t->start = i;
	t->size = 0;
	if (c == '"') {
		t->type = JSMN_STRING;
		t->start = i + 1;
		t->end = strclose(js, i, n, NULL);
		return t->end < n ? t->end + 1 : n;
	}
	if (c == '{' || c == '[') {
		t->type = c == '{' ? JSMN_OBJECT : JSMN_ARRAY;
		t->size = nonempty(js, i, n);
		for (d = 0; i < n; i++) {
			c = js[i];
			if (c == '"')
				i = strclose(js, i, n, NULL);
			else if (c == '{' || c == '[')
				d++;
			else if ((c == '}' || c == ']') && --d == 0)
				break;
		}
		t->end = i < n ? i + 1 : n;
		return t->end;
	}
	t->type = JSMN_PRIMITIVE;
	while (i < n && js[i] != ',' && js[i] != '}' && js[i] != ']' &&
	    !isws(js[i]))
		i++;
	t->end = i;
	return i;
}

/*
 * Is the key body js[a..z) equal to k, decoded (esc: it has escapes)?
 * (strncmp, not strlen and memcmp: k may be shorter; a key holds no NUL.)
 */
static int
keyis(const char *js, int a, int z, int esc, const char *k)
{
	size_t n = (size_t)(z - a), klen;
	char d[192];	/* a 31-byte key with every byte escaped (\uXXXX) */

	if (!esc)
		return strncmp(js + a, k, n) == 0 && k[n] == '\0';
	if (n > sizeof(d))
		return 0;
	klen = strlen(k);
	return jstr_decode(d, js + a, n) == klen && memcmp(d, k, klen) == 0;
}

/* Every slot of the tree w[0..nw) absent. */
static void
clear(const struct jwant *w, int nw, jsmntok_t *v)
{
	int m;

	for (m = 0; m < nw; m++) {
		v[w[m].slot] = (jsmntok_t){ .type = JSMN_UNDEFINED,
		    .start = -1, .end = -1 };
		if (w[m].sub != NULL)
			clear(w[m].sub, w[m].nsub, v);
	}
}

/*
 * The object whose opening brace is at i: its wanted values into v; the
 * index just past it.
 */
static int
object(const char *js, int i, int n, const struct jwant *w, int nw,
    jsmntok_t *v)
{
	jsmntok_t t;
	int a, z, m, hit, esc;
	char c;

	for (i = ws(js, i + 1, n); i < n && js[i] == '"'; i = ws(js, i + 1, n)) {
		a = i + 1;
		esc = 0;
		if ((z = strclose(js, i, n, &esc)) >= n)
			return n;
		i = ws(js, z + 1, n);
		if (i >= n || js[i] != ':')
			return n;
		if ((i = ws(js, i + 1, n)) >= n)
			return n;
		/* (each key's first byte first: keyis for the few that match) */
		c = z > a ? js[a] : '\0';
		for (hit = -1, m = 0; m < nw && hit < 0; m++)
			if ((w[m].key[0] == c || c == '\\') &&
			    keyis(js, a, z, esc, w[m].key))
				hit = m;
		if (hit < 0) {
			i = value(js, i, n, &t);
		} else if (w[hit].sub != NULL && js[i] == '{') {
			/* (all absent, but after a value of the same key) */
			if (v[w[hit].slot].type != JSMN_UNDEFINED)
				clear(w[hit].sub, w[hit].nsub, v);
			t.type = JSMN_OBJECT;
			t.start = i;
			t.size = nonempty(js, i, n);
			t.end = i = object(js, i, n, w[hit].sub, w[hit].nsub, v);
			v[w[hit].slot] = t;
		} else {
			if (w[hit].sub != NULL &&
			    v[w[hit].slot].type != JSMN_UNDEFINED)
				clear(w[hit].sub, w[hit].nsub, v);
			i = value(js, i, n, &v[w[hit].slot]);
		}
		if ((i = ws(js, i, n)) >= n || js[i] != ',')
			break;
	}
	return i < n && js[i] == '}' ? i + 1 : n;
}

void
jwalk(const char *js, int n, const struct jwant *w, int nw, jsmntok_t *v)
{
	int i = ws(js, 0, n);

	clear(w, nw, v);
	if (i < n && js[i] == '{')
		object(js, i, n, w, nw, v);
}
