/* See LICENSE file for copyright and license details. */
/*
 * tl-join: outer-join tables on named key fields, as pandas' outer
 * merge joins them, one key group at a time.
 *
 * Every input (CSV or tl(7) TSV) must be sorted by its key.  The
 * output has the key fields, then "FIELD__TAG_diff" and
 * "FIELD__TAG_pct" for every -d field and non-baseline input, then
 * every other field of every input as "TAG::FIELD".  Cells are written
 * as pandas writes the merged frame: each column is typed the way
 * read_csv types it (int64, float64, bool or object), an int64 column
 * that gains an empty cell in the join becomes float64 ("220.0"), and
 * so on.  That needs to know, before writing, which inputs lack a key
 * somewhere, so the inputs are read twice: once to type the columns
 * and count the groups, once to write.
 *
 * -p prepares one input for the join instead: it writes the rows as
 * tl(7) records headed by a field "#key" whose bytes sort (under
 * LC_ALL=C sort) the way pandas orders the keys: numbers by value,
 * strings by code point, missing values last.  Equal "#key" means
 * equal keys to pandas (int 1 equals float 1.0).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tl.h"
#include "csvread.h"
#include "treeio.h"

#define KEYFIELD "#key"	/* name of the field -p writes first */

/* A column's type, as pandas' read_csv would infer it. */
enum {
	T_INT,			/* int64: all integers, none missing */
	T_FLOAT,		/* float64: numbers, or all missing */
	T_BOOL,			/* True/False (bool, or object when some are missing) */
	T_OBJ			/* object: strings as written */
};

/* What is known of a column's values so far (see coltype()). */
struct colseen {
	size_t nval;		/* cells holding a value */
	size_t nna;		/* missing cells */
	unsigned char noint;	/* some value is not an integer */
	unsigned char nofloat;	/* some value is not a number */
	unsigned char nobool;	/* some value is not True/False */
};

/* The rows of one input that share the current key. */
struct group {
	struct buf b;		/* fields of every row, each NUL-terminated */
	size_t *off;		/* field j of row r starts at b.s + off[r*ncol + j] */
	size_t *len;		/* and is len[r*ncol + j] bytes long */
	size_t cap;		/* allocated entries in off and len */
	size_t nrow;		/* rows in the group */
};

/* One input of the join. */
struct input {
	const char *path;	/* as named on the command line */
	const char *name;	/* in messages: its -n, or path */
	const char *tag;	/* prefix of its columns; owned if made from path */
	FILE *fp;		/* the file, or a seekable copy of a pipe; owned
				   unless stdin */
	struct csvr rd;		/* row reader */
	size_t ncol;		/* fields in the header */
	char **hdr;		/* header names, owned */
	size_t *kcol;		/* column of each key field */
	long *dcol;		/* column of each -d field, or -1 */
	struct colseen *seen;	/* typing state of each column */
	int *type;		/* T_* of each column, after the first pass */
	size_t nrows;		/* data rows */
	int missing;		/* some output row has no row of this input */
	int newkeys;		/* it has a key that no earlier input has */
	int more;		/* rd holds a row not yet grouped */
	struct buf key;		/* sort key of that row */
	struct buf nkey;	/* scratch for the next row's key */
	struct group g;		/* rows of the current group (second pass) */
	int book;		/* -w, -W: its cells are a workbook's */
};

/* Output column kinds. */
enum { C_KEY, C_FIELD, C_DIFF, C_PCT };

/* One output column. */
struct outcol {
	int kind;		/* C_* */
	size_t in;		/* input (C_FIELD), or variant input (C_DIFF, C_PCT) */
	size_t idx;		/* column (C_FIELD), key (C_KEY) or -d field index */
	char *name;		/* header name, owned */
	int ktype;		/* C_KEY: common numeric type, or -1 for none */
};

static const char **keys;	/* -k: key fields, in order */
static size_t nkeys;
static const char **tags;	/* -t: one tag per input */
static size_t ntags;
static const char **diffs;	/* -d: fields to diff against the first input */
static size_t ndiffs;
static const char **excl;	/* -x: fields -p leaves out */
static size_t nexcl;
static int cflag;		/* -c: -p keys on the first field with a value */
static int pflag;		/* -p: prepare one input */
static int qflag;		/* -q: no note about repeated keys */
static int rflag;		/* -r: -p orders keys descending */
static int wflag;		/* -w: cells as read_excel reads a workbook's */
static const char *books;	/* -W: per input, 1 if a workbook's, else 0 */
static const char **labels;	/* -n: the inputs' names in messages */
static size_t nlabels;

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: tl-join [-qw] [-d field] [-k field] [-n name] [-t tag] [-W books]\n"
	    "               file ...\n"
	    "       tl-join -p [-crw] [-k field] [-n name] [-x field] [file]\n");
	exit(status);
}

static void
addopt(const char ***v, size_t *n, const char *s)
{
	*v = tl_realloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

/* ---- cells as pandas reads them ---- */

/*
 * pandas' default na_values (2.x, with "None").  A workbook's cells
 * (-w) are read by read_excel of pandas 1.5, as TraceLens's reference
 * comparison of workbooks was made: there "None" is text.
 */
static int
isna(const char *s, size_t len, int book)
{
	static const char *const na[] = {
		"", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN",
		"-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A", "NA", "NULL",
		"NaN", "None", "n/a", "nan", "null"
	};
	size_t i;

	if (len == 0)
		return 1;
	/* Most cells start with a digit or a letter none of these has. */
	if (len > 8 || !strchr("#-1<Nn", s[0]))
		return 0;
	for (i = 1; i < LEN(na); i++)
		if (na[i][0] == s[0] && strlen(na[i]) == len &&
		    memcmp(na[i], s, len) == 0)
			return !book || strcmp(na[i], "None") != 0;
	return 0;
}

static int
isws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	    c == '\r';
}

/* An integer as pandas' parser takes one: blanks around, a sign, digits. */
static int
parseint(const char *s, size_t len, int64_t *v)
{
	const char *p = s, *end = s + len;
	uint64_t u = 0, lim;
	int neg = 0;

	while (p < end && isws(*p))
		p++;
	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	if (p == end || *p < '0' || *p > '9')
		return -1;
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (u > (lim - (uint64_t)(*p - '0')) / 10)
			return -1;
		u = u * 10 + (uint64_t)(*p - '0');
	}
	while (p < end && isws(*p))
		p++;
	if (p != end)
		return -1;
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

/* 10^n as the nearest double (exact up to 10^22). */
static double
pow10d(long n)
{
	char b[32];
	double p = 1;

	if (n <= 22) {
		while (n-- > 0)
			p *= 10;
		return p;
	}
	snprintf(b, sizeof(b), "1e%ld", n);
	return strtod(b, NULL);
}

static int
isdig(char c)
{
	return c >= '0' && c <= '9';
}

/* The nearest double to the decimal s[0..len); -1 if out of range. */
static int
nearest(const char *s, size_t len, double *d)
{
	char b[128], *t = len < sizeof(b) ? b : tl_malloc(len + 1);

	memcpy(t, s, len);
	t[len] = '\0';
	*d = strtod(t, NULL);
	if (t != b)
		free(t);
	return isinf(*d) ? -1 : 0;
}

/*
 * A float as pandas' C parser reads it (float_precision "high", the
 * default of pandas 1.x and 2.x, which TraceLens's references were
 * made with): the first 17 digits, leading zeros included, are summed
 * into a double as d = 10 d + digit, then scaled by one multiplication
 * or division by a power of ten.  That is not always the nearest
 * double ("0.006786344981086816" reads as 0.0067863449810868), but it
 * is the one TraceLens computed with.  "inf" and "Infinity" count too;
 * a value out of range does not (pandas keeps such a column as text).
 * A workbook's number (-w) came to pandas through Python's float(),
 * the nearest double, which strtod() gives.
 */
static int
parsefloat(const char *s, size_t len, double *d, int book)
{
	const char *p = s, *end = s + len, *q, *w;
	double x = 0;
	long ex = 0, n;
	int neg = 0, nd = 0, eneg, ned;

	w = s + (len > 0 && (*s == '-' || *s == '+'));
	if (((size_t)(end - w) == 3 && strncasecmp(w, "inf", 3) == 0) ||
	    ((size_t)(end - w) == 8 && strncasecmp(w, "infinity", 8) == 0)) {
		*d = *s == '-' ? -INFINITY : INFINITY;
		return 0;
	}
	while (p < end && isws(*p))
		p++;
	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (; p < end && isdig(*p); p++) {
		if (nd < 17) {
			x = x * 10 + (*p - '0');
			nd++;
		} else
			ex++;
	}
	if (p < end && *p == '.')
		for (p++; p < end && isdig(*p); p++)
			if (nd < 17) {
				x = x * 10 + (*p - '0');
				nd++;
				ex--;
			}
	if (nd == 0)
		return -1;
	if (neg)
		x = -x;
	if (p < end && (*p == 'e' || *p == 'E')) {
		q = p + 1;
		eneg = 0;
		if (q < end && (*q == '-' || *q == '+'))
			eneg = *q++ == '-';
		for (n = 0, ned = 0; q < end && ned < 17 && isdig(*q); q++, ned++)
			n = n * 10 + (*q - '0');
		if (ned > 0) {
			ex += eneg ? -n : n;
			p = q;
		}
	}
	while (p < end && isws(*p))
		p++;
	if (p != end || ex > 308)
		return -1;
	if (book)
		return nearest(s, len, d);
	if (ex > 0)
		x *= pow10d(ex);
	else if (ex < -616)
		x = 0;
	else if (ex < -308) {
		x /= pow10d(-308 - ex);
		x /= pow10d(308);
	} else
		x /= pow10d(-ex);
	if (isinf(x))
		return -1;
	*d = x;
	return 0;
}

/* ---- floats as Python's repr() writes them ---- */

/* A decimal number taken apart: value = (-1)^neg * d.ddd * 10^x. */
struct dec {
	int neg;		/* a minus sign */
	char dig[32];		/* significant digits, no leading or trailing 0 */
	int nd;			/* number of digits; 0 for zero */
	long x;			/* decimal exponent of the first digit */
	int ndig;		/* digits written, leading and trailing 0 too */
	uint64_t m;		/* all written digits as an integer (ndig <= 19) */
	long ex;		/* the value is m * 10^ex */
};

/* Take a decimal cell apart; -1 if it is not one or is too long. */
static int
decparse(const char *s, size_t len, struct dec *d)
{
	const char *p = s, *end = s + len;
	char all[40];
	long e = 0;
	int nint = 0, nfrac = 0, f, i;

	memset(d, 0, sizeof(*d));
	while (p < end && isws(*p))
		p++;
	while (end > p && isws(end[-1]))
		end--;
	if (p < end && (*p == '-' || *p == '+'))
		d->neg = *p++ == '-';
	for (; p < end && isdig(*p); p++, nint++)
		if (nint < (int)sizeof(all))
			all[nint] = *p;
	if (p < end && *p == '.')
		for (p++; p < end && isdig(*p); p++, nfrac++)
			if (nint + nfrac < (int)sizeof(all))
				all[nint + nfrac] = *p;
	d->ndig = nint + nfrac;
	if (d->ndig == 0 || d->ndig > (int)sizeof(all))
		return -1;
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p == end || (e = strtol(p, NULL, 10)) > 400 || e < -400)
			return -1;
		if (*p == '-' || *p == '+')
			p++;
		if (p == end || !isdig(*p))
			return -1;
		while (p < end && isdig(*p))
			p++;
	}
	if (p != end)
		return -1;
	for (i = 0; i < d->ndig && i < 19; i++)
		d->m = d->m * 10 + (uint64_t)(all[i] - '0');
	d->ex = e - nfrac;
	for (f = 0; f < d->ndig && all[f] == '0'; f++)
		;
	d->x = nint - 1 - f + e;
	for (i = f; i < d->ndig && d->nd < (int)sizeof(d->dig) - 1; i++)
		d->dig[d->nd++] = all[i];
	while (d->nd > 0 && d->dig[d->nd - 1] == '0')
		d->nd--;
	d->dig[d->nd] = '\0';
	return 0;
}

/* Write digits dig[0..nd) times 10^x in repr()'s layout. */
static void
fmtrepr(char *buf, size_t size, int neg, const char *dig, int nd, long x)
{
	char *w = buf;
	int i;

	if (size < 48)
		abort();
	if (nd == 0) {
		snprintf(buf, size, neg ? "-0.0" : "0.0");
		return;
	}
	if (neg)
		*w++ = '-';
	if (x >= 16 || x < -4) {
		*w++ = dig[0];
		if (nd > 1) {
			*w++ = '.';
			memcpy(w, dig + 1, (size_t)nd - 1);
			w += nd - 1;
		}
		snprintf(w, size - (size_t)(w - buf), "e%c%02ld",
		    x < 0 ? '-' : '+', x < 0 ? -x : x);
		return;
	}
	if (x < 0) {
		*w++ = '0';
		*w++ = '.';
		for (i = 0; i < -x - 1; i++)
			*w++ = '0';
		memcpy(w, dig, (size_t)nd);
		w += nd;
	} else {
		for (i = 0; i <= x; i++)
			*w++ = i < nd ? dig[i] : '0';
		*w++ = '.';
		if (nd > x + 1) {
			memcpy(w, dig + x + 1, (size_t)(nd - x - 1));
			w += nd - x - 1;
		} else
			*w++ = '0';
	}
	*w = '\0';
}

/*
 * repr() of the float pandas reads from a cell, into buf (48 bytes or
 * more).  num_pyrepr() finds the shortest digits by trying every
 * precision with printf and strtod; cells of a report mostly hold
 * repr() text already, which is checked more cheaply:
 *  - at most 15 significant digits, at most 17 digits written (pandas
 *    sums at most 17) worth less than 2^53 and a scale of at most
 *    10^22: pandas' parse is then the nearest double, whose repr() has
 *    these digits, so no libc call is needed;
 *  - otherwise, text in repr()'s layout is repr() of the value v pandas
 *    reads when it reads back as v, its n digits are printf's %.*e of v
 *    and n - 1 digits do not read back (the shortest digits, as
 *    num_pyrepr() finds them).
 * Anything else goes to num_pyrepr().
 */
static void
floatcell(const char *s, size_t len, double v, char *buf, size_t size)
{
	struct dec d;
	char t[48], *q, *e;
	size_t n;

	if (decparse(s, len, &d) < 0) {
		num_pyrepr(v, buf, size);
		return;
	}
	if (d.nd <= 15 && d.ndig <= 17 && d.m < (uint64_t)1 << 53 &&
	    d.ex <= 22 && d.ex >= -22) {
		fmtrepr(buf, size, d.neg, d.dig, d.nd, d.x);
		return;
	}
	if (d.nd <= 17) {
		/* In repr()'s layout already? */
		while (len > 0 && isws(*s)) {
			s++;
			len--;
		}
		while (len > 0 && isws(s[len - 1]))
			len--;
		fmtrepr(buf, size, d.neg, d.dig, d.nd, d.x);
		n = strlen(buf);
		if (n == len && memcmp(buf, s, len) == 0 &&
		    strtod(buf, NULL) == v) {
			snprintf(t, sizeof(t), "%.*e", d.nd - 1, v);
			q = t + (*t == '-');
			e = strchr(q, 'e');
			if (e != NULL && strtol(e + 1, NULL, 10) == d.x &&
			    q[0] == d.dig[0] && (d.nd == 1 || (e - q - 2 ==
			    d.nd - 1 && memcmp(q + 2, d.dig + 1,
			    (size_t)d.nd - 1) == 0))) {
				if (d.nd == 1)
					return;
				snprintf(t, sizeof(t), "%.*e", d.nd - 2, v);
				if (strtod(t, NULL) != v)
					return;
			}
		}
	}
	num_pyrepr(v, buf, size);
}

static int
parsebool(const char *s, size_t len, int *b)
{
	if ((len == 4 && (!memcmp(s, "True", 4) || !memcmp(s, "TRUE", 4) ||
	    !memcmp(s, "true", 4))) && (*b = 1))
		return 0;
	if (len == 5 && (!memcmp(s, "False", 5) || !memcmp(s, "FALSE", 5) ||
	    !memcmp(s, "false", 5))) {
		*b = 0;
		return 0;
	}
	return -1;
}

static void
see(struct colseen *c, const char *s, size_t len, int book)
{
	int64_t i;
	double d;
	int b;

	if (isna(s, len, book)) {
		c->nna++;
		return;
	}
	c->nval++;
	if (!c->noint && parseint(s, len, &i) < 0)
		c->noint = 1;
	if (c->noint && !c->nofloat && parsefloat(s, len, &d, book) < 0)
		c->nofloat = 1;
	if (!c->nobool && parsebool(s, len, &b) < 0)
		c->nobool = 1;
}

/* The dtype read_csv gives a column with these values. */
static int
coltype(const struct colseen *c)
{
	if (c->nval == 0)
		return c->nna > 0 ? T_FLOAT : T_OBJ;
	if (!c->noint)
		return c->nna == 0 ? T_INT : T_FLOAT;
	if (!c->nofloat)
		return T_FLOAT;
	if (!c->nobool)
		return T_BOOL;
	return T_OBJ;
}

/* A cell of a numeric column as a double; NAN when missing or not a number. */
static double
numval(int type, const char *s, size_t len, int book)
{
	int64_t i;
	double d;
	int b;

	if (isna(s, len, book))
		return NAN;
	if (type == T_INT && parseint(s, len, &i) == 0)
		return (double)i;
	if (type == T_BOOL && parsebool(s, len, &b) == 0)
		return b;
	if (parsefloat(s, len, &d, book) == 0)
		return d;
	return NAN;
}

/* ---- sort keys ---- */

/*
 * Append the sort key of one key cell.  Each part is self-delimiting,
 * so a key of several fields compares field by field:
 *   n + 16 hex digits   a number (order-preserving bits of the double)
 *   s + bytes + 01 01   a string; bytes below 0x0e become 01 (0e + b),
 *                       so no TAB, LF or CR is written and order holds
 *   z                   missing: last, as pandas puts NaN keys
 * Descending (-r) inverts the number's digits and writes a string as
 * hex digits of (ff - byte) closed by '~'.
 */
static void
keypart(struct buf *k, int type, const char *s, size_t len, int desc,
    int book)
{
	static const char hex[] = "0123456789abcdef";
	char h[17];
	uint64_t u;
	size_t i;
	int j;

	if (type != -1 && isna(s, len, book)) {
		buf_addc(k, 'z');
		return;
	}
	if (type == T_INT || type == T_FLOAT || type == T_BOOL) {
		u = key_dbits(numval(type, s, len, book));
		if (desc)
			u = ~u;
		for (j = 15; j >= 0; j--, u >>= 4)
			h[j] = hex[u & 15];
		h[16] = '\0';
		buf_addc(k, 'n');
		buf_add(k, h, 16);
		return;
	}
	buf_addc(k, 's');
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (desc) {
			buf_addc(k, hex[(0xff - c) >> 4]);
			buf_addc(k, hex[(0xff - c) & 15]);
		} else if (c < 0x0e) {
			buf_addc(k, 0x01);
			buf_addc(k, (char)(0x0e + c));
		} else
			buf_addc(k, (char)c);
	}
	if (desc)
		buf_addc(k, '~');
	else
		buf_add(k, "\x01\x01", 2);
}

/* ---- inputs ---- */

/*
 * Open path for reading twice: a regular file as it is, anything else
 * (a pipe, "-") copied to a temporary file first.
 */
static FILE *
openseekable(const char *path)
{
	struct stat st;
	FILE *fp, *tmp;
	char buf[65536];
	size_t n;

	fp = tl_fopen(path, "r");
	if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode))
		return fp;
	if ((tmp = tmpfile()) == NULL)
		tl_die("temporary file:");
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		if (fwrite(buf, 1, n, tmp) != n)
			tl_die("temporary file:");
	if (ferror(fp))
		tl_die("%s: read error:", path);
	if (fp != stdin)
		fclose(fp);
	if (fflush(tmp) == EOF)
		tl_die("temporary file:");
	rewind(tmp);
	return tmp;
}

static long
findcol(const struct input *in, const char *name)
{
	size_t j;

	for (j = 0; j < in->ncol; j++)
		if (strcmp(in->hdr[j], name) == 0)
			return (long)j;
	return -1;
}

/* (Re)start reading an input: header, key and -d columns. */
static void
start(struct input *in)
{
	size_t j;
	long c;

	rewind(in->fp);
	csvr_close(&in->rd);
	csvr_open(&in->rd, in->fp, in->name);
	if (in->hdr != NULL)
		(void)csvr_read(&in->rd);	/* known already */
	else {
		if (csvr_read(&in->rd)) {
			in->ncol = in->rd.nf;
			in->hdr = tl_calloc(in->ncol, sizeof(*in->hdr));
			for (j = 0; j < in->ncol; j++)
				in->hdr[j] = tl_strndup(in->rd.f[j], in->rd.flen[j]);
			/* the columns as pandas names them: TraceLens
			 * compares a sheet read by read_csv */
			csvr_pdnames(in->hdr, in->ncol);
		}
		in->kcol = tl_calloc(nkeys, sizeof(*in->kcol));
		for (j = 0; j < nkeys; j++) {
			if ((c = findcol(in, keys[j])) < 0)
				tl_die("%s: no key field '%s' in the header",
				    in->name, keys[j]);
			in->kcol[j] = (size_t)c;
		}
		in->dcol = tl_calloc(ndiffs, sizeof(*in->dcol));
		/* TraceLens's comparer raises KeyError here; an empty
		 * diff column would pass for "no change" */
		for (j = 0; j < ndiffs; j++)
			if ((in->dcol[j] = findcol(in, diffs[j])) < 0 && in->ncol > 0)
				tl_die("%s: no column '%s' to compare",
				    in->name, diffs[j]);
		in->seen = tl_calloc(in->ncol, sizeof(*in->seen));
	}
	in->key.len = 0;
	in->more = 0;
}

/* Does the input carry the key -p wrote? */
static int
keyed(const struct input *in)
{
	return in->ncol > 0 && strcmp(in->hdr[0], KEYFIELD) == 0;
}

/* Byte order of two keys, as LC_ALL=C sort orders them. */
static int
keycmp(const struct buf *a, const struct buf *b)
{
	int c = memcmp(a->s, b->s, MIN(a->len, b->len));

	if (c != 0)
		return c;
	return a->len < b->len ? -1 : a->len > b->len;
}

/*
 * Read the next row of an input and compute its key; 0 at the end.
 * Dies if the row is ragged or sorts before the previous one.
 */
static int
advance(struct input *in, int typed, int desc)
{
	struct csvr *r = &in->rd;
	struct buf t;
	size_t j;

	if (!csvr_read(r)) {
		in->more = 0;
		return 0;
	}
	if (r->nf != in->ncol)
		tl_die("%s: line %zu: %zu fields, header has %zu", in->name,
		    r->rowline, r->nf, in->ncol);
	in->nkey.len = 0;
	if (keyed(in) && !pflag)
		buf_add(&in->nkey, r->f[0], r->flen[0]);
	else if (cflag && typed) {
		/* The first key field that has a value, behind its number. */
		for (j = 0; j < nkeys; j++)
			if (!isna(r->f[in->kcol[j]], r->flen[in->kcol[j]],
			    in->book))
				break;
		if (j < nkeys) {
			buf_addc(&in->nkey, (char)('0' + j));
			keypart(&in->nkey, in->type[in->kcol[j]],
			    r->f[in->kcol[j]], r->flen[in->kcol[j]], desc,
			    in->book);
		} else
			buf_addc(&in->nkey, 'z');
	} else
		for (j = 0; j < nkeys; j++)
			keypart(&in->nkey, typed ? in->type[in->kcol[j]] : -1,
			    r->f[in->kcol[j]], r->flen[in->kcol[j]], desc,
			    in->book);
	buf_addc(&in->nkey, '\0');	/* so an empty key is not "no key" */
	if (!pflag && in->more && keycmp(&in->nkey, &in->key) < 0)
		tl_die("%s: line %zu: input not sorted by key "
		    "(see tl-join(1))", in->name, r->rowline);
	t = in->key;
	in->key = in->nkey;
	in->nkey = t;
	in->more = 1;
	return 1;
}

static int
samekey(const struct buf *a, const struct buf *b)
{
	return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
}

static void
grouprow(struct group *g, const struct csvr *r)
{
	size_t j, at = g->nrow * r->nf, need = at + r->nf;

	if (need > g->cap) {
		size_t cap = g->cap;

		tl_grow((void **)&g->off, &cap, need, sizeof(*g->off));
		g->len = tl_realloc(g->len, cap * sizeof(*g->len));
		g->cap = cap;
	}
	for (j = 0; j < r->nf; j++) {
		g->off[at + j] = g->b.len;
		g->len[at + j] = r->flen[j];
		buf_add(&g->b, r->f[j], r->flen[j]);
		buf_addc(&g->b, '\0');
	}
	g->nrow++;
}

/* ---- output ---- */

/* Write a cell as pandas writes a value of this column type. */
static void
putcell(FILE *fp, int type, int promoted, const char *s, size_t len,
    int book)
{
	char nb[64];
	int64_t i;
	double d;
	int b;

	if (isna(s, len, book))
		return;
	switch (type) {
	case T_INT:
		if (parseint(s, len, &i) < 0)
			break;
		if (!promoted)
			fprintf(fp, "%lld", (long long)i);
		else {
			floatcell(s, len, (double)i, nb, sizeof(nb));
			fputs(nb, fp);
		}
		return;
	case T_FLOAT:
		if (parsefloat(s, len, &d, book) < 0)
			break;
		floatcell(s, len, d, nb, sizeof(nb));
		fputs(nb, fp);
		return;
	case T_BOOL:
		if (parsebool(s, len, &b) < 0)
			break;
		fputs(b ? "True" : "False", fp);
		return;
	}
	rec_put(fp, s, len);
}

/*
 * pandas puts the columns that look like diff or pct columns
 * (re.match(".*__.*_diff|.*__.*_pct")) right after the keys.
 */
static int
diffname(const char *s)
{
	const char *p = strstr(s, "__");

	return p != NULL && (strstr(p + 2, "_diff") || strstr(p + 2, "_pct"));
}

static char *
joinname(const char *a, const char *sep, const char *b, const char *c)
{
	size_t n = strlen(a) + strlen(sep) + strlen(b) + strlen(c);
	char *s = tl_malloc(n + 1);

	snprintf(s, n + 1, "%s%s%s%s", a, sep, b, c);
	return s;
}

/* The dtype pandas gives column j of input i (a bool column with gaps is object). */
static const char *
dtypename(const struct input *in, size_t j)
{
	switch (in->type[j]) {
	case T_INT: return "int64";
	case T_FLOAT: return "float64";
	case T_BOOL: return in->seen[j].nna > 0 ? "object" : "bool";
	default: return "object";
	}
}

/*
 * TraceLens merges the reports one after another, and pandas refuses
 * to merge a key column of text (object) with a numeric one (an empty
 * column is float64): "You are trying to merge on object and float64
 * columns", so TraceLens's comparison stops there.  Note the first
 * such key; the join goes on, comparing keys by value.  Bool merged
 * with text or numbers becomes text, as pandas casts both to object.
 */
static void
keyclash(const struct input *in, size_t nin)
{
	const char *t, *mt;
	size_t i, k, from, c;

	for (k = 0; k < nkeys; k++) {
		mt = NULL;
		from = 0;
		for (i = 0; i < nin; i++) {
			if (in[i].nrows == 0)
				continue;
			c = in[i].kcol[k];
			t = dtypename(&in[i], c);
			if (mt == NULL) {
				mt = t;
				from = i;
				continue;
			}
			if ((strcmp(mt, "object") == 0) != (strcmp(t, "object") == 0) &&
			    strcmp(mt, "bool") != 0 && strcmp(t, "bool") != 0) {
				tl_warn("key '%s' is %s in %s and %s in %s: TraceLens's "
				    "merge raises ValueError here (object and numeric "
				    "keys); joined by value", keys[k], mt,
				    in[from].name, t, in[i].name);
				return;
			}
			if (strcmp(mt, t) != 0 && (strcmp(mt, "bool") == 0 ||
			    strcmp(t, "bool") == 0 || strcmp(t, "object") == 0))
				mt = "object";
			else if (strcmp(mt, "int64") == 0 && strcmp(t, "float64") == 0)
				mt = t;
		}
	}
}

/* Columns of the joined table, in pandas' order (see build_df_dff). */
static struct outcol *
outcols(struct input *in, size_t nin, size_t *nout)
{
	struct outcol *o, *v;
	size_t n = 0, nv = 0, i, j, k, d, pass;
	int kt, t;

	for (i = 0; i < nin; i++)
		n += in[i].ncol;
	n += nkeys + 2 * ndiffs * nin;
	o = tl_calloc(n, sizeof(*o));
	v = tl_calloc(n, sizeof(*v));
	n = 0;
	for (k = 0; k < nkeys; k++) {
		/*
		 * The key's type as pandas' merges, one input after another,
		 * leave it: the left one's, but float when an int key meets
		 * a float one that adds rows (keys the left lacks).
		 */
		kt = -2;
		for (i = 0; i < nin; i++) {
			if (in[i].nrows == 0)
				continue;
			t = in[i].type[in[i].kcol[k]];
			if (t != T_INT && t != T_FLOAT)
				kt = -1;
			else if (kt == -2 || (kt == T_INT && t == T_FLOAT &&
			    in[i].newkeys))
				kt = t;
		}
		if (kt == -2)
			kt = T_INT;
		o[n].kind = C_KEY;
		o[n].idx = k;
		o[n].ktype = kt;
		o[n++].name = tl_strdup(keys[k]);
	}
	for (i = 0; i < nin; i++)
		for (j = keyed(&in[i]) ? 1 : 0; j < in[i].ncol; j++) {
			for (k = 0; k < nkeys; k++)
				if (in[i].kcol[k] == j)
					break;
			if (k < nkeys)
				continue;
			v[nv].kind = C_FIELD;
			v[nv].in = i;
			v[nv].idx = j;
			v[nv++].name = joinname(in[i].tag, "::", in[i].hdr[j], "");
		}
	for (d = 0; d < ndiffs; d++)
		for (i = 1; i < nin; i++) {
			v[nv].kind = C_DIFF;
			v[nv].in = i;
			v[nv].idx = d;
			v[nv++].name = joinname(diffs[d], "__", in[i].tag, "_diff");
			v[nv].kind = C_PCT;
			v[nv].in = i;
			v[nv].idx = d;
			v[nv++].name = joinname(diffs[d], "__", in[i].tag, "_pct");
		}
	for (pass = 0; pass < 2; pass++)
		for (j = 0; j < nv; j++)
			if (diffname(v[j].name) == (pass == 0))
				o[n++] = v[j];
	free(v);
	*nout = n;
	return o;
}

/* Cell j of the row an input contributes, or NULL when it has none. */
static const char *
cell(const struct input *in, size_t row, size_t j, size_t *len)
{
	if (in->g.nrow == 0)
		return NULL;
	*len = in->g.len[row * in->ncol + j];
	return in->g.b.s + in->g.off[row * in->ncol + j];
}

/* Write variant minus baseline, or 100 * diff / baseline. */
static void
putdiff(FILE *fp, const struct outcol *o, const struct input *in,
    const size_t *row)
{
	const struct input *b = &in[0], *v = &in[o->in];
	long bc = b->dcol[o->idx], vc = v->dcol[o->idx];
	const char *bs = NULL, *vs = NULL;
	size_t bl = 0, vl = 0;
	int64_t bi, vi, di;
	double bd, vd, dd;
	char nb[64];

	if (bc >= 0)
		bs = cell(b, row[0], (size_t)bc, &bl);
	if (vc >= 0)
		vs = cell(v, row[o->in], (size_t)vc, &vl);
	if (bs == NULL || vs == NULL)
		return;
	/* Two int64 columns that stay whole subtract as integers. */
	if (b->type[bc] == T_INT && !b->missing && v->type[vc] == T_INT &&
	    !v->missing && parseint(bs, bl, &bi) == 0 &&
	    parseint(vs, vl, &vi) == 0) {
		di = (int64_t)((uint64_t)vi - (uint64_t)bi);
		if (o->kind == C_DIFF)
			fprintf(fp, "%lld", (long long)di);
		else if (bi != 0)
			fputs(num_pyrepr(100 * ((double)di / (double)bi), nb,
			    sizeof(nb)), fp);
		return;
	}
	/* The reports may mix workbooks and CSV files: each as its kind. */
	bd = numval(b->type[bc], bs, bl, b->book);
	vd = numval(v->type[vc], vs, vl, v->book);
	dd = vd - bd;
	if (isnan(dd))
		return;
	if (o->kind == C_DIFF)
		fputs(num_pyrepr(dd, nb, sizeof(nb)), fp);
	else if (bd != 0)
		fputs(num_pyrepr(100 * (dd / bd), nb, sizeof(nb)), fp);
}

/* Write the cartesian product of the current groups. */
static void
emit(FILE *fp, struct input *in, size_t nin, const struct outcol *o,
    size_t nout, size_t *row)
{
	const struct input *src;
	const char *s;
	size_t i, j, len;

	memset(row, 0, nin * sizeof(*row));
	for (;;) {
		for (j = 0; j < nout; j++) {
			if (j > 0)
				putc('\t', fp);
			switch (o[j].kind) {
			case C_KEY:
				for (i = 0; in[i].g.nrow == 0; i++)
					;
				src = &in[i];
				s = cell(src, row[i], src->kcol[o[j].idx], &len);
				putcell(fp, o[j].ktype >= 0 ? o[j].ktype :
				    src->type[src->kcol[o[j].idx]], 0, s, len,
				    src->book);
				break;
			case C_FIELD:
				src = &in[o[j].in];
				if ((s = cell(src, row[o[j].in], o[j].idx, &len)))
					putcell(fp, src->type[o[j].idx],
					    src->missing, s, len, src->book);
				break;
			default:
				putdiff(fp, &o[j], in, row);
				break;
			}
		}
		putc('\n', fp);
		/* The last input varies fastest, as in sequential merges. */
		for (i = nin; i-- > 0;) {
			if (++row[i] < in[i].g.nrow)
				break;
			row[i] = 0;
		}
		if (i == (size_t)-1)
			return;
	}
}

/*
 * One pass over all inputs, a key group at a time.  The first pass
 * (fp NULL) types the columns, finds inputs that miss a key and counts
 * repeated keys; the second writes.
 */
static void
join(struct input *in, size_t nin, FILE *fp, const struct outcol *o,
    size_t nout, size_t *ndup, size_t *nduprows)
{
	struct buf k = { 0 };
	size_t i, j, n, prod, *row, first;
	int any, rep;

	row = tl_calloc(nin, sizeof(*row));
	for (i = 0; i < nin; i++) {
		start(&in[i]);
		advance(&in[i], 0, 0);
	}
	for (;;) {
		any = 0;
		for (i = 0; i < nin; i++) {
			if (!in[i].more)
				continue;
			if (!any || keycmp(&in[i].key, &k) < 0) {
				buf_reset(&k);
				buf_add(&k, in[i].key.s, in[i].key.len);
			}
			any = 1;
		}
		if (!any)
			break;
		prod = 1;
		rep = 0;
		first = nin;
		for (i = 0; i < nin; i++) {
			struct group *g = &in[i].g;

			g->nrow = 0;
			buf_reset(&g->b);
			n = 0;
			while (in[i].more && samekey(&in[i].key, &k)) {
				if (fp == NULL)
					for (j = 0; j < in[i].ncol; j++)
						see(&in[i].seen[j], in[i].rd.f[j],
						    in[i].rd.flen[j], in[i].book);
				else
					grouprow(g, &in[i].rd);
				n++;
				advance(&in[i], 0, 0);
			}
			if (n == 0)
				in[i].missing = 1;
			else if (first == nin)
				first = i;
			if (n > 1)
				rep = 1;
			if (fp == NULL)
				in[i].nrows += n;
			prod *= n > 0 ? n : 1;
		}
		if (first < nin)
			in[first].newkeys = 1;
		if (rep) {
			(*ndup)++;
			*nduprows += prod;
		}
		if (fp != NULL)
			emit(fp, in, nin, o, nout, row);
	}
	buf_free(&k);
	free(row);
}

/* Free what an input owns and close its file. */
static void
endinput(struct input *in)
{
	size_t j;

	csvr_close(&in->rd);
	if (in->fp != stdin)
		fclose(in->fp);
	for (j = 0; j < in->ncol; j++)
		free(in->hdr[j]);
	free(in->hdr);
	free(in->kcol);
	free(in->dcol);
	free(in->seen);
	free(in->type);
	buf_free(&in->key);
	buf_free(&in->nkey);
	buf_free(&in->g.b);
	free(in->g.off);
	free(in->g.len);
}

static int
dojoin(int argc, char *argv[])
{
	struct input *in;
	struct outcol *o;
	size_t nin = (size_t)argc, i, j, nout, ndup = 0, nduprows = 0;
	int nstdin = 0;
	char *base, *dot;

	if (ntags != 0 && ntags != nin)
		tl_usage_die("%zu tags for %zu inputs", ntags, nin);
	if (nlabels != 0 && nlabels != nin)
		tl_usage_die("%zu names for %zu inputs", nlabels, nin);
	if (books != NULL && strlen(books) != nin)
		tl_usage_die("-W: %zu flags for %zu inputs", strlen(books), nin);
	in = tl_calloc(nin, sizeof(*in));
	for (i = 0; i < nin; i++) {
		in[i].path = argv[i];
		in[i].book = books != NULL ? books[i] == '1' : wflag;
		in[i].name = nlabels ? labels[i] : argv[i];
		if (strcmp(argv[i], "-") == 0 && nstdin++)
			tl_usage_die("only one input may be standard input");
		if (ntags)
			in[i].tag = tags[i];
		else {
			/* TraceLens's default: the basename without extension. */
			base = strrchr(argv[i], '/');
			base = tl_strdup(base ? base + 1 : argv[i]);
			if ((dot = strrchr(base, '.')) != NULL && dot != base)
				*dot = '\0';
			in[i].tag = base;
		}
		for (j = 0; j < i; j++)
			if (strcmp(in[j].tag, in[i].tag) == 0)
				tl_usage_die("tag '%s' names two inputs; use -t",
				    in[i].tag);
	}
	for (i = 0; i < nin; i++)
		in[i].fp = openseekable(in[i].path);

	join(in, nin, NULL, NULL, 0, &ndup, &nduprows);
	for (i = 0; i < nin; i++) {
		if (keyed(&in[i]) != keyed(&in[0]))
			tl_die("%s: %s a '%s' field and %s does%s", in[i].name,
			    keyed(&in[i]) ? "has" : "lacks", KEYFIELD,
			    in[0].name, keyed(&in[0]) ? "" : " not");
		in[i].type = tl_calloc(in[i].ncol, sizeof(*in[i].type));
		for (j = 0; j < in[i].ncol; j++)
			in[i].type[j] = in[i].nrows ? coltype(&in[i].seen[j]) :
			    T_OBJ;
	}
	keyclash(in, nin);
	o = outcols(in, nin, &nout);
	for (j = 0; j < nout; j++) {
		if (j > 0)
			putc('\t', stdout);
		rec_puts(stdout, o[j].name);
	}
	putc('\n', stdout);
	ndup = nduprows = 0;
	join(in, nin, stdout, o, nout, &ndup, &nduprows);
	if (ndup > 0 && !qflag)
		tl_warn("%zu repeated key%s joined as a cartesian product "
		    "(%zu rows)", ndup, ndup == 1 ? "" : "s", nduprows);
	for (i = 0; i < nin; i++) {
		if (!ntags)
			free((char *)in[i].tag);
		endinput(&in[i]);
	}
	for (j = 0; j < nout; j++)
		free(o[j].name);
	free(o);
	free(in);
	return tl_fshut(stdout, "<stdout>");
}

/* -p: type the key columns, then write every row behind its sort key. */
static int
prepare(const char *path, const char *name)
{
	struct input in = { 0 };
	struct csvr *r = &in.rd;
	size_t j, k, skip0;
	int *keep;

	in.path = path;
	in.name = name != NULL ? name : path;
	in.book = wflag;
	in.fp = nkeys ? openseekable(path) : tl_fopen(path, "r");
	start(&in);
	if (in.ncol == 0)
		goto done;	/* no header: an empty table */
	skip0 = keyed(&in);
	if (nkeys) {
		while (advance(&in, 0, 0))
			for (k = 0; k < nkeys; k++)
				see(&in.seen[in.kcol[k]], r->f[in.kcol[k]],
				    r->flen[in.kcol[k]], in.book);
		in.type = tl_calloc(in.ncol, sizeof(*in.type));
		for (j = 0; j < in.ncol; j++)
			in.type[j] = r->rowno > 1 ? coltype(&in.seen[j]) : T_OBJ;
		start(&in);
	}
	keep = tl_calloc(in.ncol, sizeof(*keep));
	fputs(KEYFIELD, stdout);
	for (j = skip0; j < in.ncol; j++) {
		keep[j] = 1;
		for (k = 0; k < nexcl; k++)
			if (strcmp(in.hdr[j], excl[k]) == 0)
				keep[j] = 0;
		if (keep[j]) {
			putc('\t', stdout);
			rec_puts(stdout, in.hdr[j]);
		}
	}
	putc('\n', stdout);
	while (advance(&in, nkeys > 0, rflag)) {
		rec_put(stdout, in.key.s, in.key.len - 1);
		for (j = 0; j < in.ncol; j++)
			if (keep[j]) {
				putc('\t', stdout);
				rec_put(stdout, r->f[j], r->flen[j]);
			}
		putc('\n', stdout);
	}
	free(keep);
done:
	endinput(&in);
	return tl_fshut(stdout, "<stdout>");
}

int
main(int argc, char *argv[])
{
	int c, rc;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((c = getopt(argc, argv, "cd:k:n:pqrt:wW:x:")) != -1) {
		switch (c) {
		case 'c': cflag = 1; break;
		case 'd': addopt(&diffs, &ndiffs, optarg); break;
		case 'k': addopt(&keys, &nkeys, optarg); break;
		case 'n': addopt(&labels, &nlabels, optarg); break;
		case 'p': pflag = 1; break;
		case 'q': qflag = 1; break;
		case 'r': rflag = 1; break;
		case 't': addopt(&tags, &ntags, optarg); break;
		case 'w': wflag = 1; break;
		case 'W':
			if (optarg[strspn(optarg, "01")] != '\0')
				usage(TL_EUSAGE);
			books = optarg;
			break;
		case 'x': addopt(&excl, &nexcl, optarg); break;
		default: usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (pflag) {
		if (argc > 1 || ntags || ndiffs || qflag || nlabels > 1 ||
		    books || nkeys > 64)
			usage(TL_EUSAGE);
		rc = prepare(argc ? argv[0] : "-", nlabels ? labels[0] : NULL);
	} else {
		if (argc < 1 || cflag || rflag || nexcl || (books && wflag))
			usage(TL_EUSAGE);
		rc = dojoin(argc, argv);
	}
	free(keys);
	free(tags);
	free(diffs);
	free(excl);
	free(labels);
	return rc;
}
