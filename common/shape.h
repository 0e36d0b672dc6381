/* See LICENSE file for copyright and license details. */
/*
 * shape.h: the compact-JSON argument fields of an op record.
 *
 * tl-parse writes an op's Input Dims, Input type, Input Strides and
 * Concrete Inputs as compact JSON text: [[4,197,768],[]],
 * ["c10::BFloat16","float",""], ["","","1","False"].  A jdoc holds one
 * such field parsed into a tree of values, so a perf model can index it
 * the way TraceLens indexes the Python lists (dims[1][0], types[2]).
 * Nodes refer to each other by index, not pointer, so the tree lives in
 * two growable arrays that are reused from record to record.
 */
#ifndef SHAPE_H
#define SHAPE_H

#include <stddef.h>
#include <stdint.h>

#include "tl.h"

/* The kind of a JSON value. */
enum jtype {
	J_NULL,		/* null */
	J_BOOL,		/* true or false; i is 0 or 1 */
	J_INT,		/* a number without fraction or exponent that fits int64 */
	J_FLOAT,	/* any other number; d is its value */
	J_STR,		/* a string; s, len are its decoded UTF-8 bytes */
	J_ARR,		/* an array; n elements, first is the first one */
	J_OBJ		/* an object; n members, each a key J_STR then its value */
};

/* One JSON value in a jdoc. */
struct jval {
	enum jtype t;	/* kind of value */
	int64_t i;	/* J_INT value, J_BOOL 0 or 1 */
	double d;	/* J_FLOAT value (also set for J_INT) */
	size_t s;	/* J_STR: offset of the bytes in jdoc.str */
	size_t len;	/* J_STR: length of the bytes */
	size_t n;	/* J_ARR: element count; J_OBJ: 2 * member count */
	size_t first;	/* J_ARR/J_OBJ: index of the first child, if n > 0 */
	size_t next;	/* index of the next sibling, or 0 for none */
};

/*
 * A parsed field.  Ownership: the jdoc owns v and str; jdoc_parse
 * reuses them, so values and strings got from a jdoc are valid only
 * until the next jdoc_parse on it.
 */
struct jdoc {
	struct jval *v;	/* v[0] is the root once parsed */
	size_t nv;	/* values in use */
	size_t cap;	/* values allocated */
	struct buf str;	/* decoded strings, each NUL-terminated, owned */
	int ok;		/* 1 after a successful parse, else 0 */
};

/*
 * Parse JSON text s[0..len) (whitespace allowed, one value, nesting at
 * most 64 deep).  Returns 0, or -1 when the text is not JSON; an empty
 * text is an error too.
 */
int jdoc_parse(struct jdoc *d, const char *s, size_t len);
void jdoc_free(struct jdoc *d);
/* Forget the last parse (an empty field): jdoc_root gives NULL. */
void jdoc_clear(struct jdoc *d);
/* The root value, or NULL unless the last parse succeeded. */
const struct jval *jdoc_root(const struct jdoc *d);
/* Element k of array a (Python's a[k] for k >= 0), or NULL. */
const struct jval *jarr_at(const struct jdoc *d, const struct jval *a, size_t k);
/* Number of elements of an array, 0 for anything else. */
size_t jarr_len(const struct jval *a);
/* The bytes of a J_STR value (NUL-terminated), or NULL for other kinds. */
const char *jstr(const struct jdoc *d, const struct jval *v);

/* Most dimensions a tensor shape may have. */
#define SHAPE_MAX 16

/* A tensor shape or stride: a JSON array of integers. */
struct shape {
	int64_t d[SHAPE_MAX];	/* the integers, outermost first */
	size_t n;		/* how many */
};

/* Read array v of integers into sh; -1 if v is anything else or too long. */
int shape_get(const struct jdoc *d, const struct jval *v, struct shape *sh);
/* Product of the dimensions (1 for a scalar); -1 on int64 overflow. */
int shape_prod(const struct shape *sh, int64_t *p);

/*
 * Parse a Python list literal of integers as Concrete Inputs hold them,
 * "[16, 16]" or "[768]", into sh (Python's ast.literal_eval of a list
 * of ints).  Returns 0, or -1 when s is anything else.
 */
int shape_pylist(const char *s, struct shape *sh);
/*
 * shape_pylist, but an item may also be True or False (Python's bools
 * are ints: 1 and 0), whose bit i of *bools is then set, and, with
 * floats not NULL, a float literal (2.5, 1e3), whose bit i of *floats
 * is then set and its value fv[i] (sh->d[i] 0); with bools NULL,
 * shape_pylist itself.
 */
int shape_pysize(const char *s, struct shape *sh, unsigned *bools,
    double *fv, unsigned *floats);
/*
 * Parse a Python list literal of booleans, "[True, False, True]", into
 * b[0..*n) as TraceLens's parse_list(s, bool) does: ints, floats and
 * None are their bool(); at most max entries.  Returns 0 or -1.
 */
int shape_pybools(const char *s, int *b, size_t max, size_t *n);
/*
 * Split b[0..e) on commas and read each piece with Python's int(), as
 * TraceLens reads "[16, 16]" after cutting its brackets off: "" and
 * "1,,2" are errors.  Returns 0 or -1.
 */
int shape_split(const char *b, const char *e, struct shape *sh);
/* Parse a whole decimal integer as Python's int(str) does; 0 or -1. */
int shape_pyint(const char *s, int64_t *v);
/* Parse a number as Python's float(str) does; 0 or -1. */
int shape_pyfloat(const char *s, double *v);

#endif
