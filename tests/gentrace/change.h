/* See LICENSE file for copyright and license details. */
/*
 * change.h: known changes for tl-gentrace -c.  Two traces of one seed,
 * one written with a change, differ by that change alone: every random
 * draw is the same, so a comparison of the two must find exactly it.
 */
#ifndef CHANGE_H
#define CHANGE_H

#include <stdint.h>

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

#endif
