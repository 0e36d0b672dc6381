/* See LICENSE file for copyright and license details. */
/*
 * tl.h: the one header every tl program includes.
 *
 * It declares what two or more programs share: diagnostics and exit
 * status, checked allocation, the record stream (rec.c), numbers
 * (num.c), growable buffers (buf.c), Python-style cell rendering
 * (pyfmt.c) and the CSV writer (csvout.c).  The record format itself is documented in tl(7).
 */
#ifndef TL_H
#define TL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The one version, config.mk's VERSION, comes in from the build. */
#ifndef TL_VERSION
#error "TL_VERSION is not set: build with make (config.mk)"
#endif

#define LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* Exit statuses shared by every program (see the EXIT STATUS sections). */
enum {
	TL_OK = 0,	/* success */
	TL_EDATA = 1,	/* bad input data, I/O error, failed write */
	TL_EUSAGE = 2	/* bad usage */
};

/* ---- util.c: diagnostics, allocation, files ---- */

/*
 * Size of the stdio buffers of stdin and stdout, and of the files the
 * passes open.  64 KiB, not more: each page of a buffer costs a page
 * fault the first time it is touched (about 1.3 us on a VM), and a
 * TraceDiff starts some 40 programs; 256 KiB buffers made 17,500
 * faults of it, 64 KiB 14,500, and the pipes of 1 MiB (TL_PIPESZ)
 * still let the two ends run side by side.
 */
#define TL_IOBUF (1 << 16)
/* Size of the stdio buffer of a file written (see tl_isfile). */
#define TL_FILEBUF (1 << 16)
/* (a file written gets a buffer of TL_IOBUF bytes, used as TL_FILEBUF) */
_Static_assert(TL_FILEBUF <= TL_IOBUF, "TL_FILEBUF > TL_IOBUF");
/* The size tl_pipesize asks for: the default pipe-max-size. */
#define TL_PIPESZ (1 << 20)

/*
 * Remember the program name; a broken pipe then exits 0 quietly.
 * Also gives stdin and stdout (unless a terminal) TL_IOBUF buffers
 * (stdout TL_FILEBUF, if a file), and pipes TL_PIPESZ: call it first,
 * before any I/O.
 */
void tl_setprogname(const char *argv0);
/* Make FD, if a pipe or fifo, hold TL_PIPESZ bytes (best effort). */
void tl_pipesize(int fd);
/* 1 when FD is a regular file: written through TL_FILEBUF bytes. */
int tl_isfile(int fd);
const char *tl_progname(void);
/* Print "prog: msg" on stderr; a message ending in ':' gets strerror(errno). */
void tl_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* tl_warn, then exit(TL_EDATA). */
_Noreturn void tl_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* tl_warn, then exit(TL_EUSAGE). */
_Noreturn void tl_usage_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *tl_malloc(size_t n);
void *tl_calloc(size_t n, size_t size);
void *tl_realloc(void *p, size_t n);
/* Grow *p (an array of *cap elements of size sz) to hold at least need. */
void tl_grow(void **p, size_t *cap, size_t need, size_t sz);
char *tl_strdup(const char *s);
char *tl_strndup(const char *s, size_t n);
/* fopen, with "-" meaning stdin or stdout; dies on failure. */
FILE *tl_fopen(const char *path, const char *mode);
/* Flush, check and close fp; warns and returns TL_EDATA on any error. */
int tl_fshut(FILE *fp, const char *name);
/* Parse a whole decimal integer in [min, max] or die naming the option. */
long long tl_strtonum(const char *s, long long min, long long max, const char *what);
/* Treat --help and --version the same way in every program. */
void tl_longopts(int argc, char *argv[], void (*usage)(int));

/* ---- ival.c: TraceLens's interval arithmetic ---- */

/* A time: a double in microseconds, or exact nanoseconds. */
union tv {
	double d;	/* microseconds, TraceLens's arithmetic */
	int64_t n;	/* nanoseconds (exact) */
};

/* A time interval [s, e]. */
struct iv {
	union tv s;	/* start */
	union tv e;	/* end */
};

/*
 * Intervals merged on the fly, in start order: TraceLens's
 * merge_intervals.  Set exact, cmp and thresh, then mg_reset before
 * each set of intervals.
 */
struct merger {
	int exact;	/* times are nanoseconds, not doubles */
	int cmp;	/* gaps summed: 0 all, '<' below thresh, '>' at or above */
	double thresh;	/* that threshold, in microseconds */
	int open;	/* an interval is being merged */
	struct iv cur;	/* the interval being merged */
	union tv first;	/* start of the first interval */
	union tv sum;	/* lengths of the closed intervals, in order */
	union tv gsum;	/* lengths of the chosen gaps, in order */
	union tv last;	/* start of the last interval seen (order check) */
	int seen;	/* some interval was seen */
	int sint;	/* cur's start is a Python int */
	int eint;	/* cur's end is a Python int */
	int nonint;	/* some merged length is a float, so sums are */
};

/* Parse a time; -1 when s[0..len) is not one. */
int ival_parse(int exact, const char *s, size_t len, union tv *t);
/*
 * Parse a time given in nanoseconds (rocprofv3's), as TraceLens takes
 * it: ns / 1000.0 in a double, or exactly when exact (an integer only).
 */
int ival_parse_ns(int exact, const char *s, size_t len, union tv *t);
union tv ival_add(int exact, union tv a, union tv b);
union tv ival_sub(int exact, union tv a, union tv b);
int ival_cmp(int exact, union tv a, union tv b);
union tv ival_zero(int exact);
/* Format t in microseconds, as TraceLens would write it; returns buf. */
char *ival_fmt(int exact, union tv t, char *buf, size_t size);
void mg_reset(struct merger *m);
/* Close the interval being merged. */
void mg_close(struct merger *m);
/*
 * Add [s, e]; -1 (and nothing added) when s is before the last start.
 * sint and eint: s and e are Python ints (integer ts; ts + dur of
 * integers), which decide the type of the lengths as in Python.
 */
int mg_add(struct merger *m, union tv s, union tv e, int sint, int eint);
/* The length of the union so far (0 when empty); closes the open interval. */
union tv mg_union(struct merger *m);
/*
 * Format t, a sum of m's lengths, as Python's value of it: an int when
 * each merged interval's start and end were ints (0 + ints).
 */
char *mg_fmt(const struct merger *m, union tv t, char *buf, size_t size);

/* ---- rec.c: the record stream (tl(7)) ---- */

/* One field of a record: points into the reader's line buffer. */
struct rec_field {
	char *s;	/* first byte; NUL-terminated in the buffer */
	size_t len;	/* length in bytes, escapes not undone */
};

/*
 * A record reader.  Ownership: the reader owns line and f; the
 * fields of a record are valid only until the next rec_read().  A
 * filter that keeps a value across records must copy it.
 */
struct rec_reader {
	FILE *fp;		/* input stream, not owned */
	const char *name;	/* input name for diagnostics, not owned */
	char *line;		/* the header's line buffer (getline), reused */
	size_t cap;		/* allocated size of line */
	char *buf;		/* the records' read buffer, owned; NULL before */
	size_t bcap;		/* allocated size of buf */
	size_t beg;		/* first byte of buf not yet returned */
	size_t end;		/* one past the last byte read into buf */
	int eof;		/* fp has no more bytes */
	size_t lineno;		/* 1-based number of the last line read */
	struct rec_field *f;	/* fields of the current record */
	size_t nf;		/* number of fields in f */
	size_t fcap;		/* allocated size of f */
	char **hdr;		/* header field names (copied), or NULL */
	size_t nhdr;		/* number of header fields */
	char *cur;		/* rec_next: the line read, in buf, NUL-ended */
	size_t curlen;		/* its length */
};

void rec_open(struct rec_reader *r, FILE *fp, const char *name);
void rec_close(struct rec_reader *r);
/* Read the next line into fields; 1 for a record, 0 at EOF; dies on error. */
int rec_read(struct rec_reader *r);
/* rec_read without the split: the line is r->cur (r->curlen bytes),
 * valid until the next read; the fields are not set until rec_split. */
int rec_next(struct rec_reader *r);
/* Split the line rec_next read into fields, as rec_read does. */
void rec_split(struct rec_reader *r);
/* Read the header line and keep its names; dies if there is none. */
void rec_read_header(struct rec_reader *r);
/* A stream without a header line: its fields are named by names,
 * comma-separated, as if its header had been read. */
void rec_name_header(struct rec_reader *r, const char *names);
/* Column index of a header name, or -1. */
int rec_col(const struct rec_reader *r, const char *name);
/* rec_col, but dies naming the input when the column is missing. */
int rec_need(const struct rec_reader *r, const char *name);
/* Field i of the current record ("" when the record is short). */
const char *rec_get(const struct rec_reader *r, int i, size_t *len);
/*
 * Field i of a reader with a header as a number, into *d: 1, or 0 when
 * the field is empty (*d untouched); not a number is an error naming
 * the line and the column.
 */
int rec_double(const struct rec_reader *r, int i, double *d);
/* Die unless the record has exactly as many fields as the header. */
void rec_check_width(const struct rec_reader *r);
/* Undo the escapes of s[0..len) in place; returns the new length. */
size_t rec_unescape(char *s, size_t len);
/* Fields col[0..n) of the current record, unescaped, as n strings in
 * one allocation: out[k] is the k-th, out[0] the block to free.  (One
 * malloc a record, not one a field: that was a third of tl-lca's work.)
 * The record itself is left as it was. */
void rec_strs(const struct rec_reader *r, const int *col, size_t n, char **out);
/* Write s[0..len) with TAB, LF, CR, NUL and backslash escaped. */
void rec_put(FILE *fp, const char *s, size_t len);
struct buf;
/* rec_put, appending to b (buf.c). */
void rec_bput(struct buf *b, const char *s, size_t len);
/* Write a NUL-terminated string escaped. */
void rec_puts(FILE *fp, const char *s);
/* Write fields as one record (each escaped), then a newline. */
void rec_write(FILE *fp, const char *const *fields, size_t n);

/*
 * The first TAB in [p, end), or end.  Most fields are a few bytes: a
 * call of memchr each costs more than the scan, so 8 bytes at a time
 * inline (the zero-byte test of v = w ^ TABs; its lowest hit is exact).
 * For the readers that split lines into fields.
 */
static inline char *
rec_tabchr(char *p, char *end)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && \
    defined(__GNUC__)
	uint64_t w, v, t;

	for (; end - p >= 8; p += 8) {
		memcpy(&w, p, 8);
		v = w ^ 0x0909090909090909ULL;
		t = (v - 0x0101010101010101ULL) & ~v & 0x8080808080808080ULL;
		if (t != 0)
			return p + (__builtin_ctzll(t) >> 3);
	}
	while (p < end && *p != '\t')
		p++;
	return p;
#else
	char *t = memchr(p, '\t', (size_t)(end - p));

	return t ? t : end;
#endif
}

/* ---- reread.c: rows read twice, by offset ---- */

/* A record stream read once in order, then again row by row by offset. */
struct reread {
	struct rec_reader *r;	/* the stream's reader (its header read), not owned */
	FILE *fp;		/* what the rows are read again from: r->fp or copy */
	FILE *copy;		/* the copy of a stream that cannot seek, or NULL; owned */
	int flushed;		/* copy is flushed, for reading */
	off_t base;		/* offset of the first record in fp */
	off_t off;		/* offset of the next record, from base */
	char *line;		/* the row read again, owned */
	size_t cap;		/* allocated size of line */
	char *win;		/* bytes of fp read ahead by pread, owned */
	size_t wcap;		/* allocated size of win */
	off_t wbase;		/* offset of win[0] in fp */
	size_t wlen;		/* bytes in win */
	off_t wnext;		/* offset just after the last row read */
};

/* Start, after rec_read_header(r); copies r's stream when it cannot seek. */
void rr_open(struct reread *rr, struct rec_reader *r);
/* The next record into r's fields (rec_read) and its offset; 0 at EOF. */
int rr_next(struct reread *rr, off_t *off);
/* The record at off into r's fields; lineno for messages. */
void rr_read(struct reread *rr, off_t off, size_t lineno);
/* rr_read of a record whose length (without its newline) is known:
 * one read, of it alone, however the records come. */
void rr_readn(struct reread *rr, off_t off, size_t len, size_t lineno);
void rr_close(struct reread *rr);

/* ---- num.c: numbers ---- */

/*
 * Parse a JSON or decimal number as exact integer nanoseconds, given
 * text in microseconds.  Returns 0 on success, -1 if the text is not
 * a number, does not fit, or is finer than a nanosecond.
 */
int num_us_to_ns(const char *s, size_t len, int64_t *ns);
/* Parse a whole field as a double, the way Python's float() does. */
int num_double(const char *s, size_t len, double *d);
/* Parse a whole field as a signed 64-bit integer. */
int num_int64(const char *s, size_t len, int64_t *v);
/*
 * s[0..len) is an integer as JSON writes one (optional minus, digits)
 * that fits int64: Python reads it as an int, any other number as a float.
 */
int num_isint(const char *s, size_t len);
/* num_isint's test, giving the value in *v: 0, or -1 when it fails. */
int num_jsonint(const char *s, size_t len, int64_t *v);
/*
 * v in decimal, as printf's %lld writes it (snprintf is most of the
 * cost of a list of shapes), ending at end (made NUL; 21 bytes before
 * it are room enough): its first byte.
 */
char *num_lld(long long v, char *end);
/*
 * Format d, a whole number, as Python prints an int (a sum of ints
 * below 2^53 is exact in a double); returns buf.
 */
char *num_pyint(double d, char *buf, size_t size);
/* Format d as Python's repr(float) does ("220.0", "1e-05"); returns buf. */
char *num_pyrepr(double d, char *buf, size_t size);
/* Format integer nanoseconds as microseconds, shortest exact decimal. */
char *num_ns_to_us(int64_t ns, char *buf, size_t size);
/*
 * Write the valid JSON number s[0..len), which has a fraction or an
 * exponent (a float to Python), as a plain decimal of the same exact
 * value that reads as a float: "1.12e3" as "1120.0", "-5E-3" as
 * "-0.005".  Returns its length, 0 if it needs more than size bytes
 * (or its mantissa more than 64 digits).  A value below 1e-400, 0
 * as a double, is "0.0".
 */
size_t num_plain(char *out, size_t size, const char *s, size_t len);

/* ---- buf.c: growable buffers ---- */

/* A growable byte string; s is always NUL-terminated once used. */
struct buf {
	char *s;	/* bytes, owned */
	size_t len;	/* bytes used, not counting the NUL */
	size_t cap;	/* bytes allocated */
};

/* Make room for need bytes in all (the writers' slow path). */
void buf_grow(struct buf *b, size_t need);
void buf_adds(struct buf *b, const char *s);

/* (inline: the writers call these per field and per byte) */
static inline void
buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap)
		buf_grow(b, b->len + n + 1);
	if (n > 0)	/* (s may be NULL then: an empty buf's) */
		memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static inline void
buf_addc(struct buf *b, char c)
{
	if (b->len + 2 > b->cap)
		buf_grow(b, b->len + 2);
	b->s[b->len++] = c;
	b->s[b->len] = '\0';
}

/* Append the code point cp as UTF-8. */
void buf_addcp(struct buf *b, unsigned cp);
/*
 * The TABs among the 16 bytes at p as the bits of a mask, the first
 * byte the lowest (SSE2, in every x86-64; TL_TABMASK says there is
 * one): the field splitters' block scan.
 */
#ifdef __SSE2__
#include <emmintrin.h>
#define TL_TABMASK 1
static inline unsigned
tab_mask16(const char *p)
{
	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
	    _mm_loadu_si128((const __m128i *)(const void *)p),
	    _mm_set1_epi8('\t')));
}

/*
 * The fields that the TABs of the 16 bytes at p end, after the *nf of
 * *f (grown by tl_grow, *fcap its room), the first from *s, the start of
 * the field under way, which moves past each TAB; with nul, each TAB
 * made a NUL.  The field splitters' block step (rec.c, tl-tree's
 * lazy_split).  (Room for 16 first: no test a field, and the count in a
 * register.)
 */
static inline void
tab_fields16(char *p, char **s, struct rec_field **f, size_t *nf,
    size_t *fcap, int nul)
{
	unsigned m = tab_mask16(p);
	size_t n = *nf;
	char *st = *s, *t;

	if (m == 0)
		return;
	if (n + 16 > *fcap)
		tl_grow((void **)f, fcap, n + 16, sizeof(**f));
	for (; m != 0; m &= m - 1) {
		t = p + __builtin_ctz(m);
		if (nul)
			*t = '\0';
		(*f)[n].s = st;
		(*f)[n++].len = (size_t)(t - st);
		st = t + 1;
	}
	*nf = n;
	*s = st;
}
#endif

/*
 * The length of the longest prefix of s[0..n), in whole words of 8
 * bytes, with no byte below 0x20, no backslash and no q (0: no such
 * byte): what the writers that escape can copy as it is without looking
 * at each byte (a word with one of them is left to their byte loop).
 */
static inline size_t
plainrun(const char *s, size_t n, unsigned char q)
{
	const uint64_t ones = 0x0101010101010101ULL;
	const uint64_t highs = 0x8080808080808080ULL;
	uint64_t x, y, hit;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&x, s + i, 8);
		/* a byte below 0x20; a byte equal to '\\'; to q */
		hit = (x - ones * 0x20) & ~x;
		y = x ^ (ones * '\\');
		hit |= (y - ones) & ~y;
		if (q != 0) {
			y = x ^ (ones * q);
			hit |= (y - ones) & ~y;
		}
		if (hit & highs)
			break;
	}
	return i;
}

void buf_reset(struct buf *b);
void buf_free(struct buf *b);

/* ---- pyfmt.c: cells as Python writes them ---- */

/*
 * Append the Python literal of JSON text json[0..len): arrays become
 * tuples when tuples is set (as TraceLens's list_to_tuple) and lists
 * otherwise, strings are quoted as repr() quotes them, true, false and
 * null become True, False and None.  Returns 0, or -1 when json is not
 * valid JSON (b then holds a partial literal).
 */
int pylit(struct buf *b, const char *json, size_t len, int tuples);
/*
 * Append to b, escaped as a record field, the record field s[0..len),
 * escaped JSON, as pandas writes the Python value in a CSV cell: a
 * string as its decoded text, anything else as its pylit (with
 * tuples); a field that is not JSON goes as it is.
 */
void pylit_field(struct buf *b, const char *s, size_t len);
/* Append the decoded JSON string body s[0..n) (no quotes); -1 on a bad escape. */
int json_unescape(struct buf *b, const char *s, size_t n);
/* Append repr() of the UTF-8 string s[0..len). */
void pystr(struct buf *b, const char *s, size_t len);
/* Append s[0..len) as a JSON string, quotes included. */
void json_str(struct buf *b, const char *s, size_t len);
/* Append s[0..len) as Python's json.dumps(ensure_ascii=False) writes a
 * string: \b \f \n \r \t short, other controls \u00XX. */
void json_pystr(struct buf *b, const char *s, size_t len);
/*
 * Append the record field s[0..len) (escaped, as rec.c keeps it) as a
 * JSON value: a finite number stays as written, "" is null, anything
 * else is a string.
 */
void json_val(struct buf *b, const char *s, size_t len);

/* ---- csvout.c: CSV output as pandas' to_csv writes it ---- */

/* Write one cell, quoted only when it holds ',', '"', CR or LF. */
void csv_cell(FILE *fp, const char *s, size_t len);
/* Write the separator before every cell but the first of a row. */
void csv_sep(FILE *fp, int first);
/* Append s[0..len) to b as one cell, quoted as csv_cell quotes it. */
void csv_bcell(struct buf *b, const char *s, size_t len);
/* Append the record field s[0..len) (escaped, tl(7)) as a text cell. */
void csv_bfield(struct buf *b, const char *s, size_t len);
/* Append d as pandas writes a float: repr, NaN an empty cell. */
void csv_bnum(struct buf *b, double d);
/* Append the record field s[0..len), JSON, as a Python literal with
 * lists ([[4, 197, 768], []]); a field that is not JSON as text. */
void csv_blist(struct buf *b, const char *s, size_t len);

#endif
