/* See LICENSE file for copyright and license details. */
/*
 * TraceLens's perf models, written from its behaviour (PerfModel/
 * perf_model.py at 171dd747): which op is which model, the params it
 * reads from the op's arguments, and its FLOPs and bytes.
 *
 * To add a model: write one formula function (reading the op with the
 * arg_* helpers, writing params with the p_* helpers, setting
 * r->flops, r->bytes and r->dtype) and add its op names to the table
 * at the end of this file.  That is all tl-roofline needs.
 *
 * Arithmetic is Python's: struct pynum keeps int and float apart, so
 * "x / 2" gives a float and "x // 2" an int exactly where TraceLens's
 * expressions do, in the same order.  Where TraceLens raises an
 * exception (bad index, dtype mismatch, not broadcastable ...) the
 * model fails with a reason; the op is then not modelled.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tl.h"
#include "shape.h"
#include "perfmodel.h"

/* ---- Python numbers ---- */

static struct pynum
I(int64_t v)
{
	struct pynum p = { 0, v, (double)v };

	return p;
}

static struct pynum
F(double v)
{
	struct pynum p = { 1, 0, v };

	return p;
}

double
pynum_double(struct pynum v)
{
	return v.isf ? v.f : (double)v.i;
}

static struct pynum
add(struct mresult *r, struct pynum a, struct pynum b)
{
	int64_t v;

	if (a.isf || b.isf)
		return F(pynum_double(a) + pynum_double(b));
	if (__builtin_add_overflow(a.i, b.i, &v))
		r->ovf = 1;
	return I(v);
}

static struct pynum
sub(struct mresult *r, struct pynum a, struct pynum b)
{
	int64_t v;

	if (a.isf || b.isf)
		return F(pynum_double(a) - pynum_double(b));
	if (__builtin_sub_overflow(a.i, b.i, &v))
		r->ovf = 1;
	return I(v);
}

static struct pynum
mul(struct mresult *r, struct pynum a, struct pynum b)
{
	int64_t v;

	if (a.isf || b.isf)
		return F(pynum_double(a) * pynum_double(b));
	if (__builtin_mul_overflow(a.i, b.i, &v))
		r->ovf = 1;
	return I(v);
}

/* a / b: always a float; int / int is the rounded exact quotient. */
static struct pynum
tdiv(struct mresult *r, struct pynum a, struct pynum b)
{
	if (pynum_double(b) == 0) {
		r->ovf = 2;
		return F(NAN);
	}
	return F(pynum_double(a) / pynum_double(b));
}

/* a // b, floor division, as CPython computes it for ints and floats. */
static struct pynum
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

static int
fail(struct mresult *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	return M_FAIL;
}

/* ---- reading the op's arguments, with Python's failures ---- */

/* Which argument field. */
enum field { FD_DIMS, FD_TYPES, FD_STRIDES, FD_CONCRETE };

static const char *const fieldname[] = {
	"Input Dims", "Input type", "Input Strides", "Concrete Inputs"
};

/* The root array of a field, or NULL with r->why set (KeyError). */
static const struct jval *
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
static const struct jval *
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
static int
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
static int
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
static int
arg_ci(const struct opargs *a, struct mresult *r, size_t k, const char **s)
{
	if (arg_str(a, r, FD_CONCRETE, k, s) < 0)
		return -1;
	if (*s == NULL)
		return fail(r, "Concrete Inputs[%zu] is None", k), -1;
	return 0;
}

/* Python's float() of a Concrete Inputs string. */
static int
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
static int
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
static int
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
static int
arg_notnone(const struct opargs *a, struct mresult *r, size_t k, int *b)
{
	const struct jval *v = item(a, r, FD_DIMS, k);

	if (v == NULL)
		return -1;
	*b = a->fixed ? v->t == J_ARR && v->n > 0 : v->t != J_NULL;
	return 0;
}

/* len(field), or -1 with r->why set when the field is missing. */
static long
arg_len(const struct opargs *a, struct mresult *r, enum field f)
{
	const struct jval *v = field(a, r, f);

	return v == NULL ? -1 : (long)v->n;
}

/* Python truth of Input Dims[k] when it exists (a non-empty list). */
static int
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

/* ---- params: a Python dict literal, in TraceLens's key order ---- */

static void
pkey(struct mresult *r, const char *k)
{
	buf_adds(&r->params, r->params.len == 0 ? "{" : ", ");
	pystr(&r->params, k, strlen(k));
	buf_adds(&r->params, ": ");
}

static void
vint(struct buf *b, int64_t v)
{
	char s[32];

	snprintf(s, sizeof(s), "%lld", (long long)v);
	buf_adds(b, s);
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

static void
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

static void
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

static void
p_int(struct mresult *r, const char *k, int64_t v)
{
	pkey(r, k);
	vint(&r->params, v);
}

static void
p_num(struct mresult *r, const char *k, struct pynum v)
{
	pkey(r, k);
	vnum(&r->params, v);
}

static void
p_bool(struct mresult *r, const char *k, int v)
{
	pkey(r, k);
	buf_adds(&r->params, v ? "True" : "False");
}

/* A literal written as is (None, [], ...). */
static void
p_raw(struct mresult *r, const char *k, const char *lit)
{
	pkey(r, k);
	buf_adds(&r->params, lit);
}

static void
p_str(struct mresult *r, const char *k, const char *s)
{
	pkey(r, k);
	vstr(&r->params, s);
}

static void
p_shape(struct mresult *r, const char *k, const struct shape *sh, int tuple)
{
	pkey(r, k);
	vshape(&r->params, sh, tuple);
}

/* A tuple of up to three dtype strings (NULL = None). */
static void
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
static int
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
static long
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

/* A bytes-per-element that may be None (0), times n: None stays None. */
static void
set_bytes(struct mresult *r, int known, struct pynum v)
{
	r->has_bytes = known;
	r->bytes = v;
}

static int64_t
prod(struct mresult *r, const struct shape *sh)
{
	int64_t p;

	if (shape_prod(sh, &p) < 0)
		r->ovf = 1;
	return p;
}

/* ---- GEMM ---- */

/* Transpose flags from a kernel name, TraceLens's gemm_name_parser. */
static int
gemm_kernel(const char *k, struct mresult *r, char *out, size_t outsz)
{
	size_t n = strlen(k), i;
	const char *nl, *ta = NULL, *tb = NULL, *last;
	int found = 0;

	/* ROCm Tensile: ^.*C[a-z]{3}_A[a-z]{3}_B[a-z]{3}.*$ (no newline crossed) */
	nl = memchr(k, '\n', n);
	for (i = 0; i + 14 <= n && (nl == NULL || k + i < nl); i++) {
		const char *p = k + i;
		int j, ok = p[0] == 'C' && p[4] == '_' && p[5] == 'A' &&
		    p[9] == '_' && p[10] == 'B';

		for (j = 1; ok && j < 14; j++)
			if (j != 4 && j != 5 && j != 9 && j != 10 &&
			    (p[j] < 'a' || p[j] > 'z'))
				ok = 0;
		if (ok) {
			const char *rest = memchr(p + 14, '\n', n - i - 14);

			found = rest == NULL || rest == k + n - 1;
			break;
		}
	}
	if (found) {
		ta = strstr(k, "_Ailk_") ? "False" : strstr(k, "_Alik_") ? "True" : "None";
		tb = strstr(k, "_Bljk_") ? "False" : strstr(k, "_Bjlk_") ? "True" : "None";
		snprintf(out, outsz, "(%s, %s)", ta, tb);
		return 1;
	}
	if (strncmp(k, "nvjet", 5) == 0) {
		last = strrchr(k, '_');
		last = last ? last + 1 : k;
		if (strlen(last) < 2)
			return fail(r, "nvjet kernel name without transpose flags"), -1;
		snprintf(out, outsz, "(%s, %s)", last[0] == 'T' ? "True" : "False",
		    last[1] == 'T' ? "True" : "False");
		return 1;
	}
	return 0;
}

/*
 * The "name" member of a kernel-details object ({"name":..,"dur":..}, as
 * tl-aggregate's list writes them), or NULL.
 */
static const struct jval *
kd_name(const struct jdoc *d, const struct jval *o)
{
	const struct jval *k;
	size_t i, at;
	const char *s;

	at = o->first;
	for (i = 0; i + 1 < o->n; i += 2) {
		k = &d->v[at];
		s = jstr(d, k);
		if (s != NULL && strcmp(s, "name") == 0)
			return &d->v[k->next];
		at = d->v[k->next].next;
	}
	return NULL;
}

/* The transpose param: first kernel (by ts) whose name parses. */
static int
gemm_transpose(const struct opargs *a, struct mresult *r, char *out, size_t outsz)
{
	const struct jval *root, *e;
	const char *k;
	size_t i;
	int got;

	root = jdoc_root(&a->knames);
	if (root != NULL && root->t == J_ARR) {
		for (i = 0; i < root->n; i++) {
			e = jarr_at(&a->knames, root, i);
			if (e != NULL && e->t == J_OBJ)
				e = kd_name(&a->knames, e);
			if ((k = jstr(&a->knames, e)) == NULL)
				continue;
			if ((got = gemm_kernel(k, r, out, outsz)) != 0)
				return got;
		}
		return 0;
	}
	if (a->kname != NULL && *a->kname != '\0')
		return gemm_kernel(a->kname, r, out, outsz);
	return 0;
}

/* What a GEMM get_param_details gives. */
struct gemm {
	int64_t B, M, N, K;	/* batch and matrix sizes */
	int bias;		/* bias added */
	const char *dt[2];	/* dtype_A_B */
	long ndt;		/* entries in dt (a short list gives fewer) */
};

/* The common tail: params B and transpose, FLOPs, compute dtype. */
static int
gemm_finish(const struct opargs *a, struct mresult *r, struct gemm *g, int hasB)
{
	char tr[32];
	int t;

	if (!hasB)
		p_int(r, "B", 1);
	if ((t = gemm_transpose(a, r, tr, sizeof(tr))) < 0)
		return M_FAIL;
	if (t > 0)
		p_raw(r, "transpose", tr);
	/* 2*M*N*K (+ M*N for the bias), times B for the batched ops */
	r->flops = mul(r, mul(r, mul(r, I(2), I(g->M)), I(g->N)), I(g->K));
	if (g->bias)
		r->flops = add(r, r->flops, mul(r, I(g->M), I(g->N)));
	if (hasB)
		r->flops = mul(r, I(g->B), r->flops);
	r->dtype = g->ndt > 0 ? g->dt[0] : NULL;
	return M_OK;
}

static struct pynum
gemm_bytes(struct mresult *r, const struct gemm *g, int b1, int b2, int bbias, int bout)
{
	struct pynum v;

	v = mul(r, mul(r, I(g->M), I(g->K)), I(b1));
	v = add(r, v, mul(r, mul(r, I(g->K), I(g->N)), I(b2)));
	v = add(r, v, mul(r, mul(r, I(g->M), I(g->N)), I(bout)));
	v = add(r, v, mul(r, I(g->bias ? g->N : 0), I(bbias)));
	return v;
}

/*
 * mm, addmm, _scaled_mm, bmm, baddbmm: A, B at Input Dims[off],
 * [off+1]; batched ops read (B, M, K) x (B, K, N).
 */
static int
gemm_params(const struct opargs *a, struct mresult *r, struct gemm *g,
    size_t off, int batched, int bias)
{
	struct shape A, Bm;

	memset(g, 0, sizeof(*g));
	if (arg_shape(a, r, off, &A) < 0 || arg_shape(a, r, off + 1, &Bm) < 0)
		return -1;
	if (batched) {
		if (A.n != 3 || Bm.n != 3)
			return fail(r, "bmm operands are not 3-D"), -1;
		g->B = A.d[0];
		g->M = A.d[1];
		g->K = A.d[2];
		g->N = Bm.d[2];
	} else {
		if (A.n < 2 || Bm.n < 2)
			return fail(r, "mm operands are not 2-D"), -1;
		g->M = A.d[0];
		g->N = Bm.d[1];
		g->K = A.d[1];
		g->B = 1;
	}
	g->bias = bias;
	if ((g->ndt = dtype_slice(a, r, off, off + 2, g->dt)) < 0)
		return -1;
	if (batched)
		p_int(r, "B", g->B);
	p_int(r, "M", g->M);
	p_int(r, "N", g->N);
	p_int(r, "K", g->K);
	p_bool(r, "bias", g->bias);
	if (!a->has_strides && !a->bad_strides) {
		p_raw(r, "stride_A", "None");
		p_raw(r, "stride_B", "None");
	} else if (p_stride(a, r, "stride_A", off, 0) < 0 ||
	    p_stride(a, r, "stride_B", off + 1, 0) < 0)
		return -1;
	p_dtypes(r, "dtype_A_B", g->ndt, g->dt);
	return 0;
}

/* aten::mm, aten::addmm, aten::bmm, aten::baddbmm: one bpe for all. */
static int
gemm_plain(const struct opargs *a, struct mresult *r, size_t off, int batched,
    int bias, int bwd)
{
	struct gemm g;
	int bpe;

	if (gemm_params(a, r, &g, off, batched, bias) < 0 ||
	    gemm_finish(a, r, &g, batched) != M_OK)
		return M_FAIL;
	if (bwd)
		return M_UNDEF;
	if (g.ndt < 2)
		return fail(r, "Input type has no dtype of B");
	bpe = model_bpe(g.dt[0]);
	set_bytes(r, bpe != 0, batched ? mul(r, I(g.B), gemm_bytes(r, &g, bpe, bpe, bpe, bpe)) :
	    gemm_bytes(r, &g, bpe, bpe, bpe, bpe));
	return M_OK;
}

static int
m_mm(const struct opargs *a, struct mresult *r, int bwd)
{
	return gemm_plain(a, r, 0, 0, 0, bwd);
}

static int
m_addmm(const struct opargs *a, struct mresult *r, int bwd)
{
	return gemm_plain(a, r, 1, 0, 1, bwd);
}

static int
m_bmm(const struct opargs *a, struct mresult *r, int bwd)
{
	return gemm_plain(a, r, 0, 1, 0, bwd);
}

static int
m_baddbmm(const struct opargs *a, struct mresult *r, int bwd)
{
	return gemm_plain(a, r, 1, 1, 1, bwd);
}

/* aten::_scaled_mm: fp8 in gives a 2-byte (fp16) output, by assumption. */
static int
m_scaled_mm(const struct opargs *a, struct mresult *r, int bwd)
{
	struct gemm g;
	long n;
	int bpe, bpeb, out;

	if ((n = arg_len(a, r, FD_DIMS)) < 0)
		return M_FAIL;
	if (gemm_params(a, r, &g, 0, 0, n == 3) < 0 ||
	    gemm_finish(a, r, &g, 0) != M_OK)
		return M_FAIL;
	if (bwd)
		return M_UNDEF;
	if (g.ndt < 2)
		return fail(r, "Input type has no dtype of B");
	bpe = model_bpe(g.dt[0]);
	bpeb = model_bpe(g.dt[1]);
	if (bpe == 0 || bpeb == 0)
		return fail(r, "unsupported dtypes of A and B");
	out = bpe == 1 ? 2 : (bpe == 2 || bpe == 4) ? bpe : 0;
	set_bytes(r, out != 0, gemm_bytes(r, &g, bpe, bpe, bpe, out));
	return M_OK;
}

/*
 * vllm::rocm_unquantized_gemm (a TraceLens pseudo-op extension):
 * x[M, K] @ weight[N, K].T (+ bias[N]); out and bias in the bias dtype.
 */
static int
m_vllm_rocm_gemm(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape x, wt, bs;
	struct gemm g = { 0 };
	const char *t3 = "";
	long nd, nt;
	int b1, b2, bo;

	if (arg_shape(a, r, 0, &x) < 0 || arg_shape(a, r, 1, &wt) < 0 ||
	    (nd = arg_len(a, r, FD_DIMS)) < 0)
		return M_FAIL;
	if (nd > 2 && arg_shape(a, r, 2, &bs) < 0)
		return M_FAIL;
	if (x.n < 2 || wt.n < 1)
		return fail(r, "operands too short");
	g.M = x.d[0];
	g.N = wt.d[0];
	g.K = x.d[1];
	g.bias = nd > 2 && bs.n > 0;
	if (arg_str(a, r, FD_TYPES, 0, &g.dt[0]) < 0 ||
	    arg_str(a, r, FD_TYPES, 1, &g.dt[1]) < 0 || (nt = arg_len(a, r, FD_TYPES)) < 0)
		return M_FAIL;
	if (nt > 2 && arg_str(a, r, FD_TYPES, 2, &t3) < 0)
		return M_FAIL;
	g.ndt = 2;
	p_int(r, "M", g.M);
	p_int(r, "N", g.N);
	p_int(r, "K", g.K);
	p_bool(r, "bias", g.bias);
	p_dtypes(r, "dtype_A_B", 3, (const char *[]){ g.dt[0], g.dt[1], t3 });
	if (gemm_finish(a, r, &g, 0) != M_OK)
		return M_FAIL;
	if (bwd)
		return fail(r, "no backward model");
	b1 = model_bpe(g.dt[0]);
	b2 = model_bpe(g.dt[1]);
	bo = g.bias ? model_bpe(t3) : b2;
	set_bytes(r, b1 && b2 && bo, gemm_bytes(r, &g, b1, b2, bo, bo));
	return M_OK;
}

/* ---- SDPA ---- */

/* What an SDPA get_param_details gives. */
struct sdpa {
	struct pynum B, NQ, HQ, NKV, HKV, dqk, dv; /* sizes (N may be float for varlen) */
	int causal;		/* causal mask */
	int flash;		/* flash_impl */
	const char *dt[2];	/* dtype_A_B */
	long ndt;		/* entries in dt */
};

/* q, k, v shapes at Input Dims[q0..q0+2] in the layout idx (B, H, N, d). */
static int
sdpa_shapes(const struct opargs *a, struct mresult *r, struct sdpa *s, size_t q0,
    const int *idx, int varlen)
{
	struct shape q, k, v;
	size_t need = varlen ? 3 : 4;
	int64_t bq, bk, bv, hq, hk, hv, nq, nk, nv, dq, dk, dv;

	if (arg_shape(a, r, q0, &q) < 0 || arg_shape(a, r, q0 + 1, &k) < 0 ||
	    arg_shape(a, r, q0 + 2, &v) < 0)
		return -1;
	if (q.n < need || k.n < need || v.n < need)
		return fail(r, "q, k, v shapes too short"), -1;
	if (varlen) {
		bq = bk = bv = 1;
		hq = q.d[idx[0]], nq = q.d[idx[1]], dq = q.d[idx[2]];
		hk = k.d[idx[0]], nk = k.d[idx[1]], dk = k.d[idx[2]];
		hv = v.d[idx[0]], nv = v.d[idx[1]], dv = v.d[idx[2]];
	} else {
		bq = q.d[idx[0]], hq = q.d[idx[1]], nq = q.d[idx[2]], dq = q.d[idx[3]];
		bk = k.d[idx[0]], hk = k.d[idx[1]], nk = k.d[idx[2]], dk = k.d[idx[3]];
		bv = v.d[idx[0]], hv = v.d[idx[1]], nv = v.d[idx[2]], dv = v.d[idx[3]];
	}
	if (bq != bk || bq != bv)
		return fail(r, "batch sizes do not match"), -1;
	if (hk != hv)
		return fail(r, "head sizes do not match for K and V"), -1;
	if (nk != nv)
		return fail(r, "length sizes do not match for K and V"), -1;
	if (dq != dk)
		return fail(r, "head dimensions do not match for Q and K"), -1;
	s->B = I(bq);
	s->NQ = I(nq);
	s->HQ = I(hq);
	s->NKV = I(nk);
	s->HKV = I(hk);
	s->dqk = I(dq);
	s->dv = I(dv);
	return 0;
}

static void
sdpa_sizes(struct mresult *r, const struct sdpa *s)
{
	p_num(r, "B", s->B);
	p_num(r, "N_Q", s->NQ);
	p_num(r, "H_Q", s->HQ);
	p_num(r, "N_KV", s->NKV);
	p_num(r, "H_KV", s->HKV);
	p_num(r, "d_h_qk", s->dqk);
	p_num(r, "d_h_v", s->dv);
}

static int
sdpa_strides(const struct opargs *a, struct mresult *r, size_t q0)
{
	if (p_stride(a, r, "q_stride", q0, 0) < 0 ||
	    p_stride(a, r, "k_stride", q0 + 1, 0) < 0 ||
	    p_stride(a, r, "v_stride", q0 + 2, 0) < 0)
		return -1;
	return 0;
}

/* B*H_Q*(2*N_Q*N_KV*d): one attention matmul. */
static struct pynum
attn_mm(struct mresult *r, struct pynum B, struct pynum H, struct pynum n1,
    struct pynum n2, struct pynum d)
{
	return mul(r, mul(r, B, H), mul(r, mul(r, mul(r, I(2), n1), n2), d));
}

/* Halve for a causal mask, which needs N_Q == N_KV. */
static int
causal_half(struct mresult *r, struct pynum *t, const struct sdpa *s)
{
	if (!s->causal)
		return 0;
	if (pynum_double(s->NQ) != pynum_double(s->NKV))
		return fail(r, "causal=True but N_Q != N_KV"), -1;
	*t = tdiv(r, *t, I(2));
	return 0;
}

static int
sdpa_flops(struct mresult *r, const struct sdpa *s, struct pynum *t)
{
	struct pynum qk, pv;

	qk = attn_mm(r, s->B, s->HQ, s->NQ, s->NKV, s->dqk);
	pv = attn_mm(r, s->B, s->HQ, s->NQ, s->dv, s->NKV);
	*t = add(r, qk, pv);
	return causal_half(r, t, s);
}

static int
sdpa_flops_bwd(struct mresult *r, const struct sdpa *s, struct pynum *t)
{
	struct pynum g, gqa;

	*t = I(0);
	if (s->flash)	/* recompute of QK^T */
		*t = add(r, *t, attn_mm(r, s->B, s->HQ, s->NQ, s->NKV, s->dqk));
	gqa = sub(r, fdiv(r, s->HQ, s->HKV), I(1));
	g = attn_mm(r, s->B, s->HQ, s->NKV, s->NQ, s->dv);	/* dV */
	g = add(r, g, mul(r, mul(r, mul(r, s->B, s->NKV), s->dv), gqa));
	*t = add(r, *t, g);
	*t = add(r, *t, attn_mm(r, s->B, s->HQ, s->NQ, s->NKV, s->dv));	/* dP */
	*t = add(r, *t, attn_mm(r, s->B, s->HQ, s->NQ, s->NKV, s->dqk)); /* dQ */
	g = attn_mm(r, s->B, s->HQ, s->NKV, s->NQ, s->dqk);	/* dK */
	g = add(r, g, mul(r, mul(r, mul(r, s->B, s->NKV), s->dqk), gqa));
	*t = add(r, *t, g);
	return causal_half(r, t, s);
}

static struct pynum
elems4(struct mresult *r, struct pynum B, struct pynum N, struct pynum H, struct pynum d)
{
	return mul(r, mul(r, mul(r, B, N), H), d);
}

/* q, k, v read and o written. */
static struct pynum
sdpa_bytes(struct mresult *r, const struct sdpa *s, int bpe)
{
	struct pynum t;

	t = elems4(r, s->B, s->NQ, s->HQ, s->dqk);
	t = add(r, t, elems4(r, s->B, s->NKV, s->HKV, s->dqk));
	t = add(r, t, elems4(r, s->B, s->NKV, s->HKV, s->dv));
	t = add(r, t, elems4(r, s->B, s->NQ, s->HQ, s->dv));
	return mul(r, t, I(bpe));
}

/* q, k, v and dO read; dq, dk, dv written. */
static struct pynum
sdpa_bytes_bwd(struct mresult *r, const struct sdpa *s, int bpe)
{
	struct pynum t;

	t = elems4(r, s->B, s->NQ, s->HQ, s->dqk);
	t = add(r, t, elems4(r, s->B, s->NKV, s->HKV, s->dqk));
	t = add(r, t, elems4(r, s->B, s->NKV, s->HKV, s->dv));
	t = add(r, t, elems4(r, s->B, s->NQ, s->HQ, s->dv));
	t = add(r, t, elems4(r, s->B, s->NQ, s->HQ, s->dqk));
	t = add(r, t, elems4(r, s->B, s->NKV, s->HKV, s->dqk));
	t = add(r, t, elems4(r, s->B, s->NKV, s->HKV, s->dv));
	return mul(r, t, I(bpe));
}

/*
 * TraceLens counts 2 bytes per element whatever the dtype; with
 * --fixed-models the dtype's own size (None when unknown).
 */
static int
sdpa_bpe(const struct opargs *a, const struct sdpa *s)
{
	if (!a->fixed)
		return 2;
	return s->ndt > 0 ? model_bpe(s->dt[0]) : 0;
}

/* The generic fwd/bwd metrics of an SDPA class. */
static int
sdpa_metrics(const struct opargs *a, struct mresult *r, struct sdpa *s, int bwd)
{
	struct pynum t;
	int bpe = sdpa_bpe(a, s);

	r->dtype = s->ndt > 0 ? s->dt[0] : NULL;
	if ((bwd ? sdpa_flops_bwd(r, s, &t) : sdpa_flops(r, s, &t)) < 0)
		return M_FAIL;
	r->flops = t;
	set_bytes(r, bpe != 0, bwd ? sdpa_bytes_bwd(r, s, bpe) : sdpa_bytes(r, s, bpe));
	return M_OK;
}

static int
sdpa_dtypes(const struct opargs *a, struct mresult *r, struct sdpa *s)
{
	return (s->ndt = dtype_slice(a, r, 0, 2, s->dt)) < 0 ? -1 : 0;
}

/* FlashAttnFunc, flash_attn::_flash_attn_forward: (B, N, H, d). */
static int
m_flash_attention(const struct opargs *a, struct mresult *r, int bwd)
{
	static const int bnhd[] = { 0, 2, 1, 3 };
	struct sdpa s = { 0 };
	double dropout;

	if (sdpa_shapes(a, r, &s, 0, bnhd, 0) < 0 || sdpa_dtypes(a, r, &s) < 0 ||
	    arg_float(a, r, 3, &dropout) < 0 || arg_evalbool(a, r, 5, &s.causal) < 0)
		return M_FAIL;
	s.flash = 1;
	sdpa_sizes(r, &s);
	if (sdpa_strides(a, r, 0) < 0)
		return M_FAIL;
	p_num(r, "dropout", F(dropout));
	p_bool(r, "causal", s.causal);
	p_bool(r, "flash_impl", 1);
	p_dtypes(r, "dtype_A_B", s.ndt, s.dt);
	return sdpa_metrics(a, r, &s, bwd);
}

/* flash_attn::_flash_attn_backward: dout, q, k, v, ... */
static int
m_flash_attention_backward(const struct opargs *a, struct mresult *r, int bwd)
{
	static const int bnhd[] = { 0, 2, 1, 3 };
	struct sdpa s = { 0 };
	const struct jval *ci = NULL;
	const char *c;
	double dropout = 0;
	struct pynum t;
	int bpe;

	if (sdpa_shapes(a, r, &s, 1, bnhd, 0) < 0 || sdpa_dtypes(a, r, &s) < 0)
		return M_FAIL;
	if (a->has_concrete || a->bad_concrete)
		if ((ci = field(a, r, FD_CONCRETE)) == NULL)
			return M_FAIL;
	s.causal = 1;
	if (jarr_len(ci) > 8) {
		if (arg_str(a, r, FD_CONCRETE, 8, &c) < 0)
			return M_FAIL;
		if (c != NULL && *c && arg_float(a, r, 8, &dropout) < 0)
			return M_FAIL;
	}
	if (jarr_len(ci) > 10) {
		if (arg_str(a, r, FD_CONCRETE, 10, &c) < 0)
			return M_FAIL;
		if (c != NULL && *c && arg_evalbool(a, r, 10, &s.causal) < 0)
			return M_FAIL;
	}
	s.flash = 1;
	sdpa_sizes(r, &s);
	if (sdpa_strides(a, r, 1) < 0)
		return M_FAIL;
	p_num(r, "dropout", F(dropout));
	p_bool(r, "causal", s.causal);
	p_bool(r, "flash_impl", 1);
	p_dtypes(r, "dtype_A_B", s.ndt, s.dt);
	r->dtype = s.ndt > 0 ? s.dt[0] : NULL;
	if (sdpa_flops_bwd(r, &s, &t) < 0)
		return M_FAIL;
	r->flops = t;
	/* its fwd bytes use the dtype; TraceLens's bytes_bwd() uses 2 */
	bpe = bwd ? sdpa_bpe(a, &s) : (s.ndt > 0 ? model_bpe(s.dt[0]) : 0);
	if (bwd) {
		set_bytes(r, bpe != 0, sdpa_bytes_bwd(r, &s, bpe));
		return M_OK;
	}
	if (bpe == 0)
		return fail(r, "unknown dtype %s", s.ndt > 0 && s.dt[0] ? s.dt[0] : "None");
	set_bytes(r, 1, sdpa_bytes_bwd(r, &s, bpe));
	return M_OK;
}

/*
 * The varlen lower bound: one sequence of max_seqlen plus num_seqs - 1
 * sequences sharing the rest of the tokens evenly.
 */
static int
varlen_flops(struct mresult *r, const struct sdpa *s, struct pynum nsq,
    struct pynum nskv, struct pynum maxq, struct pynum maxkv, int bwd,
    struct pynum *t)
{
	struct sdpa x = *s;
	struct pynum rest;

	x.NQ = maxq;
	x.NKV = maxkv;
	if ((bwd ? sdpa_flops_bwd(r, &x, t) : sdpa_flops(r, &x, t)) < 0)
		return -1;
	if (pynum_double(nsq) > 1) {
		x.NQ = fdiv(r, sub(r, s->NQ, maxq), sub(r, nsq, I(1)));
		x.NKV = fdiv(r, sub(r, s->NKV, maxkv), sub(r, nskv, I(1)));
		if ((bwd ? sdpa_flops_bwd(r, &x, &rest) : sdpa_flops(r, &x, &rest)) < 0)
			return -1;
		*t = add(r, *t, mul(r, sub(r, nsq, I(1)), rest));
	}
	return 0;
}

/*
 * flash_attn::_flash_attn_varlen_forward (q0 = 0) and _backward
 * (q0 = 1): (T, H, d) with B = 1; cu_seqlens at Input Dims[cu],
 * max_seqlen, dropout, causal at Concrete Inputs[ci], [ci+1], [ci+2],
 * [ci+4].
 */
static int
varlen(const struct opargs *a, struct mresult *r, int bwd, size_t q0, size_t cu,
    size_t ci, int isbwd)
{
	static const int hnd[] = { 1, 0, 2 };
	struct sdpa s = { 0 };
	struct shape cq, ck;
	double mq, mk, dropout;
	struct pynum nsq, nskv, t;

	if (sdpa_shapes(a, r, &s, q0, hnd, 1) < 0 || sdpa_dtypes(a, r, &s) < 0)
		return M_FAIL;
	sdpa_sizes(r, &s);
	if (sdpa_strides(a, r, q0) < 0 || arg_shape(a, r, cu, &cq) < 0 ||
	    arg_shape(a, r, cu + 1, &ck) < 0)
		return M_FAIL;
	if (cq.n < 1 || ck.n < 1)
		return fail(r, "cu_seqlens shape is empty");
	nsq = sub(r, I(cq.d[0]), I(1));
	nskv = sub(r, I(ck.d[0]), I(1));
	if (arg_float(a, r, ci, &mq) < 0 || arg_float(a, r, ci + 1, &mk) < 0 ||
	    arg_float(a, r, ci + 2, &dropout) < 0 ||
	    arg_evalbool(a, r, ci + 4, &s.causal) < 0)
		return M_FAIL;
	s.flash = 1;
	p_num(r, "dropout", F(dropout));
	p_bool(r, "causal", s.causal);
	p_bool(r, "flash_impl", 1);
	p_dtypes(r, "dtype_A_B", s.ndt, s.dt);
	p_num(r, "num_seqs_q", nsq);
	p_num(r, "num_seqs_kv", nskv);
	p_num(r, "max_seqlen_q", F(mq));
	p_num(r, "max_seqlen_kv", F(mk));
	if (bwd)	/* TraceLens's flops_bwd is the plain SDPA one */
		return sdpa_metrics(a, r, &s, 1);
	r->dtype = s.ndt > 0 ? s.dt[0] : NULL;
	if (varlen_flops(r, &s, nsq, nskv, F(mq), F(mk), isbwd, &t) < 0)
		return M_FAIL;
	r->flops = t;
	set_bytes(r, sdpa_bpe(a, &s) != 0, isbwd ? sdpa_bytes_bwd(r, &s, sdpa_bpe(a, &s)) :
	    sdpa_bytes(r, &s, sdpa_bpe(a, &s)));
	return M_OK;
}

static int
m_flash_varlen_fwd(const struct opargs *a, struct mresult *r, int bwd)
{
	return varlen(a, r, bwd, 0, 3, 5, 0);
}

static int
m_flash_varlen_bwd(const struct opargs *a, struct mresult *r, int bwd)
{
	return varlen(a, r, bwd, 1, 9, 11, 1);
}

/* TraceLens's optional_float: "", "None", None and junk give 0.0. */
static int
opt_float(const struct opargs *a, struct mresult *r, size_t k, double *d)
{
	const char *s;

	if (arg_str(a, r, FD_CONCRETE, k, &s) < 0)
		return -1;
	if (s == NULL || *s == '\0' || strcmp(s, "None") == 0 ||
	    shape_pyfloat(s, d) < 0)
		*d = 0.0;
	return 0;
}

/* is_causal: the string lower-cased is "true"; "" and "None" are False. */
static int
ci_causal(const struct opargs *a, struct mresult *r, size_t k, int *b)
{
	const char *s;

	if (arg_str(a, r, FD_CONCRETE, k, &s) < 0)
		return -1;
	if (s == NULL)
		return fail(r, "Concrete Inputs[%zu] is None", k), -1;
	*b = strcasecmp(s, "true") == 0;
	return 0;
}

/*
 * aten::_scaled_dot_product_{cudnn,efficient,flash}_attention: q, k, v
 * in (B, H, N, d); dropout and is_causal at Concrete Inputs[ci], [ci+1].
 */
static int
aten_sdpa(const struct opargs *a, struct mresult *r, int bwd, size_t ci, int flash)
{
	static const int bhnd[] = { 0, 1, 2, 3 };
	struct sdpa s = { 0 };
	double dropout;

	if (sdpa_shapes(a, r, &s, 0, bhnd, 0) < 0 || opt_float(a, r, ci, &dropout) < 0 ||
	    ci_causal(a, r, ci + 1, &s.causal) < 0 || sdpa_dtypes(a, r, &s) < 0)
		return M_FAIL;
	s.flash = flash;
	sdpa_sizes(r, &s);
	p_num(r, "dropout", F(dropout));
	p_bool(r, "causal", s.causal);
	p_bool(r, "flash_impl", flash);
	p_dtypes(r, "dtype_A_B", s.ndt, s.dt);
	return sdpa_metrics(a, r, &s, bwd);
}

static int
m_sdpa_cudnn(const struct opargs *a, struct mresult *r, int bwd)
{
	return aten_sdpa(a, r, bwd, 5, 0);
}

static int
m_sdpa_efficient(const struct opargs *a, struct mresult *r, int bwd)
{
	return aten_sdpa(a, r, bwd, 5, 0);
}

static int
m_sdpa_flash(const struct opargs *a, struct mresult *r, int bwd)
{
	return aten_sdpa(a, r, bwd, 3, 1);
}

/* ---- CONV ---- */

/* What a CONV get_param_details gives, and the output shape. */
struct conv {
	struct shape x, w, out;	/* input, filter, output shapes */
	struct shape stride, pad, dil, opad; /* per spatial dimension */
	int bias;		/* bias truth value */
	const char *biaslit;	/* the bias param as Python prints it */
	int transposed;		/* transposed convolution */
	int64_t groups;		/* groups */
	const char *dt[2];	/* dtype_input_weight */
	long ndt;		/* entries in dt */
};

/* TraceLens's str_to_tuple: cut the brackets, split on ',', int() each. */
static int
conv_tuple(const struct opargs *a, struct mresult *r, size_t k, int64_t dflt,
    long nd, struct shape *sh)
{
	const char *s;
	size_t n;
	long i;

	if (arg_ci(a, r, k, &s) < 0)
		return -1;
	if (*s == '\0') {
		sh->n = 0;
		for (i = 0; i < nd && i < SHAPE_MAX; i++)
			sh->d[sh->n++] = dflt;
		return 0;
	}
	n = strlen(s);
	if (n < 2 || shape_split(s + 1, s + n - 1, sh) < 0)
		return fail(r, "Concrete Inputs[%zu] is not a list of ints", k), -1;
	/* param * ndims if len(param) == 1: a 1-tuple fills every spatial dim */
	if (sh->n == 1) {
		int64_t v = sh->d[0];

		sh->n = 0;
		for (i = 0; i < nd && i < SHAPE_MAX; i++)
			sh->d[sh->n++] = v;
	}
	return 0;
}

/*
 * aten::convolution (xi = 0, ci = 3) and aten::convolution_backward
 * (xi = 1, ci = 4).
 */
static int
conv_params(const struct opargs *a, struct mresult *r, struct conv *c, size_t xi,
    size_t ci)
{
	static const char *const nd[] = { "conv1d", "conv2d", "conv3d" };
	long n, ndims;
	size_t i;
	int64_t num;

	memset(c, 0, sizeof(*c));
	if (arg_shape(a, r, xi, &c->x) < 0 || arg_shape(a, r, xi + 1, &c->w) < 0 ||
	    (n = arg_len(a, r, FD_DIMS)) < 0)
		return -1;
	ndims = (long)c->x.n - 2;
	if (xi == 0) {
		/* TraceLens: a bias only when Input Dims has exactly 3 entries */
		c->bias = a->fixed ? n > 2 && dims_truthy(a, 2) : n == 3;
		c->biaslit = c->bias ? "True" : "False";
	} else if (n <= 3) {
		c->biaslit = "False";
	} else if (!dims_truthy(a, 3)) {
		/* Python's "len(d) > 3 and d[3] and ...": the falsy d[3] itself */
		const struct jval *v = item(a, r, FD_DIMS, 3);

		c->biaslit = v->t == J_NULL ? "None" : v->t == J_ARR ? "[]" : "False";
		if (a->fixed)
			c->biaslit = "False";
	} else {
		c->bias = 1;
		c->biaslit = "True";
	}
	if (conv_tuple(a, r, ci, 1, ndims, &c->stride) < 0 ||
	    conv_tuple(a, r, ci + 1, 0, ndims, &c->pad) < 0 ||
	    conv_tuple(a, r, ci + 2, 1, ndims, &c->dil) < 0 ||
	    arg_evalbool(a, r, ci + 3, &c->transposed) < 0 ||
	    conv_tuple(a, r, ci + 4, 0, ndims, &c->opad) < 0 ||
	    arg_int(a, r, ci + 5, &c->groups) < 0)
		return -1;
	if ((c->ndt = dtype_slice(a, r, xi, xi + 2, c->dt)) < 0)
		return -1;
	if (c->ndt < 2)
		return fail(r, "Input type has no weight dtype"), -1;
	if ((c->dt[0] == NULL) != (c->dt[1] == NULL) ||
	    (c->dt[0] && strcmp(c->dt[0], c->dt[1]) != 0))
		return fail(r, "data types of input and weight differ"), -1;
	if (c->x.n < 3 || c->x.n > 5)
		return fail(r, "unknown convolution dimension %zu", c->x.n), -1;
	p_str(r, "convNd", nd[c->x.n - 3]);
	p_shape(r, "input_shape", &c->x, 1);
	p_shape(r, "filter_shape", &c->w, 1);
	p_dtypes(r, "dtype_input_weight", 2, c->dt);
	if (!a->has_strides && !a->bad_strides) {
		p_raw(r, "input_stride", "None");
		p_raw(r, "weight_stride", "None");
	} else if (p_stride(a, r, "input_stride", xi, 0) < 0 ||
	    p_stride(a, r, "weight_stride", xi + 1, 0) < 0)
		return -1;
	p_raw(r, "bias", c->biaslit);
	p_shape(r, "stride", &c->stride, 1);
	p_shape(r, "padding", &c->pad, 1);
	p_shape(r, "dilation", &c->dil, 1);
	p_bool(r, "transposed_conv", c->transposed);
	p_shape(r, "output_padding", &c->opad, 1);
	p_int(r, "groups", c->groups);

	/* the output shape (CONV.__init__) */
	ndims = (long)c->x.n - 2;
	if (c->w.n < (size_t)ndims + 2 || c->stride.n < (size_t)ndims ||
	    c->pad.n < (size_t)ndims || c->dil.n < (size_t)ndims ||
	    (c->transposed && c->opad.n < (size_t)ndims))
		return fail(r, "convolution arguments too short"), -1;
	c->out.n = 0;
	c->out.d[c->out.n++] = c->x.d[0];
	c->out.d[c->out.n++] = c->transposed ? c->w.d[1] : c->w.d[0];
	for (i = 0; i < (size_t)ndims; i++) {
		int64_t in = c->x.d[i + 2], k = c->w.d[i + 2], s = c->stride.d[i];
		int64_t p = c->pad.d[i], d = c->dil.d[i];
		struct pynum q;

		if (c->transposed) {
			q = add(r, sub(r, mul(r, sub(r, I(in), I(1)), I(s)),
			    mul(r, I(2), I(p))), mul(r, I(d), sub(r, I(k), I(1))));
			q = add(r, add(r, q, I(c->opad.d[i])), I(1));
			c->out.d[c->out.n++] = q.i;
		} else {
			/* int((in + 2p - d(k-1) - 1) / s + 1): float, truncated */
			num = sub(r, sub(r, add(r, I(in), mul(r, I(2), I(p))),
			    mul(r, I(d), sub(r, I(k), I(1)))), I(1)).i;
			q = add(r, tdiv(r, I(num), I(s)), I(1));
			if (r->ovf || !isfinite(q.f) || fabs(q.f) >= 9.2e18)
				return fail(r, "bad convolution size"), -1;
			c->out.d[c->out.n++] = (int64_t)q.f;
		}
	}
	return 0;
}

/* 2*prod(w[1:]) FLOPs per output (transposed: per input) element. */
static struct pynum
conv_flops(struct mresult *r, const struct shape *x, const struct shape *w,
    const struct shape *out, int bias, int transposed)
{
	struct shape w1 = *w;
	struct pynum per, t;

	w1.n = w->n > 0 ? w->n - 1 : 0;
	memmove(w1.d, w->d + 1, w1.n * sizeof(w1.d[0]));
	per = mul(r, I(2), I(prod(r, &w1)));
	t = mul(r, I(prod(r, transposed ? x : out)), per);
	if (bias)
		t = add(r, t, I(prod(r, out)));
	return t;
}

/* (shape[1], shape[0]) + shape[2:] */
static struct shape
conv_t(const struct shape *s)
{
	struct shape t = *s;

	if (s->n >= 2) {
		t.d[0] = s->d[1];
		t.d[1] = s->d[0];
	}
	return t;
}

static struct pynum
conv_flops_bwd(struct mresult *r, const struct conv *c)
{
	struct shape tx = conv_t(&c->x), tw = conv_t(&c->w), to = conv_t(&c->out);
	struct pynum t;

	t = conv_flops(r, &c->out, &c->w, &c->x, 0, !c->transposed);
	if (!c->transposed)
		t = add(r, t, conv_flops(r, &tx, &to, &tw, 0, 0));
	else
		t = add(r, t, conv_flops(r, &to, &tx, &tw, 0, 0));
	if (c->bias)
		t = add(r, t, I(prod(r, &c->out)));
	return t;
}

static struct pynum
conv_bytes(struct mresult *r, const struct shape *x, const struct shape *w,
    const struct shape *out, int bias, int bpe)
{
	struct pynum t;

	t = add(r, I(prod(r, x)), I(prod(r, w)));
	t = add(r, t, I(bias && out->n > 1 ? out->d[1] : 0));
	t = add(r, t, I(prod(r, out)));
	return mul(r, t, I(bpe));
}

/* The bias term is an element count, not bytes: TraceLens's sum. */
static struct pynum
conv_bytes_bwd(struct mresult *r, const struct conv *c, int bpe)
{
	struct pynum t;

	t = conv_bytes(r, &c->out, &c->w, &c->x, 0, bpe);
	t = add(r, t, conv_bytes(r, &c->out, &c->x, &c->w, 0, bpe));
	if (c->bias)
		t = add(r, t, add(r, I(prod(r, &c->out)), I(c->out.d[1])));
	return t;
}

static int
conv_run(const struct opargs *a, struct mresult *r, size_t xi, int back)
{
	struct conv c;
	int bpe;

	if (conv_params(a, r, &c, xi, xi == 0 ? 3 : 4) < 0)
		return M_FAIL;
	r->dtype = c.dt[0];
	bpe = model_bpe(c.dt[0]);
	if (back) {
		r->flops = conv_flops_bwd(r, &c);
		set_bytes(r, bpe != 0, conv_bytes_bwd(r, &c, bpe));
	} else {
		r->flops = conv_flops(r, &c.x, &c.w, &c.out, c.bias, c.transposed);
		set_bytes(r, bpe != 0, conv_bytes(r, &c.x, &c.w, &c.out, c.bias, bpe));
	}
	return M_OK;
}

static int
m_conv(const struct opargs *a, struct mresult *r, int bwd)
{
	return conv_run(a, r, 0, bwd);
}

/* aten::convolution_backward: its own metrics are the bwd formulas. */
static int
m_conv_bwd(const struct opargs *a, struct mresult *r, int bwd)
{
	(void)bwd;
	return conv_run(a, r, 1, 1);
}

/* ---- elementwise ---- */

/* The input/output dtype pair a unary op or norm reads. */
static void
bpe_pair(const char *in, const char *out, int hasout, int *bi, int *bo)
{
	*bi = model_bpe(in);
	*bo = hasout ? model_bpe(out) : *bi;
}

/* n*bpe_in + n*bpe_out; None if either bpe is None */
static void
unary_bytes(struct mresult *r, int64_t nin, int64_t nout, int bi, int bo)
{
	set_bytes(r, bi && bo, add(r, mul(r, I(nin), I(bi)), mul(r, I(nout), I(bo))));
}

/* aten::copy_, silu, neg, ...: Input Dims[1] present means an out tensor. */
static int
m_unary(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape sh;
	const char *t[2] = { NULL, NULL };
	long n;
	int out, bi, bo;

	if (arg_shape(a, r, 0, &sh) < 0 || arg_str(a, r, FD_TYPES, 0, &t[0]) < 0)
		return M_FAIL;
	if ((n = arg_len(a, r, FD_DIMS)) < 0)
		return M_FAIL;
	out = n > 1 && dims_truthy(a, 1);
	if (out && arg_str(a, r, FD_TYPES, 1, &t[1]) < 0)
		return M_FAIL;
	p_shape(r, "op_shape", &sh, 1);
	p_dtypes(r, "dtype_in_out", 2, t);
	if (p_stride(a, r, "stride_input", 0, 0) < 0)
		return M_FAIL;
	if (!out)
		p_raw(r, "stride_output", "None");
	else if (p_stride(a, r, "stride_output", 1, 0) < 0)
		return M_FAIL;
	if (bwd)
		return fail(r, "no backward model");
	r->dtype = t[0];
	r->flops = I(prod(r, &sh));
	bpe_pair(t[0], t[1], t[1] != NULL, &bi, &bo);
	unary_bytes(r, prod(r, &sh), prod(r, &sh), bi, bo);
	return M_OK;
}

/* Reads input, writes output; a None bpe raises in TraceLens. */
static int
resize_bytes(struct mresult *r, const struct shape *in, const struct shape *out,
    const char *dt)
{
	int bpe = model_bpe(dt);

	if (bpe == 0)
		return fail(r, "unknown dtype %s", dt ? dt : "None");
	r->dtype = dt;
	r->flops = I(prod(r, out));
	unary_bytes(r, prod(r, in), prod(r, out), bpe, bpe);
	return M_OK;
}

/* aten::replication_pad{1,2,3}d: padding pairs innermost dimension first. */
static int
m_replication_pad(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape in, out, pad;
	const char *dt, *s;
	char tmp[256];
	size_t i, j, n;
	long idx;

	if (arg_shape(a, r, 0, &in) < 0 || arg_str(a, r, FD_TYPES, 0, &dt) < 0 ||
	    field(a, r, FD_STRIDES) == NULL || arg_ci(a, r, 1, &s) < 0)
		return M_FAIL;
	/* pad_str.strip("[]").replace(" ", "").split(",") */
	n = strlen(s);
	while (n > 0 && (s[n - 1] == '[' || s[n - 1] == ']'))
		n--;
	while (n > 0 && (*s == '[' || *s == ']'))
		s++, n--;
	for (i = j = 0; i < n && j < sizeof(tmp) - 1; i++)
		if (s[i] != ' ')
			tmp[j++] = s[i];
	tmp[j] = '\0';
	if (i < n || shape_split(tmp, tmp + j, &pad) < 0)
		return fail(r, "Concrete Inputs[1] is not a padding list");
	out = in;
	for (i = 0; i < pad.n / 2; i++) {
		idx = (long)in.n - 1 - (long)i;
		if (idx < 0)
			idx += in.n;
		if (idx < 0)
			return fail(r, "padding longer than the shape");
		out.d[idx] = add(r, I(out.d[idx]), add(r, I(pad.d[2 * i]),
		    I(pad.d[2 * i + 1]))).i;
	}
	p_shape(r, "input_shape", &in, 1);
	p_shape(r, "output_shape", &out, 1);
	p_shape(r, "padding", &pad, 0);
	p_shape(r, "op_shape", &out, 1);
	p_dtypes(r, "dtype_in_out", 2, (const char *[]){ dt, dt });
	if (p_stride(a, r, "stride_input", 0, 0) < 0)
		return M_FAIL;
	p_raw(r, "stride_output", "None");
	if (bwd)
		return fail(r, "no backward model");
	return resize_bytes(r, &in, &out, dt);
}

/* aten::upsample_nearest{1,2,3}d: output size at Concrete Inputs[1]. */
static int
m_upsample_nearest(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape in, out, sp;
	const char *dt, *s;
	size_t i;

	if (arg_shape(a, r, 0, &in) < 0 || arg_str(a, r, FD_TYPES, 0, &dt) < 0 ||
	    field(a, r, FD_STRIDES) == NULL || arg_ci(a, r, 1, &s) < 0)
		return M_FAIL;
	if (shape_pylist(s, &sp) < 0)
		return fail(r, "Concrete Inputs[1] is not an output size");
	out.n = 0;
	for (i = 0; i < in.n && i < 2; i++)
		out.d[out.n++] = in.d[i];
	if (out.n + sp.n > SHAPE_MAX)
		return fail(r, "output shape too long");
	for (i = 0; i < sp.n; i++)
		out.d[out.n++] = sp.d[i];
	p_shape(r, "input_shape", &in, 1);
	p_shape(r, "output_shape", &out, 1);
	p_shape(r, "op_shape", &out, 1);
	p_dtypes(r, "dtype_in_out", 2, (const char *[]){ dt, dt });
	if (p_stride(a, r, "stride_input", 0, 0) < 0)
		return M_FAIL;
	p_raw(r, "stride_output", "None");
	if (bwd)
		return fail(r, "no backward model");
	return resize_bytes(r, &in, &out, dt);
}

/* Right-aligned broadcast of two shapes; -1 when not broadcastable. */
static int
broadcast(const struct shape *a, const struct shape *b, struct shape *o)
{
	size_t n = MAX(a->n, b->n), i;
	int64_t x, y;

	o->n = n;
	for (i = 0; i < n; i++) {
		x = i + a->n >= n ? a->d[i + a->n - n] : 1;
		y = i + b->n >= n ? b->d[i + b->n - n] : 1;
		if (x != y && x != 1 && y != 1)
			return -1;
		o->d[i] = MAX(x, y);
	}
	return 0;
}

/*
 * Binary ops: out dtype from Input type[2] when Input Dims[2] is a
 * tensor; else the wider input when both are tensors, else input 1.
 */
static int
binary(const struct opargs *a, struct mresult *r, int bwd, int liger)
{
	struct shape s1, s2, so;
	const char *t[3] = { NULL, NULL, NULL };
	long n;
	int out = 0, b1, b2, bo;
	struct pynum v;

	if (arg_shape(a, r, 0, &s1) < 0 || arg_shape(a, r, 1, &s2) < 0 ||
	    arg_str(a, r, FD_TYPES, 0, &t[0]) < 0 || arg_str(a, r, FD_TYPES, 1, &t[1]) < 0)
		return M_FAIL;
	if (liger) {
		if (field(a, r, FD_STRIDES) == NULL)
			return M_FAIL;
	} else {
		if ((n = arg_len(a, r, FD_DIMS)) < 0)
			return M_FAIL;
		out = n > 2 && dims_truthy(a, 2);
		if (out && arg_str(a, r, FD_TYPES, 2, &t[2]) < 0)
			return M_FAIL;
	}
	p_shape(r, "shape_in1", &s1, 1);
	p_shape(r, "shape_in2", &s2, 1);
	p_dtypes(r, "dtype_in1_in2_out", 3, t);
	if (p_stride(a, r, "stride_input1", 0, 0) < 0 ||
	    p_stride(a, r, "stride_input2", 1, 0) < 0)
		return M_FAIL;
	if (!out)
		p_raw(r, "stride_output", "None");
	else if (p_stride(a, r, "stride_output", 2, 0) < 0)
		return M_FAIL;
	if (broadcast(&s1, &s2, &so) < 0)
		return fail(r, "shapes not broadcastable");
	if (bwd)
		return fail(r, "no backward model");
	b1 = model_bpe(t[0]);
	b2 = model_bpe(t[1]);
	if (t[2] != NULL)
		bo = model_bpe(t[2]);
	else if (b1 && b2)
		bo = s1.n > 0 && s2.n > 0 ? MAX(b1, b2) : b1;
	else
		bo = 0;
	r->dtype = t[0];
	r->flops = I(prod(r, &so));
	v = add(r, mul(r, I(prod(r, &s1)), I(b1)), mul(r, I(prod(r, &s2)), I(b2)));
	v = add(r, v, mul(r, I(prod(r, &so)), I(bo)));
	set_bytes(r, b1 && b2 && bo, v);
	return M_OK;
}

static int
m_binary(const struct opargs *a, struct mresult *r, int bwd)
{
	return binary(a, r, bwd, 0);
}

/* LigerSiLUMulFunction(a, b): SiLU(a) * b, output like the inputs. */
static int
m_liger_silu_mul(const struct opargs *a, struct mresult *r, int bwd)
{
	return binary(a, r, bwd, 1);
}

/* ---- reduce ---- */

/*
 * With --fixed-models, the dim and keepdim arguments that TraceLens
 * means to read from Concrete Inputs (it never does: they are strings).
 * Returns the output element count.
 */
static int64_t
reduce_out_fixed(const struct opargs *a, struct mresult *r, const struct shape *in)
{
	const struct jval *ci = jdoc_root(&a->concrete), *e;
	struct shape dim, out;
	int keep = 0, havekeep = 0, havedim = 0, drop[SHAPE_MAX] = { 0 };
	size_t i, n = jarr_len(ci), k;
	int64_t v, d;
	const char *s;

	if (!a->has_concrete || n < 2)
		return 1;
	for (i = n; i-- > 1;) {
		s = jstr(&a->concrete, jarr_at(&a->concrete, ci, i));
		if (s && (strcmp(s, "True") == 0 || strcmp(s, "False") == 0)) {
			keep = s[0] == 'T';
			havekeep = i;
			break;
		}
	}
	for (i = n; i-- > 1;) {
		if (havekeep && i == (size_t)havekeep)
			continue;
		e = jarr_at(&a->concrete, ci, i);
		if ((s = jstr(&a->concrete, e)) == NULL || *s == '\0')
			continue;
		if (shape_pylist(s, &dim) == 0) {
			havedim = 1;
			break;
		}
		if (shape_pyint(s, &v) == 0) {
			dim.n = 1;
			dim.d[0] = v;
			havedim = 1;
			break;
		}
	}
	if (!havedim || dim.n == 0)
		return 1;
	for (i = 0; i < dim.n; i++) {
		d = dim.d[i] < 0 ? dim.d[i] + (int64_t)in->n : dim.d[i];
		if (d >= 0 && d < (int64_t)in->n)
			drop[d] = 1;
	}
	out.n = 0;
	for (k = 0; k < in->n; k++)
		if (!drop[k])
			out.d[out.n++] = in->d[k];
		else if (keep)
			out.d[out.n++] = 1;
	return prod(r, &out);
}

/*
 * aten::sum, mean, amax ...: Concrete Inputs are strings, so TraceLens
 * never finds the dim and counts one output element (cumsum/cumprod:
 * as many as in).
 */
static int
m_reduce(const struct opargs *a, struct mresult *r, int bwd)
{
	const struct jval *d0;
	struct shape in;
	const char *dtin = NULL, *dtout = NULL, *rt;
	int64_t nin, nout;
	int bi, bo;

	d0 = a->has_dims ? jarr_at(&a->dims, jdoc_root(&a->dims), 0) : NULL;
	if (a->bad_dims)
		return fail(r, "malformed Input Dims");
	if (a->has_dims && jdoc_root(&a->dims)->t != J_ARR)
		return fail(r, "Input Dims is not a list");
	if (d0 == NULL || d0->t == J_NULL) {
		p_int(r, "num_input_elems", 0);
		p_int(r, "num_output_elems", 0);
		p_raw(r, "dtype_in_out", "(None, None)");
		r->flops = I(0);
		set_bytes(r, 0, I(0));
		return M_OK;
	}
	if (arg_shape(a, r, 0, &in) < 0)
		return M_FAIL;
	nin = prod(r, &in);
	if (a->bad_types)
		return fail(r, "malformed Input type");
	if (a->has_types && jarr_len(jdoc_root(&a->types)) > 0 &&
	    arg_str(a, r, FD_TYPES, 0, &dtin) < 0)
		return M_FAIL;
	if (a->has_outtype && jarr_len(jdoc_root(&a->outtype)) > 0) {
		const struct jval *o = jarr_at(&a->outtype, jdoc_root(&a->outtype), 0);

		if (o->t != J_NULL && (dtout = jstr(&a->outtype, o)) == NULL)
			return fail(r, "Output type[0] is not a string");
	}
	if (strstr(a->name, "cumsum") || strstr(a->name, "cumprod"))
		nout = nin;
	else
		nout = a->fixed ? reduce_out_fixed(a, r, &in) : 1;
	rt = strstr(a->name, "mean") ? "mean" : strstr(a->name, "max") ? "max" :
	    strstr(a->name, "min") ? "min" : strstr(a->name, "norm") ? "norm" : "sum";
	p_int(r, "num_input_elems", nin);
	p_int(r, "num_output_elems", nout);
	p_dtypes(r, "dtype_in_out", 2, (const char *[]){ dtin, dtout });
	p_str(r, "reduce_type", rt);
	bi = dtin && *dtin ? model_bpe(dtin) : 0;
	bo = dtout != NULL ? (*dtout ? model_bpe(dtout) : 0) : bi;
	r->dtype = dtin;
	r->flops = I(nin);
	if (bwd)
		set_bytes(r, bi && bo, add(r, mul(r, I(nout), I(bo)), mul(r, I(nin), I(bi))));
	else
		set_bytes(r, bi && bo, add(r, mul(r, I(nin), I(bi)), mul(r, I(nout), I(bo))));
	return M_OK;
}

/* ---- normalization ---- */

/* What a Normalization get_param_details gives. */
struct norm {
	struct shape op;	/* op_shape */
	const char *dt;		/* dtype_in */
	struct pynum C;		/* num_channels (a float for GroupNormBwd) */
	int has_bias, affine, training; /* flags */
	int mask[4];		/* output_mask */
	size_t nmask;		/* entries in mask; 0 = no output_mask param */
};

/* op_shape, dtype_in_out, stride_input, stride_output. */
static int
norm_head(const struct opargs *a, struct mresult *r, struct norm *n, size_t k)
{
	if (arg_shape(a, r, k, &n->op) < 0 || arg_str(a, r, FD_TYPES, k, &n->dt) < 0)
		return -1;
	p_shape(r, "op_shape", &n->op, 1);
	p_dtypes(r, "dtype_in_out", 2, (const char *[]){ n->dt, NULL });
	if (p_stride(a, r, "stride_input", k, 0) < 0)
		return -1;
	p_raw(r, "stride_output", "None");
	return 0;
}

static void
norm_tail(struct mresult *r, const struct norm *n)
{
	size_t i;

	p_num(r, "num_channels", n->C);
	p_bool(r, "has_bias", n->has_bias);
	p_bool(r, "is_affine", n->affine);
	p_bool(r, "is_training", n->training);
	if (n->nmask > 0) {
		pkey(r, "output_mask");
		buf_addc(&r->params, '[');
		for (i = 0; i < n->nmask; i++)
			buf_adds(&r->params, i ? (n->mask[i] ? ", True" : ", False") :
			    (n->mask[i] ? "True" : "False"));
		buf_addc(&r->params, ']');
	}
}

/* Training: mean and var; then 1/std, alpha and beta; then 2 per element. */
static int
norm_fwd(struct mresult *r, const struct norm *n)
{
	struct pynum E = I(prod(r, &n->op)), f, w;
	int bpe = model_bpe(n->dt), nw;

	r->dtype = n->dt;
	f = mul(r, n->C, I(3));
	if (n->training)
		f = add(r, f, mul(r, E, I(3)));
	f = add(r, f, mul(r, n->C, I(3)));
	r->flops = add(r, f, mul(r, I(2), E));
	if (bpe == 0)
		return fail(r, "unknown dtype %s", n->dt ? n->dt : "None");
	nw = 2 + (n->affine ? 1 + (n->has_bias ? 1 : 0) : 0) + (n->training ? 2 : 0);
	w = mul(r, mul(r, I(nw), n->C), I(bpe));
	set_bytes(r, 1, add(r, add(r, mul(r, E, I(bpe)), mul(r, E, I(bpe))), w));
	return M_OK;
}

static int
norm_bwd(struct mresult *r, const struct norm *n)
{
	struct pynum E = I(prod(r, &n->op)), epc, f, b;
	int bpe = model_bpe(n->dt);

	r->dtype = n->dt;
	epc = tdiv(r, E, n->C);
	f = I(n->training ? 0 : 3);
	f = add(r, f, mul(r, I(4), epc));
	if (n->mask[0]) {
		if (n->training)
			f = add(r, f, mul(r, I(5), epc));
	} else
		f = add(r, f, mul(r, I(2), epc));
	r->flops = mul(r, n->C, f);
	if (bpe == 0)
		return fail(r, "unknown dtype %s", n->dt ? n->dt : "None");
	b = add(r, mul(r, E, I(bpe)), mul(r, mul(r, E, I(bpe)),
	    I(n->mask[0] && n->training ? 2 : 1)));
	if (n->training)
		b = add(r, b, mul(r, n->C, I(bpe)));
	if (n->affine) {
		b = add(r, b, mul(r, n->C, I(bpe)));
		if (n->training)
			b = add(r, b, mul(r, mul(r, n->C, I(bpe)), I(n->has_bias ? 2 : 1)));
	}
	set_bytes(r, 1, b);
	return M_OK;
}

/* bool() of a Concrete Inputs string: any non-empty string is True. */
static int
ci_bool(const struct opargs *a, struct mresult *r, size_t k, int *b)
{
	const char *s;

	if (arg_str(a, r, FD_CONCRETE, k, &s) < 0)
		return -1;
	*b = a->fixed ? s != NULL && strcmp(s, "True") == 0 : s != NULL && *s;
	return 0;
}

/* prod(ast.literal_eval(Concrete Inputs[k])) */
static int
ci_prod(const struct opargs *a, struct mresult *r, size_t k, struct pynum *p)
{
	struct shape sh;
	const char *s;

	if (arg_ci(a, r, k, &s) < 0)
		return -1;
	if (shape_pylist(s, &sh) < 0)
		return fail(r, "Concrete Inputs[%zu] is not a list of ints", k), -1;
	*p = I(prod(r, &sh));
	return 0;
}

static int
ci_mask(const struct opargs *a, struct mresult *r, size_t k, struct norm *n)
{
	const char *s;

	if (arg_ci(a, r, k, &s) < 0)
		return -1;
	if (shape_pybools(s, n->mask, LEN(n->mask), &n->nmask) < 0)
		return fail(r, "Concrete Inputs[%zu] is not a list of bools", k), -1;
	if (n->nmask == 0)
		return fail(r, "empty output_mask"), -1;
	return 0;
}

/* BatchNorm: C = dims[0][1]; training = bool(CI[5]). */
static int
m_batch_norm(const struct opargs *a, struct mresult *r, int bwd)
{
	struct norm n = { 0 };

	if (norm_head(a, r, &n, 0) < 0 || arg_notnone(a, r, 2, &n.affine) < 0 ||
	    ci_bool(a, r, 5, &n.training) < 0)
		return M_FAIL;
	if (n.op.n < 2)
		return fail(r, "Input Dims[0] has no channel dimension");
	n.C = I(n.op.d[1]);
	n.has_bias = 1;
	norm_tail(r, &n);
	if (bwd)
		return M_UNDEF;
	return norm_fwd(r, &n);
}

/* The cudnn/miopen variants take the input first and are inference only. */
static int
m_batch_norm_bwd(const struct opargs *a, struct mresult *r, int bwd)
{
	struct norm n = { 0 };
	size_t in = 1;
	int hasout;

	(void)bwd;
	if (strcmp(a->name, "aten::cudnn_batch_norm_backward") == 0 ||
	    strcmp(a->name, "aten::miopen_batch_norm_backward") == 0) {
		in = 0;
		hasout = 1;
		n.training = 0;
	} else {
		if (arg_notnone(a, r, 0, &hasout) < 0 || ci_bool(a, r, 7, &n.training) < 0)
			return M_FAIL;
	}
	if (norm_head(a, r, &n, in) < 0 || arg_notnone(a, r, 2, &n.affine) < 0)
		return M_FAIL;
	if (n.op.n < 2)
		return fail(r, "input has no channel dimension");
	n.C = I(n.op.d[1]);
	n.has_bias = 1;
	n.mask[0] = hasout;
	n.nmask = 1;
	norm_tail(r, &n);
	return norm_bwd(r, &n);
}

/* LayerNorm: C = prod(normalized_shape); affine/bias: weight/bias not None. */
static int
m_layer_norm(const struct opargs *a, struct mresult *r, int bwd)
{
	struct norm n = { 0 };

	if (norm_head(a, r, &n, 0) < 0 || ci_prod(a, r, 1, &n.C) < 0 ||
	    arg_notnone(a, r, 3, &n.has_bias) < 0 || arg_notnone(a, r, 2, &n.affine) < 0)
		return M_FAIL;
	n.training = 1;
	norm_tail(r, &n);
	if (bwd)
		return M_UNDEF;
	return norm_fwd(r, &n);
}

/* affine and bias from output_mask[1], [2]. */
static int
m_layer_norm_bwd(const struct opargs *a, struct mresult *r, int bwd)
{
	struct norm n = { 0 };

	(void)bwd;
	if (norm_head(a, r, &n, 1) < 0 || ci_prod(a, r, 2, &n.C) < 0 ||
	    ci_mask(a, r, 7, &n) < 0)
		return M_FAIL;
	if (n.nmask < 3)
		return fail(r, "output_mask too short");
	n.affine = n.mask[1];
	n.has_bias = n.mask[2];
	n.training = 1;
	norm_tail(r, &n);
	return norm_bwd(r, &n);
}

static int
m_group_norm(const struct opargs *a, struct mresult *r, int bwd)
{
	struct norm n = { 0 };

	if (norm_head(a, r, &n, 0) < 0 || arg_notnone(a, r, 2, &n.affine) < 0)
		return M_FAIL;
	if (n.op.n < 2)
		return fail(r, "Input Dims[0] has no channel dimension");
	n.C = I(n.op.d[1]);
	n.has_bias = 1;
	n.training = 1;
	norm_tail(r, &n);
	if (bwd)
		return M_UNDEF;
	return norm_fwd(r, &n);
}

/* num_channels = C / groups: a float. */
static int
m_group_norm_bwd(const struct opargs *a, struct mresult *r, int bwd)
{
	struct norm n = { 0 };
	int64_t g;

	(void)bwd;
	if (norm_head(a, r, &n, 1) < 0 || arg_notnone(a, r, 5, &n.affine) < 0 ||
	    ci_mask(a, r, 9, &n) < 0)
		return M_FAIL;
	if (n.op.n < 2)
		return fail(r, "input has no channel dimension");
	if (arg_int(a, r, 8, &g) < 0)
		return M_FAIL;
	n.C = tdiv(r, I(n.op.d[1]), I(g));
	n.has_bias = 1;
	n.training = 1;
	norm_tail(r, &n);
	return norm_bwd(r, &n);
}

/* training = bool(use_input_stats) */
static int
m_instance_norm(const struct opargs *a, struct mresult *r, int bwd)
{
	struct norm n = { 0 };

	if (norm_head(a, r, &n, 0) < 0 || arg_notnone(a, r, 2, &n.affine) < 0 ||
	    ci_bool(a, r, 5, &n.training) < 0)
		return M_FAIL;
	if (n.op.n < 2)
		return fail(r, "Input Dims[0] has no channel dimension");
	n.C = I(n.op.d[1]);
	n.has_bias = 1;
	norm_tail(r, &n);
	if (bwd)
		return M_UNDEF;
	return norm_fwd(r, &n);
}

static int
m_instance_norm_bwd(const struct opargs *a, struct mresult *r, int bwd)
{
	(void)a;
	(void)r;
	(void)bwd;
	return M_UNDEF;
}

/* RMSNorm: (E/C)*(2C+2) for the rsqrt, then 1 or 2 per element. */
static int
m_rms_norm(const struct opargs *a, struct mresult *r, int bwd)
{
	struct norm n = { 0 };
	struct pynum E, f;
	int bpe;

	if (norm_head(a, r, &n, 0) < 0 || arg_notnone(a, r, 2, &n.affine) < 0 ||
	    ci_prod(a, r, 1, &n.C) < 0)
		return M_FAIL;
	norm_tail(r, &n);
	if (bwd)
		return M_UNDEF;
	E = I(prod(r, &n.op));
	r->dtype = n.dt;
	f = mul(r, tdiv(r, E, n.C), add(r, mul(r, I(2), n.C), I(2)));
	r->flops = add(r, f, mul(r, E, I(n.affine ? 2 : 1)));
	if ((bpe = model_bpe(n.dt)) == 0)
		return fail(r, "unknown dtype %s", n.dt ? n.dt : "None");
	f = add(r, mul(r, E, I(bpe)), mul(r, E, I(bpe)));
	set_bytes(r, 1, add(r, f, n.affine ? mul(r, n.C, I(bpe)) : I(0)));
	return M_OK;
}

static int
m_rms_norm_bwd(const struct opargs *a, struct mresult *r, int bwd)
{
	struct norm n = { 0 };
	struct pynum E, f, nn;
	int bpe;

	(void)bwd;
	if (norm_head(a, r, &n, 1) < 0 || arg_notnone(a, r, 4, &n.affine) < 0 ||
	    ci_prod(a, r, 2, &n.C) < 0 || ci_mask(a, r, 5, &n) < 0)
		return M_FAIL;
	norm_tail(r, &n);
	E = I(prod(r, &n.op));
	r->dtype = n.dt;
	nn = tdiv(r, E, n.C);
	f = add(r, n.affine ? E : I(0), E);
	if (n.mask[0])
		f = add(r, add(r, f, mul(r, I(2), E)), mul(r, I(4), E));
	if (n.nmask < 2)
		return fail(r, "output_mask too short");
	if (n.mask[1] && n.affine) {
		f = add(r, f, E);
		if (pynum_double(nn) > 1)
			f = add(r, f, E);
	}
	r->flops = f;
	if ((bpe = model_bpe(n.dt)) == 0)
		return fail(r, "unknown dtype %s", n.dt ? n.dt : "None");
	f = add(r, mul(r, E, I(bpe)), mul(r, mul(r, E, I(bpe)), I(2)));
	if (n.affine)
		f = add(r, f, mul(r, mul(r, n.C, I(bpe)), I(2)));
	set_bytes(r, 1, f);
	return M_OK;
}

/* ---- the table ---- */

static const struct mfamily F_GEMM = { "GEMM", "GEMM", NULL, "matrix" };
static const struct mfamily F_SDPA = { "SDPA", "SDPA_fwd", "SDPA_bwd", "matrix" };
static const struct mfamily F_SDPA_B = { "SDPA", "SDPA_bwd", "SDPA_bwd", "matrix" };
static const struct mfamily F_CONV = { "CONV", "CONV_fwd", "CONV_bwd", "matrix" };
static const struct mfamily F_CONV_B = { "CONV", "CONV_bwd", "CONV_bwd", "matrix" };
static const struct mfamily F_UNARY = { "UnaryElementwise", "elementwise", NULL, "vector" };
static const struct mfamily F_BINARY = { "BinaryElementwise", "elementwise", NULL, "vector" };
static const struct mfamily F_NORM = { "Normalization", "NORM_fwd", "NORM_bwd", "vector" };
static const struct mfamily F_NORM_B = { "Normalization", "NORM_bwd", "NORM_bwd", "vector" };
static const struct mfamily F_REDUCE = { "Reduce", "reduce", NULL, "vector" };

/* In TraceLens's registry order, which is the order of the sheets. */
static const struct model models[] = {
	{ "aten::mm", "aten_mm", &F_GEMM, m_mm },
	{ "aten::addmm", "aten_addmm", &F_GEMM, m_addmm },
	{ "aten::_scaled_mm", "aten_scaled_mm", &F_GEMM, m_scaled_mm },
	{ "trtllm::cublas_scaled_mm", "aten_scaled_mm", &F_GEMM, m_scaled_mm },
	{ "bitsandbytes::int8_linear_matmul", "aten_scaled_mm", &F_GEMM, m_scaled_mm },
	{ "aten::bmm", "aten_bmm", &F_GEMM, m_bmm },
	{ "aten::baddbmm", "aten_baddbmm", &F_GEMM, m_baddbmm },
	{ "FlashAttnFunc", "flash_attention", &F_SDPA, m_flash_attention },
	{ "flash_attn::_flash_attn_forward", "flash_attention", &F_SDPA, m_flash_attention },
	{ "flash_attn::_flash_attn_backward", "flash_attention_backward", &F_SDPA_B,
	    m_flash_attention_backward },
	{ "flash_attn::_flash_attn_varlen_forward", "flash_attention_varlen_forward",
	    &F_SDPA, m_flash_varlen_fwd },
	{ "flash_attn::_flash_attn_varlen_backward", "flash_attention_varlen_backward",
	    &F_SDPA_B, m_flash_varlen_bwd },
	{ "aten::_scaled_dot_product_cudnn_attention",
	    "aten__scaled_dot_product_cudnn_attention", &F_SDPA, m_sdpa_cudnn },
	{ "aten::_scaled_dot_product_efficient_attention",
	    "aten__scaled_dot_product_efficient_attention", &F_SDPA, m_sdpa_efficient },
	{ "aten::_scaled_dot_product_flash_attention",
	    "aten__scaled_dot_product_flash_attention", &F_SDPA, m_sdpa_flash },
	{ "aten::convolution", "aten_conv", &F_CONV, m_conv },
	{ "aten::convolution_backward", "aten_conv_bwd", &F_CONV_B, m_conv_bwd },
	{ "LigerSiLUMulFunction", "liger_silu_mul_function", &F_BINARY, m_liger_silu_mul },
	{ "vllm::rocm_unquantized_gemm", "vllm_rocm_unquantized_gemm", &F_GEMM,
	    m_vllm_rocm_gemm },
	{ "aten::copy", "aten_unary_elementwise", &F_UNARY, m_unary },
	{ "aten::copy_", "aten_unary_elementwise", &F_UNARY, m_unary },
	{ "aten::clamp_min", "aten_unary_elementwise", &F_UNARY, m_unary },
	{ "aten::clamp_min_", "aten_unary_elementwise", &F_UNARY, m_unary },
	{ "aten::clamp_max", "aten_unary_elementwise", &F_UNARY, m_unary },
	{ "aten::clamp_max_", "aten_unary_elementwise", &F_UNARY, m_unary },
	{ "aten::sigmoid", "aten_unary_elementwise", &F_UNARY, m_unary },
	{ "aten::rsqrt", "aten_unary_elementwise", &F_UNARY, m_unary },
	{ "aten::silu", "aten_unary_elementwise", &F_UNARY, m_unary },
	{ "aten::neg", "aten_unary_elementwise", &F_UNARY, m_unary },
	{ "aten::pow", "aten_unary_elementwise", &F_UNARY, m_unary },
	{ "aten::div", "aten_binary_elementwise", &F_BINARY, m_binary },
	{ "aten::div_", "aten_binary_elementwise", &F_BINARY, m_binary },
	{ "aten::mul", "aten_binary_elementwise", &F_BINARY, m_binary },
	{ "aten::mul_", "aten_binary_elementwise", &F_BINARY, m_binary },
	{ "aten::add", "aten_binary_elementwise", &F_BINARY, m_binary },
	{ "aten::add_", "aten_binary_elementwise", &F_BINARY, m_binary },
	{ "aten::sigmoid_backward", "aten_binary_elementwise", &F_BINARY, m_binary },
	{ "aten::threshold_backward", "aten_binary_elementwise", &F_BINARY, m_binary },
	{ "aten::batch_norm", "BatchNorm", &F_NORM, m_batch_norm },
	{ "aten::native_batch_norm", "BatchNorm", &F_NORM, m_batch_norm },
	{ "aten::miopen_batch_norm", "BatchNorm", &F_NORM, m_batch_norm },
	{ "aten::cudnn_batch_norm", "BatchNorm", &F_NORM, m_batch_norm },
	{ "aten::layer_norm", "LayerNorm", &F_NORM, m_layer_norm },
	{ "aten::native_layer_norm", "LayerNorm", &F_NORM, m_layer_norm },
	{ "aten::miopen_layer_norm", "LayerNorm", &F_NORM, m_layer_norm },
	{ "aten::cudnn_layer_norm", "LayerNorm", &F_NORM, m_layer_norm },
	{ "aten::group_norm", "GroupNorm", &F_NORM, m_group_norm },
	{ "aten::native_group_norm", "GroupNorm", &F_NORM, m_group_norm },
	{ "aten::miopen_group_norm", "GroupNorm", &F_NORM, m_group_norm },
	{ "aten::cudnn_group_norm", "GroupNorm", &F_NORM, m_group_norm },
	{ "aten::instance_norm", "InstanceNorm", &F_NORM, m_instance_norm },
	{ "aten::native_instance_norm", "InstanceNorm", &F_NORM, m_instance_norm },
	{ "aten::miopen_instance_norm", "InstanceNorm", &F_NORM, m_instance_norm },
	{ "aten::cudnn_instance_norm", "InstanceNorm", &F_NORM, m_instance_norm },
	{ "aten::_fused_rms_norm", "RMSNorm", &F_NORM, m_rms_norm },
	{ "aten::batch_norm_backward", "BatchNormBwd", &F_NORM_B, m_batch_norm_bwd },
	{ "aten::native_batch_norm_backward", "BatchNormBwd", &F_NORM_B, m_batch_norm_bwd },
	{ "aten::miopen_batch_norm_backward", "BatchNormBwd", &F_NORM_B, m_batch_norm_bwd },
	{ "aten::cudnn_batch_norm_backward", "BatchNormBwd", &F_NORM_B, m_batch_norm_bwd },
	{ "aten::layer_norm_backward", "LayerNormBwd", &F_NORM_B, m_layer_norm_bwd },
	{ "aten::native_layer_norm_backward", "LayerNormBwd", &F_NORM_B, m_layer_norm_bwd },
	{ "aten::miopen_layer_norm_backward", "LayerNormBwd", &F_NORM_B, m_layer_norm_bwd },
	{ "aten::cudnn_layer_norm_backward", "LayerNormBwd", &F_NORM_B, m_layer_norm_bwd },
	{ "aten::group_norm_backward", "GroupNormBwd", &F_NORM_B, m_group_norm_bwd },
	{ "aten::native_group_norm_backward", "GroupNormBwd", &F_NORM_B, m_group_norm_bwd },
	{ "aten::miopen_group_norm_backward", "GroupNormBwd", &F_NORM_B, m_group_norm_bwd },
	{ "aten::cudnn_group_norm_backward", "GroupNormBwd", &F_NORM_B, m_group_norm_bwd },
	{ "aten::instance_norm_backward", "InstanceNormBwd", &F_NORM_B, m_instance_norm_bwd },
	{ "aten::native_instance_norm_backward", "InstanceNormBwd", &F_NORM_B,
	    m_instance_norm_bwd },
	{ "aten::miopen_instance_norm_backward", "InstanceNormBwd", &F_NORM_B,
	    m_instance_norm_bwd },
	{ "aten::cudnn_instance_norm_backward", "InstanceNormBwd", &F_NORM_B,
	    m_instance_norm_bwd },
	{ "aten::rms_norm_backward", "RMSNormBwd", &F_NORM_B, m_rms_norm_bwd },
	{ "aten::native_rms_norm_backward", "RMSNormBwd", &F_NORM_B, m_rms_norm_bwd },
	{ "aten::miopen_rms_norm_backward", "RMSNormBwd", &F_NORM_B, m_rms_norm_bwd },
	{ "aten::cudnn_rms_norm_backward", "RMSNormBwd", &F_NORM_B, m_rms_norm_bwd },
	{ "aten::_fused_rms_norm_backward", "RMSNormBwd", &F_NORM_B, m_rms_norm_bwd },
	{ "aten::sum", "aten_reduce", &F_REDUCE, m_reduce },
	{ "aten::mean", "aten_reduce", &F_REDUCE, m_reduce },
	{ "aten::max", "aten_reduce", &F_REDUCE, m_reduce },
	{ "aten::min", "aten_reduce", &F_REDUCE, m_reduce },
	{ "aten::norm", "aten_reduce", &F_REDUCE, m_reduce },
	{ "aten::linalg_norm", "aten_reduce", &F_REDUCE, m_reduce },
	{ "aten::std", "aten_reduce", &F_REDUCE, m_reduce },
	{ "aten::var", "aten_reduce", &F_REDUCE, m_reduce },
	{ "aten::logsumexp", "aten_reduce", &F_REDUCE, m_reduce },
	{ "aten::cumsum", "aten_reduce", &F_REDUCE, m_reduce },
	{ "aten::cumprod", "aten_reduce", &F_REDUCE, m_reduce },
	{ "aten::amin", "aten_reduce", &F_REDUCE, m_reduce },
	{ "aten::amax", "aten_reduce", &F_REDUCE, m_reduce },
	{ "aten::replication_pad1d", "aten_replication_pad", &F_UNARY, m_replication_pad },
	{ "aten::replication_pad2d", "aten_replication_pad", &F_UNARY, m_replication_pad },
	{ "aten::replication_pad3d", "aten_replication_pad", &F_UNARY, m_replication_pad },
	{ "aten::upsample_nearest1d", "aten_upsample_nearest", &F_UNARY, m_upsample_nearest },
	{ "aten::upsample_nearest2d", "aten_upsample_nearest", &F_UNARY, m_upsample_nearest },
	{ "aten::upsample_nearest3d", "aten_upsample_nearest", &F_UNARY, m_upsample_nearest },
};

const struct model *
model_find(const char *name)
{
	size_t i;

	for (i = 0; i < LEN(models); i++)
		if (strcmp(models[i].op, name) == 0)
			return &models[i];
	return NULL;
}

const struct model *
model_table(size_t *n)
{
	*n = LEN(models);
	return models;
}

int
model_run(const struct model *m, const struct opargs *a, struct mresult *r, int bwd)
{
	int st;

	buf_reset(&r->params);
	r->flops = I(0);
	r->bytes = I(0);
	r->has_bytes = 0;
	r->dtype = NULL;
	r->why[0] = '\0';
	r->ovf = 0;
	st = m->fn(a, r, bwd);
	if (st == M_OK && r->ovf)
		st = fail(r, r->ovf == 2 ? "division by zero" : "integer overflow");
	if (st == M_OK)
		buf_addc(&r->params, '}');
	return st;
}
