/* See LICENSE file for copyright and license details. */
/*
 * xlsxread.h: read the sheets of an Excel workbook (.xlsx) row by row,
 * as openpyxl reads them for pandas' read_excel: a zip (minizip) of
 * XML parts (expat), each sheet streamed, one row in memory.
 *
 * The shared-strings table, which can be as large as the sheets, is
 * not kept in memory: the first read of a sheet spills it to two
 * unlinked temporary files in TMPDIR (the texts, and an index of
 * offsets), and a cell that names string n is read back by offset.
 *
 * Errors are returned, not fatal: a function that fails returns -1
 * and leaves one line in x->err (without the file name), so that a
 * program can say "prog: FILE: why" and a fuzz target can go on.
 * Memory: one row of one sheet (at most XLSX_MAXCOL columns and
 * XLSX_MAXTEXT bytes of text), the sheet list, and expat's buffers.
 */
#ifndef XLSXREAD_H
#define XLSXREAD_H

#include <stddef.h>
#include <stdio.h>

#include "tl.h"

#define XLSX_MAXCOL 16384		/* Excel's last column, XFD */
#define XLSX_MAXROW 1048576		/* Excel's last row */
#define XLSX_MAXTEXT (64u << 20)	/* bytes of text in one row, or one string */

/* What a cell holds, as openpyxl types it. */
enum {
	XC_NONE,		/* no cell, or no value: pandas reads "" */
	XC_NUM,			/* a number; text as written (<v>) */
	XC_STR,			/* a string: shared, inline or a formula's */
	XC_BOOL,		/* a boolean; text "0" or "1" as written */
	XC_ERR			/* an error value such as #DIV/0!: pandas' NaN */
};

/* One cell of a row. */
struct xcell {
	int kind;		/* XC_* */
	size_t off;		/* its text starts at row text.s + off */
	size_t len;		/* and is len bytes long (NUL after it) */
};

/* One row, as the reader hands it out. */
struct xrow {
	size_t num;		/* 1-based row number (<row r=...>, or counted) */
	struct xcell *c;	/* cells by column, 0-based, gaps XC_NONE; owned */
	size_t n;		/* columns: one past the last cell given */
	size_t cap;		/* allocated size of c */
	struct buf text;	/* the cells' texts, each NUL-ended; owned */
};

/* One worksheet of the workbook, in the workbook's order. */
struct xsheet {
	char *name;		/* sheet name (UTF-8), owned */
	char *part;		/* zip entry of its XML, or NULL if unresolved; owned */
};

struct xlsx_mem;

/* An open workbook. */
struct xlsx {
	const char *name;	/* file name for the caller's messages, not owned */
	void *zf;		/* minizip's unzFile */
	struct xlsx_mem *mem;	/* the bytes of xlsx_openmem(), or NULL; owned */
	struct xsheet *sheet;	/* the worksheets (not chart sheets), owned */
	size_t nsheet;		/* how many */
	char *sstpart;		/* zip entry of the shared strings, or NULL; owned */
	int sstread;		/* the shared strings have been spilled */
	FILE *sstr;		/* spilled texts, unlinked temporary, owned */
	FILE *sidx;		/* their (offset, length) pairs, 16 bytes each, owned */
	size_t nsst;		/* shared strings spilled */
	struct buf tmp;		/* scratch for one shared string */
	char err[512];		/* why the last call failed */
};

/* Called with each row of a sheet; nonzero stops the read (and is returned). */
typedef int (*xlsx_rowfn)(const struct xrow *r, void *arg);

/* Open the workbook in file path, or in data[0..size); 0 or -1. */
int xlsx_open(struct xlsx *x, const char *path);
int xlsx_openmem(struct xlsx *x, const void *data, size_t size, const char *name);
/* Free everything; x may have failed to open. */
void xlsx_close(struct xlsx *x);
/* Index of the sheet called name, or -1. */
long xlsx_find(const struct xlsx *x, const char *name);
/*
 * Read sheet i, calling fn once per row present in its XML, in order
 * (rows the XML leaves out are not called; see struct xrow's num).
 * 0 at the end of the sheet, -1 on bad data, or fn's nonzero return.
 */
int xlsx_read(struct xlsx *x, size_t i, xlsx_rowfn fn, void *arg);

#endif
