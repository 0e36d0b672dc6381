/* See LICENSE file for copyright and license details. */
/*
 * tmeta.h: the few top-level members of a trace that tell where it was
 * recorded (tl-meta(1)): how many GPUs the node had (the length of
 * deviceProperties) and the rank and world size of distributedInfo.
 *
 * The skimmer is fed the trace's text in chunks of any size and holds
 * nothing of it but the values it keeps: it follows strings, escapes
 * and nesting depth, and does not check the rest of the JSON grammar
 * (tl-parse(1) does).  Any bytes at all are safe to feed it.
 */
#ifndef TMETA_H
#define TMETA_H

#include <stddef.h>
#include <stdint.h>

#define TMETA_KEYMAX 32		/* longest top-level key told apart */
#define TMETA_VALMAX 64		/* longest rank or world_size value kept */

/* The state of one skim: tmeta_init, then tmeta_feed. */
struct tmeta {
	/* results */
	int64_t ndev;		/* elements of deviceProperties, -1 if none */
	char rank[TMETA_VALMAX + 1];	/* distributedInfo.rank as written, or "" */
	char world[TMETA_VALMAX + 1];	/* distributedInfo.world_size, or "" */
	int done;		/* 1: nothing more can change the results */

	/* scanner state */
	unsigned depth;		/* open objects and arrays */
	int top;		/* the top-level value: 0 not yet (or no JSON), '{', '[' */
	int instr;		/* inside a string */
	int esc;		/* the last string byte was a backslash */
	int iskey;		/* the string being read is an object key */
	int expkey;		/* the next string at this depth is a key */
	char key[TMETA_KEYMAX + 1];	/* depth-1 key whose value is read */
	size_t keylen;		/* its length, TMETA_KEYMAX + 1 when longer */
	char sub[TMETA_KEYMAX + 1];	/* depth-2 key inside distributedInfo */
	size_t sublen;		/* its length, as keylen */
	int inval;		/* 0, 'd' in deviceProperties, 'i' in distributedInfo */
	int devany;		/* deviceProperties holds an element */
	int64_t ncomma;		/* its commas at depth 2 */
	char *cap;		/* rank or world being captured, else NULL */
	size_t caplen;		/* bytes captured */
	int capq;		/* the captured value is a string */
	int seendev, seendist;	/* each member was read to its end */
};

void tmeta_init(struct tmeta *s);
/* Skim the next n bytes; returns s->done. */
int tmeta_feed(struct tmeta *s, const char *p, size_t n);

#endif
