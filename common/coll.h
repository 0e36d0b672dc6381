/* See LICENSE file for copyright and license details. */
/*
 * coll.h: typed cells, for tl-coll(1).  TraceLens builds its
 * collective tables with pandas, which prints a value by the type
 * Python gave it (the string "[]" as [], the list [] as (), 8 as 8 or
 * as 8.0 when its column holds a float or a None anywhere), so the
 * collective records keep each value's JSON type with it.
 *
 * A cell is a tag byte and a payload, held in one record field
 * (escaped as tl(7) says):
 *   z   None: the key is missing, or null
 *   i   an integer, its decimal text
 *   f   a float, Python's repr() of it
 *   s   a string, decoded
 *   b   True or False
 *   l   a list, as compact JSON
 *   o   an object, as compact JSON
 */
#ifndef COLL_H
#define COLL_H

#include <stddef.h>
#include <stdint.h>

struct buf;

/* The args keys a collective record takes, in record order. */
enum {
	CA_PG, CA_PGR, CA_COLL, CA_GSIZE, CA_DTYPE, CA_INNEL, CA_OUTNEL,
	CA_INSPLIT, CA_OUTSPLIT, CA_STREAM,	/* the record's cells */
	CA_CORR, CA_EXT,			/* what links the kernel */
	NCA
};
extern const char *const coll_argname[NCA];

/* Fact bits: the tags a column has held (what pandas makes its dtype of). */
enum { F_Z = 1, F_I = 2, F_F = 4, F_S = 8, F_X = 16 };
/* How pandas prints a column, from its fact bits. */
enum {
	K_NONE,		/* nothing but None: every cell empty */
	K_INT,		/* int64: integers as they are */
	K_FLOAT,	/* float64: every number as a float, None empty */
	K_OBJ		/* object: each value as its own type prints */
};

/* A number of a cell: an integer or a double, as numpy holds it. */
struct cnum {
	int isint;	/* 1: i holds it, an int64 */
	int64_t i;	/* the integer */
	double d;	/* the double (also set for an integer) */
};

/*
 * The cells of args, a kernel's args object as compact JSON (tl-parse's
 * args field, unescaped).  cell[k] receives the cell of coll_argname[k]
 * (a key given twice counts with its last value, as in Python).
 * Returns 0; -1 when args is not a JSON object (no cells are set);
 * -2 when a number does not fit Python's parser (orjson's 64 bits).
 */
int coll_args(struct buf cell[NCA], const char *args, size_t len);
/* The cell of a trace's number text (ts, dur); -1 if not a number. */
int coll_numcell(struct buf *cell, const char *s, size_t len);
/* The fact bit of a cell. */
unsigned coll_fact(const char *cell, size_t len);
/* The print class (K_*) of a column whose cells had these fact bits. */
int coll_class(unsigned facts);
/*
 * Append to b the cell as pandas prints it in a column of class k,
 * escaped as a record field (the payload already is).
 */
void coll_render(struct buf *b, const char *cell, size_t len, int k);
/* The number in a cell; -1 unless the tag is i or f. */
int coll_num(const char *cell, size_t len, struct cnum *v);
/* Append a number as numpy prints it: an int64, or repr() of a double. */
void coll_putnum(struct buf *b, const struct cnum *v);
/*
 * The integers of a split size cell (a list, or a string holding a
 * Python list or tuple of numbers, floats cut to integers as int()
 * does), as TraceLens's _parse_split_sizes reads them; v is grown as
 * needed.  Returns the count, or -1 when it cannot read them.
 */
long coll_splits(const char *cell, size_t len, int64_t **v, size_t *cap);
/*
 * The ranks of a Process Group Ranks cell, as TraceLens's
 * _parse_pg_ranks reads them (a list, a string holding a Python list or
 * tuple, none for another Python literal, else every run of digits); v
 * is grown as needed.  Returns the count.
 */
size_t coll_pgranks(const char *cell, size_t len, int64_t **v, size_t *cap);
/*
 * Append the byte-sortable key of a cell (tl-join(1)'s #key parts): a
 * number "n" and 16 hex digits of its double, before a JSON list of
 * numbers "q" in Python's tuple order, before a text "s" and
 * its bytes (control bytes spelled 01 XX) closed by 01 01, before a
 * missing value "z".
 */
void coll_sortkey(struct buf *b, const char *cell, size_t len);

#endif
