/* See LICENSE file for copyright and license details. */
/*
 * The block classifiers of jblock.h, which the block scanner of
 * jscan.c calls a 64-byte block at a time: each byte classed (quote,
 * whitespace, structural, backslash or control or non-ASCII) into a bit
 * mask, in plain C, 16 bytes at a time with SSE2 or 32 with AVX2; the
 * bytes inside strings by a prefix xor of the quotes (shifts, or one
 * carry-less multiply with PCLMUL); from those, the block's stops.
 * Also which of these this CPU can run.
 */
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "jblock.h"
#include "jscan.h"
#ifdef HAVE_AVX2
#include <immintrin.h>
#endif

/*
 * The classes of 64 bytes, a bit a byte (bit i: byte i).  Bytes 0x0c
 * and 0x1a count as structural, the price of a cheap test: whatever
 * the scanners stop at, they read, and fail on those as they should.
 */
struct raw {
	uint64_t q;	/* '"' */
	uint64_t ws;	/* JSON whitespace */
	uint64_t op;	/* { } [ ] , : (and 0x0c 0x1a) */
	uint64_t sp;	/* '\\', control and non-ASCII bytes */
};

typedef void classify_fn(const unsigned char *, struct raw *);
typedef uint64_t prefix_fn(uint64_t);

static inline void
cls_scalar(const unsigned char *p, struct raw *r)
{
	uint64_t bit;
	int i, c;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < 64; i++) {
		bit = (uint64_t)1 << i;
		c = p[i];
		r->q |= c == '"' ? bit : 0;
		r->ws |= c == ' ' || c == '\n' || c == '\r' || c == '\t' ?
		    bit : 0;
		/* [ and ] become { and } */
		r->op |= (c | 0x20) == '{' || (c | 0x20) == '}' ||
		    (c | 0x20) == ',' || (c | 0x20) == ':' ? bit : 0;
		r->sp |= c == '\\' || c < 0x20 || c >= 0x80 ? bit : 0;
	}
}

#ifdef __SSE2__
static inline void
cls_sse2(const unsigned char *p, struct raw *r)
{
	const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
	const __m128i blank = _mm_set1_epi8(' '), nl = _mm_set1_epi8('\n');
	const __m128i cr = _mm_set1_epi8('\r'), tab = _mm_set1_epi8('\t');
	const __m128i lbrace = _mm_set1_epi8('{'), rbrace = _mm_set1_epi8('}');
	const __m128i comma = _mm_set1_epi8(','), colon = _mm_set1_epi8(':');
	__m128i v, w;
	int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < 64; i += 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
		/* [ and ] become { and } */
		w = _mm_or_si128(v, blank);
		r->q |= (uint64_t)(unsigned)_mm_movemask_epi8(
		    _mm_cmpeq_epi8(v, quote)) << i;
		r->ws |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_or_si128(_mm_cmpeq_epi8(v, blank), _mm_cmpeq_epi8(v, nl)),
		    _mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, tab))))
		    << i;
		r->op |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_or_si128(_mm_cmpeq_epi8(w, lbrace),
		    _mm_cmpeq_epi8(w, rbrace)), _mm_or_si128(
		    _mm_cmpeq_epi8(w, comma), _mm_cmpeq_epi8(w, colon)))) << i;
		/* Signed: bytes >= 0x80 are below 0x20 too. */
		r->sp |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_cmpeq_epi8(v, bslash), _mm_cmplt_epi8(v, blank))) << i;
	}
}
#endif

#ifdef HAVE_AVX2
/* simdjson's tables: a byte is of the class if it is its low nibble's entry. */
__attribute__((target(AVX2))) static inline void
cls_avx2(const unsigned char *p, struct raw *r)
{
	const __m256i wst = _mm256_setr_epi8(' ', 100, 100, 100, 17, 100, 113,
	    2, 100, '\t', '\n', 112, 100, '\r', 100, 100, ' ', 100, 100, 100,
	    17, 100, 113, 2, 100, '\t', '\n', 112, 100, '\r', 100, 100);
	const __m256i opt = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	    ':', '{', ',', '}', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ':', '{',
	    ',', '}', 0, 0);
	const __m256i quote = _mm256_set1_epi8('"');
	const __m256i bslash = _mm256_set1_epi8('\\');
	const __m256i blank = _mm256_set1_epi8(' ');
	__m256i a = _mm256_loadu_si256((const __m256i *)(const void *)p);
	__m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));

#define MASK(x) ((uint64_t)(uint32_t)_mm256_movemask_epi8(x))
	r->q = MASK(_mm256_cmpeq_epi8(a, quote)) |
	    MASK(_mm256_cmpeq_epi8(b, quote)) << 32;
	r->ws = MASK(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(wst, a), a)) |
	    MASK(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(wst, b), b)) << 32;
	r->op = MASK(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(opt, a),
	    _mm256_or_si256(a, blank))) | MASK(_mm256_cmpeq_epi8(
	    _mm256_shuffle_epi8(opt, b), _mm256_or_si256(b, blank))) << 32;
	/* Signed: bytes >= 0x80 are below 0x20 too. */
	r->sp = MASK(_mm256_or_si256(_mm256_cmpeq_epi8(a, bslash),
	    _mm256_cmpgt_epi8(blank, a))) | MASK(_mm256_or_si256(
	    _mm256_cmpeq_epi8(b, bslash), _mm256_cmpgt_epi8(blank, b))) << 32;
#undef MASK
}
#endif

/*
 * Each bit the xor of itself and all bits below it: for the quotes of
 * a block, the bytes from an opening quote up to its closing one.
 */
static inline __attribute__((always_inline)) uint64_t
prefix_shift(uint64_t q)
{
	q ^= q << 1;
	q ^= q << 2;
	q ^= q << 4;
	q ^= q << 8;
	q ^= q << 16;
	q ^= q << 32;
	return q;
}

#ifdef HAVE_AVX2
/* The same as one carry-less multiply by all ones: no chain of 12 steps. */
__attribute__((target(AVX2))) static inline uint64_t
prefix_clmul(uint64_t q)
{
	return (uint64_t)_mm_cvtsi128_si64(_mm_clmulepi64_si128(
	    _mm_set_epi64x(0, (long long)q), _mm_set1_epi8((char)0xff), 0));
}
#endif

/*
 * The last block, short, with blanks after the end: no stops, no
 * carries.  Out of line, so that the classifiers that call it, once a
 * text, need no frame.
 */
static __attribute__((noinline)) const unsigned char *
padblock(struct blocks *st)
{
	memcpy(st->pad, st->t + st->b, st->n - st->b);
	memset(st->pad + (st->n - st->b), ' ', sizeof(st->pad) - (st->n - st->b));
	return st->pad;
}

/* The stops of the block at st->b, as bits; st->b moves past it. */
static inline __attribute__((always_inline)) uint64_t
blockbits(struct blocks *st, classify_fn *classify, prefix_fn *prefix)
{
	struct raw r;
	uint64_t in, other, bits;

	classify(st->n - st->b >= 64 ? st->t + st->b : padblock(st), &r);
	/* Inside strings: each quote flips, from the opening one on. */
	in = prefix(r.q) ^ st->instr;
	other = ~(r.ws | r.op | r.q);
	bits = r.q | (~in & (r.op | (other & ~(other << 1 | st->other)))) |
	    (in & r.sp);
	st->instr = 0 - (in >> 63);
	st->other = other >> 63;
	st->b += 64;
	return bits;
}

#ifdef __SSE2__
uint64_t
jblock_sse2(struct blocks *st)
{
	return blockbits(st, cls_sse2, prefix_shift);
}
#endif

uint64_t
jblock_scalar(struct blocks *st)
{
	return blockbits(st, cls_scalar, prefix_shift);
}

#ifdef HAVE_AVX2
__attribute__((target(AVX2))) uint64_t
jblock_avx2(struct blocks *st)
{
	return blockbits(st, cls_avx2, prefix_clmul);
}
#endif

#ifdef HAVE_AVX2
/* Has this CPU every instruction of AVX2 (the macro)? */
int
jblock_haveavx2(void)
{
	return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
	    __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("pclmul");
}
#endif

int
jblock_bestmode(void)
{
#ifdef HAVE_AVX2
	if (jblock_haveavx2())
		return JSCAN_AVX2;
#endif
#ifdef __SSE2__
	return JSCAN_SSE2;
#else
	return JSCAN_SCALAR;
#endif
}
