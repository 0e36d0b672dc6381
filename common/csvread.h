/* See LICENSE file for copyright and license details. */
/*
 * csvread.h: read a table one row at a time, whether it is a CSV file
 * (RFC 4180 quoting, as pandas' to_csv writes it; parsed by libcsv) or
 * a tl(7) record stream (TAB-separated, backslash escapes).  The
 * format is told from the first line: a tl(7) header holds a TAB that
 * is not inside a quoted CSV field; anything else is CSV.
 *
 * Ownership: the reader owns every buffer.  The fields of a row are
 * valid only until the next csvr_read(); a program that keeps a value
 * across rows must copy it.  Fields are NUL-terminated, with their
 * length beside them (a field may hold a NUL byte).
 *
 * Memory: the current row, plus the rows that end on the same input
 * line (only a bare CR can end more than one row on a line).  Time is
 * linear in the input, however long a cell.
 */
#ifndef CSVREAD_H
#define CSVREAD_H

#include <stddef.h>
#include <stdio.h>

#include <csv.h>

/* One parsed row kept in the reader's queue. */
struct csvr_row {
	char *data;		/* field bytes, each field NUL-terminated, owned */
	size_t len;		/* bytes used in data */
	size_t cap;		/* bytes allocated for data */
	size_t *off;		/* offset of each field in data, owned */
	size_t nf;		/* number of fields */
	size_t offcap;		/* allocated size of off */
	size_t lineno;		/* input line on which the row ends */
};

struct csvr {
	FILE *fp;		/* input, not owned */
	const char *name;	/* input name for diagnostics, not owned */
	int fmt;		/* CSVR_UNKNOWN until the first line is read */
	struct csv_parser cp;	/* libcsv state, CSV only */
	int cpinit;		/* cp has been initialised */
	int eof;		/* the input is exhausted */
	char *line;		/* getline buffer, owned */
	size_t linecap;		/* allocated size of line */
	size_t lineno;		/* physical lines read so far */
	size_t qline;		/* line the open quoted field began on */
	struct csvr_row *q;	/* completed rows not yet returned, owned */
	size_t nq;		/* rows in q (slots 0..nq-1 used) */
	size_t qhead;		/* next row of q to return */
	size_t qcap;		/* allocated size of q */
	char **f;		/* fields of the current row, into a q row */
	size_t *flen;		/* their lengths */
	size_t nf;		/* number of fields of the current row */
	size_t fcap;		/* allocated size of f and flen */
	size_t rowno;		/* rows returned so far (the header is row 1) */
	size_t rowline;		/* input line on which the current row ends */
	const char *err;	/* why csvr_next() failed: a static string */
};

enum {
	CSVR_UNKNOWN,		/* nothing read yet */
	CSVR_CSV,		/* comma-separated values */
	CSVR_TSV		/* tl(7) record stream */
};

/* Start reading fp; name is used in messages. */
void csvr_open(struct csvr *r, FILE *fp, const char *name);
/* Free every buffer; fp is not closed. */
void csvr_close(struct csvr *r);
/*
 * Read the next row into r->f[0..r->nf); returns 1 for a row, 0 at
 * the end of the input and -1 on a read error or an unterminated
 * quoted field (r->err says which; r->lineno is the line, for an
 * unterminated field the one its quote opened on).  Blank lines of a
 * CSV are skipped, as pandas skips them.
 */
int csvr_next(struct csvr *r);
/* csvr_next(), but an error ends the program with one line naming the input. */
int csvr_read(struct csvr *r);
/*
 * The n header names nm[] (each allocated) made the column names that
 * pandas' readers make of them: an empty one "Unnamed: i", a repeated
 * one with ".1", ".2" ... (the first not among the names).
 */
void csvr_pdnames(char **nm, size_t n);

#endif
