/* See LICENSE file for copyright and license details. */
/*
 * jlex.h: the scalars of JSON (strings, numbers, literals), lexed a
 * chunk at a time.  The two streaming scanners, jscan.c (traces) and
 * rocprof.c (rocprofv3 results), keep their own structure (objects,
 * arrays, what to gather) and hand every scalar to jlex_step, which
 * checks it against the grammar (escapes, UTF-8, surrogates, number
 * syntax) and stops where it ends, where the chunk ends, or at the
 * first byte that is wrong.  So the grammar of a scalar is written once.
 */
#ifndef JLEX_H
#define JLEX_H

#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Byte classes (jlex_cls), or-ed. */
enum {
	JL_WS = 1,	/* JSON whitespace: 9 10 13 32 */
	JL_STOP = 2,	/* ends a run of plain string bytes */
	JL_DIGIT = 4,	/* 0-9 */
	JL_DELIM = 8	/* may follow a number or literal */
};
extern const unsigned char jlex_cls[256];

/* What jlex_step ended with. */
enum {
	JL_DONE,	/* the scalar ended: past a string's quote, else at its delimiter */
	JL_MORE,	/* the bytes ran out inside it */
	JL_FAIL		/* at the byte that breaks the grammar; err says how */
};

/*
 * One scalar being lexed, kept between chunks.  The caller owns it;
 * nothing in it is allocated.
 */
struct jlex {
	int state;		/* where the scalar resumes: JL_S_STR ... */
	int sub;		/* step inside a number, \u escape or literal */
	unsigned hex;		/* \u escape value read so far */
	int lo, hi;		/* allowed range of the next UTF-8 continuation byte */
	int need;		/* UTF-8 continuation bytes still to come */
	int hisurr;		/* a \u high surrogate wants its low half */
	const char *lit;	/* the literal being matched: true, false, null */
	int esc;		/* the string has a \ escape */
	int exp;		/* the number has an exponent */
	uint64_t nlone;		/* \u surrogates without their other half, all strings */
	const char *err;	/* with JL_FAIL: what is wrong */
};

/* Resume points (jlex.state). */
enum { JL_S_STR, JL_S_ESC, JL_S_UHEX, JL_S_SURR1, JL_S_SURR2, JL_S_UTF8,
	JL_S_NUM, JL_S_LIT };

/*
 * What a scanner says of a value that starts with N or I: Python's
 * json writes NaN and Infinity, and reads them, but JSON has neither,
 * and TraceLens's orjson refuses them too.
 */
#define NOTJSON "NaN or Infinity is not JSON (Python's json writes it; " \
	"TraceLens's orjson refuses it)"

/* A string starts: p is past its opening quote. */
static inline void
jlex_str(struct jlex *l)
{
	l->state = JL_S_STR;
	l->esc = 0;
	l->hisurr = 0;
}

/*
 * A number or literal starts with the byte c, which p is past (c is
 * '-', a digit, 't', 'f' or 'n'; the caller has checked).
 */
void jlex_scalar(struct jlex *l, int c);
/*
 * Lex on from *p, not past end; *p is left where it stopped (JL_DONE,
 * JL_MORE at end, JL_FAIL at the offending byte).
 */
int jlex_step(struct jlex *l, const unsigned char **p,
    const unsigned char *end);

/* The value of a hex digit, or -1. */
static inline int
jlex_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * The first byte c of a UTF-8 sequence (RFC 3629's table): how many
 * bytes follow, 0 if c cannot start one, and the range [lo, hi] of the
 * first of them (no overlongs, no surrogates, nothing past U+10FFFF);
 * the others are 80 to bf.
 */
int jlex_utf8lead(int c, int *lo, int *hi);

/* The first byte in [p, end) that is not plain string text, or end. */
static inline const unsigned char *
jlex_strscan(const unsigned char *p, const unsigned char *end)
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
	while (p < end && !(jlex_cls[*p] & JL_STOP))
		p++;
	return p;
}

#endif
