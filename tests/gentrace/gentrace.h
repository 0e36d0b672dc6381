/* See LICENSE file for copyright and license details. */
/*
 * gentrace.h: what the source files of tl-gentrace share: its output
 * (a buffer drained to the -o file, through deflate with -z).
 */
#ifndef GENTRACE_H
#define GENTRACE_H

#include <stddef.h>
#include <stdint.h>

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
