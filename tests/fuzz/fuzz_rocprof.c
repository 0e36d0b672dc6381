/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer target for the rocprofv3 reader (common/rocprof.c), built
 * and run by tests/fuzz/run.  For each input it checks that:
 * - the result does not depend on how the text is cut into chunks:
 *   whole, in chunks of 1 to 64 bytes, and byte by byte give the same
 *   records and the same error (message and byte offset);
 * - it checks the JSON grammar as the event scanner (jscan.c) does:
 *   where jscan finds the text is not JSON, the reader fails there with
 *   the same message, unless a rocprofv3 shape error stopped it first,
 *   and where jscan finds no grammar error, neither does the reader;
 * - every record, formatted with every field, is one line of as many
 *   fields, with no raw TAB, CR or NUL in them;
 * and runs it all again with a 40-byte record limit.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jscan.h"
#include "rocprof.h"
#include "tl.h"

/* What one scan produced. */
struct result {
	uint64_t hash;		/* FNV-1a over the formatted records */
	uint64_t nrec;		/* records handed out */
	const char *err;	/* error message, or NULL */
	uint64_t erroff;	/* its byte offset */
	int errinrec;		/* the reader's errinrec */
	int truncated;		/* the reader's truncated */
	uint64_t lastend;	/* the reader's lastend */
};

#define CHECK(c) do { if (!(c)) { \
	fprintf(stderr, "fuzz_rocprof: %s:%d: check failed: %s\n", \
	    __FILE__, __LINE__, #c); abort(); } } while (0)

static uint64_t
fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n-- > 0)
		h = (h ^ *b++) * 1099511628211ULL;
	return h;
}

/* The reader's callback: format the record with every field, check it. */
static void
onrec(void *arg, const struct rprec *rec)
{
	static int map[NRF];
	struct result *r = arg;
	struct buf b = {0};
	size_t i, tabs = 0;
	int bad;

	for (i = 0; i < NRF; i++)
		map[i] = (int)i;
	/* (a number too large to write plainly: tl-parse's error) */
	if ((bad = rp_format(&b, rec, map, NRF)) != 0) {
		CHECK(bad >= 1 && bad <= NRF);
		r->hash = fnv(r->hash, &bad, sizeof(bad));
		r->nrec++;
		buf_free(&b);
		return;
	}
	CHECK(b.len > 0 && b.s[b.len - 1] == '\n');
	for (i = 0; i + 1 < b.len; i++) {
		CHECK(b.s[i] != '\n' && b.s[i] != '\r' && b.s[i] != '\0');
		tabs += b.s[i] == '\t';
	}
	CHECK(tabs == NRF - 1);
	CHECK(rec->v[RF_CAT].how == 'x' && rec->v[RF_UID].how == 'x');
	r->hash = fnv(r->hash, b.s, b.len);
	r->nrec++;
	buf_free(&b);
}

/* Scan data in chunks of size chunk, or of varying sizes when 0. */
static void
scan(struct result *r, const uint8_t *data, size_t size, size_t maxrec,
    size_t chunk)
{
	static struct rpscan s;
	size_t off, n;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	r->hash = 14695981039346656037ULL;
	rp_init(&s, maxrec, onrec, r);
	for (off = 0; off < size && rc == 0; off += n) {
		n = chunk ? chunk : 1 + (off * 7 + size) % 64;
		n = MIN(n, size - off);
		rc = rp_feed(&s, (const char *)data + off, n);
	}
	if (rc == 0)
		rc = rp_end(&s);
	CHECK((rc != 0) == (s.err != NULL));
	r->err = s.err == s.errbuf ? "errbuf" : s.err;
	if (s.err == s.errbuf)
		r->hash = fnv(r->hash, s.errbuf, strlen(s.errbuf));
	r->erroff = s.erroff;
	r->errinrec = s.errinrec;
	r->truncated = s.truncated;
	r->lastend = s.lastend;
	CHECK(s.nrec == r->nrec);
	if (s.err)
		CHECK(s.erroff <= size);
	if (s.truncated)
		CHECK(s.erroff == size && s.lastend <= size);
	rp_free(&s);
}

static void
same(const struct result *a, const struct result *b)
{
	CHECK(a->hash == b->hash);
	CHECK(a->nrec == b->nrec);
	CHECK((a->err == NULL) == (b->err == NULL));
	CHECK(a->err == NULL || strcmp(a->err, b->err) == 0);
	CHECK(a->erroff == b->erroff);
	CHECK(a->errinrec == b->errinrec);
	CHECK(a->truncated == b->truncated);
	CHECK(a->lastend == b->lastend);
}

/* Is msg an error of the JSON grammar, as both scanners word it? */
static int
grammar(const char *msg)
{
	static const char *const shape[] = {
		"no traceEvents array", "traceEvents is not an array",
		"more than one", "event is not an object", "event longer",
		"not a JSON object", "errbuf", "record longer", "no " RP_KEY,
		"is not an", "event has more"
	};
	size_t i;

	if (msg == NULL)
		return 0;
	for (i = 0; i < LEN(shape); i++)
		if (strstr(msg, shape[i]) != NULL)
			return 0;
	return 1;
}

static void
nothing(void *arg, const char *ev, size_t len, const struct jmember *m,
    size_t nm)
{
	(void)arg, (void)ev, (void)len, (void)m, (void)nm;
}

/* The grammar as jscan checks it, against the reader's result r. */
static void
grammarcheck(const struct result *r, const uint8_t *data, size_t size)
{
	static struct jscan j;
	int rc;

	jscan_init(&j, 0, nothing, NULL);
	rc = jscan_feed(&j, (const char *)data, size);
	if (rc == 0)
		rc = jscan_end(&j);
	if (grammar(j.err) && grammar(r->err)) {
		CHECK(strcmp(j.err, r->err) == 0);
		CHECK(j.erroff == r->erroff);
	} else if (grammar(j.err)) {
		/* the reader stopped before, for its own reason */
		CHECK(r->err != NULL && r->erroff <= j.erroff);
	} else if (grammar(r->err)) {
		/* jscan stopped before (no grammar error of its own) */
		CHECK(j.err != NULL && j.erroff <= r->erroff);
	}
	jscan_free(&j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t limits[] = { 0, 40 };
	struct result whole, part;
	size_t i;

	for (i = 0; i < LEN(limits); i++) {
		scan(&whole, data, size, limits[i], size ? size : 1);
		scan(&part, data, size, limits[i], 0);
		same(&whole, &part);
		if (size <= 4096) {
			scan(&part, data, size, limits[i], 1);
			same(&whole, &part);
		}
		if (i == 0)
			grammarcheck(&whole, data, size);
	}
	return 0;
}
