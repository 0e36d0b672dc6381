/* See LICENSE file for copyright and license details. */
/*
 * gentrace.h: what the source files of tl-gentrace share: its output
 * (a buffer drained to the -o file, through deflate with -z), and the
 * kinds of trace other than the Kineto training run of tl-gentrace.c,
 * each in a file of its own, reached from main() through one option;
 * ranks.c makes the ranks of a rank set (-R) differ from one another.
 */
#ifndef GENTRACE_H
#define GENTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* worst.c: write the worst-case trace KIND:N to fp; -1 on a bad spec. */
int worst_write(FILE *fp, const char *spec);

/*
 * change.c: known changes, -c.  Two traces of one seed, one written
 * with a change, differ by that change alone: every random draw is the
 * same, so a comparison of the two must find exactly it.
 */
/* Add one change (see tl-gentrace(1)); -1 when spec is not one. */
int change_add(const char *spec);
/*
 * The duration, in ns, of a GPU event of duration dur launched inside
 * the cpu_op named op (NULL for none), the event named name (JSON text,
 * as written in the trace).
 */
int64_t change_dur(const char *op, const char *name, int64_t dur);
/* The name (JSON text) to write for a GPU event named name. */
const char *change_name(const char *name);
/* Extra host time before each step, ns: the GPU idles that long. */
int64_t change_gap(void);

/* Append n bytes to the output. */
void gt_put(const void *p, size_t n);
/* Bytes of (uncompressed) output so far. */
uint64_t gt_written(void);

/*
 * -r: write the real trace at path again, its events repeated (copies
 * of them, or as many as reach size bytes, whichever is given; 0 for
 * none) with shifted times and fresh ids.
 */
void replicate(const char *path, int64_t copies, int64_t size);

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
