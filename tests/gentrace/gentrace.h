/* See LICENSE file for copyright and license details. */
/*
 * gentrace.h: what the files of tl-gentrace share.  ranks.c makes the
 * ranks of a rank set (-R) differ from one another; tl-gentrace.c
 * writes them.
 */
#ifndef GENTRACE_H
#define GENTRACE_H

#include <stdint.h>

/* GPUs a node has in a rank set of world ranks: 8, or world if fewer. */
int rank_gpus(int world);
/*
 * Parse -R's "rank/world"; 0, or -1 when it is not two whole numbers
 * with 0 <= rank < world, 2 <= world <= RANK_MAXWORLD.
 */
#define RANK_MAXWORLD 65536
int rank_parse(const char *s, int *rank, int *world);
/*
 * The arrival of rank r at collective number c of a process group of
 * members [first, first + n) in a job of world ranks: *delay is how
 * long after the earliest possible start it arrives, *late the delay
 * of the group's straggler, the largest, and *endj a jitter of its end
 * (0, 250 or 500 ns).  All in ns; every rank of the group gets the
 * same *late.
 */
void rank_arrival(uint64_t seed, int64_t c, int world, int first, int n,
    int r, int64_t *delay, int64_t *late, int64_t *endj);
/*
 * The split sizes of all_to_allv number c over world ranks, as rank r
 * sees them: in[j] elements it sends to rank j, out[j] those it
 * receives from j.  One rank is a hot spot that receives three times
 * as much.
 */
void rank_splits(uint64_t seed, int64_t c, int world, int r, int64_t *in,
    int64_t *out);

#endif
