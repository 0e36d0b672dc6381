/* See LICENSE file for copyright and license details. */
/*
 * The event scanner of jscan.h.  It is a resumable state machine: each
 * state is a label, and when a chunk runs out the label to resume at
 * is saved in s->state.  Strings, the bulk of a trace, are skipped 16
 * bytes at a time (SSE2) up to the next quote, backslash, control
 * byte or non-ASCII byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "jscan.h"
#include "tl.h"

/* Resume points (s->state). */
enum {
	S_VALUE, S_OBJFIRST, S_KEY, S_COLON, S_ARRFIRST, S_AFTER, S_DONE,
	S_STR, S_ESC, S_UHEX, S_SURR1, S_SURR2, S_UTF8, S_NUM, S_LIT, S_ERR
};

/* Steps inside a number (s->sub). */
enum { N_MINUS, N_ZERO, N_INT, N_DOT, N_FRAC, N_E, N_ESIGN, N_EXP };

/* Byte classes. */
enum {
	C_WS = 1,	/* JSON whitespace */
	C_STOP = 2,	/* ends a run of plain string bytes */
	C_DIGIT = 4,	/* 0-9 */
	C_DELIM = 8	/* may follow a number or literal */
};

/* The classes of each byte, or-ed (JSON whitespace is 9 10 13 32). */
static const unsigned char cls[256] = {
	2, 2, 2, 2, 2, 2, 2, 2, 2, 11, 11, 2, 2, 11, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	9, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 8, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
};

/* The first byte in [p, end) that is not plain string text, or end. */
static inline const unsigned char *
strscan(const unsigned char *p, const unsigned char *end)
{
#ifdef __SSE2__
	const __m128i quote = _mm_set1_epi8('"');
	const __m128i bslash = _mm_set1_epi8('\\');
	const __m128i space = _mm_set1_epi8(0x20);
	__m128i v, m;
	int bits;

	while (end - p >= 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)p);
		/* Signed compare: bytes >= 0x80 are negative, so < 0x20 too. */
		m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote),
		    _mm_cmpeq_epi8(v, bslash)), _mm_cmplt_epi8(v, space));
		if ((bits = _mm_movemask_epi8(m)) != 0)
			return p + __builtin_ctz((unsigned)bits);
		p += 16;
	}
#endif
	while (p < end && !(cls[*p] & C_STOP))
		p++;
	return p;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

void
jscan_init(struct jscan *s, size_t maxevent, jscan_fn *fn, void *arg)
{
	struct jscan keep = *s;

	/* Keep the buffers of a scanner used before. */
	memset(s, 0, sizeof(*s));
	s->evbuf = keep.evbuf;
	s->evcap = keep.evcap;
	s->mem = keep.mem;
	s->memcap = keep.memcap;
	s->maxevent = maxevent ? maxevent : JSCAN_MAXEVENT;
	s->onevent = fn;
	s->arg = arg;
	s->state = S_VALUE;
}

void
jscan_free(struct jscan *s)
{
	free(s->evbuf);
	free(s->mem);
	s->evbuf = NULL;
	s->mem = NULL;
	s->evcap = s->evlen = s->memcap = s->nmem = 0;
}

static void
evadd(struct jscan *s, const unsigned char *p, size_t n)
{
	tl_grow((void **)&s->evbuf, &s->evcap, s->evlen + n, 1);
	memcpy(s->evbuf + s->evlen, p, n);
	s->evlen += n;
}

static void
keyadd(struct jscan *s, const unsigned char *p, size_t n)
{
	if (s->keylen < sizeof(s->key))
		memcpy(s->key + s->keylen, p, MIN(n, sizeof(s->key) - s->keylen));
	s->keylen += n;
}

/* Is the top-level key just read traceEvents (however it is escaped)? */
static int
iseventskey(const struct jscan *s)
{
	char k[sizeof(s->key)];
	size_t n;

	if (s->keylen > sizeof(s->key))
		return 0;
	n = jstr_decode(k, s->key, s->keylen);
	return n == 11 && memcmp(k, "traceEvents", 11) == 0;
}

/* Offset of p in the current event. */
#define EVPOS(p) ((uint32_t)(s->evlen + (size_t)((p) - seg)))
/* Does a value at this depth belong to a member? */
#define RECVAL() (s->inev && (s->depth == s->evdepth + 1 || \
	(s->depth == s->evdepth + 2 && s->kind[s->evdepth + 1] == '{')))
#define NEED(st) do { if (p == end) { s->state = (st); goto more; } } while (0)
#define FAIL(msg) do { s->err = (msg); goto fail; } while (0)
#define SKIPWS() do { while (p < end && (cls[*p] & C_WS)) p++; } while (0)
#define PUSH(k) do { \
	if (s->depth == JSCAN_MAXDEPTH) \
		FAIL("nesting deeper than 1024 levels"); \
	s->kind[s->depth++] = (k); \
} while (0)

int
jscan_feed(struct jscan *s, const char *buf, size_t n)
{
	const unsigned char *p = (const unsigned char *)buf, *base = p;
	const unsigned char *cend = p + n;	/* end of the chunk */
	const unsigned char *end;	/* end of the chunk or of the event's room */
	const unsigned char *seg = p;	/* the current event's bytes start here */
	const unsigned char *kseg = p;	/* the current top-level key starts here */
	struct jmember *m;
	int c, v, rec;

	if (s->err)
		return -1;
	end = cend;
	if (s->inev && (size_t)(cend - p) > s->maxevent - s->evlen)
		end = p + (s->maxevent - s->evlen);

	switch (s->state) {
	case S_VALUE: goto value;
	case S_OBJFIRST: goto objfirst;
	case S_KEY: goto key;
	case S_COLON: goto colon;
	case S_ARRFIRST: goto arrfirst;
	case S_AFTER: goto after;
	case S_DONE: goto done;
	case S_STR: goto str;
	case S_ESC: goto esc;
	case S_UHEX: goto uhex;
	case S_SURR1: goto surr1;
	case S_SURR2: goto surr2;
	case S_UTF8: goto utf8cont;
	case S_NUM: goto num;
	case S_LIT: goto lit;
	default: return -1;
	}

value:
	SKIPWS();
	NEED(S_VALUE);
	c = *p;
	if (s->evdepth != 0 && s->depth == s->evdepth) {
		if (c != '{')
			FAIL(strchr("[\"-0123456789tfn", c) && c != '\0' ?
			    "event is not an object" : "expected a value");
		s->inev = 1;
		s->evlen = 0;
		s->nmem = 0;
		s->cur1 = -1;
		seg = p;
		if ((size_t)(cend - p) > s->maxevent)
			end = p + s->maxevent;
	} else if (s->depth == 0) {
		if (c != '{' && c != '[')
			FAIL("not a JSON object or array");
		s->top = c;
	} else if (s->wantev && c != '[') {
		FAIL("traceEvents is not an array");
	}
	m = NULL;
	if ((rec = RECVAL())) {
		m = &s->mem[s->nmem - 1];
		m->val = EVPOS(p);
		m->type = (char)(c == '{' || c == '[' || c == '"' ? c :
		    c == 't' || c == 'f' || c == 'n' ? 't' : '0');
	}
	switch (c) {
	case '{':
		PUSH('{');
		p++;
		goto objfirst;
	case '[':
		PUSH('[');
		p++;
		if (s->wantev || s->depth == 1) {
			/* The events array: traceEvents's, or a bare array. */
			s->wantev = 0;
			s->seenev = 1;
			s->evdepth = s->depth;
			s->lastend = s->off + (uint64_t)(p - base);
		}
		goto arrfirst;
	case '"':
		p++;
		if (m)
			m->val++;
		s->iskey = s->topkey = 0;
		s->strrec = rec;
		s->stresc = 0;
		goto str;
	case '-':
		p++;
		s->sub = N_MINUS;
		goto num;
	case '0':
		p++;
		s->sub = N_ZERO;
		goto num;
	case 't':
		s->lit = "true";
		goto litstart;
	case 'f':
		s->lit = "false";
		goto litstart;
	case 'n':
		s->lit = "null";
		goto litstart;
	default:
		if (cls[c] & C_DIGIT) {
			p++;
			s->sub = N_INT;
			goto num;
		}
		FAIL("expected a value");
	}

objfirst:
	SKIPWS();
	NEED(S_OBJFIRST);
	if (*p == '}') {
		p++;
		goto close;
	}
	if (*p != '"')
		FAIL("expected a string key or '}'");
	goto keystart;

key:
	SKIPWS();
	NEED(S_KEY);
	if (*p != '"')
		FAIL("expected a string key");
keystart:
	p++;
	s->strrec = s->inev && (s->depth == s->evdepth + 1 ||
	    s->depth == s->evdepth + 2);
	s->stresc = 0;
	if (s->strrec) {
		if (s->nmem == JSCAN_MAXMEMBERS)
			FAIL("event has more than 1048576 keys");
		if (s->nmem == s->memcap)
			tl_grow((void **)&s->mem, &s->memcap, s->nmem + 1,
			    sizeof(*s->mem));
		m = &s->mem[s->nmem++];
		memset(m, 0, sizeof(*m));
		m->key = EVPOS(p);
		m->parent = -1;
		if (s->depth == s->evdepth + 1)
			s->cur1 = (int)s->nmem - 1;
		else
			m->parent = s->cur1;
	}
	s->iskey = 1;
	s->topkey = s->depth == 1 && s->top == '{';
	s->keylen = 0;
	kseg = p;
	goto str;

colon:
	SKIPWS();
	NEED(S_COLON);
	if (*p != ':')
		FAIL("expected ':'");
	p++;
	goto value;

arrfirst:
	SKIPWS();
	NEED(S_ARRFIRST);
	if (*p == ']') {
		p++;
		goto close;
	}
	goto value;

after:
	if (s->depth == 0)
		goto done;
	SKIPWS();
	NEED(S_AFTER);
	c = *p;
	if (c == ',') {
		p++;
		if (s->kind[s->depth - 1] == '{')
			goto key;
		goto value;
	}
	if (c == '}' && s->kind[s->depth - 1] == '{') {
		p++;
		goto close;
	}
	if (c == ']' && s->kind[s->depth - 1] == '[') {
		p++;
		goto close;
	}
	FAIL(s->kind[s->depth - 1] == '{' ? "expected ',' or '}'" :
	    "expected ',' or ']'");

close:	/* p is past the closing bracket */
	s->depth--;
	if (s->inev && s->depth == s->evdepth) {
		s->inev = 0;
		end = cend;
		if (s->evlen == 0) {
			s->onevent(s->arg, (const char *)seg, (size_t)(p - seg),
			    s->mem, s->nmem);
		} else {
			evadd(s, seg, (size_t)(p - seg));
			s->onevent(s->arg, s->evbuf, s->evlen, s->mem, s->nmem);
			s->evlen = 0;
		}
		s->nevent++;
		s->lastend = s->off + (uint64_t)(p - base);
	} else if (s->inev) {
		/* The end of a member's object or array value. */
		if (s->depth == s->evdepth + 1)
			m = &s->mem[s->cur1];
		else if (RECVAL())
			m = &s->mem[s->nmem - 1];
		else
			goto after;
		m->vallen = EVPOS(p) - m->val;
	} else if (s->depth + 1 == s->evdepth) {
		s->evdepth = 0;
	} else if (s->depth == 0 && s->top == '{' && !s->seenev) {
		p--;
		FAIL("no traceEvents array");
	}
	goto after;

done:
	SKIPWS();
	NEED(S_DONE);
	FAIL("text after the end of the JSON value");

str:
	p = strscan(p, end);
	NEED(S_STR);
	c = *p;
	if (c == '"') {
		p++;
		goto strend;
	}
	if (c == '\\') {
		p++;
		goto esc;
	}
	if (c < 0x20)
		FAIL("control character in string");
	/* The first byte of a UTF-8 sequence: RFC 3629's table. */
	s->lo = 0x80;
	s->hi = 0xbf;
	if (c >= 0xc2 && c <= 0xdf) {
		s->need = 1;
	} else if (c >= 0xe0 && c <= 0xef) {
		s->need = 2;
		if (c == 0xe0)
			s->lo = 0xa0;
		else if (c == 0xed)
			s->hi = 0x9f;	/* no surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		s->need = 3;
		if (c == 0xf0)
			s->lo = 0x90;
		else if (c == 0xf4)
			s->hi = 0x8f;
	} else {
		FAIL("invalid UTF-8 in string");
	}
	p++;
utf8cont:
	while (s->need > 0) {
		NEED(S_UTF8);
		if (*p < s->lo || *p > s->hi)
			FAIL("invalid UTF-8 in string");
		s->lo = 0x80;
		s->hi = 0xbf;
		s->need--;
		p++;
	}
	goto str;

esc:
	NEED(S_ESC);
	switch (*p) {
	case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r':
	case 't':
		p++;
		s->stresc = 1;
		goto str;
	case 'u':
		s->stresc = 1;
		p++;
		s->sub = 0;
		s->hex = 0;
		goto uhex;
	default:
		FAIL("invalid escape in string");
	}

uhex:
	while (s->sub < 4) {
		NEED(S_UHEX);
		if ((v = hexval(*p)) < 0)
			FAIL("invalid \\u escape in string");
		s->hex = s->hex << 4 | (unsigned)v;
		s->sub++;
		p++;
	}
	if (s->hisurr) {
		if (s->hex < 0xdc00 || s->hex > 0xdfff)
			FAIL("unpaired surrogate in \\u escape");
		s->hisurr = 0;
		goto str;
	}
	if (s->hex >= 0xdc00 && s->hex <= 0xdfff)
		FAIL("unpaired surrogate in \\u escape");
	if (s->hex < 0xd800 || s->hex > 0xdbff)
		goto str;
	s->hisurr = 1;
surr1:
	NEED(S_SURR1);
	if (*p != '\\')
		FAIL("unpaired surrogate in \\u escape");
	p++;
surr2:
	NEED(S_SURR2);
	if (*p != 'u')
		FAIL("unpaired surrogate in \\u escape");
	p++;
	s->sub = 0;
	s->hex = 0;
	goto uhex;

strend:
	if (s->strrec) {
		m = &s->mem[s->nmem - 1];
		if (s->iskey) {
			m->keylen = EVPOS(p - 1) - m->key;
			m->esc = (char)(s->stresc ? JM_KEYESC : 0);
		} else {
			m->vallen = EVPOS(p - 1) - m->val;
			m->esc |= (char)(s->stresc ? JM_VALESC : 0);
		}
	}
	if (!s->iskey)
		goto after;
	if (s->topkey) {
		keyadd(s, kseg, (size_t)(p - 1 - kseg));
		if (iseventskey(s)) {
			if (s->seenev)
				FAIL("more than one traceEvents");
			s->wantev = 1;
		}
	}
	goto colon;

num:
	switch (s->sub) {
	case N_MINUS: goto nminus;
	case N_ZERO: goto nzero;
	case N_INT: goto nint;
	case N_DOT: goto ndot;
	case N_FRAC: goto nfrac;
	case N_E: goto ne;
	case N_ESIGN: goto nesign;
	default: goto nexp;
	}
nminus:
	NEED(S_NUM);
	if (*p == '0') {
		p++;
		s->sub = N_ZERO;
		goto nzero;
	}
	if (!(cls[*p] & C_DIGIT))
		FAIL("invalid number");
	p++;
	s->sub = N_INT;
nint:
	while (p < end && (cls[*p] & C_DIGIT))
		p++;
nzero:
	NEED(S_NUM);
	if (*p == '.') {
		p++;
		s->sub = N_DOT;
		goto ndot;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		s->sub = N_E;
		goto ne;
	}
	goto nend;
ndot:
	NEED(S_NUM);
	if (!(cls[*p] & C_DIGIT))
		FAIL("invalid number");
	p++;
	s->sub = N_FRAC;
nfrac:
	while (p < end && (cls[*p] & C_DIGIT))
		p++;
	NEED(S_NUM);
	if (*p == 'e' || *p == 'E') {
		p++;
		s->sub = N_E;
		goto ne;
	}
	goto nend;
ne:
	NEED(S_NUM);
	if (*p == '+' || *p == '-') {
		p++;
		s->sub = N_ESIGN;
		goto nesign;
	}
	if (!(cls[*p] & C_DIGIT))
		FAIL("invalid number");
	p++;
	s->sub = N_EXP;
	goto nexp;
nesign:
	NEED(S_NUM);
	if (!(cls[*p] & C_DIGIT))
		FAIL("invalid number");
	p++;
	s->sub = N_EXP;
nexp:
	while (p < end && (cls[*p] & C_DIGIT))
		p++;
	NEED(S_NUM);
nend:
	if (!(cls[*p] & C_DELIM))
		FAIL("invalid number");
scalarend:
	if (RECVAL()) {
		m = &s->mem[s->nmem - 1];
		m->vallen = EVPOS(p) - m->val;
	}
	goto after;

litstart:
	p++;
	s->sub = 1;
lit:
	while (s->lit[s->sub] != '\0') {
		NEED(S_LIT);
		if (*p != (unsigned char)s->lit[s->sub])
			FAIL("invalid literal");
		p++;
		s->sub++;
	}
	NEED(S_LIT);
	if (!(cls[*p] & C_DELIM))
		FAIL("invalid literal");
	goto scalarend;

more:
	if (end != cend) {
		snprintf(s->errbuf, sizeof(s->errbuf),
		    "event longer than %zu bytes", s->maxevent);
		s->err = s->errbuf;
		goto fail;
	}
	if (s->inev)
		evadd(s, seg, (size_t)(cend - seg));
	if (s->state >= S_STR && s->state <= S_UTF8 && s->topkey)
		keyadd(s, kseg, (size_t)(cend - kseg));
	s->off += n;
	return 0;

fail:
	s->erroff = s->off + (uint64_t)(p - base);
	s->errinev = s->evdepth != 0;
	s->state = S_ERR;
	return -1;
}

int
jscan_end(struct jscan *s)
{
	if (s->err)
		return -1;
	if (s->state == S_DONE)
		return 0;
	s->erroff = s->off;
	s->errinev = s->evdepth != 0;
	if (s->state == S_VALUE && s->depth == 0) {
		s->err = "no JSON text (empty input)";
	} else {
		s->err = "unexpected end of input (truncated?)";
		s->truncated = 1;
	}
	s->state = S_ERR;
	return -1;
}

/* ---- one event: tokens and rendering ---- */

static unsigned
hex4(const char *s)
{
	return (unsigned)(hexval(s[0]) << 12 | hexval(s[1]) << 8 |
	    hexval(s[2]) << 4 | hexval(s[3]));
}

/* Append code point cp as UTF-8, escaped for tl(7) when tsv is set. */
static char *
putcp(char *w, unsigned cp, int tsv)
{
	if (tsv && (cp == '\t' || cp == '\n' || cp == '\r' || cp == 0 ||
	    cp == '\\')) {
		*w++ = '\\';
		*w++ = cp == '\t' ? 't' : cp == '\n' ? 'n' : cp == '\r' ? 'r' :
		    cp == 0 ? '0' : '\\';
	} else if (cp < 0x80) {
		*w++ = (char)cp;
	} else if (cp < 0x800) {
		*w++ = (char)(0xc0 | cp >> 6);
		*w++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*w++ = (char)(0xe0 | cp >> 12);
		*w++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*w++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*w++ = (char)(0xf0 | cp >> 18);
		*w++ = (char)(0x80 | (cp >> 12 & 0x3f));
		*w++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*w++ = (char)(0x80 | (cp & 0x3f));
	}
	return w;
}

/*
 * Decode a valid JSON string body.  Every escape shrinks or keeps its
 * length (\u0000 is 6 bytes, its tl(7) form 2), so out needs n bytes.
 */
static size_t
decode(char *out, const char *s, size_t n, int tsv)
{
	const char *end = s + n, *q;
	char *w = out;
	unsigned cp;

	while ((q = memchr(s, '\\', (size_t)(end - s))) != NULL) {
		memcpy(w, s, (size_t)(q - s));
		w += q - s;
		s = q + 2;
		switch (q[1]) {
		case 'b': cp = '\b'; break;
		case 'f': cp = '\f'; break;
		case 'n': cp = '\n'; break;
		case 'r': cp = '\r'; break;
		case 't': cp = '\t'; break;
		case 'u':
			cp = hex4(q + 2);
			s = q + 6;
			if (cp >= 0xd800 && cp <= 0xdbff) {
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				    (hex4(q + 8) - 0xdc00);
				s = q + 12;
			}
			break;
		default: cp = (unsigned char)q[1]; break;
		}
		w = putcp(w, cp, tsv);
	}
	memcpy(w, s, (size_t)(end - s));
	w += end - s;
	return (size_t)(w - out);
}

size_t
jstr_tsv(char *out, const char *s, size_t n)
{
	return decode(out, s, n, 1);
}

size_t
jstr_decode(char *out, const char *s, size_t n)
{
	return decode(out, s, n, 0);
}

size_t
jval_tsv(char *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n, *q;
	char *w = out;
	int c;

	while (p < end) {
		c = *p++;
		switch (c) {
		case ' ': case '\t': case '\n': case '\r':
			break;
		case '"':
			*w++ = (char)c;
			/* Copy the string; the only byte to escape is '\\'. */
			for (;;) {
				q = strscan(p, end);
				memcpy(w, p, (size_t)(q - p));
				w += q - p;
				p = q + 1;
				if ((c = *q) == '"')
					break;
				*w++ = (char)c;
				if (c == '\\') {
					*w++ = '\\';
					if ((c = *p++) == '\\') {
						*w++ = '\\';
						*w++ = '\\';
					} else {
						*w++ = (char)c;
					}
				}
			}
			*w++ = '"';
			break;
		default:
			*w++ = (char)c;
			break;
		}
	}
	return (size_t)(w - out);
}
