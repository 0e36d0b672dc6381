/* See LICENSE file for copyright and license details. */
/*
 * libFuzzer target for the record reader and writer (common/rec.c),
 * built and run by tests/fuzz/run.  Any bytes are read as a tl(7)
 * record stream: the header, then every record.  A reader error
 * (tl_die) comes back here by longjmp, through the stand-ins for
 * util.c below, so one run can go on to the next input.  For each
 * input it checks that:
 * - the reader dies exactly when the stream is bad (no header, a last
 *   line without LF, CR before LF), naming that line;
 * - the fields of a record are the line cut at TAB, each one
 *   NUL-terminated at its length, and rec_get agrees, out of range too;
 * - rec_col finds every header name at its first column, and
 *   rec_check_width dies exactly when the width differs;
 * - rec_unescape never grows a field, and rec_put of the unescaped
 *   bytes writes no raw TAB, LF, CR or NUL and unescapes back to them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"

#define CHECK(c) do { if (!(c)) { \
	fprintf(stderr, "fuzz_rec: %s:%d: check failed: %s\n", \
	    __FILE__, __LINE__, #c); abort(); } } while (0)

/* Where tl_die returns to, and what it said. */
static jmp_buf died;
static char why[256];

/* ---- stand-ins for the util.c functions rec.c calls ---- */

void
tl_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	longjmp(died, 1);
}

void *
tl_realloc(void *p, size_t n)
{
	if ((p = realloc(p, n ? n : 1)) == NULL)
		tl_die("out of memory");
	return p;
}

void *
tl_malloc(size_t n)
{
	return tl_realloc(NULL, n);
}

void *
tl_calloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		tl_die("out of memory");
	return p;
}

void
tl_grow(void **p, size_t *cap, size_t need, size_t sz)
{
	size_t n = *cap ? *cap : 16;

	if (need <= *cap)
		return;
	while (n < need)
		n *= 2;
	*p = tl_realloc(*p, n * sz);
	*cap = n;
}

char *
tl_strndup(const char *s, size_t n)
{
	char *p = tl_malloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* ---- the checks ---- */

/* Escape s[0..n) with rec_put and unescape it again. */
static void
roundtrip(const char *s, size_t n)
{
	char *out = NULL;
	size_t len = 0, i;
	FILE *fp = open_memstream(&out, &len);

	CHECK(fp != NULL);
	rec_put(fp, s, n);
	CHECK(fclose(fp) == 0);
	for (i = 0; i < len; i++)
		CHECK(out[i] != '\t' && out[i] != '\n' && out[i] != '\r' &&
		    out[i] != '\0');
	CHECK(rec_unescape(out, len) == n && memcmp(out, s, n) == 0);
	free(out);
}

/* Record r's fields against the line data[off..off+n) it came from. */
static void
fields(const struct rec_reader *r, const uint8_t *line, size_t n)
{
	size_t i, at = 0, len;
	const char *s;
	char *copy;

	CHECK(r->nf >= 1);
	for (i = 0; i < r->nf; i++) {
		s = rec_get(r, (int)i, &len);
		CHECK(s == r->f[i].s && len == r->f[i].len);
		CHECK(s[len] == '\0');
		CHECK(at + len <= n && memcmp(s, line + at, len) == 0);
		CHECK(memchr(s, '\t', len) == NULL);
		at += len;
		CHECK(i + 1 == r->nf ? at == n : line[at] == '\t');
		at++;
		copy = tl_strndup(s, len);
		len = rec_unescape(copy, len);
		CHECK(len <= r->f[i].len);
		roundtrip(copy, len);
		free(copy);
	}
	CHECK(*rec_get(r, -1, &len) == '\0' && len == 0);
	CHECK(*rec_get(r, (int)r->nf, &len) == '\0' && len == 0);
}

/* What the reader must say about the line at data[off..): 0 if good. */
static int
badline(const uint8_t *data, size_t size, size_t off, size_t *n)
{
	const uint8_t *lf = memchr(data + off, '\n', size - off);

	if (lf == NULL)
		return 1;
	*n = (size_t)(lf - (data + off));
	return *n > 0 && data[off + *n - 1] == '\r' ? 2 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rec_reader r;	/* static: it lives across longjmp */
	static FILE *fp;
	static size_t off, lineno, n;
	static int bad, stage;
	char want[64];
	size_t i;
	int j;

	if (size == 0)
		return 0;
	CHECK((fp = fmemopen((void *)data, size, "r")) != NULL);
	rec_open(&r, fp, "fuzz");
	off = lineno = 0;
	stage = 0;
	if (setjmp(died)) {
		if (stage == 2) {
			/* a ragged record: named, and the next one is read */
			snprintf(want, sizeof(want), "fuzz: line %zu: %zu fields",
			    lineno, r.nf);
			CHECK(r.nf != r.nhdr && strncmp(why, want, strlen(want)) == 0);
			off += n + 1;
		} else {
			/* a bad line: it must be the one at off */
			CHECK(stage == 1 && off < size && bad != 0);
			snprintf(want, sizeof(want), "fuzz: line %zu: %s",
			    lineno + 1, bad == 1 ? "no newline" : "CR before LF");
			CHECK(strncmp(why, want, strlen(want)) == 0);
			rec_close(&r);
			fclose(fp);
			return 0;
		}
	} else {
		stage = 1;
		bad = badline(data, size, off, &n);
		rec_read_header(&r);
		CHECK(bad == 0 && r.lineno == 1 && r.nhdr == r.nf);
		off += n + 1;
		lineno = 1;
		for (i = 0; i < r.nhdr; i++) {
			CHECK(strlen(r.hdr[i]) <= r.f[i].len);
			j = rec_col(&r, r.hdr[i]);
			CHECK(j >= 0 && (size_t)j <= i &&
			    strcmp(r.hdr[j], r.hdr[i]) == 0);
		}
	}
	for (;;) {
		if (off < size)
			bad = badline(data, size, off, &n);
		stage = 1;
		if (!rec_read(&r))
			break;
		CHECK(off < size && bad == 0 && r.lineno == lineno + 1);
		lineno++;
		fields(&r, data + off, n);
		stage = 2;
		rec_check_width(&r);
		stage = 0;
		CHECK(r.nf == r.nhdr);
		off += n + 1;
	}
	CHECK(off == size);
	rec_close(&r);
	fclose(fp);
	return 0;
}
