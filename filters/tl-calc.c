/* See LICENSE file for copyright and license details. */
/*
 * tl-calc: compute new fields of records with Python's arithmetic.
 * Each output field is an expression over the fields of the record,
 * evaluated with Python's and pandas' arithmetic (ints stay ints and
 * exact, a division gives a float, a missing value propagates as NaN,
 * cum() is a running sum down the rows), written as Python writes the
 * value, so that tl-sheet(1) can copy it into a cell as text.  One
 * record at a time.  tl-sheet's own arithmetic is numpy's on columns
 * of doubles; this is Python's on scalars, where integers beyond 2^53
 * (rocprofv3's nanosecond clocks) stay exact.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl.h"

/* A value: Python's int or float, or missing (pandas' NaN, an empty field). */
struct val {
	char t;		/* 'i' int, 'f' float, 0 missing */
	int64_t i;	/* the int */
	double d;	/* the float */
};

/* Node kinds of an expression. */
enum {
	E_NUM, E_FIELD, E_VAR, E_NEG, E_ADD, E_SUB, E_MUL, E_DIV,
	E_LT, E_LE, E_GT, E_GE, E_EQ, E_NE, E_MAX, E_MIN, E_CUM, E_INT, E_IF,
	E_NS
};

/* One node of an expression tree; the tree is an array, children by index. */
struct node {
	int kind;		/* E_* */
	int a, b, c;		/* operands (indexes into the column's nodes), -1 none */
	struct val v;		/* E_NUM: the constant; E_CUM: the running sum */
	char *name;		/* E_FIELD, E_VAR: the name, owned */
	int col;		/* E_FIELD: the input column; E_VAR: the variable */
};

/* One output column. */
struct col {
	char *name;		/* its header, owned */
	char *src;		/* the expression text, owned */
	struct node *n;		/* its nodes, owned; the root is n[root] */
	int nn;			/* nodes used */
	int root;		/* the root node */
	int copy;		/* the expression is one field: copied as text */
};

/* A -v variable. */
struct var {
	char *name;	/* its name, owned */
	struct val v;	/* its value */
};

static struct var *vars;	/* -v variables, owned */
static int nvars;		/* how many */

static void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: %s [-v name=value] ... field=expr ...\n",
	    tl_progname());
	exit(status);
}

/* ---- values ---- */

/* The value of a field's text: empty is missing; else an int or a float. */
static int
parseval(const char *s, size_t len, struct val *v)
{
	memset(v, 0, sizeof(*v));
	if (len == 0)
		return 0;
	if (num_jsonint(s, len, &v->i) == 0) {
		v->t = 'i';
		return 0;
	}
	if (num_double(s, len, &v->d) < 0)
		return -1;
	v->t = 'f';
	return 0;
}

static double
dbl(struct val v)
{
	return v.t == 'i' ? (double)v.i : v.d;
}

static struct val
mkf(double d)
{
	struct val v = { 'f', 0, d };

	return v;
}

static struct val
mki(int64_t i)
{
	struct val v = { 'i', i, 0 };

	return v;
}

/* Is v true, as Python's if takes it (NaN is true, missing is not)? */
static int
truth(struct val v)
{
	return v.t == 'i' ? v.i != 0 : v.t == 'f' ? v.d != 0 : 0;
}

/* a op b, with ints kept whole where Python keeps them. */
static struct val
arith(int op, struct val a, struct val b, const struct col *c)
{
	struct val r = { 0, 0, 0 };
	double x, y;
	int64_t k;
	int cmp, ovf = 0;

	if (a.t == 0 || b.t == 0) {
		/* NaN compares false; anything else with NaN is NaN */
		if (op >= E_LT && op <= E_NE)
			return mki(op == E_NE);
		return r;
	}
	if (a.t == 'i' && b.t == 'i' && op != E_DIV) {
		switch (op) {
		case E_ADD: ovf = __builtin_add_overflow(a.i, b.i, &k); break;
		case E_SUB: ovf = __builtin_sub_overflow(a.i, b.i, &k); break;
		case E_MUL: ovf = __builtin_mul_overflow(a.i, b.i, &k); break;
		default:
			cmp = (a.i > b.i) - (a.i < b.i);
			goto compare;
		}
		if (ovf)
			tl_die("%s: integer overflow in %s", c->name, c->src);
		return mki(k);
	}
	x = dbl(a);
	y = dbl(b);
	switch (op) {
	case E_ADD: return mkf(x + y);
	case E_SUB: return mkf(x - y);
	case E_MUL: return mkf(x * y);
	case E_DIV: return mkf(x / y);
	}
	if (isnan(x) || isnan(y))
		return mki(op == E_NE);
	cmp = (x > y) - (x < y);
compare:
	switch (op) {
	case E_LT: return mki(cmp < 0);
	case E_LE: return mki(cmp <= 0);
	case E_GT: return mki(cmp > 0);
	case E_GE: return mki(cmp >= 0);
	case E_EQ: return mki(cmp == 0);
	default: return mki(cmp != 0);
	}
}

/* The value of node i of column c for record r. */
static struct val
eval(struct col *c, int i, struct rec_reader *r)
{
	struct node *n = &c->n[i];
	struct val a, b, z = { 0, 0, 0 };
	const char *s;
	size_t len;

	switch (n->kind) {
	case E_NUM:
		return n->v;
	case E_VAR:
		return vars[n->col].v;
	case E_FIELD:
		s = rec_get(r, n->col, &len);
		if (parseval(s, len, &a) < 0)
			tl_die("%s: line %zu: %s: '%s' is not a number: %.40s",
			    r->name, r->lineno, c->name, n->name, s);
		return a;
	case E_NEG:
		a = eval(c, n->a, r);
		if (a.t == 'i') {
			if (a.i == INT64_MIN)
				tl_die("%s: integer overflow in %s", c->name, c->src);
			a.i = -a.i;
		} else
			a.d = -a.d;
		return a;
	case E_MAX:
	case E_MIN:
		/* Python's max(a, b): b only when it is greater */
		a = eval(c, n->a, r);
		b = eval(c, n->b, r);
		return truth(arith(n->kind == E_MAX ? E_GT : E_LT, b, a, c)) ?
		    b : a;
	case E_CUM:
		/* pandas' cumsum: NaN rows stay NaN and are skipped */
		a = eval(c, n->a, r);
		if (a.t == 0)
			return a;
		n->v = n->v.t == 0 ? a : arith(E_ADD, n->v, a, c);
		return n->v;
	case E_INT:
		a = eval(c, n->a, r);
		if (a.t != 'f')
			return a;
		if (!isfinite(a.d) || a.d >= 9.2e18 || a.d <= -9.2e18)
			tl_die("%s: cannot make %g an integer", c->name, a.d);
		return mki((int64_t)a.d);
	case E_IF:
		a = eval(c, n->a, r);
		return eval(c, truth(a) ? n->b : n->c, r);
	case E_NS:
		/* a time in microseconds, read exactly */
		s = rec_get(r, c->n[n->a].col, &len);
		if (len == 0)
			return z;
		if (num_us_to_ns(s, len, &a.i) < 0)
			tl_die("%s: line %zu: %s: '%s' is not a time: %.40s",
			    r->name, r->lineno, c->name, c->n[n->a].name, s);
		return mki(a.i);
	default:
		a = eval(c, n->a, r);
		b = eval(c, n->b, r);
		return arith(n->kind, a, b, c);
	}
	return z;
}

/* ---- expressions ---- */

/* The parser's state: the text of one expression. */
struct parser {
	struct col *c;		/* the column being built */
	const char *p;		/* the next character */
};

static int expr(struct parser *);

static _Noreturn void
perr(struct parser *ps, const char *what)
{
	tl_usage_die("%s: %s at '%s'", ps->c->src, what, ps->p);
}

static int
addnode(struct parser *ps, int kind, int a, int b)
{
	struct col *c = ps->c;
	struct node *n;

	c->n = tl_realloc(c->n, (size_t)(c->nn + 1) * sizeof(*c->n));
	n = &c->n[c->nn];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->a = a;
	n->b = b;
	n->c = -1;
	n->col = -1;
	return c->nn++;
}

static void
skipws(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t')
		ps->p++;
}

/* Is the next token s (then taken)? */
static int
next(struct parser *ps, const char *s)
{
	skipws(ps);
	if (strncmp(ps->p, s, strlen(s)) != 0)
		return 0;
	ps->p += strlen(s);
	return 1;
}

static int
isname(int ch, int first)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	    ch == '_' || (!first && ch >= '0' && ch <= '9');
}

static int
atom(struct parser *ps)
{
	static const struct {
		const char *name;	/* the function */
		int kind;		/* its node */
		int nargs;		/* its arguments */
	} fn[] = {
		{ "max", E_MAX, 2 }, { "min", E_MIN, 2 }, { "cum", E_CUM, 1 },
		{ "int", E_INT, 1 }, { "if", E_IF, 3 }, { "ns", E_NS, 1 }
	};
	const char *s;
	char *end;
	size_t i, len;
	int n, args[3] = { -1, -1, -1 }, k, var = 0;

	skipws(ps);
	s = ps->p;
	if (next(ps, "(")) {
		n = expr(ps);
		if (!next(ps, ")"))
			perr(ps, "')' expected");
		return n;
	}
	if ((*s >= '0' && *s <= '9') || *s == '.') {
		n = addnode(ps, E_NUM, -1, -1);
		len = strspn(s, "0123456789");
		if (s[len] == '.' || s[len] == 'e' || s[len] == 'E') {
			errno = 0;
			ps->c->n[n].v = mkf(strtod(s, &end));
		} else {
			errno = 0;
			ps->c->n[n].v = mki(strtoll(s, &end, 10));
		}
		if (end == s || errno != 0)
			perr(ps, "bad number");
		ps->p = end;
		return n;
	}
	if (*s == '{') {
		/* {any field name} */
		if ((end = strchr(s, '}')) == NULL)
			perr(ps, "'}' expected");
		n = addnode(ps, E_FIELD, -1, -1);
		ps->c->n[n].name = tl_strndup(s + 1, (size_t)(end - s - 1));
		ps->p = end + 1;
		return n;
	}
	if (*s == '$') {
		var = 1;
		s++;
	}
	for (len = 0; isname((unsigned char)s[len], len == 0); len++)
		;
	if (len == 0)
		perr(ps, "a value expected");
	ps->p = s + len;
	if (var) {
		n = addnode(ps, E_VAR, -1, -1);
		ps->c->n[n].name = tl_strndup(s, len);
		for (k = 0; k < nvars; k++)
			if (strcmp(vars[k].name, ps->c->n[n].name) == 0)
				ps->c->n[n].col = k;
		if (ps->c->n[n].col < 0)
			perr(ps, "no such -v variable");
		return n;
	}
	if (!next(ps, "(")) {
		n = addnode(ps, E_FIELD, -1, -1);
		ps->c->n[n].name = tl_strndup(s, len);
		return n;
	}
	for (i = 0; i < LEN(fn); i++)
		if (strlen(fn[i].name) == len && strncmp(fn[i].name, s, len) == 0)
			break;
	if (i == LEN(fn))
		perr(ps, "unknown function");
	for (k = 0; k < fn[i].nargs; k++) {
		if (k > 0 && !next(ps, ","))
			perr(ps, "',' expected");
		args[k] = expr(ps);
	}
	if (!next(ps, ")"))
		perr(ps, "')' expected");
	if (fn[i].kind == E_NS && ps->c->n[args[0]].kind != E_FIELD)
		perr(ps, "ns() takes a field");
	n = addnode(ps, fn[i].kind, args[0], fn[i].nargs > 1 ? args[1] : -1);
	if (fn[i].nargs > 2)
		ps->c->n[n].c = args[2];
	return n;
}

static int
unary(struct parser *ps)
{
	if (next(ps, "-"))
		return addnode(ps, E_NEG, unary(ps), -1);
	return atom(ps);
}

static int
term(struct parser *ps)
{
	int n = unary(ps);

	for (;;) {
		if (next(ps, "*"))
			n = addnode(ps, E_MUL, n, unary(ps));
		else if (next(ps, "/"))
			n = addnode(ps, E_DIV, n, unary(ps));
		else
			return n;
	}
}

static int
sum(struct parser *ps)
{
	int n = term(ps);

	for (;;) {
		if (next(ps, "+"))
			n = addnode(ps, E_ADD, n, term(ps));
		else if (next(ps, "-"))
			n = addnode(ps, E_SUB, n, term(ps));
		else
			return n;
	}
}

static int
expr(struct parser *ps)
{
	/* two-character operators first */
	static const struct { const char *op; int kind; } cmp[] = {
		{ "<=", E_LE }, { ">=", E_GE }, { "==", E_EQ }, { "!=", E_NE },
		{ "<", E_LT }, { ">", E_GT }
	};
	size_t i;
	int n = sum(ps);

	for (i = 0; i < LEN(cmp); i++)
		if (next(ps, cmp[i].op))
			return addnode(ps, cmp[i].kind, n, sum(ps));
	return n;
}

/* Parse "name=expr" into c. */
static void
colparse(struct col *c, const char *spec)
{
	struct parser ps;
	const char *eq = strchr(spec, '=');

	memset(c, 0, sizeof(*c));
	if (eq == NULL || eq == spec)
		tl_usage_die("%s: want name=expr", spec);
	c->name = tl_strndup(spec, (size_t)(eq - spec));
	c->src = tl_strdup(eq + 1);
	ps.c = c;
	ps.p = c->src;
	c->root = expr(&ps);
	skipws(&ps);
	if (*ps.p != '\0')
		perr(&ps, "operator expected");
	c->copy = c->n[c->root].kind == E_FIELD;
}

/* ---- output ---- */

/* v appended to the line b. */
static void
putval(struct buf *b, struct val v)
{
	char t[64];

	if (v.t == 'i')
		buf_adds(b, num_lld((long long)v.i, t + sizeof(t)));
	else if (v.t == 'f' && !isnan(v.d))
		buf_adds(b, num_pyrepr(v.d, t, sizeof(t)));
	/* (NaN and missing: an empty cell, as pandas writes NaN) */
}

static void
calc(struct rec_reader *r, struct col *cols, int ncols)
{
	struct buf line = {0};	/* one output line, written whole */
	const char *s;
	size_t len;
	int i, j;

	rec_read_header(r);
	for (i = 0; i < ncols; i++)
		for (j = 0; j < cols[i].nn; j++)
			if (cols[i].n[j].kind == E_FIELD)
				cols[i].n[j].col = rec_need(r, cols[i].n[j].name);
	for (i = 0; i < ncols; i++) {
		if (i > 0)
			putchar('\t');
		rec_puts(stdout, cols[i].name);
	}
	putchar('\n');
	/* (a line built, then one fwrite: a call per cell was a third of
	 * the time on the rocprofv3 dispatches' 18 cells) */
	while (rec_read(r)) {
		rec_check_width(r);
		line.len = 0;
		for (i = 0; i < ncols; i++) {
			if (i > 0)
				buf_addc(&line, '\t');
			if (!cols[i].copy) {
				putval(&line, eval(&cols[i], cols[i].root, r));
				continue;
			}
			s = rec_get(r, cols[i].n[cols[i].root].col, &len);
			buf_add(&line, s, len);
		}
		buf_addc(&line, '\n');
		fwrite(line.s, 1, line.len, stdout);
	}
	buf_free(&line);
}

int
main(int argc, char *argv[])
{
	struct rec_reader r;
	struct col *cols;
	const char *eq;
	int c, i, j, ncols, st;

	tl_setprogname(argv[0]);
	tl_longopts(argc, argv, usage);
	while ((c = getopt(argc, argv, "hv:")) != -1) {
		switch (c) {
		case 'h':
			usage(TL_OK);
			break;
		case 'v':
			if ((eq = strchr(optarg, '=')) == NULL || eq == optarg)
				tl_usage_die("-v: want name=value: %s", optarg);
			vars = tl_realloc(vars, (size_t)(nvars + 1) * sizeof(*vars));
			vars[nvars].name = tl_strndup(optarg, (size_t)(eq - optarg));
			if (parseval(eq + 1, strlen(eq + 1), &vars[nvars].v) < 0)
				tl_usage_die("-v: not a number: %s", eq + 1);
			nvars++;
			break;
		default:
			usage(TL_EUSAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage(TL_EUSAGE);
	ncols = argc;
	cols = tl_calloc((size_t)ncols, sizeof(*cols));
	for (i = 0; i < ncols; i++)
		colparse(&cols[i], argv[i]);

	rec_open(&r, stdin, "<stdin>");
	calc(&r, cols, ncols);
	rec_close(&r);
	st = tl_fshut(stdout, "<stdout>");
	for (i = 0; i < ncols; i++) {
		for (j = 0; j < cols[i].nn; j++)
			free(cols[i].n[j].name);
		free(cols[i].n);
		free(cols[i].name);
		free(cols[i].src);
	}
	free(cols);
	for (i = 0; i < nvars; i++)
		free(vars[i].name);
	free(vars);
	return st;
}
