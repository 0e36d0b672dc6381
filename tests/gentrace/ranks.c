/* See LICENSE file for copyright and license details. */
/*
 * ranks.c: what tells the ranks of one training job apart (tl-gentrace
 * -R rank/world).  Every rank runs the same workload from the same
 * random stream, so the collectives line up; their arrival times and
 * the all_to_allv split sizes come from hashes of the seed, the
 * collective's number and the rank instead, which every rank can
 * compute for every other without drawing from the stream.  One rank
 * per job is the straggler: in three collectives out of four it is
 * the last to arrive.
 */
#include <stdint.h>
#include <stdlib.h>

#include "gentrace.h"

/* splitmix64's finaliser: a good 64-bit mix of x. */
static uint64_t
mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* A hash of the seed and three numbers. */
static uint64_t
hash(uint64_t seed, uint64_t a, uint64_t b, uint64_t c)
{
	return mix(mix(mix(mix(seed ^ 0x5bd1e9955bd1e995ULL) ^ a) ^ b) ^ c);
}

int
rank_gpus(int world)
{
	return world < 8 ? world : 8;
}

int
rank_parse(const char *s, int *rank, int *world)
{
	char *e;
	long r, w;

	if (*s < '0' || *s > '9')
		return -1;
	r = strtol(s, &e, 10);
	if (*e != '/' || e[1] < '0' || e[1] > '9')
		return -1;
	w = strtol(e + 1, &e, 10);
	if (*e != '\0' || w < 2 || w > RANK_MAXWORLD || r >= w)
		return -1;
	*rank = (int)r;
	*world = (int)w;
	return 0;
}

void
rank_arrival(uint64_t seed, int64_t c, int world, int first, int n, int r,
    int64_t *delay, int64_t *late, int64_t *endj)
{
	uint64_t h = hash(seed, (uint64_t)c, 0, 0);
	int64_t spread = 20000 + (int64_t)(h % 1200000);
	int slow;

	/* The job's straggler, when it is in the group; else anyone. */
	slow = (int)(hash(seed, 1, 0, 0) % (uint64_t)world);
	if (slow < first || slow >= first + n || (h >> 40) % 4 == 0)
		slow = first + (int)((h >> 20) % (uint64_t)n);
	*late = spread + (int64_t)(hash(seed, (uint64_t)c, (uint64_t)slow, 1) %
	    50000);
	if (r == slow)
		*delay = *late;
	else
		*delay = (int64_t)(hash(seed, (uint64_t)c, (uint64_t)r, 1) %
		    (uint64_t)spread);
	*endj = (int64_t)(hash(seed, (uint64_t)c, (uint64_t)r, 2) % 3) * 250;
}

void
rank_splits(uint64_t seed, int64_t c, int world, int r, int64_t *in,
    int64_t *out)
{
	int hot = (int)(hash(seed, (uint64_t)c, 3, 0) % (uint64_t)world);
	int j;

	/* (elements from i to j: a block of 1024 tokens of 256 values) */
#define SPLIT(i, j) ((int64_t)(hash(seed, (uint64_t)c, (uint64_t)(i), \
	(uint64_t)(j) + 4) % 1024 + 64) * 256 * ((j) == hot ? 3 : 1))
	for (j = 0; j < world; j++) {
		in[j] = SPLIT(r, j);
		out[j] = SPLIT(j, r);
	}
#undef SPLIT
}
