/* See LICENSE file for copyright and license details. */
/*
 * What the perf-model families share: Python's arithmetic, the
 * readers of an op's arguments with Python's failures, and the writer
 * of the params dict, in TraceLens's key order (models.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "models.h"

/* ---- Python numbers ---- */

/* a // b, floor division, as CPython computes it for ints and floats. */
struct pynum
fdiv(struct mresult *r, struct pynum a, struct pynum b)
{
	double x, y, m, d, f;
	int64_t q;

	if (pynum_double(b) == 0) {
		r->ovf = 2;
		return F(NAN);
	}
	if (!a.isf && !b.isf) {
		if (a.i == INT64_MIN && b.i == -1) {
			r->ovf = 1;
			return I(0);
		}
		q = a.i / b.i;
		if ((a.i % b.i != 0) && ((a.i < 0) != (b.i < 0)))
			q--;
		return I(q);
	}
	x = pynum_double(a);
	y = pynum_double(b);
	m = fmod(x, y);
	d = (x - m) / y;
	if (m != 0 && ((y < 0) != (m < 0)))
		d -= 1.0;
	if (d != 0) {
		f = floor(d);
		if (d - f > 0.5)
			f += 1.0;
	} else
		f = copysign(0.0, x / y);
	return F(f);
}

/* ---- failures ---- */

int
fail(struct mresult *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	return M_FAIL;
}

int
fail_metric(struct mresult *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	r->inmetrics = 1;
	return M_FAIL;
}

/* ---- reading the op's arguments, with Python's failures ---- */

static const char *const fieldname[] = {
	"Input Dims", "Input type", "Input Strides", "Concrete Inputs"
};

/* The root array of a field, or NULL with r->why set (KeyError). */
const struct jval *
field(const struct opargs *a, struct mresult *r, enum field f)
{
	const struct jdoc *d[] = { &a->dims, &a->types, &a->strides, &a->concrete };
	const int has[] = { a->has_dims, a->has_types, a->has_strides, a->has_concrete };
	const int bad[] = { a->bad_dims, a->bad_types, a->bad_strides, a->bad_concrete };
	const struct jval *v;

	if (bad[f]) {
		fail(r, "malformed %s", fieldname[f]);
		return NULL;
	}
	if (!has[f]) {
		fail(r, "no %s", fieldname[f]);
		return NULL;
	}
	v = jdoc_root(d[f]);
	if (v->t != J_ARR) {
		fail(r, "%s is not a list", fieldname[f]);
		return NULL;
	}
	return v;
}

static const struct jdoc *
fielddoc(const struct opargs *a, enum field f)
{
	switch (f) {
	case FD_DIMS: return &a->dims;
	case FD_TYPES: return &a->types;
	case FD_STRIDES: return &a->strides;
	default: return &a->concrete;
	}
}

/* field[k], or NULL with r->why set (KeyError or IndexError). */
const struct jval *
item(const struct opargs *a, struct mresult *r, enum field f, size_t k)
{
	const struct jval *v = field(a, r, f);

	if (v == NULL)
		return NULL;
	if (k >= v->n) {
		fail(r, "%s has no item %zu", fieldname[f], k);
		return NULL;
	}
	return jarr_at(fielddoc(a, f), v, k);
}

/* Input Dims[k] as a shape of ints; -1 with r->why set. */
int
arg_shape(const struct opargs *a, struct mresult *r, size_t k, struct shape *sh)
{
	const struct jval *v = item(a, r, FD_DIMS, k);

	if (v == NULL)
		return -1;
	if (shape_get(&a->dims, v, sh) < 0) {
		fail(r, "Input Dims[%zu] is not a shape", k);
		return -1;
	}
	return 0;
}

/*
 * A string item of Input type or Concrete Inputs: *s is the string or
 * NULL for JSON null (Python None); -1 with r->why set otherwise.
 */
int
arg_str(const struct opargs *a, struct mresult *r, enum field f, size_t k,
    const char **s)
{
	const struct jval *v = item(a, r, f, k);

	if (v == NULL)
		return -1;
	if (v->t == J_NULL) {
		*s = NULL;
		return 0;
	}
	if ((*s = jstr(fielddoc(a, f), v)) == NULL) {
		fail(r, "%s[%zu] is not a string", fieldname[f], k);
		return -1;
	}
	return 0;
}

/* A Concrete Inputs string that must not be None. */
int
arg_ci(const struct opargs *a, struct mresult *r, size_t k, const char **s)
{
	if (arg_str(a, r, FD_CONCRETE, k, s) < 0)
		return -1;
	if (*s == NULL)
		return fail(r, "Concrete Inputs[%zu] is None", k), -1;
	return 0;
}

/* Python's float() of a Concrete Inputs string. */
int
arg_float(const struct opargs *a, struct mresult *r, size_t k, double *d)
{
	const char *s;

	if (arg_ci(a, r, k, &s) < 0)
		return -1;
	if (shape_pyfloat(s, d) < 0)
		return fail(r, "Concrete Inputs[%zu] is not a float", k), -1;
	return 0;
}

/* Python's int() of a Concrete Inputs string. */
int
arg_int(const struct opargs *a, struct mresult *r, size_t k, int64_t *v)
{
	const char *s;

	if (arg_ci(a, r, k, &s) < 0)
		return -1;
	if (shape_pyint(s, v) < 0)
		return fail(r, "Concrete Inputs[%zu] is not an int", k), -1;
	return 0;
}

/* Python's eval() of "True" or "False" (the only values traces hold). */
int
arg_evalbool(const struct opargs *a, struct mresult *r, size_t k, int *b)
{
	const char *s;

	if (arg_ci(a, r, k, &s) < 0)
		return -1;
	if (strcmp(s, "True") == 0)
		*b = 1;
	else if (strcmp(s, "False") == 0)
		*b = 0;
	else
		return fail(r, "Concrete Inputs[%zu] is not True or False", k), -1;
	return 0;
}

/* Python's "x is not None" of Input Dims[k] (IndexError if absent). */
int
arg_notnone(const struct opargs *a, struct mresult *r, size_t k, int *b)
{
	const struct jval *v = item(a, r, FD_DIMS, k);

	if (v == NULL)
		return -1;
	*b = a->fixed ? v->t == J_ARR && v->n > 0 : v->t != J_NULL;
	return 0;
}

/* len(field), or -1 with r->why set when the field is missing. */
long
arg_len(const struct opargs *a, struct mresult *r, enum field f)
{
	const struct jval *v = field(a, r, f);

	return v == NULL ? -1 : (long)v->n;
}

/* Python truth of Input Dims[k] when it exists (a non-empty list). */
int
dims_truthy(const struct opargs *a, size_t k)
{
	const struct jval *v;

	if (!a->has_dims || (v = jarr_at(&a->dims, jdoc_root(&a->dims), k)) == NULL)
		return 0;
	switch (v->t) {
	case J_NULL: return 0;
	case J_BOOL: case J_INT: return v->i != 0;
	case J_FLOAT: return v->d != 0;
	case J_STR: case J_ARR: case J_OBJ: return v->t == J_STR ? v->len > 0 : v->n > 0;
	}
	return 0;
}

/* 1 if s is a decimal integer too big for int64 (Python would take it). */
int
bigint(const char *s)
{
	size_t nd = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '+' || *s == '-')
		s++;
	for (; *s >= '0' && *s <= '9'; s++)
		nd++;
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	return *s == '\0' && nd >= 19;
}

/* ---- params: a Python dict literal, in TraceLens's key order ---- */

void
pkey(struct mresult *r, const char *k)
{
	buf_adds(&r->params, r->params.len == 0 ? "{" : ", ");
	pystr(&r->params, k, strlen(k));
	buf_adds(&r->params, ": ");
}

/* (digits by hand: snprintf was a tenth of tl-roofline's time) */
void
vint(struct buf *b, int64_t v)
{
	char s[24], *p = s + sizeof(s);
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--p = '-';
	buf_add(b, p, (size_t)(s + sizeof(s) - p));
}

static void
vnum(struct buf *b, struct pynum v)
{
	char s[40];

	if (v.isf)
		buf_adds(b, num_pyrepr(v.f, s, sizeof(s)));
	else
		vint(b, v.i);
}

void
vstr(struct buf *b, const char *s)
{
	if (s == NULL)
		buf_adds(b, "None");
	else
		pystr(b, s, strlen(s));
}

/* A JSON value as Python writes the object json.loads gives. */
static void
vjson(struct buf *b, const struct jdoc *d, const struct jval *v, int tuple)
{
	const struct jval *e;
	size_t i;

	switch (v->t) {
	case J_NULL: buf_adds(b, "None"); break;
	case J_BOOL: buf_adds(b, v->i ? "True" : "False"); break;
	case J_INT: vint(b, v->i); break;
	case J_FLOAT: vnum(b, F(v->d)); break;
	case J_STR: pystr(b, d->str.s + v->s, v->len); break;
	case J_ARR:
		buf_addc(b, tuple ? '(' : '[');
		for (i = 0; i < v->n; i++) {
			e = jarr_at(d, v, i);
			if (i > 0)
				buf_adds(b, ", ");
			vjson(b, d, e, 0);
		}
		if (tuple && v->n == 1)
			buf_addc(b, ',');
		buf_addc(b, tuple ? ')' : ']');
		break;
	case J_OBJ:
		buf_addc(b, '{');
		for (i = 0; i < v->n; i += 2) {
			if (i > 0)
				buf_adds(b, ", ");
			vjson(b, d, jarr_at(d, &(struct jval){ .t = J_ARR,
			    .n = v->n, .first = v->first }, i), 0);
			buf_adds(b, ": ");
			vjson(b, d, jarr_at(d, &(struct jval){ .t = J_ARR,
			    .n = v->n, .first = v->first }, i + 1), 0);
		}
		buf_addc(b, '}');
		break;
	}
}

void
vshape(struct buf *b, const struct shape *sh, int tuple)
{
	size_t i;

	buf_addc(b, tuple ? '(' : '[');
	for (i = 0; i < sh->n; i++) {
		if (i > 0)
			buf_adds(b, ", ");
		vint(b, sh->d[i]);
	}
	if (tuple && sh->n == 1)
		buf_addc(b, ',');
	buf_addc(b, tuple ? ')' : ']');
}

void
p_int(struct mresult *r, const char *k, int64_t v)
{
	pkey(r, k);
	vint(&r->params, v);
}

void
p_num(struct mresult *r, const char *k, struct pynum v)
{
	pkey(r, k);
	vnum(&r->params, v);
}

void
p_bool(struct mresult *r, const char *k, int v)
{
	pkey(r, k);
	buf_adds(&r->params, v ? "True" : "False");
}

/* A literal written as is (None, [], ...). */
void
p_raw(struct mresult *r, const char *k, const char *lit)
{
	pkey(r, k);
	buf_adds(&r->params, lit);
}

void
p_str(struct mresult *r, const char *k, const char *s)
{
	pkey(r, k);
	vstr(&r->params, s);
}

void
p_shape(struct mresult *r, const char *k, const struct shape *sh, int tuple)
{
	pkey(r, k);
	vshape(&r->params, sh, tuple);
}

void
p_shapeb(struct mresult *r, const char *k, const struct shape *sh, unsigned bools,
    const double *fv, unsigned floats)
{
	size_t i;

	pkey(r, k);
	buf_addc(&r->params, '(');
	for (i = 0; i < sh->n; i++) {
		if (i > 0)
			buf_adds(&r->params, ", ");
		if (bools & (1u << i))
			buf_adds(&r->params, sh->d[i] ? "True" : "False");
		else if (floats & (1u << i))
			vnum(&r->params, F(fv[i]));
		else
			vint(&r->params, sh->d[i]);
	}
	if (sh->n == 1)
		buf_addc(&r->params, ',');
	buf_addc(&r->params, ')');
}

/* A tuple of up to three dtype strings (NULL = None). */
void
p_dtypes(struct mresult *r, const char *k, size_t n, const char *const *t)
{
	size_t i;

	pkey(r, k);
	buf_addc(&r->params, '(');
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_adds(&r->params, ", ");
		vstr(&r->params, t[i]);
	}
	if (n == 1)
		buf_addc(&r->params, ',');
	buf_addc(&r->params, ')');
}

/*
 * tuple(Input Strides[k]).  opt: a missing Input Strides gives None
 * (TraceLens's "except KeyError"); otherwise it is an error.
 */
int
p_stride(const struct opargs *a, struct mresult *r, const char *k, size_t idx,
    int opt)
{
	const struct jval *v;

	if (opt && !a->has_strides && !a->bad_strides) {
		p_raw(r, k, "None");
		return 0;
	}
	if ((v = item(a, r, FD_STRIDES, idx)) == NULL)
		return -1;
	if (v->t != J_ARR)
		return fail(r, "Input Strides[%zu] is not a list", idx), -1;
	pkey(r, k);
	vjson(&r->params, &a->strides, v, 1);
	return 0;
}

/*
 * tuple(Input type[from:to]) into t[] (as a Python slice: short lists
 * give fewer); returns the count or -1.
 */
long
dtype_slice(const struct opargs *a, struct mresult *r, size_t from, size_t to,
    const char **t)
{
	long n = arg_len(a, r, FD_TYPES);
	size_t i, k = 0;

	if (n < 0)
		return -1;
	for (i = from; i < to && i < (size_t)n; i++)
		if (arg_str(a, r, FD_TYPES, i, &t[k++]) < 0)
			return -1;
	return k;
}

/* ---- dtypes ---- */

int
model_bpe(const char *dtype)
{
	static const struct { const char *name; int bpe; } tab[] = {
		{ "double", 8 }, { "long int", 8 },
		{ "float", 4 }, { "scalar", 4 }, { "int", 4 },
		{ "c10::half", 2 }, { "c10::bfloat16", 2 },
		{ "c10::float8_e4m3fnuz", 1 }, { "c10::float8_e4m3fn", 1 },
		{ "c10::float8_e5m2", 1 }, { "c10::float8_e8m0fnu", 1 },
		{ "unsigned char", 1 }, { "signed char", 1 }, { "fp8", 1 },
		{ "c10::float4_e2m1fn_x2", 1 }, { "fp4", 1 },
	};
	size_t i;

	if (dtype == NULL)
		return 0;
	for (i = 0; i < LEN(tab); i++)
		if (strcasecmp(dtype, tab[i].name) == 0)
			return tab[i].bpe;
	return 0;
}

const char *
model_precision(const char *dtype)
{
	static const char *const tab[][2] = {
		{ "float", "fp32" }, { "double", "fp64" },
		{ "c10::half", "fp16" }, { "c10::bfloat16", "bf16" },
		{ "c10::float8_e4m3fnuz", "fp8" }, { "unsigned char", "fp8" },
		{ "fp8", "fp8" }, { "fp4", "fp4" }, { "mxfp4", "fp4" },
		{ "c10::float4_e2m1fn_x2", "fp4" }, { "c10::float8_e4m3fn", "fp8" },
	};
	size_t i;

	if (dtype == NULL || *dtype == '\0')
		return NULL;
	for (i = 0; i < LEN(tab); i++)
		if (strcasecmp(dtype, tab[i][0]) == 0)
			return tab[i][1];
	return NULL;
}

/* ---- arguments several families read alike ---- */

/*
 * Python's "try: tuple(S[i]), tuple(S[j]) except KeyError[, IndexError]:
 * None, None" for the params ka, kb (idxerr: IndexError caught too).
 */
int
p_strides2(const struct opargs *a, struct mresult *r, const char *ka, const char *kb,
    size_t i, size_t j, int idxerr)
{
	const struct jval *s;

	if (!a->has_strides && !a->bad_strides) {
		p_raw(r, ka, "None");
		p_raw(r, kb, "None");
		return 0;
	}
	if ((s = field(a, r, FD_STRIDES)) == NULL)
		return -1;
	if (idxerr && s->n > i && jarr_at(&a->strides, s, i)->t != J_ARR)
		return fail(r, "Input Strides[%zu] is not a list", i), -1;
	if (idxerr && (s->n <= i || s->n <= j)) {
		p_raw(r, ka, "None");
		p_raw(r, kb, "None");
		return 0;
	}
	if (p_stride(a, r, ka, i, 0) < 0 || p_stride(a, r, kb, j, 0) < 0)
		return -1;
	return 0;
}

/* Python's "try: tuple(S[k]) except (KeyError, IndexError): None". */
int
p_stride_opt(const struct opargs *a, struct mresult *r, const char *key, size_t k)
{
	const struct jval *s;

	if (!a->has_strides && !a->bad_strides) {
		p_raw(r, key, "None");
		return 0;
	}
	if ((s = field(a, r, FD_STRIDES)) == NULL)
		return -1;
	if (k >= s->n) {
		p_raw(r, key, "None");
		return 0;
	}
	return p_stride(a, r, key, k, 0);
}

/* Input type[0] when the list is not empty, else dflt; *n: 0 when empty or missing. */
int
type0(const struct opargs *a, struct mresult *r, const char *dflt, const char **s,
    int *n)
{
	const struct jval *t;

	*s = dflt;
	*n = 0;
	if (a->bad_types)
		return fail(r, "malformed Input type"), -1;
	if (!a->has_types)
		return 0;
	t = jdoc_root(&a->types);
	if (t->t != J_ARR)
		return fail(r, "Input type is not a list"), -1;
	*n = (int)MIN(t->n, 2);
	if (t->n > 0)
		return arg_str(a, r, FD_TYPES, 0, s);
	return 0;
}

/* "bpe = name2bpe(dtype) if dtype else None; bpe if bpe is not None else 2" */
int
bpe_or2(const char *dt)
{
	int b = dt != NULL && *dt ? model_bpe(dt) : 0;

	return b ? b : 2;
}
