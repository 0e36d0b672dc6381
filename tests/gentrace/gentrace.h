/* See LICENSE file for copyright and license details. */
/*
 * gentrace.h: what the source files of tl-gentrace share: its output
 * (a buffer drained to the -o file, through deflate with -z), and the
 * kinds of trace other than the Kineto training run of tl-gentrace.c,
 * each in a file of its own, reached from main() through one option.
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

#endif
