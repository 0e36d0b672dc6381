/* See LICENSE file for copyright and license details. */
/*
 * Cells as Python writes them.  TraceLens puts shapes, types and
 * kernel lists into its sheets as Python objects, and pandas writes
 * their repr(): ((768,), ()) for a tuple, [[4, 197, 768], []] for a
 * list, 'c10::BFloat16' for a string.  A tl CSV must hold the same text.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl.h"

/* As deep as tl-parse lets a value nest (JSCAN_MAXDEPTH): all of it. */
#define PYLIT_DEPTH 1024

/* A cursor over JSON text. */
struct jcur {
	const char *p;		/* next byte */
	const char *end;	/* one past the last byte */
};

static void
skipws(struct jcur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' ||
	    *c->p == '\n' || *c->p == '\r'))
		c->p++;
}

static int
hex4(const char *p, unsigned *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		char h = p[i];

		*v <<= 4;
		if (h >= '0' && h <= '9')
			*v |= (unsigned)(h - '0');
		else if (h >= 'a' && h <= 'f')
			*v |= (unsigned)(h - 'a' + 10);
		else if (h >= 'A' && h <= 'F')
			*v |= (unsigned)(h - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

int
json_unescape(struct buf *out, const char *s, size_t n)
{
	const char *p = s, *end = s + n;
	unsigned cp, lo;

	buf_add(out, "", 0);
	while (p < end) {
		if (*p != '\\') {
			buf_addc(out, *p++);
			continue;
		}
		if (++p >= end)
			return -1;
		switch (*p++) {
		case '"': buf_addc(out, '"'); break;
		case '\\': buf_addc(out, '\\'); break;
		case '/': buf_addc(out, '/'); break;
		case 'b': buf_addc(out, '\b'); break;
		case 'f': buf_addc(out, '\f'); break;
		case 'n': buf_addc(out, '\n'); break;
		case 'r': buf_addc(out, '\r'); break;
		case 't': buf_addc(out, '\t'); break;
		case 'u':
			if (end - p < 4 || hex4(p, &cp) < 0)
				return -1;
			p += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && end - p >= 6 &&
			    p[0] == '\\' && p[1] == 'u' &&
			    hex4(p + 2, &lo) == 0 && lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				p += 6;
			}
			buf_addcp(out, cp);
			break;
		default:
			return -1;
		}
	}
	return 0;
}

/* Decode the JSON string at c->p (at its opening quote) into out. */
static int
jstring(struct jcur *c, struct buf *out)
{
	const char *start = ++c->p;

	while (c->p < c->end && *c->p != '"')
		c->p += *c->p == '\\' ? 2 : 1;
	if (c->p >= c->end)
		return -1;
	c->p++;
	return json_unescape(out, start, (size_t)(c->p - 1 - start));
}

/* Decode one UTF-8 sequence at s; returns its length (1 on bad bytes). */
static size_t
utf8dec(const unsigned char *s, size_t n, unsigned *cp)
{
	if (s[0] < 0x80 || n < 2) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0) {
		*cp = (unsigned)(s[0] & 0x1f) << 6 | (s[1] & 0x3f);
		return 2;
	}
	if ((s[0] & 0xf0) == 0xe0 && n >= 3) {
		*cp = (unsigned)(s[0] & 0x0f) << 12 |
		    (unsigned)(s[1] & 0x3f) << 6 | (s[2] & 0x3f);
		return 3;
	}
	if ((s[0] & 0xf8) == 0xf0 && n >= 4) {
		*cp = (unsigned)(s[0] & 0x07) << 18 | (unsigned)(s[1] & 0x3f) << 12 |
		    (unsigned)(s[2] & 0x3f) << 6 | (s[3] & 0x3f);
		return 4;
	}
	*cp = s[0];
	return 1;
}

/* Code points repr() escapes although they are not ASCII controls. */
static int
unprintable(unsigned cp)
{
	return (cp >= 0x80 && cp <= 0xa0) || cp == 0xad ||
	    (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202e) ||
	    (cp >= 0x2060 && cp <= 0x2064) || cp == 0xfeff ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp == 0x3000 ||
	    (cp >= 0x2000 && cp <= 0x200a);
}

void
pystr(struct buf *b, const char *s, size_t len)
{
	char q = '\'', esc[16];
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;
	unsigned cp;

	if (memchr(s, '\'', len) && !memchr(s, '"', len))
		q = '"';
	buf_addc(b, q);
	while (i < len) {
		n = utf8dec(p + i, len - i, &cp);
		if (cp == '\\' || cp == (unsigned char)q) {
			buf_addc(b, '\\');
			buf_addc(b, (char)cp);
		} else if (cp == '\t') {
			buf_adds(b, "\\t");
		} else if (cp == '\n') {
			buf_adds(b, "\\n");
		} else if (cp == '\r') {
			buf_adds(b, "\\r");
		} else if (cp < 0x20 || cp == 0x7f || (n > 1 && unprintable(cp))) {
			if (cp < 0x100)
				snprintf(esc, sizeof(esc), "\\x%02x", cp);
			else
				snprintf(esc, sizeof(esc), "\\u%04x", cp);
			buf_adds(b, esc);
		} else {
			buf_add(b, s + i, n);
		}
		i += n;
	}
	buf_addc(b, q);
}

/*
 * s[0..len) is an integer as %lld writes it (no sign but "-", no
 * leading zero, no "-0"; 18 digits at most: no overflow): it is
 * its own repr, copied as it is.
 */
static int
plainint(const char *s, size_t len)
{
	size_t i = s[0] == '-';

	if (len - i == 0 || len - i > 18 || (s[i] == '0' && len - i > 1) ||
	    (i == 1 && s[1] == '0'))
		return 0;
	for (; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

static int
value(struct jcur *c, struct buf *b, int tuples, int depth)
{
	struct buf tmp = {0};
	const char *start;
	char num[40], open, close;
	size_t nitems;
	double d;
	int rc;

	skipws(c);
	if (c->p >= c->end || depth > PYLIT_DEPTH)
		return -1;
	switch (*c->p) {
	case '[':
	case '{':
		open = *c->p;
		close = open == '[' ? ']' : '}';
		c->p++;
		buf_addc(b, open == '{' ? '{' : tuples ? '(' : '[');
		for (nitems = 0;; nitems++) {
			skipws(c);
			if (c->p < c->end && *c->p == close && nitems == 0)
				break;
			if (nitems > 0)
				buf_adds(b, ", ");
			if (open == '{') {
				skipws(c);
				if (c->p >= c->end || *c->p != '"' ||
				    value(c, b, tuples, depth + 1) < 0)
					return -1;
				skipws(c);
				if (c->p >= c->end || *c->p++ != ':')
					return -1;
				buf_adds(b, ": ");
			}
			if (value(c, b, tuples, depth + 1) < 0)
				return -1;
			skipws(c);
			if (c->p < c->end && *c->p == ',') {
				c->p++;
				continue;
			}
			nitems++;
			break;
		}
		if (c->p >= c->end || *c->p++ != close)
			return -1;
		if (open == '[' && tuples && nitems == 1)
			buf_addc(b, ',');
		buf_addc(b, open == '{' ? '}' : tuples ? ')' : ']');
		return 0;
	case '"':
		rc = jstring(c, &tmp);
		if (rc == 0)
			pystr(b, tmp.s ? tmp.s : "", tmp.len);
		buf_free(&tmp);
		return rc;
	case 't':
		if (c->end - c->p < 4 || memcmp(c->p, "true", 4) != 0)
			return -1;
		c->p += 4;
		buf_adds(b, "True");
		return 0;
	case 'f':
		if (c->end - c->p < 5 || memcmp(c->p, "false", 5) != 0)
			return -1;
		c->p += 5;
		buf_adds(b, "False");
		return 0;
	case 'n':
		if (c->end - c->p < 4 || memcmp(c->p, "null", 4) != 0)
			return -1;
		c->p += 4;
		buf_adds(b, "None");
		return 0;
	default:
		start = c->p;
		while (c->p < c->end && strchr("+-0123456789.eE", *c->p))
			c->p++;
		if (c->p == start)
			return -1;
		if (memchr(start, '.', (size_t)(c->p - start)) ||
		    memchr(start, 'e', (size_t)(c->p - start)) ||
		    memchr(start, 'E', (size_t)(c->p - start))) {
			if (num_double(start, (size_t)(c->p - start), &d) < 0)
				return -1;
			buf_adds(b, num_pyrepr(d, num, sizeof(num)));
		} else if (plainint(start, (size_t)(c->p - start)))
			buf_add(b, start, (size_t)(c->p - start));
		else {
			int64_t v;

			if (num_int64(start, (size_t)(c->p - start), &v) < 0)
				buf_add(b, start, (size_t)(c->p - start));
			else {
				buf_adds(b, num_lld(v, num + sizeof(num)));
			}
		}
		return 0;
	}
}

int
pylit(struct buf *b, const char *json, size_t len, int tuples)
{
	struct jcur c = { json, json + len };

	if (value(&c, b, tuples, 0) < 0)
		return -1;
	skipws(&c);
	return c.p == c.end ? 0 : -1;
}

void
pylit_field(struct buf *b, const char *s, size_t len)
{
	struct buf lit = {0};
	char *t = tl_strndup(s, len);
	size_t n = rec_unescape(t, len);
	struct jcur c = { t, t + n };

	/* a str is its text in a CSV cell, not its repr() */
	if (n >= 2 && t[0] == '"' && jstring(&c, &lit) == 0 && c.p == c.end) {
		rec_bput(b, lit.s ? lit.s : "", lit.len);
		buf_free(&lit);
		free(t);
		return;
	}
	buf_reset(&lit);
	if (pylit(&lit, t, n, 1) < 0) {
		buf_reset(&lit);
		buf_add(&lit, t, n);
	} else if (lit.len == 4 && memcmp(lit.s, "None", 4) == 0)
		buf_reset(&lit);	/* a null arg is None: pandas writes an empty cell */
	rec_bput(b, lit.s ? lit.s : "", lit.len);
	buf_free(&lit);
	free(t);
}

/* ---- JSON out: the kernel lists TraceLens keeps as lists of dicts ---- */

/*
 * s[0..len) as a JSON string: quote and backslash escaped, the other
 * bytes below 0x20 as \u00XX, or with py as Python's json module
 * writes \b \f \n \r \t.
 */
static void
jstr(struct buf *b, const char *s, size_t len, int py)
{
	size_t i, run;
	char u[8];

	buf_addc(b, '"');
	for (i = run = 0; i < len; i++) {
		unsigned char c;
		const char *e = NULL;

		i += plainrun(s + i, len - i, '"');
		if (i == len)
			break;
		c = (unsigned char)s[i];
		if (c != '"' && c != '\\' && c >= 0x20)
			continue;
		/* (the bytes that need no escape go in runs) */
		buf_add(b, s + run, i - run);
		run = i + 1;
		switch (py ? c : 0) {
		case '\b': e = "\\b"; break;
		case '\f': e = "\\f"; break;
		case '\n': e = "\\n"; break;
		case '\r': e = "\\r"; break;
		case '\t': e = "\\t"; break;
		}
		if (e != NULL) {
			buf_adds(b, e);
		} else if (c < 0x20) {
			snprintf(u, sizeof(u), "\\u%04x", c);
			buf_adds(b, u);
		} else {
			buf_addc(b, '\\');
			buf_addc(b, (char)c);
		}
	}
	buf_add(b, s + run, len - run);
	buf_addc(b, '"');
}

void
json_str(struct buf *b, const char *s, size_t len)
{
	jstr(b, s, len, 0);
}

void
json_pystr(struct buf *b, const char *s, size_t len)
{
	jstr(b, s, len, 1);
}

void
json_val(struct buf *b, const char *s, size_t len)
{
	double d;
	char *t;
	size_t n;

	if (len == 0) {
		buf_adds(b, "null");
		return;
	}
	if (num_double(s, len, &d) == 0 && (s[0] == '-' ||
	    (s[0] >= '0' && s[0] <= '9')) && isfinite(d)) {
		buf_add(b, s, len);
		return;
	}
	/* (a field without escapes is its own text) */
	if (memchr(s, '\\', len) == NULL) {
		json_str(b, s, len);
		return;
	}
	t = tl_strndup(s, len);
	n = rec_unescape(t, len);
	json_str(b, t, n);
	free(t);
}

