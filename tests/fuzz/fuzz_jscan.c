/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer target for the event scanner (common/jscan.c), built and
 * run by tests/fuzz/run.  For each input it checks that:
 * - the result does not depend on how the text is cut into chunks:
 *   whole, in chunks of 1 to 64 bytes, and byte by byte give the same
 *   events, members, each event's offset and count of lone surrogates,
 *   the error (message and byte offset) or the trace's lone surrogates;
 * - nor on the scanner's mode: byte by byte only, and blocks classified
 *   in plain C, with SSE2 and with AVX2 (those the CPU has);
 * - every event handed out is one JSON object that jsmn (strict, used
 *   here as an independent tokeniser) accepts whole, and its members
 *   are exactly jsmn's keys and values at the two levels recorded;
 * - jstr_tsv and jval_tsv stay within their stated room, write no raw
 *   TAB, LF, CR or NUL, and rec_unescape gives back the decoded string
 *   or the compact JSON text;
 * - with keys wanted (jscan_want), in every mode, the members of the
 *   event object and the wanted ones below it are the same as without;
 * - jwalk (the rocprofv3 reader's member finder) finds in the event the
 *   values jsmn gives for its keys and those of its objects' keys,
 *   the last of a key given twice, and no value for a key not there;
 * and runs it all again with a 40-byte event limit.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSMN_STATIC
#define JSMN_STRICT
#ifndef JSMN_PARENT_LINKS	/* (config.mk's CPPFLAGS define it) */
#define JSMN_PARENT_LINKS
#endif
#include <jsmn.h>

#include "jscan.h"
#include "jwalk.h"
#include "tl.h"

/* What one scan produced. */
struct result {
	uint64_t hash;		/* FNV-1a over events and members */
	uint64_t fhash[2];	/* ... and the members wanted() with 0 or all wantkeys */
	uint64_t nevent;	/* events handed out */
	const char *err;	/* error message, or NULL */
	uint64_t erroff;	/* its byte offset */
	int errinev;		/* the scanner's errinev */
	int truncated;		/* the scanner's truncated */
	uint64_t lastend;	/* the scanner's lastend */
	int seenev;		/* the scanner's seenev */
	uint64_t nlone;		/* the scanner's nlone */
};

static struct jscan *scanning;	/* the scanner that calls onevent */
static int filtering;		/* it was told 0 wantkeys (1) or all (2) */

/* Keys the filtered scans want (some in the dictionary). */
static const char *const wantkeys[] = { "a", "name", "External id" };

#define CHECK(c) do { if (!(c)) { \
	fprintf(stderr, "fuzz_jscan: %s:%d: check failed: %s\n", \
	    __FILE__, __LINE__, #c); abort(); } } while (0)

static uint64_t
fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n-- > 0)
		h = (h ^ *b++) * 1099511628211ULL;
	return h;
}

static char
toktype(const jsmntok_t *t, const char *ev)
{
	switch (t->type) {
	case JSMN_OBJECT: return '{';
	case JSMN_ARRAY: return '[';
	case JSMN_STRING: return '"';
	default: return ev[t->start] == '-' ||
	    (ev[t->start] >= '0' && ev[t->start] <= '9') ? '0' : 't';
	}
}

static int
next(const jsmntok_t *t, int n, int i)
{
	int j = i + 1;

	while (j < n && t[j].start < t[i].end)
		j++;
	return j;
}

/* Compare a member with the key token k and its value token. */
static void
samemember(const struct jmember *m, const jsmntok_t *t, int k,
    const char *ev, int parent)
{
	CHECK(t[k].type == JSMN_STRING);
	CHECK(m->key == (uint32_t)t[k].start);
	CHECK(m->keylen == (uint32_t)(t[k].end - t[k].start));
	CHECK(m->parent == parent);
	CHECK(m->type == toktype(&t[k + 1], ev));
	CHECK(m->val == (uint32_t)t[k + 1].start);
	CHECK(m->vallen == (uint32_t)(t[k + 1].end - t[k + 1].start));
	CHECK(!(m->esc & JM_KEYESC) == !memchr(ev + m->key, '\\', m->keylen));
	if (m->type == '"')
		CHECK(!(m->esc & JM_VALESC) ==
		    !memchr(ev + m->val, '\\', m->vallen));
	CHECK(!(m->esc & JM_VALEXP) == !(m->type == '0' &&
	    (memchr(ev + m->val, 'e', m->vallen) ||
	    memchr(ev + m->val, 'E', m->vallen))));
}

/* Check jstr_tsv and jval_tsv on one value. */
static void
render(const char *ev, const struct jmember *m)
{
	const char *v = ev + m->val;
	size_t n = m->vallen, a, b, i;
	char *x = malloc(2 * n + 1), *y = malloc(n + 1);

	CHECK(x && y);
	if (m->type == '"') {
		a = jstr_tsv(x, v, n);
		CHECK(a <= n);
		b = jstr_decode(y, v, n);
		CHECK(b <= n);
	} else {
		a = jval_tsv(x, v, n);
		CHECK(a <= 2 * n);
		/* The compact text: v without whitespace outside strings. */
		for (b = 0, i = 0; i < n; i++) {
			if (v[i] == '"') {
				do {
					y[b++] = v[i];
					if (v[i] == '\\')
						y[b++] = v[++i];
				} while (v[++i] != '"');
			}
			if (!strchr(" \t\n\r", v[i]))
				y[b++] = v[i];
		}
	}
	for (i = 0; i < a; i++)
		CHECK(x[i] != '\t' && x[i] != '\n' && x[i] != '\r' &&
		    x[i] != '\0');
	CHECK(rec_unescape(x, a) == b && memcmp(x, y, b) == 0);
	free(x);
	free(y);
}

/*
 * Is member i one a filtered scan must hand out, told the first nwant
 * wantkeys?  (Others may come too: they are skipped.)
 */
static int
wanted(const char *ev, const struct jmember *m, size_t i, size_t nwant)
{
	size_t k;

	if (m[i].parent < 0 || (m[i].esc & JM_KEYESC))
		return 1;
	for (k = 0; k < nwant; k++)
		if (m[i].keylen == strlen(wantkeys[k]) &&
		    memcmp(ev + m[i].key, wantkeys[k], m[i].keylen) == 0)
			return 1;
	return 0;
}

/* Hash the members wanted, parents by their key (indices shift). */
static uint64_t
fhash(uint64_t h, const char *ev, size_t len, const struct jmember *m,
    size_t nm, size_t nwant)
{
	struct jmember c;
	size_t i;

	for (i = 0; i < nm; i++) {
		if (!wanted(ev, m, i, nwant))
			continue;
		c = m[i];
		c.parent = c.parent < 0 ? -1 : (int)m[c.parent].key;
		h = fnv(h, &c, sizeof(c));
	}
	return fnv(h, ev, len);
}

/*
 * jwalk's oracle: the decoded key of token k, when it can be a jwant
 * key (shorter than 32 bytes, no NUL), into d; else 0.
 */
static int
plainkey(const char *ev, const jsmntok_t *k, char *d)
{
	size_t n = (size_t)(k->end - k->start);
	char tmp[1024];

	if (n >= sizeof(tmp))
		return 0;
	n = jstr_decode(tmp, ev + k->start, n);
	if (n >= 32 || memchr(tmp, '\0', n) != NULL)
		return 0;
	memcpy(d, tmp, n);
	d[n] = '\0';
	return 1;
}

/* The value token of object token o's last member keyed key, or -1. */
static int
lastval(const char *ev, const jsmntok_t *t, int n, int o, const char *key)
{
	char d[32];
	int i, k, v = -1;

	if (o < 0 || t[o].type != JSMN_OBJECT)
		return -1;
	for (i = o + 1, k = 0; k < t[o].size; k++) {
		if (plainkey(ev, &t[i], d) && strcmp(d, key) == 0)
			v = i + 1;
		i = next(t, n, i + 1);
	}
	return v;
}

static void
sametok(const jsmntok_t *w, const jsmntok_t *t, int v)
{
	if (v < 0) {
		CHECK(w->type == JSMN_UNDEFINED);
		return;
	}
	CHECK(w->type == t[v].type);
	CHECK(w->start == t[v].start && w->end == t[v].end);
	if (t[v].type == JSMN_OBJECT || t[v].type == JSMN_ARRAY)
		CHECK((w->size > 0) == (t[v].size > 0));
}

/*
 * Ask jwalk for (up to 8 of) the event's keys, and (up to 4 of) the keys
 * of each of their values that is an object, and a key that is not
 * there (unless the fuzzer makes it) at each level; compare with jsmn's tokens.
 */
static void
walkcheck(const char *ev, size_t len, const jsmntok_t *t, int n)
{
	static char keys[9][5][32];
	struct jwant w[9], sub[9][5];
	jsmntok_t v[9 * 5];
	int i, j, k, m, nw = 0, ns, o, vi, dup;
	char d[32];

	for (i = 1, k = 0; k < t[0].size && nw < 8; k++, i = next(t, n, i + 1)) {
		if (!plainkey(ev, &t[i], d))
			continue;
		for (dup = 0, m = 0; m < nw; m++)
			dup |= strcmp(keys[m][0], d) == 0;
		if (dup)
			continue;
		strcpy(keys[nw][0], d);
		w[nw] = (struct jwant){ keys[nw][0], nw * 5, NULL, 0 };
		/* (the keys of the value of the key's last member) */
		o = lastval(ev, t, n, 0, d);
		ns = 0;
		if (o >= 0 && t[o].type == JSMN_OBJECT)
			for (j = o + 1, m = 0; m < t[o].size && ns < 3;
			    m++, j = next(t, n, j + 1)) {
				if (!plainkey(ev, &t[j], keys[nw][ns + 1]))
					continue;
				for (dup = 0, vi = 0; vi < ns; vi++)
					dup |= strcmp(keys[nw][vi + 1],
					    keys[nw][ns + 1]) == 0;
				if (!dup) {
					sub[nw][ns] = (struct jwant){
					    keys[nw][ns + 1], nw * 5 + ns + 1,
					    NULL, 0 };
					ns++;
				}
			}
		strcpy(keys[nw][4], "\001absent");
		sub[nw][ns] = (struct jwant){ keys[nw][4], nw * 5 + 4, NULL, 0 };
		w[nw].sub = sub[nw];
		w[nw].nsub = ns + 1;
		nw++;
	}
	strcpy(keys[8][0], "\001absent");
	w[nw] = (struct jwant){ keys[8][0], 8 * 5, NULL, 0 };
	jwalk(ev, (int)len, w, nw + 1, v);
	sametok(&v[8 * 5], t, -1);
	for (m = 0; m < nw; m++) {
		o = lastval(ev, t, n, 0, keys[m][0]);
		sametok(&v[m * 5], t, o);
		for (j = 0; j < w[m].nsub; j++)
			sametok(&v[sub[m][j].slot], t,
			    lastval(ev, t, n, o, sub[m][j].key));
	}
}

/* The scanner's callback: check the event against jsmn, hash it. */
static void
onevent(void *arg, const char *ev, size_t len, const struct jmember *m,
    size_t nm)
{
	struct result *r = arg;
	static jsmntok_t *t;
	static unsigned cap;
	jsmn_parser p;
	size_t mi = 0, k2;
	uint64_t lone;
	int n, i, j, k, top;

	r->fhash[0] = fhash(r->fhash[0], ev, len, m, nm, 0);
	r->fhash[1] = fhash(r->fhash[1], ev, len, m, nm, LEN(wantkeys));
	if (filtering) {
		/* Some keys left out: the unfiltered scans check the rest. */
		for (mi = 0; mi < nm; mi++)
			CHECK(mi == 0 || m[mi].parent < (int)mi);
		r->nevent++;
		return;
	}
	if (cap == 0)
		cap = 64;
	if (t == NULL)
		CHECK((t = malloc(cap * sizeof(*t))) != NULL);
	jsmn_init(&p);
	while ((n = jsmn_parse(&p, ev, len, t, cap)) == JSMN_ERROR_NOMEM)
		CHECK((t = realloc(t, (cap *= 2) * sizeof(*t))) != NULL);
	CHECK(n >= 1);
	CHECK(t[0].type == JSMN_OBJECT && t[0].start == 0 &&
	    (size_t)t[0].end == len);
	CHECK(ev[0] == '{' && ev[len - 1] == '}');
	for (i = 1, k = 0; k < t[0].size; k++) {
		CHECK(mi < nm);
		top = (int)mi;
		samemember(&m[mi++], t, i, ev, -1);
		if (t[i + 1].type == JSMN_OBJECT) {
			for (j = i + 2, k2 = 0; k2 < (size_t)t[i + 1].size; k2++) {
				CHECK(mi < nm);
				samemember(&m[mi++], t, j, ev, top);
				j = next(t, n, j + 1);
			}
		}
		i = next(t, n, i + 1);
	}
	CHECK(mi == nm);
	walkcheck(ev, len, t, n);
	for (mi = 0; mi < nm; mi++) {
		render(ev, &m[mi]);
		r->hash = fnv(r->hash, &m[mi], sizeof(m[mi]));
	}
	r->hash = fnv(r->hash, ev, len);
	lone = scanning->lx.nlone - scanning->lone0;
	r->hash = fnv(r->hash, &lone, sizeof(lone));
	r->hash = fnv(r->hash, &scanning->evoff, sizeof(scanning->evoff));
	r->nevent++;
}

/* Scan data in chunks of size chunk, or of varying sizes when 0. */
static void
scan(struct result *r, const uint8_t *data, size_t size, size_t maxevent,
    size_t chunk, int mode, int filter)
{
	static struct jscan s;
	size_t off, n;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	r->hash = r->fhash[0] = r->fhash[1] = 14695981039346656037ULL;
	jscan_init(&s, maxevent, onevent, r);
	scanning = &s;
	filtering = filter;
	if (filter) {
		jscan_want(&s, NULL, 0);
		for (n = 0; n < LEN(wantkeys) && filter > 1; n++)
			jscan_want(&s, wantkeys[n], strlen(wantkeys[n]));
	}
	if (mode != 0)
		CHECK(jscan_setmode(&s, mode) == 0);
	for (off = 0; off < size && rc == 0; off += n) {
		n = chunk ? chunk : 1 + (off * 7 + size) % 64;
		n = MIN(n, size - off);
		rc = jscan_feed(&s, (const char *)data + off, n);
	}
	if (rc == 0)
		rc = jscan_end(&s);
	CHECK((rc != 0) == (s.err != NULL));
	r->err = s.err == s.errbuf ? "too long" : s.err;
	r->erroff = s.erroff;
	r->errinev = s.errinev;
	r->truncated = s.truncated;
	r->lastend = s.lastend;
	r->seenev = s.seenev;
	r->nlone = s.lx.nlone;
	CHECK(s.nevent == r->nevent);
	if (s.err)
		CHECK(s.erroff <= size);
	if (s.truncated)
		CHECK(s.erroff == size && s.lastend <= size);
	jscan_free(&s);
}

static void
same(const struct result *a, const struct result *b)
{
	/* b's scan was the last: filtering is its */
	CHECK(filtering == 2 || a->fhash[0] == b->fhash[0]);
	CHECK(filtering == 1 || a->fhash[1] == b->fhash[1]);
	CHECK(filtering || a->hash == b->hash);
	CHECK(a->nevent == b->nevent);
	CHECK((a->err == NULL) == (b->err == NULL));
	CHECK(a->err == NULL || strcmp(a->err, b->err) == 0);
	CHECK(a->erroff == b->erroff);
	CHECK(a->errinev == b->errinev);
	CHECK(a->truncated == b->truncated);
	CHECK(a->lastend == b->lastend);
	CHECK(a->seenev == b->seenev);
	CHECK(a->err != NULL || a->nlone == b->nlone);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t limits[] = { 0, 40 };
	static const int modes[] = { JSCAN_BYTES, JSCAN_SCALAR, JSCAN_SSE2,
	    JSCAN_AVX2 };
	static struct jscan probe;
	struct result whole, part;
	size_t i, j;

	for (i = 0; i < LEN(limits); i++) {
		scan(&whole, data, size, limits[i], size ? size : 1, 0, 0);
		scan(&part, data, size, limits[i], 0, 0, 0);
		same(&whole, &part);
		if (size <= 4096) {
			scan(&part, data, size, limits[i], 1, 0, 0);
			same(&whole, &part);
		}
		for (j = 0; j < LEN(modes); j++) {
			if (jscan_setmode(&probe, modes[j]) < 0)
				continue;
			scan(&part, data, size, limits[i], size ? size : 1,
			    modes[j], 0);
			same(&whole, &part);
			/* Keys wanted, or none: whole and in chunks. */
			scan(&part, data, size, limits[i], size ? size : 1,
			    modes[j], 2);
			same(&whole, &part);
			scan(&part, data, size, limits[i], 0, modes[j], 1);
			same(&whole, &part);
		}
	}
	return 0;
}
