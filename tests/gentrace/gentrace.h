/* See LICENSE file for copyright and license details. */
/*
 * gentrace.h: what the source files of tl-gentrace share.  Each kind
 * of trace other than the Kineto training run of tl-gentrace.c lives in
 * a file of its own and is reached from main() through one option.
 */
#ifndef GENTRACE_H
#define GENTRACE_H

#include <stdio.h>

/* worst.c: write the worst-case trace KIND:N to fp; -1 on a bad spec. */
int worst_write(FILE *fp, const char *spec);

#endif
