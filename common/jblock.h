/* See LICENSE file for copyright and license details. */
/*
 * jblock.h: the block classifiers of the event scanner (jblock.c), for
 * jscan.c alone: the stops of the events' text a 64-byte block at a
 * time, as bit masks, in plain C, with SSE2 or with AVX2, and which of
 * those this CPU can run.
 */
#ifndef JBLOCK_H
#define JBLOCK_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) && defined(__x86_64__)
#define HAVE_AVX2 1
/* The instructions the AVX2 block scanner uses, all there since Haswell. */
#define AVX2 "avx2,bmi,popcnt,pclmul"
#endif

/*
 * The stops of a text, a 64-bit mask a block: the bytes where the byte
 * scanner would stop.  Outside strings these are the structural
 * characters, the quotes and the first byte of every other run (a
 * number, literal or garbage); inside a string, its closing quote and
 * every backslash, control and non-ASCII byte.  Whitespace and the rest
 * of a run are never stops.  An escaped quote is taken for a real one,
 * so the string scan starts afresh after one.  The block scanner takes
 * the stops from the mask as it goes (tzcnt, then clear the bit): no
 * list of them is written.  This is where classifying goes on.
 */
struct blocks {
	const unsigned char *t;	/* the text */
	size_t n;		/* its length */
	size_t b;		/* offset of the next block to classify */
	uint64_t instr;		/* ~0: block b starts inside a string */
	uint64_t other;		/* 1: the byte before block b is in a run */
	unsigned char pad[64];	/* the last block, blanks after the text */
};

typedef uint64_t index_fn(struct blocks *);

/* The stops of the block at st->b, as bits; st->b moves past it. */
uint64_t jblock_scalar(struct blocks *st);
#ifdef __SSE2__
uint64_t jblock_sse2(struct blocks *st);
#endif
#ifdef HAVE_AVX2
uint64_t jblock_avx2(struct blocks *st);
/* Has this CPU every instruction of AVX2 (the macro)? */
int jblock_haveavx2(void);
#endif
/* The best mode (JSCAN_SSE2 ...) of block scan this CPU has. */
int jblock_bestmode(void);

#endif
