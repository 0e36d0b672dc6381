/* See LICENSE file for copyright and license details. */
/*
 * tl-sheet: write one sheet of a report as CSV, from a record stream.
 *
 * Every cell of every tl sheet goes through here, so that the way
 * pandas writes a DataFrame (Python's repr of a float, QUOTE_MINIMAL
 * quoting, list cells as Python literals), the way TraceLens orders
 * its rows (sort_values descending, numpy's quicksort) and the
 * Percentage columns (numpy's pairwise sum) are written once, in C.
 *
 * A column is NAME=FORMAT:EXPR: an input field, or arithmetic on
 * fields, numbers and -v variables, written in one of a few formats.
 * Rows come out in input order, or with -s in TraceLens's descending
 * order of an expression.  Ordering and the percentage columns need
 * every row's value before the first row is written: the first pass
 * keeps, per row, the few numbers it needs (the sort value, the
 * distinct percentage values), and the second reads the rows again
 * (from a copy in TMPDIR when the input is a pipe), in order or, with
 * -s, each by its offset.  The text of the rows is never held.  What
 * grows with the rows, as it must for numpy's order of ties, which no
 * external sort can give: with -s, 12 bytes a row (the sort value,
 * then the offset, and a 32-bit row number), and 8 bytes a row per
 * distinct percentage expression.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"
#include "numpy.h"

/* The cell formats. */
enum fmt {
	FMT_TEXT,	/* t: the field as text */
	FMT_FLOAT,	/* f: Python's repr of the value, NaN empty */
	FMT_INT,	/* i: the value as a whole number, NaN empty */
	FMT_LIST,	/* l: JSON text as a Python literal with lists */
	FMT_PCT,	/* pct: percent of the column's sum */
	FMT_CUM,	/* cum: running sum of pct */
	FMT_NUM,	/* n: int64 when every cell is an integer text, else f */
	FMT_R2		/* r2: f of the value rounded to 2 places, as numpy rounds */
};

/* The name of each format on the command line, by enum fmt. */
static const char *const fmtnames[] = { "t", "f", "i", "l", "pct", "cum", "n", "r2" };

/* A node of an arithmetic expression. */
struct expr {
	int op;			/* 'f' field, 'n' number, or + - * / */
	char *name;		/* 'f': field name as given, owned */
	int col;		/* 'f': input column */
	double num;		/* 'n': the number */
	struct expr *l, *r;	/* operands of + - * /, owned */
};

/* One output column. */
struct col {
	char *name;		/* header cell, owned */
	const char *text;	/* the expression as given, not owned */
	enum fmt fmt;		/* how its cells are written */
	struct expr *e;		/* its value or field, owned */
	int pct;		/* pct, cum: index of its value in a row's numbers */
	int full;		/* -E: some row has a non-empty cell */
	int flt;		/* n: some cell is not an integer text (or empty) */
};

/* A variable given with -v. */
struct var {
	char *name;		/* owned */
	double v;		/* its value; NaN when empty */
};

/* What the first pass keeps of each row. */
struct rows {
	double *key;		/* -s: each row's sort value, owned */
	off_t *off;		/* -s: each row's offset, owned, once sorted */
	FILE *offs;		/* -s: the offsets, written as the rows come */
	double *val;		/* the pct values, npct per row, owned */
	size_t n;		/* rows */
	size_t cap;		/* allocated */
};

static struct var *vars;	/* -v variables, owned */
static int nvars;		/* their number */

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: %s [-AE] [-n count] [-s expr] [-v name=value] ... "
	    "[-x field] ... [name=]format:expr ...\n", tl_progname());
	exit(status);
}

/* ---- expressions: fields, numbers, $variables, + - * / and ( ) ---- */

/* A parse of one expression, for its error messages. */
struct eparse {
	const char *s;		/* the whole expression */
	const char *p;		/* next byte */
};

static struct expr *esum(struct eparse *);

static struct expr *
enew(int op)
{
	struct expr *e = tl_calloc(1, sizeof(*e));

	e->op = op;
	e->col = -1;
	return e;
}

static void
efree(struct expr *e)
{
	if (e == NULL)
		return;
	efree(e->l);
	efree(e->r);
	free(e->name);
	free(e);
}

static void
eskip(struct eparse *ep)
{
	while (*ep->p == ' ')
		ep->p++;
}

/* A term: a number, a $variable, a field (a name, or {any name}), (expr). */
static struct expr *
eterm(struct eparse *ep)
{
	struct expr *e;
	const char *st;
	char *end;
	int i;

	eskip(ep);
	st = ep->p;
	if (*ep->p == '(') {
		ep->p++;
		e = esum(ep);
		eskip(ep);
		if (*ep->p++ != ')')
			tl_usage_die("%s: missing )", ep->s);
		return e;
	}
	if ((*ep->p >= '0' && *ep->p <= '9') || *ep->p == '.') {
		e = enew('n');
		errno = 0;
		e->num = strtod(st, &end);
		if (end == st || errno != 0)
			tl_usage_die("%s: bad number at '%s'", ep->s, st);
		ep->p = end;
		return e;
	}
	if (*ep->p == '$') {
		for (ep->p++; *ep->p == '_' || (*ep->p >= 'a' && *ep->p <= 'z') ||
		    (*ep->p >= 'A' && *ep->p <= 'Z') || (*ep->p >= '0' && *ep->p <= '9');)
			ep->p++;
		for (i = 0; i < nvars; i++)
			if (strlen(vars[i].name) == (size_t)(ep->p - st - 1) &&
			    memcmp(vars[i].name, st + 1, (size_t)(ep->p - st - 1)) == 0)
				break;
		if (i == nvars)
			tl_usage_die("%s: no variable '%.*s' (-v)", ep->s,
			    (int)(ep->p - st), st);
		e = enew('n');
		e->num = vars[i].v;
		return e;
	}
	e = enew('f');
	if (*ep->p == '{') {
		st = ++ep->p;
		while (*ep->p != '\0' && *ep->p != '}')
			ep->p++;
		if (*ep->p != '}')
			tl_usage_die("%s: missing }", ep->s);
		e->name = tl_strndup(st, (size_t)(ep->p++ - st));
		return e;
	}
	while (*ep->p == '_' || (*ep->p >= 'a' && *ep->p <= 'z') ||
	    (*ep->p >= 'A' && *ep->p <= 'Z') || (*ep->p >= '0' && *ep->p <= '9'))
		ep->p++;
	if (ep->p == st)
		tl_usage_die("%s: a field, number or $variable expected at '%s'",
		    ep->s, st);
	e->name = tl_strndup(st, (size_t)(ep->p - st));
	return e;
}

/* Products and quotients, left to right, as Python evaluates them. */
static struct expr *
eprod(struct eparse *ep)
{
	struct expr *e = eterm(ep), *o;

	for (;;) {
		eskip(ep);
		if (*ep->p != '*' && *ep->p != '/')
			return e;
		o = enew(*ep->p++);
		o->l = e;
		o->r = eterm(ep);
		e = o;
	}
}

static struct expr *
esum(struct eparse *ep)
{
	struct expr *e = eprod(ep), *o;

	for (;;) {
		eskip(ep);
		if (*ep->p != '+' && *ep->p != '-')
			return e;
		o = enew(*ep->p++);
		o->l = e;
		o->r = eprod(ep);
		e = o;
	}
}

/*
 * EXPR: a field named so in the header as a whole ("TB/s_mean" is a
 * field, not a division), else arithmetic.  Fields are resolved later.
 */
static struct expr *
eparse(const char *s)
{
	struct eparse ep = { s, s };
	struct expr *e;

	e = esum(&ep);
	eskip(&ep);
	if (*ep.p != '\0')
		tl_usage_die("%s: unexpected '%s'", s, ep.p);
	return e;
}

/* Resolve the fields of e in r's header. */
static void
eresolve(struct expr *e, const struct rec_reader *r)
{
	if (e == NULL)
		return;
	if (e->op == 'f') {
		e->col = rec_col(r, e->name);
		if (e->col < 0)
			tl_die("%s: no field '%s' in the header", r->name, e->name);
		return;
	}
	eresolve(e->l, r);
	eresolve(e->r, r);
}

/*
 * The expression text, parsed and resolved in r's header.  A field
 * named by the whole text wins: "TB/s_mean" or "Kernel Time (µs)_sum"
 * need no braces when the header has them.
 */
static struct expr *
resolve(const char *text, const struct rec_reader *r)
{
	struct expr *e;
	int col = rec_col(r, text);

	if (col >= 0) {
		e = enew('f');
		e->name = tl_strdup(text);
		e->col = col;
		return e;
	}
	e = eparse(text);
	eresolve(e, r);
	return e;
}

/* A field as a number: NaN when empty; not a number is an error. */
static double
fieldnum(const struct rec_reader *r, int col)
{
	double d;

	return rec_double(r, col, &d) ? d : NAN;
}

/*
 * The value of e for the current record, in IEEE doubles, as pandas
 * computes it on columns: x / 0 is inf (NaN when x is 0 or NaN).
 */
static double
eval(const struct expr *e, const struct rec_reader *r)
{
	double a, b;

	switch (e->op) {
	case 'f':
		return fieldnum(r, e->col);
	case 'n':
		return e->num;
	}
	a = eval(e->l, r);
	b = eval(e->r, r);
	switch (e->op) {
	case '+':
		return a + b;
	case '-':
		return a - b;
	case '*':
		return a * b;
	default:
		return a / b;
	}
}

/* ---- columns ---- */

static void
colparse(struct col *c, const char *arg)
{
	const char *eq, *colon, *fmt;
	size_t i, n;

	eq = strchr(arg, '=');
	colon = strchr(eq ? eq + 1 : arg, ':');
	if (colon == NULL)
		tl_usage_die("%s: a column is [name=]format:expr", arg);
	fmt = eq ? eq + 1 : arg;
	n = (size_t)(colon - fmt);
	for (i = 0; i < LEN(fmtnames); i++)
		if (strlen(fmtnames[i]) == n && memcmp(fmtnames[i], fmt, n) == 0)
			break;
	if (i == LEN(fmtnames))
		tl_usage_die("%s: unknown format '%.*s' (t, f, i, l, pct, cum, n)",
		    arg, (int)n, fmt);
	c->fmt = (enum fmt)i;
	c->name = eq ? tl_strndup(arg, (size_t)(eq - arg)) : tl_strdup(colon + 1);
	c->text = colon + 1;
	c->pct = -1;
}

/* Append the cell of column c for the current record to b (CSV). */
static void
cell(struct buf *b, const struct col *c, const struct rec_reader *r,
    double pctv, double cumv)
{
	const char *s;
	char num[64];
	size_t len;
	double d;

	switch (c->fmt) {
	case FMT_TEXT:
		s = rec_get(r, c->e->col, &len);
		csv_bfield(b, s, len);
		return;
	case FMT_LIST:
		s = rec_get(r, c->e->col, &len);
		csv_blist(b, s, len);
		return;
	case FMT_NUM:
		if (!c->flt) {
			/* pandas' int64 column: the integers as they came */
			s = rec_get(r, c->e->col, &len);
			buf_add(b, s, len);
			return;
		}
		d = eval(c->e, r);
		break;
	case FMT_FLOAT:
		d = eval(c->e, r);
		break;
	case FMT_R2:
		d = np_round2(eval(c->e, r));
		break;
	case FMT_INT:
		/* a field that holds an integer as it came: past 2^53 its
		 * double is not it (a sum of int64 durations) */
		if (c->e->op == 'f') {
			s = rec_get(r, c->e->col, &len);
			if (num_isint(s, len) && (len == 0 || s[0] != '-' ||
			    len > 2 || s[1] != '0')) {
				buf_add(b, s, len);
				return;
			}
		}
		d = eval(c->e, r);
		if (!isnan(d)) {
			/* (+ 0.0: an integer has no -0) */
			snprintf(num, sizeof(num), "%.0f", nearbyint(d) + 0.0);
			buf_adds(b, num);
		}
		return;
	case FMT_PCT:
		d = pctv;
		break;
	default:
		d = cumv;
		break;
	}
	csv_bnum(b, d);
}

/* ---- the sheet ---- */

/*
 * pandas' sums of the rows' values in the output order, into tot:
 * NaN counts as 0 (skipna), and np.sum adds the rest (numpy.h), fed
 * a row at a time.
 */
static void
pcttotals(const struct rows *rw, const uint32_t *ord, size_t npct, double *tot)
{
	struct np_cols c;
	double *v = tl_calloc(npct + 1, sizeof(*v));
	size_t i, j, k;

	if (rw->n == 0) {
		free(v);
		return;
	}
	np_cols_init(&c, npct, rw->n);
	for (i = 0; i < rw->n; i++) {
		k = ord ? ord[i] : i;
		for (j = 0; j < npct; j++) {
			v[j] = rw->val[k * npct + j];
			if (isnan(v[j]))
				v[j] = 0;
		}
		np_cols_row(&c, v);
	}
	for (j = 0; j < npct; j++)
		tot[j] = np_cols_sum(&c, j);
	np_cols_free(&c);
	free(v);
}

/*
 * Append the CSV row of the current record to b: the columns (with
 * check, only the full ones), pct and cum from the row's values pv
 * and the totals tot.
 */
static void
row(struct buf *b, struct col *cols, int ncols, const struct rec_reader *r,
    const double *pv, const double *tot, double *cum, int check)
{
	size_t st0 = b->len, st;
	int i, first = 1;

	for (i = 0; i < ncols; i++) {
		double p = NAN;

		if (check > 0 && !cols[i].full)
			continue;
		if (!first)
			buf_addc(b, ',');
		if (cols[i].pct >= 0) {
			/* (a NaN stays one, and cum goes on past it: cumsum) */
			p = pv[cols[i].pct] / tot[cols[i].pct] * 100;
			if (!isnan(p))
				cum[i] += p;
		}
		st = b->len;
		cell(b, &cols[i], r, p, isnan(p) ? p : cum[i]);
		if (check < 0 && b->len > st)
			cols[i].full = 1;
		first = 0;
	}
	/* (Python's csv writes a lone empty cell as "") */
	if (b->len == st0 && !first)
		buf_adds(b, "\"\"");
	buf_addc(b, '\n');
}

static void
header(FILE *out, const struct col *cols, int ncols, int check)
{
	struct buf b = {0};
	int i, first = 1;

	buf_adds(&b, "");
	for (i = 0; i < ncols; i++) {
		if (check && !cols[i].full)
			continue;
		if (!first)
			buf_addc(&b, ',');
		first = 0;
		csv_bcell(&b, cols[i].name, strlen(cols[i].name));
	}
	if (b.len == 0 && !first)
		buf_adds(&b, "\"\"");
	buf_addc(&b, '\n');
	fwrite(b.s, 1, b.len, out);
	buf_free(&b);
}

/* Write the rows as they come: no order, no percentages. */
static void
onepass(struct rec_reader *r, FILE *out, struct col *cols, int ncols,
    size_t limit)
{
	struct buf b = {0};
	double none = 0;
	size_t i;

	header(out, cols, ncols, 0);
	for (i = 0; i < limit && rec_read(r); i++) {
		buf_reset(&b);
		buf_adds(&b, "");
		row(&b, cols, ncols, r, &none, &none, &none, 0);
		fwrite(b.s, 1, b.len, out);
	}
	buf_free(&b);
}

/*
 * The first pass: each row's sort value and pct values, its offset to
 * a temporary file (-s); with Eflag, which columns are full; which n
 * columns are float64 (pandas: one float or NaN makes the column so).
 */
static void
firstpass(struct reread *rr, struct rows *rw, struct col *cols, int ncols,
    const struct expr *skey, int npct, int Eflag)
{
	struct rec_reader *r = rr->r;
	struct buf b = {0};
	double *cum = tl_calloc((size_t)ncols + 1, sizeof(*cum));
	off_t off;
	int c;

	while (rr_next(rr, &off)) {
		if (rw->n == rw->cap) {
			rw->cap = rw->cap ? 2 * rw->cap : 1024;
			if (skey)
				rw->key = tl_realloc(rw->key,
				    rw->cap * sizeof(*rw->key));
			if (npct)
				rw->val = tl_realloc(rw->val,
				    rw->cap * (size_t)npct * sizeof(*rw->val));
		}
		if (skey) {
			rw->key[rw->n] = eval(skey, r);
			if (fwrite(&off, sizeof(off), 1, rw->offs) != 1)
				tl_die("%s: temporary file: write error:", r->name);
		}
		for (c = 0; c < ncols; c++)
			if (cols[c].fmt == FMT_NUM && !cols[c].flt) {
				const char *s;
				size_t len;

				s = rec_get(r, cols[c].e->col, &len);
				cols[c].flt = !num_isint(s, len);
			}
		for (c = 0; c < ncols; c++)
			if (cols[c].pct >= 0)
				rw->val[rw->n * (size_t)npct + (size_t)cols[c].pct] =
				    eval(cols[c].e, r);
		if (Eflag) {
			buf_reset(&b);
			row(&b, cols, ncols, r, rw->val, rw->val, cum, -1);
		}
		rw->n++;
	}
	for (c = 0; c < ncols; c++)
		if (cols[c].pct >= 0)
			cols[c].full = 1;
	buf_free(&b);
	free(cum);
}

/*
 * The second pass: the rows in order (ord, with their offsets; else
 * as they came), each read again.
 */
static void
secondpass(struct reread *rr, const struct rows *rw, const uint32_t *ord,
    FILE *out, struct col *cols, int ncols, int npct, size_t limit, int Eflag)
{
	struct buf b = {0};
	size_t i, k;
	double *tot, *cum;
	off_t next = 0;

	tot = tl_calloc((size_t)npct + 1, sizeof(*tot));
	cum = tl_calloc((size_t)ncols + 1, sizeof(*cum));
	if (npct)
		pcttotals(rw, ord, (size_t)npct, tot);
	header(out, cols, ncols, Eflag);
	for (i = 0; i < rw->n && i < limit; i++) {
		k = ord ? ord[i] : i;
		rr_read(rr, ord ? rw->off[k] : next, k + 2);
		next += (off_t)rr->r->curlen + 1;
		buf_reset(&b);
		buf_adds(&b, "");
		row(&b, cols, ncols, rr->r, rw->val + k * (size_t)npct, tot, cum, Eflag);
		fwrite(b.s, 1, b.len, out);
	}
	free(tot);
	free(cum);
	buf_free(&b);
}

/*
 * The columns of the command line, args[0..n): their expressions (not
 * resolved yet) and formats; the percent columns of one expression
 * share one slot of values, counted in *npct.
 */
static struct col *
parsecols(char **args, int n, int *npct)
{
	struct col *cols = tl_calloc((size_t)n + 1, sizeof(*cols));
	int c, j;

	for (c = 0; c < n; c++) {
		colparse(&cols[c], args[c]);
		if (cols[c].fmt != FMT_PCT && cols[c].fmt != FMT_CUM)
			continue;
		for (j = 0; j < c; j++)
			if (cols[j].pct >= 0 && strcmp(cols[j].text, cols[c].text) == 0)
				break;
		cols[c].pct = j < c ? cols[j].pct : (*npct)++;
	}
	return cols;
}

/*
 * -A: every field of r's header but those of xnames[0..nx), as text,
 * after the *ncols columns given.  Returns the columns (moved).
 */
static struct col *
allfields(struct col *cols, int *ncols, const struct rec_reader *r,
    const char **xnames, int nx)
{
	size_t i;
	int k;

	cols = tl_realloc(cols, ((size_t)*ncols + r->nhdr + 1) * sizeof(*cols));
	for (i = 0; i < r->nhdr; i++) {
		for (k = 0; k < nx; k++)
			if (strcmp(xnames[k], r->hdr[i]) == 0)
				break;
		if (k < nx)
			continue;
		memset(&cols[*ncols], 0, sizeof(*cols));
		cols[*ncols].name = tl_strdup(r->hdr[i]);
		cols[*ncols].text = r->hdr[i];
		cols[*ncols].fmt = FMT_TEXT;
		cols[*ncols].pct = -1;
		(*ncols)++;
	}
	return cols;
}

/*
 * The sheet of r's records: in one pass when nothing needs the whole
 * column (no sort key, percentages, -E or number format), else in two,
 * the rows read again by offset (sorted by skey when given).
 */
static void
sheet(struct rec_reader *r, struct col *cols, int ncols, struct expr *skey,
    int npct, int Eflag, size_t limit)
{
	struct rows rw = {0};
	struct reread rr;
	uint32_t *ord = NULL;
	int c, nnum = 0;

	for (c = 0; c < ncols; c++)
		if (cols[c].fmt == FMT_NUM)
			nnum++;
	if (skey == NULL && npct == 0 && !Eflag && nnum == 0) {
		onepass(r, stdout, cols, ncols, limit);
		return;
	}
	rr_open(&rr, r);
	if (skey && (rw.offs = tmpfile()) == NULL)
		tl_die("cannot make a temporary file:");
	firstpass(&rr, &rw, cols, ncols, skey, npct, Eflag);
	if (skey) {
		/* pandas' sort_values(ascending=False); then the offsets,
		 * where the sort values were */
		ord = tl_calloc(rw.n + 1, sizeof(*ord));
		pd_order(rw.key, rw.n, 1, ord);
		free(rw.key);
		rw.key = NULL;
		rw.off = tl_calloc(rw.n + 1, sizeof(*rw.off));
		if (fflush(rw.offs) != 0 || fseeko(rw.offs, 0, SEEK_SET) != 0 ||
		    fread(rw.off, sizeof(*rw.off), rw.n, rw.offs) != rw.n)
			tl_die("temporary file: read error:");
		fclose(rw.offs);
	}
	secondpass(&rr, &rw, ord, stdout, cols, ncols, npct, limit, Eflag);
	rr_close(&rr);
	free(ord);
	free(rw.off);
	free(rw.key);
	free(rw.val);
}

int
main(int argc, char *argv[])
{
	struct rec_reader r;
	struct col *cols;
	struct expr *skey = NULL;
	const char *sarg = NULL, *eq;
	size_t limit = (size_t)-1;
	const char **xnames = NULL;
	int c, ncols, npct = 0, Eflag = 0, Aflag = 0, nx = 0;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((c = getopt(argc, argv, "AEn:s:v:x:")) != -1) {
		switch (c) {
		case 'A':
			Aflag = 1;
			break;
		case 'E':
			Eflag = 1;
			break;
		case 'x':
			xnames = tl_realloc(xnames, (size_t)(nx + 1) * sizeof(*xnames));
			xnames[nx++] = optarg;
			break;
		case 'n':
			limit = (size_t)tl_strtonum(optarg, 0, 1LL << 62, "-n");
			break;
		case 's':
			sarg = optarg;
			break;
		case 'v':
			eq = strchr(optarg, '=');
			if (eq == NULL || eq == optarg)
				tl_usage_die("-v %s: want name=value", optarg);
			vars = tl_realloc(vars, (size_t)(nvars + 1) * sizeof(*vars));
			vars[nvars].name = tl_strndup(optarg, (size_t)(eq - optarg));
			vars[nvars].v = NAN;
			if (eq[1] != '\0' &&
			    num_double(eq + 1, strlen(eq + 1), &vars[nvars].v) < 0)
				tl_usage_die("-v %s: not a number", optarg);
			nvars++;
			break;
		default:
			usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 && !Aflag)
		usage(TL_EUSAGE);
	ncols = argc;
	cols = parsecols(argv, ncols, &npct);

	rec_open(&r, stdin, "<stdin>");
	rec_read_header(&r);
	if (Aflag)
		cols = allfields(cols, &ncols, &r, xnames, nx);
	for (c = 0; c < ncols; c++) {
		cols[c].e = resolve(cols[c].text, &r);
		if ((cols[c].fmt == FMT_TEXT || cols[c].fmt == FMT_LIST ||
		    cols[c].fmt == FMT_NUM) && cols[c].e->op != 'f')
			tl_usage_die("%s: format %s takes a field", cols[c].text,
			    fmtnames[cols[c].fmt]);
	}
	if (sarg)
		skey = resolve(sarg, &r);
	sheet(&r, cols, ncols, skey, npct, Eflag, limit);

	for (c = 0; c < ncols; c++) {
		free(cols[c].name);
		efree(cols[c].e);
	}
	free(cols);
	free(xnames);
	efree(skey);
	for (c = 0; c < nvars; c++)
		free(vars[c].name);
	free(vars);
	rec_close(&r);
	return tl_fshut(stdout, "<stdout>");
}
