/* See LICENSE file for copyright and license details. */
/*
 * The event scanner of jscan.h.  It is a resumable state machine: each
 * state is a label, and when a chunk runs out the label to resume at
 * is saved in s->state.  Strings, numbers and literals are lexed by
 * jlex.h, shared with rocprof.c, which skips strings 16 bytes at a time
 * (SSE2) up to the next quote, backslash, control byte or non-ASCII byte.
 *
 * At the start of each event the block scanner (fastevents) takes
 * over: it classifies the text 64 bytes at a time into bit masks (with
 * the classifiers of jblock.c) and visits only the bytes where the byte
 * scanner would stop, handing out whole events until it meets one it
 * cannot finish or vouch for.  That one the byte scanner scans again
 * from its start: every error and every event cut by a chunk's end is
 * the byte scanner's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "jblock.h"
#include "jlex.h"
#include "jscan.h"
#include "tl.h"
#ifdef HAVE_AVX2
#include <immintrin.h>
#endif

/* Resume points (s->state): S_STR and S_SCALAR resume a jlex_step. */
enum {
	S_VALUE, S_OBJFIRST, S_KEY, S_COLON, S_ARRFIRST, S_AFTER, S_DONE,
	S_STR, S_SCALAR, S_ERR
};

/* ---- events a block at a time ---- */

#define NONE ((size_t)-1)	/* no such offset */
#define FASTDEPTH 64		/* deepest nesting in an event scanned so */
#define DIGIT(c) ((unsigned)(c) - '0' < 10)
#define INLINE static inline __attribute__((always_inline))

/* Hex digits s[0..4) as a number, or more than 0xffff if not hex. */
static unsigned
hex4v(const unsigned char *s)
{
	unsigned v = 0;
	int i, h;

	for (i = 0; i < 4; i++) {
		if ((h = jlex_hexval(s[i])) < 0)
			return 0x10000;
		v = v << 4 | (unsigned)h;
	}
	return v;
}

/*
 * The end of the escape at t[k] ('\\'), or NONE if it is not valid; a
 * surrogate without its other half counts in *lone.
 */
static size_t
fastesc(const unsigned char *t, size_t k, size_t n, uint64_t *lone)
{
	unsigned u;

	if (n - k < 2)
		return NONE;
	switch (t[k + 1]) {
	case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r':
	case 't':
		return k + 2;
	case 'u':
		break;
	default:
		return NONE;
	}
	if (n - k < 6 || (u = hex4v(t + k + 2)) > 0xffff)
		return NONE;
	if (u < 0xd800 || u > 0xdfff)
		return k + 6;
	if (n - k < 12)
		return NONE;	/* the other half may be past the end */
	if (u < 0xdc00 && t[k + 6] == '\\' && t[k + 7] == 'u' &&
	    (u = hex4v(t + k + 8)) >= 0xdc00 && u <= 0xdfff)
		return k + 12;
	(*lone)++;
	return k + 6;
}

/* The end of the UTF-8 sequence at t[k], or NONE. */
static size_t
fastutf8(const unsigned char *t, size_t k, size_t n)
{
	int need, lo, hi;

	if ((need = jlex_utf8lead(t[k], &lo, &hi)) == 0)
		return NONE;
	if (n - k <= (size_t)need)
		return NONE;
	for (k++; need > 0; need--, k++) {
		if (t[k] < lo || t[k] > hi)
			return NONE;
		lo = 0x80;
		hi = 0xbf;
	}
	return k;
}

/* The end of the run of digits from t[k]. */
INLINE size_t
digits(const unsigned char *t, size_t k, size_t n)
{
#ifdef __SSE2__
	const __m128i lo = _mm_set1_epi8('0' - 1), hi = _mm_set1_epi8('9' + 1);
	__m128i v;
	unsigned m;

	while (n - k >= 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)(t + k));
		m = (unsigned)_mm_movemask_epi8(_mm_and_si128(
		    _mm_cmpgt_epi8(v, lo), _mm_cmplt_epi8(v, hi)));
		if (m != 0xffff)
			return k + (size_t)__builtin_ctz(~m);
		k += 16;
	}
#endif
	while (k < n && DIGIT(t[k]))
		k++;
	return k;
}

/*
 * The end of the number at t[k], if one whole number is there; *exp is
 * set if it has an exponent.
 */
INLINE size_t
fastnum(const unsigned char *t, size_t k, size_t n, int *exp)
{
	if (t[k] == '-' && ++k == n)
		return NONE;
	if (t[k] == '0')
		k++;
	else if (DIGIT(t[k]))
		k = digits(t, k + 1, n);
	else
		return NONE;
	if (k < n && t[k] == '.') {
		if (++k == n || !DIGIT(t[k]))
			return NONE;
		k = digits(t, k + 1, n);
	}
	if (k < n && (t[k] | 0x20) == 'e') {
		*exp = 1;
		if (++k < n && (t[k] == '+' || t[k] == '-'))
			k++;
		if (k >= n || !DIGIT(t[k]))
			return NONE;
		k = digits(t, k + 1, n);
	}
	return k < n && (jlex_cls[t[k]] & JL_DELIM) ? k : NONE;
}

/* The end of the literal at t[k] ('t', 'f' or 'n'), if it is one. */
INLINE size_t
fastlit(const unsigned char *t, size_t k, size_t n)
{
	const char *w = t[k] == 't' ? "true" : t[k] == 'f' ? "false" : "null";
	size_t len = t[k] == 'f' ? 5 : 4;

	if (n - k <= len || memcmp(t + k, w, len) != 0 ||
	    !(jlex_cls[t[k + len]] & JL_DELIM))
		return NONE;
	return k + len;
}

/* Where the key k[0..n) falls in s->want. */
static inline size_t
keyhash(const unsigned char *k, size_t n)
{
	return n == 0 ? 0 : (n * 31 + k[0] * 7 + k[n - 1]) % JSCAN_WANT;
}

void
jscan_want(struct jscan *s, const char *key, size_t n)
{
	s->filter = 1;
	if (key != NULL)
		s->want[keyhash((const unsigned char *)key, n)] = 1;
}

/* A new member, zeroed, at the end of s->mem. */
static struct jmember *
grow(struct jscan *s, size_t nmem)
{
	tl_grow((void **)&s->mem, &s->memcap, nmem + 1, sizeof(*s->mem));
	return s->mem;
}

/*
 * Scan the events of the events array from t[k], the '{' of one, for
 * as long as they lie whole and valid in t[0..n): hand each out, and go
 * on past the ',' after it.  Returns where the byte scanner goes on:
 * with *atev set, at the start of an event it must scan (cut by the
 * end, or wrong somewhere); else just past the last event handed out,
 * before whatever follows it.
 */
INLINE size_t
fastscan(struct jscan *s, const unsigned char *t, size_t k, size_t n,
    int *atev, index_fn *ix)
{
	struct blocks st;
	uint64_t bits = 0;	/* stops of the current block not yet taken */
	size_t base = 0;	/* offset of the current block */
	struct jmember *mem = s->mem, *m = NULL;	/* mem: s->mem, as it moves */
	char kind[FASTDEPTH];	/* '{' or '[' for each open level, [1] the event */
	char rl[FASTDEPTH];	/* 1: the values of the level are members' */
	int valof[FASTDEPTH];	/* the member each level is the value of, or -1 */
	size_t ev = k, done = NONE, q, e, nmem;
	uint64_t lone;		/* surrogates alone in the event */
	int d, esc, cur1, sret, top;
	int rec = 1;		/* the last key of the first two levels is recorded */

	st.t = t;
	st.n = n;
/* Classify afresh from offset at (inside a string or not). */
#define RESTART(at, str) do { \
	st.b = (at); \
	st.instr = (str) ? ~(uint64_t)0 : 0; \
	st.other = 0; \
	bits = 0; \
} while (0)
#define NEXT(k) do { \
	while (bits == 0) { \
		if (st.b >= st.n) \
			goto bail; \
		base = st.b; \
		bits = ix(&st); \
	} \
	(k) = base + (size_t)__builtin_ctzll(bits); \
	bits &= bits - 1; \
} while (0)
	RESTART(k, 0);
	NEXT(k);
event:
	ev = k;
	lone = 0;
	nmem = 0;
	cur1 = -1;
	d = 1;
	kind[1] = '{';
	rl[1] = 1;
	valof[1] = -1;
objfirst:
	NEXT(k);
	if (t[k] == '}')
		goto close;
	if (t[k] != '"')
		goto bail;
	goto key;
objnext:
	NEXT(k);
	if (t[k] != '"')
		goto bail;
key:
	esc = 0;
	NEXT(q);
	if (t[q] != '"') {
		sret = 0;
		goto strslow;
	}
keyend:
	/*
	 * A key of the second level that the caller does not want is
	 * checked like any other but not recorded, nor is its value.
	 */
	if (d <= 2 && (rec = d == 1 || esc || !s->filter ||
	    (s->want[keyhash(t + k + 1, q - k - 1)] & 1))) {
		if (nmem == JSCAN_MAXMEMBERS)
			goto bail;
		if (nmem == s->memcap)
			mem = grow(s, nmem);
		m = &mem[nmem++];
		memset(m, 0, sizeof(*m));
		m->key = (uint32_t)(k + 1 - ev);
		m->keylen = (uint32_t)(q - k - 1);
		m->esc = (char)(esc ? JM_KEYESC : 0);
		/* Without branches: keys of both levels alternate. */
		top = d == 1;
		m->parent = cur1 | -top;
		cur1 += top * ((int)nmem - 1 - cur1);
	}
	NEXT(k);
	if (t[k] != ':')
		goto bail;
value:
	NEXT(k);
valuek:
	/* A value of the event object, or of an object that is one of those. */
	m = rl[d] & rec ? &mem[nmem - 1] : NULL;
	switch (t[k]) {
	case '{':
	case '[':
		if (d == FASTDEPTH - 1)
			goto bail;
		kind[++d] = (char)t[k];
		rl[d] = d == 2 && t[k] == '{';
		valof[d] = m ? (int)nmem - 1 : -1;
		if (m) {
			m->val = (uint32_t)(k - ev);
			m->type = (char)t[k];
		}
		if (t[k] == '{')
			goto objfirst;
		NEXT(k);
		if (t[k] == ']')
			goto close;
		goto valuek;
	case '"':
		esc = 0;
		NEXT(q);
		if (t[q] != '"') {
			sret = 1;
			goto strslow;
		}
valstrend:
		if (m) {
			m->val = (uint32_t)(k + 1 - ev);
			m->vallen = (uint32_t)(q - k - 1);
			m->type = '"';
			m->esc |= (char)(esc ? JM_VALESC : 0);
		}
		goto after;
	case 't':
	case 'f':
	case 'n':
		if ((q = fastlit(t, k, n)) == NONE)
			goto bail;
		if (m) {
			m->val = (uint32_t)(k - ev);
			m->vallen = (uint32_t)(q - k);
			m->type = 't';
		}
		goto after;
	default:
		esc = 0;
		if ((q = fastnum(t, k, n, &esc)) == NONE)
			goto bail;
		if (m) {
			m->val = (uint32_t)(k - ev);
			m->vallen = (uint32_t)(q - k);
			m->type = '0';
			m->esc |= (char)(esc ? JM_VALEXP : 0);
		}
		goto after;
	}
after:
	NEXT(k);
	if (t[k] == ',') {
		if (kind[d] == '{')
			goto objnext;
		goto value;
	}
	/* '{' + 2 is '}', '[' + 2 is ']' */
	if (t[k] != kind[d] + 2)
		goto bail;
close:
	if (valof[d] >= 0) {
		m = &mem[valof[d]];
		m->vallen = (uint32_t)(k + 1 - ev) - m->val;
	}
	if (--d > 0)
		goto after;
	if (k + 1 - ev > s->maxevent)
		goto bail;
	s->nmem = nmem;
	s->evoff = s->off + ev;
	s->lone0 = s->lx.nlone;
	s->lx.nlone += lone;
	s->onevent(s->arg, (const char *)t + ev, k + 1 - ev, mem, nmem);
	s->nevent++;
	s->lastend = s->off + k + 1;
	/* From here, a stop is the byte scanner's from after the event. */
	ev = done = k + 1;
	NEXT(k);
	if (t[k] != ',')
		goto bail;
	NEXT(k);
	if (t[k] != '{')
		goto bail;
	goto event;

strslow:
	/* q is a stop inside the string other than its closing quote. */
	if (t[q] == '\\') {
		esc = 1;
		if ((e = fastesc(t, q, n, &lone)) == NONE)
			goto bail;
		if (t[q + 1] == '"') {
			/* Taken for a closing quote: index afresh. */
			RESTART(e, 1);
			goto strnext;
		}
	} else if (t[q] >= 0x80) {
		if ((e = fastutf8(t, q, n)) == NONE)
			goto bail;
	} else {
		goto bail;	/* a control byte */
	}
	/* Past the stops inside the escape or sequence. */
	while (e - base >= 64 && st.b < st.n) {
		base = st.b;
		bits = ix(&st);
	}
	if (e - base < 64)
		bits &= ~(uint64_t)0 << (e - base);
	else
		bits = 0;
strnext:
	NEXT(q);
	if (t[q] != '"')
		goto strslow;
	if (sret == 0)
		goto keyend;
	goto valstrend;

bail:
	*atev = ev != done;
	return ev;
#undef NEXT
#undef RESTART
}

/*
 * fastscan made for each way of classifying, so that each calls its
 * classifier directly, not through a pointer.
 */
#ifdef HAVE_AVX2
__attribute__((target(AVX2))) static size_t
fast_avx2(struct jscan *s, const unsigned char *t, size_t k, size_t n,
    int *atev)
{
	return fastscan(s, t, k, n, atev, jblock_avx2);
}
#endif

#ifdef __SSE2__
static size_t
fast_sse2(struct jscan *s, const unsigned char *t, size_t k, size_t n,
    int *atev)
{
	return fastscan(s, t, k, n, atev, jblock_sse2);
}
#endif

static size_t
fast_scalar(struct jscan *s, const unsigned char *t, size_t k, size_t n,
    int *atev)
{
	return fastscan(s, t, k, n, atev, jblock_scalar);
}

/* fastscan in the scanner's mode. */
static size_t
fastevents(struct jscan *s, const unsigned char *t, size_t k, size_t n,
    int *atev)
{
	switch (s->mode) {
#ifdef HAVE_AVX2
	case JSCAN_AVX2: return fast_avx2(s, t, k, n, atev);
#endif
#ifdef __SSE2__
	case JSCAN_SSE2: return fast_sse2(s, t, k, n, atev);
#endif
	default: return fast_scalar(s, t, k, n, atev);
	}
}

int
jscan_setmode(struct jscan *s, int mode)
{
	switch (mode) {
	case JSCAN_BYTES:
	case JSCAN_SCALAR:
		break;
	case JSCAN_SSE2:
#ifdef __SSE2__
		break;
#else
		return -1;
#endif
	case JSCAN_AVX2:
#ifdef HAVE_AVX2
		if (jblock_haveavx2())
			break;
#endif
		return -1;
	default:
		return -1;
	}
	s->mode = mode;
	return 0;
}

/* The mode TL_JSCAN names, else the best this CPU has. */
static void
envmode(struct jscan *s)
{
	static const char *const names[] = { "bytes", "scalar", "sse2", "avx2" };
	const char *e = getenv("TL_JSCAN");
	size_t i;

	if (e == NULL || *e == '\0') {
		s->mode = jblock_bestmode();
		return;
	}
	for (i = 0; i < LEN(names); i++)
		if (strcmp(e, names[i]) == 0)
			break;
	if (i == LEN(names))
		tl_die("TL_JSCAN: unknown mode '%s' (bytes, scalar, sse2 or "
		    "avx2)", e);
	if (jscan_setmode(s, JSCAN_BYTES + (int)i) < 0)
		tl_die("TL_JSCAN: this CPU has no %s", e);
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
	envmode(s);
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
#define SKIPWS() do { while (p < end && (jlex_cls[*p] & JL_WS)) p++; } while (0)
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
	size_t k;
	int c, rec, atev;

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
	case S_SCALAR: goto scalar;
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
		if (s->mode != JSCAN_BYTES) {
			k = fastevents(s, base, (size_t)(p - base),
			    (size_t)(cend - base), &atev);
			p = base + k;
			if (!atev)
				goto after;
		}
		s->inev = 1;
		s->evoff = s->off + (uint64_t)(p - base);
		s->lone0 = s->lx.nlone;
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
		jlex_str(&s->lx);
		goto str;
	default:
		if (c == 'N' || c == 'I')
			FAIL(NOTJSON);
		if (c != '-' && c != 't' && c != 'f' && c != 'n' &&
		    !(jlex_cls[c] & JL_DIGIT))
			FAIL("expected a value");
		p++;
		jlex_scalar(&s->lx, c);
		goto scalar;
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
	jlex_str(&s->lx);
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
	switch (jlex_step(&s->lx, &p, end)) {
	case JL_MORE:
		s->state = S_STR;
		goto more;
	case JL_FAIL:
		FAIL(s->lx.err);
	}
	if (s->strrec) {
		m = &s->mem[s->nmem - 1];
		if (s->iskey) {
			m->keylen = EVPOS(p - 1) - m->key;
			m->esc = (char)(s->lx.esc ? JM_KEYESC : 0);
		} else {
			m->vallen = EVPOS(p - 1) - m->val;
			m->esc |= (char)(s->lx.esc ? JM_VALESC : 0);
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

scalar:
	switch (jlex_step(&s->lx, &p, end)) {
	case JL_MORE:
		s->state = S_SCALAR;
		goto more;
	case JL_FAIL:
		FAIL(s->lx.err);
	}
	if (s->lx.exp && RECVAL())
		s->mem[s->nmem - 1].esc |= JM_VALEXP;
	if (RECVAL()) {
		m = &s->mem[s->nmem - 1];
		m->vallen = EVPOS(p) - m->val;
	}
	goto after;

more:
	if (end != cend) {
		snprintf(s->errbuf, sizeof(s->errbuf),
		    "event longer than %zu bytes", s->maxevent);
		s->err = s->errbuf;
		goto fail;
	}
	if (s->inev)
		evadd(s, seg, (size_t)(cend - seg));
	if (s->state == S_STR && s->topkey)
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
	return (unsigned)(jlex_hexval(s[0]) << 12 | jlex_hexval(s[1]) << 8 |
	    jlex_hexval(s[2]) << 4 | jlex_hexval(s[3]));
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
	unsigned cp, lo;

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
			if (cp >= 0xd800 && cp <= 0xdbff && end - s >= 6 &&
			    s[0] == '\\' && s[1] == 'u' &&
			    (lo = hex4(s + 2)) >= 0xdc00 && lo <= 0xdfff) {
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				    (lo - 0xdc00);
				s += 6;
			} else if (cp >= 0xd800 && cp <= 0xdfff) {
				cp = 0xfffd;	/* a lone half (jscan_feed) */
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

/*
 * Copy t[p..) to *w up to the first byte that stops (whitespace or a
 * quote outside strings, a quote or backslash inside), at most to end;
 * returns that byte.  16 bytes at a time are copied whole, so *w needs
 * room up to wend, 15 bytes past what it keeps.
 */
static inline const unsigned char *
copyrun(const unsigned char *p, const unsigned char *end, char **wp,
    char *wend, int instr)
{
	char *w = *wp;
#ifdef __SSE2__
	const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
	const __m128i blank = _mm_set1_epi8(' '), nl = _mm_set1_epi8('\n');
	const __m128i cr = _mm_set1_epi8('\r'), tab = _mm_set1_epi8('\t');
	__m128i v, m;
	unsigned bits;

	while (end - p >= 16 && wend - w >= 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)p);
		m = _mm_cmpeq_epi8(v, quote);
		if (instr)
			m = _mm_or_si128(m, _mm_cmpeq_epi8(v, bslash));
		else
			m = _mm_or_si128(_mm_or_si128(m, _mm_cmpeq_epi8(v, blank)),
			    _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, nl),
			    _mm_cmpeq_epi8(v, cr)), _mm_cmpeq_epi8(v, tab)));
		_mm_storeu_si128((__m128i *)(void *)w, v);
		if ((bits = (unsigned)_mm_movemask_epi8(m)) != 0) {
			*wp = w + __builtin_ctz(bits);
			return p + __builtin_ctz(bits);
		}
		p += 16;
		w += 16;
	}
#endif
	while (p < end && *p != '"' && (instr ? *p != '\\' : !(jlex_cls[*p] & JL_WS)))
		*w++ = (char)*p++;
	*wp = w;
	return p;
}

/* The first byte in [p, end) that is not JSON whitespace, or end. */
static inline const unsigned char *
skipws(const unsigned char *p, const unsigned char *end)
{
#ifdef __SSE2__
	const __m128i blank = _mm_set1_epi8(' '), nl = _mm_set1_epi8('\n');
	const __m128i cr = _mm_set1_epi8('\r'), tab = _mm_set1_epi8('\t');
	__m128i v;
	unsigned bits;

	while (end - p >= 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)p);
		bits = ~(unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
		    _mm_cmpeq_epi8(v, blank), _mm_cmpeq_epi8(v, nl)),
		    _mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, tab))))
		    & 0xffff;
		if (bits != 0)
			return p + __builtin_ctz(bits);
		p += 16;
	}
#endif
	while (p < end && (jlex_cls[*p] & JL_WS))
		p++;
	return p;
}

/*
 * jval_tsv from p on, inside a string when instr is set (its opening
 * quote written); w has room up to wend.  Returns the end written.
 */
static char *
jval_rest(char *w, char *wend, const unsigned char *p,
    const unsigned char *end, int instr)
{
	if (instr)
		goto instring;
	while ((p = copyrun(p, end, &w, wend, 0)) < end) {
		if (*p != '"') {
			/* Whitespace outside strings goes. */
			p = skipws(p + 1, end);
			continue;
		}
		*w++ = '"';
		p++;
instring:
		/* The only byte of a string to escape is '\\'. */
		while (*(p = copyrun(p, end, &w, wend, 1)) == '\\') {
			*w++ = '\\';
			*w++ = '\\';
			if (*++p == '\\') {
				*w++ = '\\';
				*w++ = '\\';
			} else {
				*w++ = (char)*p;
			}
			p++;
		}
		*w++ = '"';
		p++;
	}
	return w;
}

#ifdef HAVE_AVX2
/*
 * Whitespace outside strings squeezed out of 16 bytes at a time, with
 * pshufb and a table of the shuffles that keep the bytes of each 8-bit
 * mask; a block with a backslash goes to jval_rest, byte by byte.
 */
__attribute__((target("ssse3,popcnt"))) static size_t
jval_ssse3(char *out, const char *s, size_t n)
{
	static unsigned char shuf[256][8];	/* shuf[m]: m's bits, first */
	static int made;			/* shuf is filled in */
	const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
	const __m128i blank = _mm_set1_epi8(' '), nl = _mm_set1_epi8('\n');
	const __m128i cr = _mm_set1_epi8('\r'), tab = _mm_set1_epi8('\t');
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	char *w = out, *wend = out + 2 * n;
	unsigned char pad[16];	/* the last bytes, blanks after them */
	unsigned q, ws, in, keep, instr = 0;
	__m128i v;
	int m, b, k;

	if (!made) {
		for (m = 0; m < 256; m++)
			for (b = k = 0; b < 8; b++)
				if (m & 1 << b)
					shuf[m][k++] = (unsigned char)b;
		made = 1;
	}
	for (;;) {
		if (end - p >= 16 && wend - w >= 16) {
			v = _mm_loadu_si128((const __m128i *)(const void *)p);
		} else if (p < end && wend - w >= 16) {
			/*
			 * The last bytes, blanks after them: the value ends
			 * outside strings, so the blanks go.  (The room is
			 * there: w is at most n - (end - p) bytes in.)
			 */
			memset(pad, ' ', sizeof(pad));
			memcpy(pad, p, (size_t)(end - p));
			v = _mm_loadu_si128((const __m128i *)(const void *)pad);
		} else {
			break;
		}
		if (_mm_movemask_epi8(_mm_cmpeq_epi8(v, bslash)) != 0)
			break;
		q = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote));
		ws = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
		    _mm_cmpeq_epi8(v, blank), _mm_cmpeq_epi8(v, nl)),
		    _mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, tab))));
		/* Inside strings: each quote flips, from the opening one on. */
		in = q ^ q << 1;
		in ^= in << 2;
		in ^= in << 4;
		in ^= in << 8;
		in = (in ^ (0 - instr)) & 0xffff;
		keep = ~(ws & ~in) & 0xffff;
		_mm_storel_epi64((__m128i *)(void *)w, _mm_shuffle_epi8(v,
		    _mm_loadl_epi64((const __m128i *)(const void *)
		    shuf[keep & 0xff])));
		w += __builtin_popcount(keep & 0xff);
		_mm_storel_epi64((__m128i *)(void *)w, _mm_shuffle_epi8(
		    _mm_srli_si128(v, 8), _mm_loadl_epi64((const __m128i *)
		    (const void *)shuf[keep >> 8])));
		w += __builtin_popcount(keep >> 8);
		instr = in >> 15;
		if (end - p <= 16)
			return (size_t)(w - out);
		p += 16;
	}
	return (size_t)(jval_rest(w, wend, p, end, (int)instr) - out);
}
#endif

size_t
jval_tsv(char *out, const char *s, size_t n)
{
#ifdef HAVE_AVX2
	/* (one test of the CPU and of TL_JSCAN, for the life of the process) */
	static int simd = -1;
	const char *e;

	if (simd < 0)
		simd = __builtin_cpu_supports("ssse3") &&
		    __builtin_cpu_supports("popcnt") &&
		    ((e = getenv("TL_JSCAN")) == NULL ||
		    (strcmp(e, "bytes") != 0 && strcmp(e, "scalar") != 0));
	if (simd)
		return jval_ssse3(out, s, n);
#endif
	return (size_t)(jval_rest(out, out + 2 * n,
	    (const unsigned char *)s, (const unsigned char *)s + n, 0) - out);
}
