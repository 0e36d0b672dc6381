/* See LICENSE file for copyright and license details. */
/*
 * TraceLens's perf models, written from its behaviour (PerfModel/
 * perf_model.py, its extensions/ and triton_compiled_perf_model.py at
 * 171dd747): which op is which model, the params it reads from the
 * op's arguments, and its FLOPs and bytes.
 *
 * To add a model: write one formula function (reading the op with the
 * arg_* helpers, writing params with the p_* helpers, setting
 * r->flops, r->bytes and r->dtype) and add its op names to the table
 * at the end of this file, one E(op, class, &family, function) row
 * each.  That is all tl-roofline needs.
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

/* 1 if s is a decimal integer too big for int64 (Python would take it). */
static int
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

/*
 * The root of kernel_names, parsed now if it was not: NULL when the
 * field is empty or not JSON.  (The lazyjson is the caller's: opargs
 * only points to it.)
 */
static const struct jval *
opargs_knames(const struct opargs *a)
{
	struct lazyjson *k = a->knames;

	if (k == NULL || k->s == NULL)
		return NULL;
	if (!k->done) {
		k->done = 1;
		if (jdoc_parse(&k->d, k->s, k->len) < 0)
			jdoc_clear(&k->d);
	}
	return jdoc_root(&k->d);
}

/* The transpose param: first kernel (by ts) whose name parses. */
static int
gemm_transpose(const struct opargs *a, struct mresult *r, char *out, size_t outsz)
{
	const struct jval *root, *e;
	const char *k;
	size_t i;
	int got;

	root = opargs_knames(a);
	if (root != NULL && root->t == J_ARR) {
		for (i = 0; i < root->n; i++) {
			e = jarr_at(&a->knames->d, root, i);
			if (e != NULL && e->t == J_OBJ)
				e = kd_name(&a->knames->d, e);
			if ((k = jstr(&a->knames->d, e)) == NULL)
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

/* ---- more GEMM ops (TE, vLLM, Primus hipBLASLt, AITER) ---- */

/*
 * Python's "try: tuple(S[i]), tuple(S[j]) except KeyError[, IndexError]:
 * None, None" for the params ka, kb (idxerr: IndexError caught too).
 */
static int
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

static int
p_strides_ab(const struct opargs *a, struct mresult *r, size_t i, size_t j, int idxerr)
{
	return p_strides2(a, r, "stride_A", "stride_B", i, j, idxerr);
}

/* The params every GEMM writes first: M, N, K, bias, strides, dtype_A_B. */
static int
gemm_head(const struct opargs *a, struct mresult *r, const struct gemm *g, size_t si,
    size_t sj, int idxerr)
{
	p_int(r, "M", g->M);
	p_int(r, "N", g->N);
	p_int(r, "K", g->K);
	p_bool(r, "bias", g->bias);
	if (p_strides_ab(a, r, si, sj, idxerr) < 0)
		return -1;
	p_dtypes(r, "dtype_A_B", g->ndt, g->dt);
	return 0;
}

/* Item k of a shape, or an error (Python's IndexError). */
static int
dim(struct mresult *r, const struct shape *s, size_t k, int64_t *v)
{
	if (k >= s->n)
		return fail(r, "shape has no dimension %zu", k), -1;
	*v = s->d[k];
	return 0;
}

/*
 * vllm::gemm_with_dynamic_quant: A and B are the first two 2-D shapes in
 * Input Dims (else Input Dims[0], [1]); x[M, K] @ w[N, K]^T.
 */
static int
m_vllm_gemm_dq(const struct opargs *a, struct mresult *r, int bwd)
{
	const struct jval *d, *v;
	struct shape s[2], t;
	struct gemm g = { 0 };
	size_t i, n = 0;
	int have[2] = { 0, 0 }, bpe;

	d = a->has_dims ? jdoc_root(&a->dims) : NULL;
	if (a->bad_dims || (d != NULL && d->t != J_ARR))
		return fail(r, "malformed Input Dims");
	for (i = 0; d != NULL && i < d->n && n < 2; i++) {
		v = jarr_at(&a->dims, d, i);
		if (v->t == J_ARR && v->n == 2) {
			if (shape_get(&a->dims, v, &s[n]) < 0)
				return fail(r, "Input Dims[%zu] is not a shape", i);
			have[n++] = 1;
		}
	}
	/* the fallback: Input Dims[0] for A, [1] for B, when missing */
	for (i = 0; d != NULL && d->n >= 2 && i < 2; i++) {
		if (have[i])
			continue;
		v = jarr_at(&a->dims, d, i);
		if (v->t != J_ARR)
			continue;
		if (shape_get(&a->dims, v, &t) < 0)
			return fail(r, "Input Dims[%zu] is not a shape", i);
		s[i] = t;
		have[i] = 1;
	}
	if (!have[0] || !have[1] || s[0].n != 2 || s[1].n != 2)
		return fail(r, "no 2-D A, B shapes in Input Dims");
	g.M = s[0].d[0];
	g.K = s[0].d[1];
	g.N = s[1].d[0];
	if (!a->has_types || jdoc_root(&a->types)->t != J_ARR || arg_len(a, r, FD_TYPES) < 2)
		return fail(r, "no dtypes of A, B in Input type");
	if ((g.ndt = dtype_slice(a, r, 0, 2, g.dt)) < 0 || gemm_head(a, r, &g, 0, 1, 0) < 0 ||
	    gemm_finish(a, r, &g, 0) != M_OK)
		return M_FAIL;
	if (bwd)
		return M_UNDEF;
	bpe = model_bpe(g.dt[0]);
	set_bytes(r, bpe != 0, gemm_bytes(r, &g, bpe, bpe, bpe, bpe));
	return M_OK;
}

/*
 * tex_ts::te_gemm_ts (TransformerEngine): A = Input Dims[0], B = [5],
 * C = [10]; transa, transb = Concrete Inputs[4], [9] == "1"; a bias when
 * Concrete Inputs[14] is not empty; dtypes of A, B, out, bias at Input
 * type[0], [5], [10], [18].
 */
static int
m_te_gemm_ts(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape A, Bm, C;
	struct gemm g = { 0 };
	const char *ta, *tb, *bs, *dt[4];
	static const size_t ti[] = { 0, 5, 10, 18 };
	size_t i;
	int b1, b2, bo, bb;

	if (arg_shape(a, r, 10, &C) < 0 || arg_shape(a, r, 0, &A) < 0 ||
	    arg_shape(a, r, 5, &Bm) < 0 || arg_str(a, r, FD_CONCRETE, 4, &ta) < 0 ||
	    arg_str(a, r, FD_CONCRETE, 9, &tb) < 0)
		return M_FAIL;
	if (ta != NULL && strcmp(ta, "1") == 0) {
		if (dim(r, &A, 0, &g.M) < 0 || dim(r, &A, 1, &g.K) < 0)
			return M_FAIL;
	} else if (dim(r, &A, 1, &g.M) < 0 || dim(r, &A, 0, &g.K) < 0)
		return M_FAIL;
	if (dim(r, &Bm, tb != NULL && strcmp(tb, "1") == 0 ? 1 : 0, &g.N) < 0 ||
	    arg_str(a, r, FD_CONCRETE, 14, &bs) < 0)
		return M_FAIL;
	g.bias = bs == NULL || *bs != '\0';	/* None is not "" */
	for (i = 0; i < 4; i++)
		if (arg_str(a, r, FD_TYPES, ti[i], &dt[i]) < 0)
			return M_FAIL;
	g.dt[0] = dt[0];
	g.dt[1] = dt[1];
	g.ndt = 2;
	p_int(r, "M", g.M);
	p_int(r, "N", g.N);
	p_int(r, "K", g.K);
	p_bool(r, "bias", g.bias);
	if (p_strides_ab(a, r, 0, 5, 0) < 0)
		return M_FAIL;
	p_dtypes(r, "dtype_A_B", 4, dt);
	if (gemm_finish(a, r, &g, 0) != M_OK)
		return M_FAIL;
	if (bwd)
		return M_UNDEF;
	b1 = model_bpe(dt[0]);
	b2 = model_bpe(dt[1]);
	bo = model_bpe(dt[2]);
	bb = model_bpe(dt[3]);
	set_bytes(r, b1 && b2 && bo && bb, gemm_bytes(r, &g, b1, b2, bb, bo));
	return M_OK;
}

/*
 * TE v2 pseudo GEMMs (_Linear_yfwd_mm ...): A[M, K] @ B[K, N]; A and B
 * must share a dtype; the output counts 2 bytes per element.
 */
static int
m_tev2_gemm(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape A, Bm;
	struct gemm g = { 0 };
	int bpe;

	if (arg_shape(a, r, 0, &A) < 0 || arg_shape(a, r, 1, &Bm) < 0 ||
	    dim(r, &A, 0, &g.M) < 0 || dim(r, &Bm, 1, &g.N) < 0 || dim(r, &A, 1, &g.K) < 0 ||
	    (g.ndt = dtype_slice(a, r, 0, 2, g.dt)) < 0 || gemm_head(a, r, &g, 0, 1, 0) < 0 ||
	    gemm_finish(a, r, &g, 0) != M_OK)
		return M_FAIL;
	if (bwd)
		return M_UNDEF;
	if (g.ndt < 2)
		return fail(r, "Input type has no dtype of B");
	if ((g.dt[0] == NULL) != (g.dt[1] == NULL) ||
	    (g.dt[0] != NULL && strcmp(g.dt[0], g.dt[1]) != 0))
		return fail(r, "data types of A and B differ");
	bpe = model_bpe(g.dt[0]);
	set_bytes(r, bpe != 0, gemm_bytes(r, &g, bpe, bpe, bpe, 2));
	return M_OK;
}

/* Python's parse_bool of a Concrete Inputs item. */
static int
ci_parse_bool(const struct opargs *a, struct mresult *r, size_t k, int *b)
{
	const struct jval *v = item(a, r, FD_CONCRETE, k);
	const char *s, *e;

	if (v == NULL)
		return -1;
	switch (v->t) {
	case J_NULL: *b = 0; return 0;
	case J_BOOL: case J_INT: *b = v->i != 0; return 0;
	case J_FLOAT: *b = v->d != 0; return 0;
	case J_ARR: case J_OBJ: *b = v->n > 0; return 0;
	case J_STR: break;
	}
	s = jstr(&a->concrete, v);
	e = s + strlen(s);
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v')
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r' ||
	    e[-1] == '\f' || e[-1] == '\v'))
		e--;
	if ((e - s == 4 && strncasecmp(s, "true", 4) == 0) || (e - s == 1 && *s == '1'))
		*b = 1;
	else if ((e - s == 5 && strncasecmp(s, "false", 5) == 0) || (e - s == 1 && *s == '0') ||
	    e == s)
		*b = 0;
	else
		*b = v->len > 0;
	return 0;
}

/*
 * The hipBLASLt FP8/FP4 GEMMs of Primus-Turbo: A = Input Dims[0], B =
 * [2], transA, transB, transC = parse_bool(Concrete Inputs[5..7]) (False
 * when absent); transC swaps A and B and inverts the flags.  fp4: K is
 * packed two to a byte.  The dtypes of the scales follow dtype_A_B.
 */
static int
hipblaslt_params(const struct opargs *a, struct mresult *r, struct gemm *g, size_t ai,
    size_t bi, int fromci, int fp4, const char **dsc)
{
	struct shape A, Bm, t;
	long nc = 0, nt;
	int tr[3] = { 0, 1, 0 }, x;
	size_t k;

	memset(g, 0, sizeof(*g));
	if (arg_shape(a, r, ai, &A) < 0)
		return -1;
	if (fromci) {
		tr[1] = 0;
		if (a->bad_concrete)
			return fail(r, "malformed Concrete Inputs"), -1;
		if (a->has_concrete && jdoc_root(&a->concrete)->t == J_ARR)
			nc = jdoc_root(&a->concrete)->n;
		else if (a->has_concrete && jdoc_root(&a->concrete)->t != J_NULL)
			return fail(r, "Concrete Inputs is not a list"), -1;
	}
	if (arg_shape(a, r, bi, &Bm) < 0)
		return -1;
	for (k = 0; fromci && k < 3; k++)
		if ((long)k + 5 < nc && ci_parse_bool(a, r, k + 5, &tr[k]) < 0)
			return -1;
	if (tr[2]) {
		t = A, A = Bm, Bm = t;
		x = tr[0], tr[0] = !tr[1], tr[1] = !x;
	}
	if (dim(r, &A, tr[0] ? 1 : 0, &g->M) < 0 || dim(r, &A, tr[0] ? 0 : 1, &g->K) < 0)
		return -1;
	if (fp4)
		g->K = mul(r, I(g->K), I(2)).i;
	if (dim(r, &Bm, tr[1] ? 0 : 1, &g->N) < 0)
		return -1;
	if ((nt = arg_len(a, r, FD_TYPES)) < 0 || arg_str(a, r, FD_TYPES, ai, &g->dt[0]) < 0 ||
	    arg_str(a, r, FD_TYPES, bi, &g->dt[1]) < 0)
		return -1;
	g->ndt = 2;
	/* the scales: Input type[1], [3] (hipBLASLt) or [2], [3] (AITER) */
	dsc[0] = dsc[1] = NULL;
	if ((size_t)nt > (fromci ? 1 : 2) && arg_str(a, r, FD_TYPES, fromci ? 1 : 2, &dsc[0]) < 0)
		return -1;
	if (nt > 3 && arg_str(a, r, FD_TYPES, 3, &dsc[1]) < 0)
		return -1;
	if (gemm_head(a, r, g, ai, bi, 1) < 0)
		return -1;
	p_str(r, "dtype_scaleA", dsc[0]);
	p_str(r, "dtype_scaleB", dsc[1]);
	return gemm_finish(a, r, g, 0) == M_OK ? 0 : -1;
}

static int
m_hipblaslt_fp8(const struct opargs *a, struct mresult *r, int bwd)
{
	struct gemm g;
	const char *dsc[2];
	int b1, b2;

	if (hipblaslt_params(a, r, &g, 0, 2, 1, 0, dsc) < 0)
		return M_FAIL;
	if (bwd)
		return M_UNDEF;
	b1 = model_bpe(g.dt[0]);
	b2 = model_bpe(g.dt[1]);
	if (b1 == 0 || b2 == 0)
		return fail(r, "unsupported dtypes of A and B");
	/* fp8 in, 2-byte (bf16/fp16) out */
	set_bytes(r, 1, gemm_bytes(r, &g, b1, b2, b1, b1 == 1 ? 2 : b1));
	return M_OK;
}

/*
 * MXFP4 bytes: packed A and B, one E8M0 scale per 32 elements of K
 * (1 byte when the scale dtype is unknown), a 2-byte output.
 */
static int
fp4_bytes(struct mresult *r, const struct gemm *g, const char *const *dsc)
{
	struct pynum spr, hk, t;
	int b1 = model_bpe(g->dt[0]), b2 = model_bpe(g->dt[1]), s1, s2;

	if (b1 == 0 || b2 == 0)
		return fail(r, "unsupported dtypes of A and B");
	s1 = model_bpe(dsc[0]) ? model_bpe(dsc[0]) : 1;
	s2 = model_bpe(dsc[1]) ? model_bpe(dsc[1]) : 1;
	spr = fdiv(r, sub(r, add(r, I(g->K), I(32)), I(1)), I(32));
	hk = fdiv(r, I(g->K), I(2));
	t = mul(r, mul(r, I(g->M), hk), I(b1));
	t = add(r, t, mul(r, mul(r, I(g->N), hk), I(b2)));
	t = add(r, t, mul(r, mul(r, I(g->M), spr), I(s1)));
	t = add(r, t, mul(r, mul(r, I(g->N), spr), I(s2)));
	set_bytes(r, 1, add(r, t, mul(r, mul(r, I(g->M), I(g->N)), I(2))));
	return M_OK;
}

static int
m_hipblaslt_fp4(const struct opargs *a, struct mresult *r, int bwd)
{
	struct gemm g;
	const char *dsc[2];

	if (hipblaslt_params(a, r, &g, 0, 2, 1, 1, dsc) < 0)
		return M_FAIL;
	if (bwd)
		return M_UNDEF;
	return fp4_bytes(r, &g, dsc);
}

/* aiter::gemm_a4w4: A, B at Input Dims[0], [1]; always NT (no transC). */
static int
m_aiter_gemm_a4w4(const struct opargs *a, struct mresult *r, int bwd)
{
	struct gemm g;
	const char *dsc[2];

	if (hipblaslt_params(a, r, &g, 0, 1, 0, 1, dsc) < 0)
		return M_FAIL;
	if (bwd)
		return M_UNDEF;
	return fp4_bytes(r, &g, dsc);
}

/* Input type[k] when it exists, else dflt (Python's "t[k] if len(t) > k else d"). */
static int
type_or(const struct opargs *a, struct mresult *r, size_t k, const char *dflt,
    const char **s)
{
	long n = arg_len(a, r, FD_TYPES);

	if (n < 0)
		return -1;
	if ((size_t)n <= k) {
		*s = dflt;
		return 0;
	}
	return arg_str(a, r, FD_TYPES, k, s);
}

/* Shape k of Input Dims, and its items i, j (-1: none). */
static int
dims2(const struct opargs *a, struct mresult *r, size_t k, struct shape *s)
{
	return arg_shape(a, r, k, s);
}

/* The AITER and SGLang GEMMs: B, M, N, K, bias and dtype_A_B first. */
static void
ext_gemm_head(struct mresult *r, const struct gemm *g, const char *const *dt)
{
	p_int(r, "B", g->B);
	p_int(r, "M", g->M);
	p_int(r, "N", g->N);
	p_int(r, "K", g->K);
	p_bool(r, "bias", g->bias);
	p_dtypes(r, "dtype_A_B", 3, dt);
}

/*
 * The bytes of an extension GEMM: bpe of A, B, and of the output (also
 * the bias) from dt[2]; half a byte per element for FP4 operands.
 */
static void
ext_gemm_bytes(struct mresult *r, const struct gemm *g, const char *const *dt,
    int fp4a, int fp4b)
{
	int b1 = model_bpe(dt[0]), b2 = model_bpe(dt[1]), bo = model_bpe(dt[2]);
	struct pynum t, x, y;

	if ((!fp4a && b1 == 0) || (!fp4b && b2 == 0) || bo == 0) {
		set_bytes(r, 0, I(0));
		return;
	}
	x = fp4a ? mul(r, mul(r, I(g->M), I(g->K)), F(0.5)) :
	    mul(r, mul(r, I(g->M), I(g->K)), I(b1));
	y = fp4b ? mul(r, mul(r, I(g->K), I(g->N)), F(0.5)) :
	    mul(r, mul(r, I(g->K), I(g->N)), I(b2));
	t = add(r, add(r, x, y), mul(r, mul(r, I(g->M), I(g->N)), I(bo)));
	t = add(r, t, mul(r, I(g->bias ? g->N : 0), I(bo)));
	set_bytes(r, 1, t);
}

/*
 * gemm_a8w8_blockscale (AITER, SGLang, vLLM): X[M, K], W[N, K], with
 * scale tensors at Input Dims[2], [3] giving the block sizes; the output
 * is bf16.
 */
static int
m_gemm_a8w8_blockscale(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape x, w, xs, ws;
	struct gemm g = { 0 };
	const char *dt[3] = { "", "", "c10::bfloat16" }, *sd;
	long nd, nt = 0;
	struct pynum bk, bn;

	if (dims2(a, r, 0, &x) < 0 || dim(r, &x, 0, &g.M) < 0 || dim(r, &x, 1, &g.K) < 0 ||
	    dims2(a, r, 1, &w) < 0 || dim(r, &w, 0, &g.N) < 0 || (nd = arg_len(a, r, FD_DIMS)) < 0)
		return M_FAIL;
	/* types = args.get("Input type", []) or [] */
	if (a->bad_types)
		return fail(r, "malformed Input type");
	if (a->has_types && jdoc_root(&a->types)->t == J_ARR)
		nt = jdoc_root(&a->types)->n;
	else if (a->has_types && jdoc_root(&a->types)->t != J_NULL)
		return fail(r, "Input type is not a list");
	if ((nt > 0 && arg_str(a, r, FD_TYPES, 0, &dt[0]) < 0) ||
	    (nt > 1 && arg_str(a, r, FD_TYPES, 1, &dt[1]) < 0))
		return M_FAIL;
	g.B = 1;
	ext_gemm_head(r, &g, dt);
	if (nd > 3) {
		/* "x_scale and x_scale[-1]": None or [] give no block size */
		xs.n = ws.n = 0;
		if ((dims_truthy(a, 2) && dims2(a, r, 2, &xs) < 0) ||
		    (dims_truthy(a, 3) && dims2(a, r, 3, &ws) < 0))
			return M_FAIL;
		/* ceil(K / scale columns), ceil(N / scale rows): -(-K // s) */
		p_str(r, "quant_scheme", "a8w8_blockscale");
		p_str(r, "quant_granularity", "per_block");
		if (xs.n > 0 && xs.d[xs.n - 1] != 0) {
			bk = sub(r, I(0), fdiv(r, sub(r, I(0), I(g.K)), I(xs.d[xs.n - 1])));
			p_num(r, "block_k", bk);
		} else
			p_raw(r, "block_k", "None");
		if (ws.n > 0 && ws.d[0] != 0) {
			bn = sub(r, I(0), fdiv(r, sub(r, I(0), I(g.N)), I(ws.d[0])));
			p_num(r, "block_n", bn);
		} else
			p_raw(r, "block_n", "None");
		sd = "float32";
		if (nt > 2 && arg_str(a, r, FD_TYPES, 2, &sd) < 0)
			return M_FAIL;
		p_str(r, "scale_dtype", sd);
	}
	pkey(r, "output_shape");
	buf_addc(&r->params, '(');
	vint(&r->params, g.M);
	buf_adds(&r->params, ", ");
	vint(&r->params, g.N);
	buf_addc(&r->params, ')');
	p_str(r, "output_dtype", "c10::bfloat16");
	g.dt[0] = dt[0];
	g.ndt = 1;
	if (gemm_finish(a, r, &g, 1) != M_OK)
		return M_FAIL;
	if (bwd)
		return M_UNDEF;
	r->dtype = dt[0] != NULL && *dt[0] ? dt[0] : NULL;
	ext_gemm_bytes(r, &g, dt, 0, 0);
	return M_OK;
}

/*
 * gemm_a16w16_atomic_ (and flydsl hgemm): X[M, K] @ W[N, K]^T; output
 * dtype Input type[3] (the output tensor) or bf16.
 */
static int
ext_gemm_mk_nk(const struct opargs *a, struct mresult *r, struct gemm *g, int bias)
{
	struct shape x, w;

	memset(g, 0, sizeof(*g));
	if (dims2(a, r, 0, &x) < 0 || dim(r, &x, 0, &g->M) < 0 ||
	    dims2(a, r, 1, &w) < 0 || dim(r, &w, 0, &g->N) < 0 || dim(r, &x, 1, &g->K) < 0)
		return -1;
	g->B = 1;
	if (bias) {
		struct shape bs;
		long nd = arg_len(a, r, FD_DIMS);

		if (nd > 2 && dims2(a, r, 2, &bs) < 0)
			return -1;
		g->bias = nd > 2 && bs.n > 0;
	}
	return 0;
}

static int
ext_gemm_finish(const struct opargs *a, struct mresult *r, struct gemm *g,
    const char *const *dt, int bwd)
{
	ext_gemm_head(r, g, dt);
	g->dt[0] = dt[0];
	g->ndt = 1;
	if (gemm_finish(a, r, g, 1) != M_OK)
		return M_FAIL;
	if (bwd)
		return M_UNDEF;
	ext_gemm_bytes(r, g, dt, 0, 0);
	return M_OK;
}

static int
m_gemm_a16w16_atomic(const struct opargs *a, struct mresult *r, int bwd)
{
	struct gemm g;
	const char *dt[3];

	if (ext_gemm_mk_nk(a, r, &g, 0) < 0 || arg_str(a, r, FD_TYPES, 0, &dt[0]) < 0 ||
	    arg_str(a, r, FD_TYPES, 1, &dt[1]) < 0 ||
	    type_or(a, r, 3, "c10::bfloat16", &dt[2]) < 0)
		return M_FAIL;
	return ext_gemm_finish(a, r, &g, dt, bwd);
}

/* aiter::gemm_a16w16: a bias at Input Dims[2]; the output in the dtype of X. */
static int
m_gemm_a16w16(const struct opargs *a, struct mresult *r, int bwd)
{
	struct gemm g;
	const char *dt[3];

	if (ext_gemm_mk_nk(a, r, &g, 1) < 0 || arg_str(a, r, FD_TYPES, 0, &dt[0]) < 0 ||
	    arg_str(a, r, FD_TYPES, 1, &dt[1]) < 0)
		return M_FAIL;
	dt[2] = dt[0];
	return ext_gemm_finish(a, r, &g, dt, bwd);
}

/* aiter::_gemm_a16w16_asm: the output tensor at Input type[2] when it has a size. */
static int
m_gemm_a16w16_asm(const struct opargs *a, struct mresult *r, int bwd)
{
	struct gemm g;
	const char *dt[3], *o = NULL;
	long nt;

	if ((nt = arg_len(a, r, FD_TYPES)) < 0 || (nt > 2 && arg_str(a, r, FD_TYPES, 2, &o) < 0) ||
	    arg_str(a, r, FD_TYPES, 0, &dt[0]) < 0 ||
	    ext_gemm_mk_nk(a, r, &g, 0) < 0 || arg_str(a, r, FD_TYPES, 1, &dt[1]) < 0)
		return M_FAIL;
	dt[2] = nt > 2 && model_bpe(o) != 0 ? o : dt[0];
	return ext_gemm_finish(a, r, &g, dt, bwd);
}

/* aiter::gemm_afp4wfp4_: packed FP4 X[M, K/2], W[N, K/2]; bf16 out; precision fp4. */
static int
m_gemm_afp4wfp4(const struct opargs *a, struct mresult *r, int bwd)
{
	struct gemm g;
	const char *dt[3] = { NULL, NULL, "c10::bfloat16" };

	if (ext_gemm_mk_nk(a, r, &g, 0) < 0 || arg_str(a, r, FD_TYPES, 0, &dt[0]) < 0 ||
	    arg_str(a, r, FD_TYPES, 1, &dt[1]) < 0)
		return M_FAIL;
	g.K = mul(r, I(g.K), I(2)).i;
	ext_gemm_head(r, &g, dt);
	if (gemm_finish(a, r, &g, 1) != M_OK)
		return M_FAIL;
	if (bwd)
		return M_UNDEF;
	r->dtype = "mxfp4";
	ext_gemm_bytes(r, &g, dt, 1, 1);
	return M_OK;
}

/*
 * aiter::batched_gemm_a16wfp4_: X[B, M, K] @ W[B, N, K/2]^T with FP4
 * weights (half a byte each); FLOPs and bytes times B; precision fp4.
 */
static int
m_batched_gemm_a16wfp4(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape x, w;
	struct gemm g = { 0 };
	const char *dt[3] = { NULL, NULL, "c10::bfloat16" };

	if (dims2(a, r, 0, &x) < 0 || dim(r, &x, 0, &g.B) < 0 || dim(r, &x, 1, &g.M) < 0 ||
	    dims2(a, r, 1, &w) < 0 || dim(r, &w, 1, &g.N) < 0 || dim(r, &x, 2, &g.K) < 0 ||
	    arg_str(a, r, FD_TYPES, 0, &dt[0]) < 0 || arg_str(a, r, FD_TYPES, 1, &dt[1]) < 0)
		return M_FAIL;
	ext_gemm_head(r, &g, dt);
	if (gemm_finish(a, r, &g, 1) != M_OK)
		return M_FAIL;
	if (bwd)
		return M_UNDEF;
	r->dtype = "mxfp4";
	ext_gemm_bytes(r, &g, dt, 0, 1);
	if (r->has_bytes)
		r->bytes = mul(r, I(g.B), r->bytes);
	return M_OK;
}

/*
 * SGLang's batched_gemm_a8w8: X[B, M, K] (or [M, B, K]) @ WQ[B, N, K]^T;
 * times B; precision from the dtype of WQ.
 */
static int
m_batched_gemm_a8w8(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape x, w;
	struct gemm g = { 0 };
	const char *dt[3] = { NULL, NULL, "c10::bfloat16" };
	int64_t x0;

	if (dims2(a, r, 0, &x) < 0 || dims2(a, r, 1, &w) < 0 || dim(r, &w, 0, &g.B) < 0 ||
	    dim(r, &w, 1, &g.N) < 0 || dim(r, &x, 2, &g.K) < 0 || dim(r, &x, 0, &x0) < 0)
		return M_FAIL;
	if (x0 == g.B) {
		if (dim(r, &x, 1, &g.M) < 0)
			return M_FAIL;
	} else
		g.M = x0;
	if (arg_str(a, r, FD_TYPES, 0, &dt[0]) < 0 || arg_str(a, r, FD_TYPES, 1, &dt[1]) < 0)
		return M_FAIL;
	ext_gemm_head(r, &g, dt);
	if (gemm_finish(a, r, &g, 1) != M_OK)
		return M_FAIL;
	if (bwd)
		return M_UNDEF;
	if (dt[1] == NULL)
		return fail(r, "no dtype of WQ");
	r->dtype = dt[1];
	ext_gemm_bytes(r, &g, dt, 0, 0);
	if (r->has_bytes)
		r->bytes = mul(r, I(g.B), r->bytes);
	return M_OK;
}

/* ---- grouped GEMM (Primus-Turbo) ---- */

/* Most groups a grouped GEMM may have here. */
enum { GG_MAX = 1024 };

/* (rows, cols) pairs found in a nested list (TraceLens's _collect_2d_shapes). */
struct pairs {
	int64_t r[GG_MAX], c[GG_MAX];	/* the pairs */
	size_t n;			/* how many */
	int full;			/* more than GG_MAX */
};

/* isinstance(v, int) and v > 0: Python's True is the int 1. */
static int
posint(const struct jval *v)
{
	return (v->t == J_INT || v->t == J_BOOL) && v->i > 0;
}

static void
collect2d(const struct jdoc *d, const struct jval *v, struct pairs *p)
{
	const struct jval *a, *b;
	size_t i;

	if (v->t != J_ARR)
		return;
	if (v->n == 2 && posint(a = jarr_at(d, v, 0)) && posint(b = jarr_at(d, v, 1))) {
		if (p->n == GG_MAX) {
			p->full = 1;
			return;
		}
		p->r[p->n] = a->i;
		p->c[p->n++] = b->i;
		return;
	}
	for (i = 0; i < v->n; i++)
		collect2d(d, jarr_at(d, v, i), p);
}

/* Input Dims[k] if it is a list whose first n items (all if n < 0) are positive ints. */
static const struct jval *
intlist(const struct opargs *a, const struct jval *d, size_t k, long minlen, long eqlen,
    long n)
{
	const struct jval *v = jarr_at(&a->dims, d, k);
	size_t i;

	if (v == NULL || v->t != J_ARR || (minlen >= 0 && (long)v->n < minlen) ||
	    (eqlen >= 0 && (long)v->n != eqlen))
		return NULL;
	for (i = 0; i < v->n && (n < 0 || (long)i < n); i++)
		if (!posint(jarr_at(&a->dims, v, i)))
			return NULL;
	return v;
}

/*
 * The dtypes, bpe_in and bpe_out params, and the Compute Spec dtype;
 * 1 when Input type is empty (the Compute Spec then fails), -1 on error.
 */
static int
gg_dtypes(const struct opargs *a, struct mresult *r, int *bin, int *bout)
{
	const struct jval *t;
	const char *din = NULL, *dout;
	int nin = 1, nout;

	if (a->bad_types)
		return fail(r, "malformed Input type"), -1;
	t = a->has_types ? jdoc_root(&a->types) : NULL;
	if (t != NULL && t->t != J_ARR)
		return fail(r, "Input type is not a list"), -1;
	if (t != NULL && t->n > 0 && arg_str(a, r, FD_TYPES, 0, &din) < 0)
		return -1;
	dout = din;
	if (t != NULL && t->n > 1 && arg_str(a, r, FD_TYPES, 1, &dout) < 0)
		return -1;
	*bin = din != NULL ? model_bpe(din) : 0;
	nin = din == NULL || *bin == 0;
	*bout = dout != NULL ? model_bpe(dout) : *bin;
	nout = dout != NULL ? *bout == 0 : nin;
	pkey(r, "bpe_in");
	if (nin)
		buf_adds(&r->params, "None");
	else
		vint(&r->params, *bin);
	pkey(r, "bpe_out");
	if (nout)
		buf_adds(&r->params, "None");
	else
		vint(&r->params, *bout);
	if (nin)
		*bin = 0;
	if (nout)
		*bout = 0;
	r->dtype = din != NULL && *din ? din : NULL;
	/* get_compute_precision: args.get("Input type", [None])[0] fails on [] */
	return t != NULL && t->n == 0;
}

/*
 * primus_turbo grouped GEMM, fixed K: X (M, K) @ W (G, K, N) (or W as
 * (G, N, K)), or zipped per-group shapes [[(M_i, K) ...], [(K, N) ...]].
 */
static int
m_grouped_gemm(const struct opargs *a, struct mresult *r, int bwd)
{
	const struct jval *d, *x, *w;
	struct pairs lhs, rhs;
	int64_t M = 0, K = 0, N = 0, G = 0;
	size_t i;
	int ok = 0, bin, bout, empty;

	d = a->has_dims ? jdoc_root(&a->dims) : NULL;
	if (d != NULL && d->t == J_ARR && d->n >= 2 &&
	    (x = intlist(a, d, 0, 2, -1, 2)) != NULL && (w = intlist(a, d, 1, -1, 3, -1)) != NULL) {
		M = jarr_at(&a->dims, x, 0)->i;
		K = jarr_at(&a->dims, x, 1)->i;
		G = jarr_at(&a->dims, w, 0)->i;
		if (jarr_at(&a->dims, w, 1)->i == K)
			N = jarr_at(&a->dims, w, 2)->i, ok = 1;
		else if (jarr_at(&a->dims, w, 2)->i == K)
			N = jarr_at(&a->dims, w, 1)->i, ok = 1;
	}
	if (!ok && d != NULL && d->t == J_ARR && d->n >= 2 &&
	    jarr_at(&a->dims, d, 0)->t == J_ARR && jarr_at(&a->dims, d, 1)->t == J_ARR) {
		lhs.n = rhs.n = 0;
		lhs.full = rhs.full = 0;
		collect2d(&a->dims, jarr_at(&a->dims, d, 0), &lhs);
		collect2d(&a->dims, jarr_at(&a->dims, d, 1), &rhs);
		if (lhs.full || rhs.full)
			return fail(r, "more than %d groups", GG_MAX);
		if (lhs.n > 0 && lhs.n == rhs.n) {
			K = lhs.c[0];
			N = rhs.c[0];
			ok = 1;
			for (i = 0; i < lhs.n && ok; i++)
				ok = lhs.c[i] == K && rhs.r[i] == K && rhs.c[i] == N;
			for (i = 0, M = 0; ok && i < lhs.n; i++)
				M = add(r, I(M), I(lhs.r[i])).i;
			G = lhs.n;
		}
	}
	if (!ok)
		return fail(r, "cannot parse the grouped GEMM Input Dims");
	p_int(r, "M", M);
	p_int(r, "K", K);
	p_int(r, "N", N);
	p_int(r, "G", G);
	if ((empty = gg_dtypes(a, r, &bin, &bout)) < 0)
		return M_FAIL;
	if (bwd)
		return M_UNDEF;
	if (empty)
		return fail(r, "Input type is empty");
	r->flops = mul(r, mul(r, mul(r, I(2), I(M)), I(K)), I(N));
	if (bin == 0 || bout == 0)
		return fail(r, "unknown dtype");
	set_bytes(r, 1, add(r, mul(r, add(r, mul(r, I(M), I(K)),
	    mul(r, mul(r, I(G), I(K)), I(N))), I(bin)), mul(r, mul(r, I(M), I(N)), I(bout))));
	return M_OK;
}

/*
 * primus_turbo grouped GEMM, variable K: [[M, K], [M, N]] as one group,
 * or zipped per-group [(M_i, K_i) ...], [(K_i, N_i) ...]; FLOPs and bytes
 * summed over the groups.
 */
static int
m_grouped_gemm_vk(const struct opargs *a, struct mresult *r, int bwd)
{
	const struct jval *d, *x, *y;
	struct pairs lhs, rhs;
	struct pynum f, b, M;
	size_t i;
	int ok = 0, bin, bout, empty;

	lhs.n = rhs.n = 0;
	lhs.full = rhs.full = 0;
	d = a->has_dims ? jdoc_root(&a->dims) : NULL;
	if (d != NULL && d->t == J_ARR && d->n >= 2 &&
	    (x = intlist(a, d, 0, -1, 2, -1)) != NULL && (y = intlist(a, d, 1, -1, 2, -1)) != NULL) {
		lhs.r[0] = jarr_at(&a->dims, x, 0)->i;
		lhs.c[0] = rhs.r[0] = jarr_at(&a->dims, x, 1)->i;
		rhs.c[0] = jarr_at(&a->dims, y, 1)->i;
		lhs.n = rhs.n = 1;
		ok = 1;
	}
	if (!ok && d != NULL && d->t == J_ARR && d->n >= 2 &&
	    jarr_at(&a->dims, d, 0)->t == J_ARR && jarr_at(&a->dims, d, 1)->t == J_ARR) {
		collect2d(&a->dims, jarr_at(&a->dims, d, 0), &lhs);
		collect2d(&a->dims, jarr_at(&a->dims, d, 1), &rhs);
		if (lhs.full || rhs.full)
			return fail(r, "more than %d groups", GG_MAX);
		ok = lhs.n > 0 && lhs.n == rhs.n;
		for (i = 0; i < lhs.n && ok; i++)
			ok = lhs.c[i] == rhs.r[i];
	}
	if (!ok)
		return fail(r, "cannot parse the grouped GEMM Input Dims");
	for (i = 0, M = I(0); i < lhs.n; i++)
		M = add(r, M, I(lhs.r[i]));
	p_num(r, "M", M);
	p_int(r, "K", lhs.c[0]);
	p_int(r, "N", rhs.c[0]);
	p_int(r, "G", lhs.n);
	if ((empty = gg_dtypes(a, r, &bin, &bout)) < 0)
		return M_FAIL;
	pkey(r, "group_pairs");
	buf_addc(&r->params, '[');
	for (i = 0; i < lhs.n; i++) {
		char s[128];

		snprintf(s, sizeof(s), "%s((%lld, %lld), (%lld, %lld))", i ? ", " : "",
		    (long long)lhs.r[i], (long long)lhs.c[i], (long long)rhs.r[i],
		    (long long)rhs.c[i]);
		buf_adds(&r->params, s);
	}
	buf_addc(&r->params, ']');
	if (bwd)
		return M_UNDEF;
	if (empty)
		return fail(r, "Input type is empty");
	f = b = I(0);
	for (i = 0; i < lhs.n; i++) {
		f = add(r, f, mul(r, mul(r, mul(r, I(2), I(lhs.r[i])), I(lhs.c[i])), I(rhs.c[i])));
		b = add(r, b, add(r, mul(r, add(r, mul(r, I(lhs.r[i]), I(lhs.c[i])),
		    mul(r, mul(r, I(1), I(lhs.c[i])), I(rhs.c[i]))), I(bin)),
		    mul(r, mul(r, I(lhs.r[i]), I(rhs.c[i])), I(bout))));
	}
	r->flops = f;
	set_bytes(r, bin != 0 && bout != 0, b);
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

/*
 * The AITER and FlashAttention-3 SDPA ops: q, k, v at Input Dims[q0..]
 * in (B, N, H, d); dropout from Concrete Inputs[cd] (optional_float;
 * cd < 0: always 0.0) and causal from [cc]; no dtypes in the params,
 * so no Compute Spec.  isbwd: a backward op whose own metrics are the
 * backward formulas.
 */
static int
aiter_sdpa(const struct opargs *a, struct mresult *r, int bwd, size_t q0, int cd,
    size_t cc, int isbwd)
{
	static const int bnhd[] = { 0, 2, 1, 3 };
	struct sdpa s = { 0 };
	double dropout = 0.0;

	if (sdpa_shapes(a, r, &s, q0, bnhd, 0) < 0 ||
	    (cd >= 0 && opt_float(a, r, cd, &dropout) < 0) || ci_causal(a, r, cc, &s.causal) < 0)
		return M_FAIL;
	/* --fixed-models: the dtype of q sizes the bytes */
	if (a->fixed && (s.ndt = dtype_slice(a, r, q0, q0 + 1, s.dt)) < 0)
		return M_FAIL;
	s.flash = 1;
	sdpa_sizes(r, &s);
	p_num(r, "dropout", F(dropout));
	p_bool(r, "causal", s.causal);
	p_bool(r, "flash_impl", 1);
	return sdpa_metrics(a, r, &s, bwd || isbwd);
}

static int
m_aiter_flash_fwd(const struct opargs *a, struct mresult *r, int bwd)
{
	return aiter_sdpa(a, r, bwd, 0, 3, 5, 0);
}

static int
m_aiter_flash_bwd(const struct opargs *a, struct mresult *r, int bwd)
{
	return aiter_sdpa(a, r, bwd, 0, 10, 12, 1);
}

static int
m_aiter_fmha_v3_fwd_wrap(const struct opargs *a, struct mresult *r, int bwd)
{
	return aiter_sdpa(a, r, bwd, 1, 4, 6, 0);
}

static int
m_aiter_fmha_v3_bwd_wrap(const struct opargs *a, struct mresult *r, int bwd)
{
	return aiter_sdpa(a, r, bwd, 1, 7, 9, 1);
}

/* aiter::mha_fwd, aiter::fmha_v3_fwd */
static int
m_aiter_mha_fwd(const struct opargs *a, struct mresult *r, int bwd)
{
	return aiter_sdpa(a, r, bwd, 0, 3, 5, 0);
}

static int
m_aiter_mha_bwd(const struct opargs *a, struct mresult *r, int bwd)
{
	return aiter_sdpa(a, r, bwd, 1, 6, 8, 1);
}

/* flash_attn_3::fwd: dropout not modelled (0.0), causal at Concrete Inputs[24]. */
static int
m_flash_attn_v3_fwd(const struct opargs *a, struct mresult *r, int bwd)
{
	return aiter_sdpa(a, r, bwd, 0, -1, 24, 0);
}

/*
 * EvoformerAttention(Q, K, V, res_mask, pair_bias): Q is (Batch, N_seq,
 * N_res, Head, Dim); N_seq folds into the batch; never causal, not flash.
 */
static int
m_evoformer(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape q;
	struct sdpa s = { 0 };
	const char *dt = NULL;
	long nt = 0;

	if (arg_shape(a, r, 0, &q) < 0)
		return M_FAIL;
	if (q.n != 5)
		return fail(r, "Q is not (Batch, N_seq, N_res, Head, Dim)");
	/* input_types = args.get("Input type", []); dtype = types[0] if types else None */
	if (a->bad_types)
		return fail(r, "malformed Input type");
	if (a->has_types) {
		if (jdoc_root(&a->types)->t != J_ARR)
			return fail(r, "Input type is not a list");
		nt = jdoc_root(&a->types)->n;
	}
	if (nt > 0 && arg_str(a, r, FD_TYPES, 0, &dt) < 0)
		return M_FAIL;
	s.B = mul(r, I(q.d[0]), I(q.d[1]));
	s.NQ = s.NKV = I(q.d[2]);
	s.HQ = s.HKV = I(q.d[3]);
	s.dqk = s.dv = I(q.d[4]);
	s.dt[0] = dt;
	s.ndt = 1;
	sdpa_sizes(r, &s);
	p_bool(r, "causal", 0);
	p_bool(r, "flash_impl", 0);
	pkey(r, "dtype_A_B");
	buf_addc(&r->params, '[');
	vstr(&r->params, dt);
	buf_addc(&r->params, ']');
	return sdpa_metrics(a, r, &s, bwd);
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

/* The output shape (CONV.__init__), from the params in c. */
static int
conv_outshape(struct mresult *r, struct conv *c)
{
	long ndims;
	size_t i;
	int64_t num;

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

	return conv_outshape(r, c);
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

/*
 * ConvBias_, ConvBiasReLU_ (fused MIOpen/cuDNN convolutions): input,
 * weight, bias at Input Dims[0..2]; one stride and one padding for every
 * spatial dim at Concrete Inputs[3], [4] ("" or absent: 1 and 0); no
 * dilation, groups 1; a bias always.
 */
static int
m_conv_bias(const struct opargs *a, struct mresult *r, int bwd)
{
	static const char *const nd[] = { "conv1d", "conv2d", "conv3d" };
	struct conv c;
	const char *sv[2];
	int64_t v[2], dflt[2] = { 1, 0 };
	long nc, ndims, i, k;
	int bpe;

	memset(&c, 0, sizeof(c));
	if (arg_shape(a, r, 0, &c.x) < 0 || (nc = arg_len(a, r, FD_CONCRETE)) < 0 ||
	    arg_shape(a, r, 1, &c.w) < 0)
		return M_FAIL;
	ndims = (long)c.x.n - 2;
	for (k = 0; k < 2; k++) {
		sv[k] = "";
		v[k] = dflt[k];
		if (nc > 3 + k && arg_str(a, r, FD_CONCRETE, 3 + k, &sv[k]) < 0)
			return M_FAIL;
		if (sv[k] == NULL || (*sv[k] && shape_pyint(sv[k], &v[k]) < 0))
			return fail(r, "Concrete Inputs[%ld] is not an int", 3 + k);
	}
	for (i = 0; i < ndims && i < SHAPE_MAX; i++) {
		c.stride.d[i] = v[0];
		c.pad.d[i] = v[1];
		c.dil.d[i] = 1;
		c.opad.d[i] = 0;
	}
	c.stride.n = c.pad.n = c.dil.n = c.opad.n = ndims > 0 ? MIN(ndims, SHAPE_MAX) : 0;
	c.groups = 1;
	c.bias = 1;
	if ((c.ndt = dtype_slice(a, r, 0, 2, c.dt)) < 0)
		return M_FAIL;
	if (c.ndt < 2)
		return fail(r, "Input type has no weight dtype");
	if ((c.dt[0] == NULL) != (c.dt[1] == NULL) ||
	    (c.dt[0] && strcmp(c.dt[0], c.dt[1]) != 0))
		return fail(r, "data types of input and weight differ");
	if (c.x.n < 3 || c.x.n > 5)
		return fail(r, "unknown convolution dimension %zu", c.x.n);
	p_str(r, "convNd", nd[c.x.n - 3]);
	p_shape(r, "input_shape", &c.x, 1);
	p_shape(r, "filter_shape", &c.w, 1);
	p_dtypes(r, "dtype_input_weight", 2, c.dt);
	if (p_strides2(a, r, "input_stride", "weight_stride", 0, 1, 1) < 0)
		return M_FAIL;
	p_bool(r, "bias", 1);
	p_shape(r, "stride", &c.stride, 1);
	p_shape(r, "padding", &c.pad, 1);
	p_shape(r, "dilation", &c.dil, 1);
	p_bool(r, "transposed_conv", 0);
	p_shape(r, "output_padding", &c.opad, 1);
	p_int(r, "groups", 1);
	if (conv_outshape(r, &c) < 0)
		return M_FAIL;
	r->dtype = c.dt[0];
	bpe = model_bpe(c.dt[0]);
	if (bwd) {
		r->flops = conv_flops_bwd(r, &c);
		set_bytes(r, bpe != 0, conv_bytes_bwd(r, &c, bpe));
	} else {
		r->flops = conv_flops(r, &c.x, &c.w, &c.out, 1, 0);
		set_bytes(r, bpe != 0, conv_bytes(r, &c.x, &c.w, &c.out, 1, bpe));
	}
	return M_OK;
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

/* ---- the RMSNorm extensions (AITER, vLLM, SGLang) and Primus LN-modulate ---- */

/* Python's "try: tuple(S[k]) except (KeyError, IndexError): None". */
static int
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

/* RMSNorm.flops(): (E / C) * (2C + 2) for the rsqrt, then 2 per element (affine). */
static struct pynum
rms_flops(struct mresult *r, struct pynum E, struct pynum C)
{
	struct pynum f = mul(r, tdiv(r, E, C), add(r, mul(r, I(2), C), I(2)));

	return add(r, f, mul(r, E, I(2)));
}

/* The kinds of extension RMSNorm, by what they fuse around the norm. */
enum rmskind {
	RMS_PLAIN,	/* aiter::rms_norm, aiter::rmsnorm */
	RMS_DQUANT,	/* + per-token FP8 quant */
	RMS_QUANT,	/* + per-group FP8 quant, group size Concrete Inputs[5] (0: N) */
	RMS_GQUANT,	/* + per-group FP8 quant, group size Concrete Inputs[3] */
	RMS_ADD,	/* residual add + norm */
	RMS_ADDGQUANT,	/* residual add + norm + per-group FP8 quant, group size [4] */
	RMS_ADDPAD,	/* residual add + norm + pad to a multiple (Concrete Inputs[4]) */
	RMS_MXFP4	/* [add] + norm [+ a second norm] + MXFP4 quant */
};

/*
 * x at Input Dims[xi], the weight at [wi] (num_channels = its first
 * dim); affine, no bias, inference.
 */
static int
rms_ext(const struct opargs *a, struct mresult *r, int bwd, size_t xi, size_t wi,
    enum rmskind kind)
{
	struct norm n = { 0 };
	struct shape w, s3;
	struct pynum E, C, M, f, b, ng;
	int64_t gs = 0, pad = 0, nout, n2 = 0;
	long nd;
	int bpe, x2 = 0, res = 0;

	if (kind == RMS_ADDPAD && arg_int(a, r, 4, &pad) < 0)
		return M_FAIL;
	if (norm_head(a, r, &n, xi) < 0 || arg_shape(a, r, wi, &w) < 0)
		return M_FAIL;
	if (w.n < 1)
		return fail(r, "weight shape is empty");
	n.C = I(w.d[0]);
	n.affine = 1;
	norm_tail(r, &n);
	if (kind == RMS_GQUANT && arg_int(a, r, 3, &gs) < 0)
		return M_FAIL;
	if (kind == RMS_ADDGQUANT && arg_int(a, r, 4, &gs) < 0)
		return M_FAIL;
	if (kind == RMS_QUANT) {
		const char *s;
		const struct jval *ci = a->has_concrete ? jdoc_root(&a->concrete) : NULL;

		/* "except (KeyError, IndexError, ValueError, TypeError): 0" */
		if (ci != NULL && ci->t == J_ARR && ci->n > 5 &&
		    (s = jstr(&a->concrete, jarr_at(&a->concrete, ci, 5))) != NULL &&
		    shape_pyint(s, &gs) == 0)
			;
		else if (ci != NULL && ci->t == J_ARR && ci->n > 5 &&
		    jarr_at(&a->concrete, ci, 5)->t == J_INT)
			gs = jarr_at(&a->concrete, ci, 5)->i;
		else
			gs = 0;
	}
	if (kind == RMS_MXFP4) {
		if ((nd = arg_len(a, r, FD_DIMS)) < 0)
			return M_FAIL;
		if (nd > 3) {
			const struct jval *v = jarr_at(&a->dims, jdoc_root(&a->dims), 3);

			if (v->t != J_ARR)
				return fail(r, "Input Dims[3] has no length");
			if (v->n == 2) {
				if (arg_shape(a, r, 3, &s3) < 0)
					return M_FAIL;
				x2 = 1;
				n2 = s3.d[1];
			}
		}
		if (nd > 6) {
			const struct jval *v = jarr_at(&a->dims, jdoc_root(&a->dims), 6);

			if (v->t != J_ARR)
				return fail(r, "Input Dims[6] has no length");
			res = v->n == 2;
		}
	}
	if (bwd)
		return M_UNDEF;
	r->dtype = n.dt;
	E = I(prod(r, &n.op));
	C = n.C;
	if ((bpe = model_bpe(n.dt)) == 0)
		return fail(r, "unknown dtype %s", n.dt ? n.dt : "None");
	M = fdiv(r, E, C);
	f = rms_flops(r, E, C);
	switch (kind) {
	case RMS_PLAIN:
		b = add(r, add(r, mul(r, E, I(bpe)), mul(r, E, I(bpe))), mul(r, C, I(bpe)));
		break;
	case RMS_DQUANT:
		f = add(r, f, mul(r, I(2), E));
		b = add(r, add(r, add(r, mul(r, E, I(bpe)), mul(r, C, I(bpe))), E),
		    mul(r, mul(r, M, I(1)), I(4)));
		break;
	case RMS_QUANT:
	case RMS_GQUANT:
		f = add(r, f, mul(r, I(2), E));
		if (kind == RMS_QUANT && gs <= 0)
			gs = C.i;
		ng = fdiv(r, sub(r, add(r, C, I(gs)), I(1)), I(gs));
		b = add(r, add(r, add(r, mul(r, E, I(bpe)), mul(r, C, I(bpe))), mul(r, E, I(1))),
		    mul(r, mul(r, M, ng), I(4)));
		break;
	case RMS_ADD:
		f = add(r, E, f);
		b = add(r, add(r, mul(r, mul(r, I(2), E), I(bpe)), mul(r, C, I(bpe))),
		    mul(r, mul(r, I(2), E), I(bpe)));
		break;
	case RMS_ADDGQUANT:
		f = add(r, f, mul(r, I(3), E));
		ng = fdiv(r, sub(r, add(r, C, I(gs)), I(1)), I(gs));
		b = add(r, mul(r, E, I(bpe)), mul(r, E, I(bpe)));
		b = add(r, add(r, b, mul(r, C, I(bpe))), mul(r, E, I(1)));
		b = add(r, add(r, b, mul(r, E, I(bpe))), mul(r, mul(r, M, ng), I(4)));
		break;
	case RMS_ADDPAD:
		f = add(r, E, f);
		nout = pad > 0 ? mul(r, fdiv(r, sub(r, add(r, C, I(pad)), I(1)), I(pad)),
		    I(pad)).i : C.i;
		b = add(r, mul(r, mul(r, I(2), E), I(bpe)), mul(r, C, I(bpe)));
		b = add(r, b, mul(r, mul(r, M, I(nout)), I(bpe)));
		b = add(r, b, mul(r, mul(r, M, C), I(bpe)));
		break;
	case RMS_MXFP4:
		f = rms_flops(r, E, C);
		if (res)
			f = add(r, f, mul(r, M, C));
		if (x2) {
			/* int(flops * x2_elems / max(E, 1)): float, truncated */
			struct pynum q = tdiv(r, mul(r, rms_flops(r, E, C), mul(r, M, I(n2))),
			    I(MAX(pynum_double(E) >= 1 ? E.i : 1, 1)));

			if (!isfinite(q.f) || fabs(q.f) >= 9.2e18)
				return fail(r, "bad size");
			f = add(r, f, I((int64_t)q.f));
		}
		f = add(r, f, mul(r, I(2), E));
		b = add(r, add(r, mul(r, E, I(bpe)), mul(r, C, I(bpe))), mul(r, E, F(0.5)));
		b = add(r, b, mul(r, fdiv(r, E, I(32)), I(1)));
		if (res)
			b = add(r, add(r, b, mul(r, E, I(bpe))), mul(r, E, I(bpe)));
		if (x2) {
			struct pynum x2e = mul(r, M, I(n2));

			b = add(r, add(r, b, mul(r, x2e, I(bpe))), mul(r, I(n2), I(bpe)));
			b = add(r, b, mul(r, x2e, I(bpe)));
		}
		break;
	}
	r->flops = f;
	set_bytes(r, 1, b);
	return M_OK;
}

static int
m_aiter_rms_norm(const struct opargs *a, struct mresult *r, int bwd)
{
	return rms_ext(a, r, bwd, 0, 1, RMS_PLAIN);
}

static int
m_aiter_rmsnorm(const struct opargs *a, struct mresult *r, int bwd)
{
	return rms_ext(a, r, bwd, 1, 2, RMS_PLAIN);
}

static int
m_aiter_rmsnorm_dquant(const struct opargs *a, struct mresult *r, int bwd)
{
	return rms_ext(a, r, bwd, 1, 3, RMS_DQUANT);
}

static int
m_aiter_rmsnorm_quant(const struct opargs *a, struct mresult *r, int bwd)
{
	return rms_ext(a, r, bwd, 1, 3, RMS_QUANT);
}

static int
m_vllm_rmsnorm_gquant(const struct opargs *a, struct mresult *r, int bwd)
{
	return rms_ext(a, r, bwd, 0, 1, RMS_GQUANT);
}

static int
m_aiter_rmsnorm_add(const struct opargs *a, struct mresult *r, int bwd)
{
	return rms_ext(a, r, bwd, 1, 4, RMS_ADD);
}

static int
m_vllm_rmsnorm_add_gquant(const struct opargs *a, struct mresult *r, int bwd)
{
	return rms_ext(a, r, bwd, 0, 2, RMS_ADDGQUANT);
}

static int
m_rmsnorm_add_pad(const struct opargs *a, struct mresult *r, int bwd)
{
	return rms_ext(a, r, bwd, 0, 1, RMS_ADDPAD);
}

static int
m_rms_mxfp4_quant(const struct opargs *a, struct mresult *r, int bwd)
{
	return rms_ext(a, r, bwd, 0, 1, RMS_MXFP4);
}

/*
 * primus::fused_ln_modulate[_backward]: LayerNorm + scale/shift over x
 * (T, B, H): 12 (fwd) or 15 (bwd) FLOPs per element; bytes read and
 * written once, plus scale, shift and the float mean and rstd per row.
 */
static int
ln_modulate(const struct opargs *a, struct mresult *r, int bwd, int back)
{
	struct norm n = { 0 };
	struct pynum E, T, B, H, b;
	int bpe;

	if (arg_shape(a, r, 0, &n.op) < 0 || arg_str(a, r, FD_TYPES, 0, &n.dt) < 0)
		return M_FAIL;
	p_shape(r, "op_shape", &n.op, 1);
	p_dtypes(r, "dtype_in_out", 2, (const char *[]){ n.dt, NULL });
	if (p_stride_opt(a, r, "stride_input", 0) < 0)
		return M_FAIL;
	p_raw(r, "stride_output", "None");
	if (n.op.n < 3)
		return fail(r, "x is not (T, B, H)");
	n.C = I(n.op.d[2]);
	n.has_bias = n.affine = n.training = 1;
	if (back) {
		n.mask[0] = n.mask[1] = n.mask[2] = 1;
		n.nmask = 3;
	}
	norm_tail(r, &n);
	if (bwd)
		return M_UNDEF;
	r->dtype = n.dt;
	E = I(prod(r, &n.op));
	T = I(n.op.d[0]);
	B = I(n.op.d[1]);
	H = n.C;
	r->flops = mul(r, E, I(back ? 15 : 12));
	if ((bpe = model_bpe(n.dt)) == 0)
		return fail(r, "unknown dtype %s", n.dt ? n.dt : "None");
	if (!back) {
		b = add(r, mul(r, E, I(bpe)), mul(r, E, I(bpe)));
		b = add(r, b, mul(r, mul(r, mul(r, I(2), B), H), I(bpe)));
		b = add(r, b, mul(r, mul(r, mul(r, I(2), T), B), I(4)));
	} else {
		b = mul(r, mul(r, I(2), E), I(bpe));
		b = add(r, b, mul(r, mul(r, mul(r, I(2), B), T), I(4)));
		b = add(r, b, mul(r, E, I(bpe)));
		b = add(r, b, mul(r, mul(r, mul(r, I(2), B), H), I(bpe)));
		b = add(r, b, mul(r, mul(r, B, H), I(bpe)));
	}
	set_bytes(r, 1, b);
	return M_OK;
}

static int
m_ln_modulate(const struct opargs *a, struct mresult *r, int bwd)
{
	return ln_modulate(a, r, bwd, 0);
}

static int
m_ln_modulate_bwd(const struct opargs *a, struct mresult *r, int bwd)
{
	return ln_modulate(a, r, bwd, 1);
}

/* ---- elementwise and quantization extensions (AITER, vLLM, SGLang, Primus) ---- */

/*
 * aiter::silu_and_mul (and sgl_kernel's, gelu, gelu_tanh): out [..., d]
 * at Input Dims[0], the gate and up halves [..., 2d] at [1]; fpe FLOPs
 * per output element; bytes read the input twice the output size.
 */
static int
act_and_mul(const struct opargs *a, struct mresult *r, int bwd, int fpe)
{
	struct shape op;
	const char *din, *dout;
	struct pynum E;
	int bi, bo;

	(void)bwd;
	if (arg_shape(a, r, 0, &op) < 0 || arg_str(a, r, FD_TYPES, 1, &din) < 0 ||
	    arg_str(a, r, FD_TYPES, 0, &dout) < 0)
		return M_FAIL;
	p_shape(r, "op_shape", &op, 1);
	p_dtypes(r, "dtype_in_out", 2, (const char *[]){ din, dout });
	if (p_stride(a, r, "stride_input", 1, 0) < 0 || p_stride(a, r, "stride_output", 0, 0) < 0)
		return M_FAIL;
	E = I(prod(r, &op));
	r->dtype = din;
	r->flops = mul(r, I(fpe), E);
	bi = model_bpe(din);
	bo = dout != NULL ? model_bpe(dout) : bi;
	if (bi == 0 || bo == 0)
		return fail(r, "unknown dtype");
	set_bytes(r, 1, add(r, mul(r, mul(r, I(2), E), I(bi)), mul(r, E, I(bo))));
	return M_OK;
}

static int
m_silu_and_mul(const struct opargs *a, struct mresult *r, int bwd)
{
	return act_and_mul(a, r, bwd, 5);
}

static int
m_gelu_and_mul(const struct opargs *a, struct mresult *r, int bwd)
{
	return act_and_mul(a, r, bwd, 8);
}

static int
m_gelu_tanh_and_mul(const struct opargs *a, struct mresult *r, int bwd)
{
	return act_and_mul(a, r, bwd, 10);
}

/*
 * The Primus-Turbo quantizers: x at Input Dims[0] to FP8 (1 FLOP and
 * 1 + 1 bytes per element) or to row- and column-wise MXFP4 with E8M0
 * scales per 32 (bytes only; x must be 2-D).
 */
static int
primus_quant(const struct opargs *a, struct mresult *r, int bwd, int fp4)
{
	struct shape op;
	const char *din;
	struct pynum E, M, N, b;
	int bi;

	(void)bwd;
	if (arg_shape(a, r, 0, &op) < 0 || arg_str(a, r, FD_TYPES, 0, &din) < 0)
		return M_FAIL;
	p_shape(r, "op_shape", &op, 1);
	p_dtypes(r, "dtype_in_out", 2, (const char *[]){ din,
	    fp4 ? "c10::Float4_e2m1fn_x2" : "c10::Float8_e4m3fnuz" });
	if (p_stride_opt(a, r, "stride_input", 0) < 0)
		return M_FAIL;
	p_raw(r, "stride_output", "None");
	E = I(prod(r, &op));
	r->dtype = din;
	r->flops = E;
	bi = model_bpe(din);
	if (!fp4) {
		set_bytes(r, bi != 0, add(r, mul(r, E, I(bi)), mul(r, E, I(1))));
		return M_OK;
	}
	if (op.n != 2)
		return fail(r, "x is not 2-D");
	if (bi == 0) {
		set_bytes(r, 0, I(0));
		return M_OK;
	}
	M = I(op.d[0]);
	N = I(op.d[1]);
	b = mul(r, mul(r, M, N), I(bi));
	b = add(r, b, fdiv(r, add(r, mul(r, M, N), I(1)), I(2)));
	b = add(r, b, fdiv(r, add(r, mul(r, N, M), I(1)), I(2)));
	b = add(r, b, mul(r, M, fdiv(r, sub(r, add(r, N, I(32)), I(1)), I(32))));
	b = add(r, b, mul(r, N, fdiv(r, sub(r, add(r, M, I(32)), I(1)), I(32))));
	set_bytes(r, 1, b);
	return M_OK;
}

static int
m_primus_quant_fp8(const struct opargs *a, struct mresult *r, int bwd)
{
	return primus_quant(a, r, bwd, 0);
}

static int
m_primus_quant_mxfp4(const struct opargs *a, struct mresult *r, int bwd)
{
	return primus_quant(a, r, bwd, 1);
}

/*
 * AITER's dynamic per-token/group/tensor quant: out at Input Dims[0],
 * input at [1], scales at [2]; 2.59375 FLOPs per output element (from
 * rocprof counters); every tensor moved once.
 */
static int
m_per_group_quant(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape in1, in2, out;
	const char *d1, *d2, *dout;
	int b1, b2, bo;

	(void)bwd;
	if (arg_shape(a, r, 1, &in1) < 0 || arg_shape(a, r, 2, &in2) < 0 ||
	    arg_shape(a, r, 0, &out) < 0 || arg_str(a, r, FD_TYPES, 1, &d1) < 0 ||
	    arg_str(a, r, FD_TYPES, 2, &d2) < 0 || arg_str(a, r, FD_TYPES, 0, &dout) < 0)
		return M_FAIL;
	p_shape(r, "shape_in1", &in1, 1);
	p_shape(r, "shape_in2", &in2, 1);
	p_shape(r, "shape_out", &out, 1);
	p_dtypes(r, "dtype_in1_in2_out", 3, (const char *[]){ d1, d2, dout });
	if (p_stride(a, r, "stride_input1", 1, 0) < 0 ||
	    p_stride(a, r, "stride_input2", 2, 0) < 0 || p_stride(a, r, "stride_output", 0, 0) < 0)
		return M_FAIL;
	r->dtype = d1;
	r->flops = mul(r, I(prod(r, &out)), F(2.59375));
	b1 = model_bpe(d1);
	b2 = model_bpe(d2);
	bo = model_bpe(dout);
	if (b1 == 0 || b2 == 0 || bo == 0)
		return fail(r, "unknown dtype");
	set_bytes(r, 1, add(r, add(r, mul(r, I(prod(r, &out)), I(bo)),
	    mul(r, I(prod(r, &in1)), I(b1))), mul(r, I(prod(r, &in2)), I(b2))));
	return M_OK;
}

/*
 * vllm::triton_per_token_group_quant_fp8: x (M, N) to FP8 with one float
 * scale per group of Concrete Inputs[1] (default 128) elements; 6 FLOPs
 * per element.
 */
static int
m_vllm_group_quant_fp8(const struct opargs *a, struct mresult *r, int bwd)
{
	const struct jval *d, *ci, *v, *t;
	struct shape x = { { 0 }, 0 };
	int64_t M = 1, N = 1, gs = 128;
	const char *dx = "";
	struct pynum ng;
	int bi;

	(void)bwd;
	/* dims = args.get("Input Dims") or [] */
	d = a->has_dims ? jdoc_root(&a->dims) : NULL;
	if (a->bad_dims || (d != NULL && d->t != J_ARR && d->t != J_NULL))
		return fail(r, "malformed Input Dims");
	if (d != NULL && d->t == J_ARR && d->n > 0 && arg_shape(a, r, 0, &x) < 0)
		return M_FAIL;
	if (x.n >= 2)
		M = x.d[0], N = x.d[1];
	else if (x.n == 1)
		N = x.d[0];
	ci = a->has_concrete ? jdoc_root(&a->concrete) : NULL;
	if (a->bad_concrete)
		return fail(r, "malformed Concrete Inputs");
	if (ci != NULL && ci->t == J_ARR && ci->n > 1) {
		/* str(concrete[1]).strip(); "" and "none" keep 128; int() or keep */
		v = jarr_at(&a->concrete, ci, 1);
		if (v->t == J_INT)
			gs = v->i;
		else if (v->t == J_STR) {
			const char *s = jstr(&a->concrete, v);
			int64_t g;

			if (shape_pyint(s, &g) == 0)
				gs = g;
		}
	}
	ng = fdiv(r, sub(r, add(r, I(N), I(gs)), I(1)), I(gs));
	if (!ng.isf && ng.i < 1)
		ng = I(1);
	/* dtype_x = types[0] if types else "" */
	t = a->has_types ? jdoc_root(&a->types) : NULL;
	if (a->bad_types)
		return fail(r, "malformed Input type");
	if (t != NULL && t->t == J_ARR && t->n > 0 && arg_str(a, r, FD_TYPES, 0, &dx) < 0)
		return M_FAIL;
	if (t != NULL && t->t != J_ARR && t->t != J_NULL)
		return fail(r, "Input type is not a list");
	p_int(r, "M", M);
	p_int(r, "N", N);
	p_int(r, "group_size", gs);
	p_num(r, "num_groups", ng);
	p_shape(r, "shape_x", &x, 1);
	p_str(r, "dtype_x", dx);
	p_shape(r, "shape_in1", &x, 1);
	p_raw(r, "shape_in2", "()");
	p_shape(r, "shape_out", &x, 1);
	p_dtypes(r, "dtype_in1_in2_out", 3, (const char *[]){ dx, NULL, "c10::float8_e4m3fn" });
	p_raw(r, "stride_input1", "None");
	p_raw(r, "stride_input2", "None");
	p_raw(r, "stride_output", "None");
	r->dtype = dx != NULL && *dx ? dx : NULL;
	r->flops = mul(r, mul(r, I(6), I(M)), I(N));
	bi = model_bpe(dx);
	set_bytes(r, bi != 0, add(r, add(r, mul(r, mul(r, I(M), I(N)), I(bi)),
	    mul(r, mul(r, I(M), I(N)), I(1))), mul(r, mul(r, I(M), ng), I(4))));
	return M_OK;
}

/*
 * The MXFP4 activation quantizers: x at Input Dims[xi]; 2 FLOPs per
 * element; read x, write half a byte per element and one E8M0 scale per
 * 32.  strides: Input Strides[xi] is a param (missing: an error).
 */
static int
mxfp4_quant(const struct opargs *a, struct mresult *r, int bwd, size_t xi, int strides)
{
	struct shape op;
	const char *din;
	struct pynum E, b;
	int bi;

	(void)bwd;
	if (arg_shape(a, r, xi, &op) < 0 || arg_str(a, r, FD_TYPES, xi, &din) < 0)
		return M_FAIL;
	p_shape(r, "op_shape", &op, 1);
	p_dtypes(r, "dtype_in_out", 2, (const char *[]){ din, din });
	if (!strides)
		p_raw(r, "stride_input", "None");
	else if (p_stride(a, r, "stride_input", xi, 0) < 0)
		return M_FAIL;
	p_raw(r, "stride_output", "None");
	E = I(prod(r, &op));
	r->dtype = din;
	r->flops = mul(r, I(2), E);
	if ((bi = model_bpe(din)) == 0) {
		set_bytes(r, 0, I(0));
		return M_OK;
	}
	b = add(r, mul(r, E, I(bi)), mul(r, E, F(0.5)));
	set_bytes(r, 1, add(r, b, mul(r, fdiv(r, E, I(32)), I(1))));
	return M_OK;
}

static int
m_flatten_mxfp4_quant(const struct opargs *a, struct mresult *r, int bwd)
{
	return mxfp4_quant(a, r, bwd, 0, 1);
}

static int
m_mx_quant_moe_sort(const struct opargs *a, struct mresult *r, int bwd)
{
	return mxfp4_quant(a, r, bwd, 2, 1);
}

static int
m_sglang_mxfp4_quant(const struct opargs *a, struct mresult *r, int bwd)
{
	return mxfp4_quant(a, r, bwd, 0, 0);
}

static int
m_mxfp4_quant_moe_sort(const struct opargs *a, struct mresult *r, int bwd)
{
	return mxfp4_quant(a, r, bwd, 2, 0);
}

static int
m_group_quant_fp4(const struct opargs *a, struct mresult *r, int bwd)
{
	return mxfp4_quant(a, r, bwd, 1, 0);
}

/* ---- MoE communication, SSM, RoPE, cross entropy (TE, DaoAILab, Megatron) ---- */

/* Input type[0] when the list is not empty, else dflt; *n: 0 when empty or missing. */
static int
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
static int
bpe_or2(const char *dt)
{
	int b = dt != NULL && *dt ? model_bpe(dt) : 0;

	return b ? b : 2;
}

/*
 * MoEDispatch, MoECombine: tokens (num_tokens, hidden_dim) at Input
 * Dims[0]; no FLOPs; bytes = tokens * hidden * bpe; the same backward.
 */
static int
m_moe_comm(const struct opargs *a, struct mresult *r, int bwd)
{
	const struct jval *d, *t;
	const char *dt;
	int n, bpe, has[2] = { 0, 0 };
	int64_t v[2] = { 0, 0 };
	size_t i;

	(void)bwd;
	if (a->bad_dims)
		return fail(r, "malformed Input Dims");
	d = a->has_dims ? jdoc_root(&a->dims) : NULL;
	if (d != NULL && d->t != J_ARR)
		return fail(r, "Input Dims is not a list");
	if (d != NULL && d->n > 0) {
		t = jarr_at(&a->dims, d, 0);
		if (t->t != J_ARR)
			return fail(r, "Input Dims[0] is not a list");
		for (i = 0; i < 2 && i < t->n; i++) {
			const struct jval *e = jarr_at(&a->dims, t, i);

			if (e->t != J_INT)
				return fail(r, "Input Dims[0] is not a shape");
			v[i] = e->i;
			has[i] = 1;
		}
	}
	if (type0(a, r, "", &dt, &n) < 0)
		return M_FAIL;
	bpe = dt != NULL && *dt ? model_bpe(dt) : 0;
	pkey(r, "num_tokens");
	has[0] ? vint(&r->params, v[0]) : buf_adds(&r->params, "None");
	pkey(r, "hidden_dim");
	has[1] ? vint(&r->params, v[1]) : buf_adds(&r->params, "None");
	pkey(r, "bpe");
	bpe ? vint(&r->params, bpe) : buf_adds(&r->params, "None");
	r->flops = I(0);
	set_bytes(r, has[0] && has[1] && bpe, mul(r, mul(r, I(v[0]), I(v[1])), I(bpe)));
	if (!has[0] || !has[1])
		snprintf(r->why, sizeof(r->why), "no (num_tokens, hidden_dim) shape, bytes left empty");
	return M_OK;
}

/*
 * DaoAILab::_causal_conv1d_fwd_cpp: x (batch, channels, seq_len), weight
 * (channels, kernel_size), an optional bias; a depthwise convolution.
 */
static int
m_causal_conv1d(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape x, w;
	const char *dt;
	struct pynum bcs;
	long nd;
	int n, bpe, bias;

	if (arg_shape(a, r, 0, &x) < 0 || arg_shape(a, r, 1, &w) < 0 ||
	    (nd = arg_len(a, r, FD_DIMS)) < 0)
		return M_FAIL;
	if (x.n < 3 || w.n < 2)
		return fail(r, "x is not (batch, channels, seq_len) or weight not 2-D");
	bias = nd > 2 && jarr_at(&a->dims, jdoc_root(&a->dims), 2)->t == J_ARR &&
	    jarr_at(&a->dims, jdoc_root(&a->dims), 2)->n > 0;
	if (type0(a, r, "c10::BFloat16", &dt, &n) < 0)
		return M_FAIL;
	bpe = bpe_or2(dt);
	p_int(r, "batch", x.d[0]);
	p_int(r, "channels", x.d[1]);
	p_int(r, "seq_len", x.d[2]);
	p_int(r, "kernel_size", w.d[1]);
	p_bool(r, "has_bias", bias);
	if (bwd)
		return fail(r, "no backward model");
	if (a->has_types && n == 0)
		return fail(r, "Input type is empty");
	r->dtype = a->has_types ? dt : NULL;
	bcs = mul(r, mul(r, I(x.d[0]), I(x.d[1])), I(x.d[2]));
	r->flops = mul(r, mul(r, mul(r, mul(r, I(2), I(x.d[0])), I(x.d[1])), I(x.d[2])),
	    I(w.d[1]));
	set_bytes(r, 1, add(r, add(r, add(r, mul(r, bcs, I(bpe)),
	    mul(r, mul(r, I(x.d[1]), I(w.d[1])), I(bpe))), mul(r, bcs, I(bpe))),
	    I(bias ? mul(r, I(x.d[1]), I(bpe)).i : 0)));
	return M_OK;
}

/* FusedRoPEFunc (TE): t (seq_len, batch, heads, head_dim); 3 FLOPs per element. */
static int
m_fused_rope(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape t;
	const char *dt;
	struct pynum E;
	int n;

	if (arg_shape(a, r, 0, &t) < 0)
		return M_FAIL;
	if (t.n < 4)
		return fail(r, "t is not (seq_len, batch, heads, head_dim)");
	if (type0(a, r, "c10::BFloat16", &dt, &n) < 0)
		return M_FAIL;
	E = I(prod(r, &t));
	p_int(r, "seq_len", t.d[0]);
	p_int(r, "batch", t.d[1]);
	p_int(r, "heads", t.d[2]);
	p_int(r, "head_dim", t.d[3]);
	p_num(r, "num_elements", E);
	if (bwd)
		return fail(r, "no backward model");
	r->dtype = n > 0 ? dt : NULL;
	r->flops = mul(r, I(3), E);
	set_bytes(r, 1, mul(r, mul(r, I(2), E), I(bpe_or2(dt))));
	return M_OK;
}

/*
 * CrossEntropyFunction: logits (batch, ..., vocab); 5 FLOPs per logit of
 * a row; bytes: the logits, 8-byte targets and float losses.
 */
static int
m_cross_entropy(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape l;
	const char *dt;
	int n, bpe;

	if (arg_shape(a, r, 0, &l) < 0)
		return M_FAIL;
	if (l.n < 1)
		return fail(r, "logits shape is empty");
	if (type0(a, r, "c10::BFloat16", &dt, &n) < 0)
		return M_FAIL;
	p_int(r, "batch", l.d[0]);
	p_int(r, "vocab_size", l.d[l.n - 1]);
	p_shape(r, "logits_shape", &l, 0);
	if (bwd)
		return fail(r, "no backward model");
	r->dtype = n > 0 ? dt : NULL;
	bpe = bpe_or2(dt);
	r->flops = mul(r, mul(r, I(5), I(l.d[0])), I(l.d[l.n - 1]));
	set_bytes(r, 1, add(r, add(r, mul(r, I(prod(r, &l)), I(bpe)), mul(r, I(l.d[0]), I(8))),
	    mul(r, I(l.d[0]), I(4))));
	return M_OK;
}

/* Concrete Inputs[k] as int when it is there and truthy, else dflt. */
static int
ci_int_or(const struct opargs *a, struct mresult *r, size_t k, int64_t dflt, int64_t *v)
{
	const struct jval *ci, *e;

	*v = dflt;
	if (a->bad_concrete)
		return fail(r, "malformed Concrete Inputs"), -1;
	if (!a->has_concrete)
		return 0;
	ci = jdoc_root(&a->concrete);
	if (ci->t != J_ARR)
		return fail(r, "Concrete Inputs is not a list"), -1;
	if (ci->n <= k || !(e = jarr_at(&a->concrete, ci, k)) ||
	    (e->t == J_STR && e->len == 0) || e->t == J_NULL ||
	    ((e->t == J_INT || e->t == J_BOOL) && e->i == 0))
		return 0;
	if (e->t == J_INT || e->t == J_BOOL) {
		*v = e->i;
		return 0;
	}
	return arg_int(a, r, k, v);
}

/* The bpe of Input type[slot] when it is there and truthy and known, else dflt. */
static int
param_bpe(const struct opargs *a, size_t slot, int dflt)
{
	const struct jval *t = a->has_types ? jdoc_root(&a->types) : NULL;
	const char *s;
	int b;

	if (t == NULL || t->t != J_ARR || t->n <= slot)
		return dflt;
	s = jstr(&a->types, jarr_at(&a->types, t, slot));
	if (s == NULL || *s == '\0')
		return dflt;
	return (b = model_bpe(s)) ? b : dflt;
}

/*
 * MambaSplitConv1dScanCombinedFn (Mamba-2 SSD): zxbcdt (B, T, combined),
 * conv weight (channels, d_conv), dt_bias (H,); chunk C, head dim P and
 * groups G at Concrete Inputs[6], [15], [16] (default 128, 64, 1); the
 * state size N from combined = 2 H P + H + 2 G N.  The backward is the
 * forward again.
 */
static int
m_mamba_ssd(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape z, w, h;
	const char *dt;
	int64_t C, P, G, B, T, H, cd, ch, dc;
	struct pynum di, num, den, N, f, b;
	int n, bpe;

	(void)bwd;
	if (arg_shape(a, r, 0, &z) < 0 || arg_shape(a, r, 1, &w) < 0 ||
	    arg_shape(a, r, 3, &h) < 0)
		return M_FAIL;
	if (z.n < 3 || w.n < 2 || h.n < 1)
		return fail(r, "zxbcdt, conv weight or dt_bias too short");
	B = z.d[0], T = z.d[1], cd = z.d[2], ch = w.d[0], dc = w.d[1], H = h.d[0];
	if (ci_int_or(a, r, 6, 128, &C) < 0 || ci_int_or(a, r, 15, 64, &P) < 0 ||
	    ci_int_or(a, r, 16, 1, &G) < 0)
		return M_FAIL;
	di = mul(r, I(H), I(P));
	num = sub(r, sub(r, I(cd), mul(r, I(2), di)), I(H));
	den = mul(r, I(2), I(G));
	if (den.i == 0)
		return fail(r, "division by zero");
	if (num.i <= 0 || num.i - fdiv(r, num, den).i * den.i != 0)
		return fail(r, "cannot derive d_state");
	N = fdiv(r, num, den);
	p_int(r, "B", B);
	p_int(r, "T", T);
	p_int(r, "H", H);
	p_int(r, "P", P);
	p_int(r, "G", G);
	p_num(r, "N", N);
	p_int(r, "C", C);
	p_num(r, "d_inner", di);
	p_int(r, "d_conv", dc);
	p_int(r, "conv_channels", ch);
	p_int(r, "combined_dim", cd);
	if (type0(a, r, "c10::BFloat16", &dt, &n) < 0)
		return M_FAIL;
	if (a->has_types && n == 0)
		return fail(r, "Input type is empty");
	r->dtype = a->has_types ? dt : NULL;
	bpe = bpe_or2(dt);
#define M5(x1, x2, x3, x4, x5) mul(r, mul(r, mul(r, mul(r, mul(r, I(2), x1), x2), x3), x4), x5)
	f = mul(r, mul(r, mul(r, mul(r, I(2), I(B)), I(ch)), I(T)), I(dc));
	f = add(r, f, M5(I(B), I(G), I(T), I(C), N));
	f = add(r, f, M5(I(B), I(H), I(T), I(C), I(P)));
	f = add(r, f, M5(I(B), I(H), I(T), N, I(P)));
	f = add(r, f, M5(I(B), I(H), I(T), N, I(P)));
#undef M5
	r->flops = f;
	b = mul(r, mul(r, mul(r, I(B), I(T)), I(cd)), I(bpe));
	b = add(r, b, mul(r, mul(r, I(ch), I(dc)), I(bpe)));
	b = add(r, b, mul(r, I(ch), I(bpe)));
	b = add(r, b, add(r, add(r, mul(r, I(H), I(param_bpe(a, 3, 4))),
	    mul(r, I(H), I(param_bpe(a, 4, 4)))), mul(r, I(H), I(param_bpe(a, 5, bpe)))));
	b = add(r, b, mul(r, mul(r, mul(r, I(B), I(T)), di), I(bpe)));
	set_bytes(r, 1, b);
	return M_OK;
}

/* ---- custom collectives (AITER, vLLM, SGLang): per-GPU HBM bytes only ---- */

/* What a custom collective reads: shapes and dtype at these slots (-1: none). */
struct collspec {
	int x;		/* op_shape (the local input) */
	int out;	/* out_shape, or -1 */
	int outfirst;	/* out_shape is the first param */
	int dt;		/* Input type slot of dtype_in */
	int strides;	/* stride_input at slot x (else none) */
	int w;		/* weight (num_channels), or -1: fused all-reduce + RMSNorm */
};

/*
 * No MAF type, so no Compute Spec.  Fused all-reduce + RMSNorm: FLOPs
 * E + (E//C)(2C + 2) + 2E, bytes (4E + C) bpe; all-reduce: 0 FLOPs, 2E
 * bpe; reduce-scatter, all-gather: (E + E_out) bpe.
 */
static int
collective(const struct opargs *a, struct mresult *r, int bwd, const struct collspec *c)
{
	struct shape x, out, w;
	const char *dt;
	struct pynum E, C, f;
	int bpe;

	(void)bwd;
	if (c->out >= 0 && c->outfirst && arg_shape(a, r, c->out, &out) < 0)
		return M_FAIL;
	if (arg_shape(a, r, c->x, &x) < 0)
		return M_FAIL;
	if (c->out >= 0 && !c->outfirst && arg_shape(a, r, c->out, &out) < 0)
		return M_FAIL;
	if (arg_str(a, r, FD_TYPES, c->dt, &dt) < 0)
		return M_FAIL;
	if (c->outfirst)
		p_shape(r, "out_shape", &out, 1);
	p_shape(r, "op_shape", &x, 1);
	if (c->out >= 0 && !c->outfirst)
		p_shape(r, "out_shape", &out, 1);
	p_str(r, "dtype_in", dt);
	if (c->strides && p_stride(a, r, "stride_input", c->x, 0) < 0)
		return M_FAIL;
	E = I(prod(r, &x));
	if (c->w >= 0) {
		if (arg_shape(a, r, c->w, &w) < 0)
			return M_FAIL;
		if (w.n < 1)
			return fail(r, "weight shape is empty");
		C = I(w.d[0]);
		p_num(r, "num_channels", C);
		f = mul(r, fdiv(r, E, C), add(r, mul(r, I(2), C), I(2)));
		r->flops = add(r, E, add(r, f, mul(r, E, I(2))));
	} else
		r->flops = I(0);
	if ((bpe = model_bpe(dt)) == 0)
		return fail(r, "unknown dtype %s", dt ? dt : "None");
	if (c->w >= 0)
		set_bytes(r, 1, add(r, add(r, mul(r, mul(r, I(2), E), I(bpe)), mul(r, C, I(bpe))),
		    mul(r, mul(r, I(2), E), I(bpe))));
	else if (c->out >= 0)
		set_bytes(r, 1, mul(r, add(r, E, I(prod(r, &out))), I(bpe)));
	else
		set_bytes(r, 1, mul(r, mul(r, I(2), E), I(bpe)));
	return M_OK;
}

static int
m_allreduce_rmsnorm(const struct opargs *a, struct mresult *r, int bwd)
{
	static const struct collspec c = { 2, -1, 0, 2, 1, 6 };

	return collective(a, r, bwd, &c);
}

static int
m_allreduce_rmsnorm_py(const struct opargs *a, struct mresult *r, int bwd)
{
	static const struct collspec c = { 0, -1, 0, 0, 1, 2 };

	return collective(a, r, bwd, &c);
}

static int
m_custom_all_reduce(const struct opargs *a, struct mresult *r, int bwd)
{
	static const struct collspec c = { 1, -1, 0, 1, 1, -1 };

	return collective(a, r, bwd, &c);
}

/* aiter::reduce_scatter, aiter::all_gather_reg: inp [1], out [2]. */
static int
m_scatter_gather(const struct opargs *a, struct mresult *r, int bwd)
{
	static const struct collspec c = { 1, 2, 0, 1, 1, -1 };

	return collective(a, r, bwd, &c);
}

/* sglang::reg_all_gather_into_tensor: out [0], the shard [1]. */
static int
m_sgl_all_gather(const struct opargs *a, struct mresult *r, int bwd)
{
	static const struct collspec c = { 1, 0, 1, 0, 0, -1 };

	return collective(a, r, bwd, &c);
}

/* ---- RoPE, KV-cache and sampling extensions (AITER, SGLang) ---- */

/* aiter::rope_cached_positions_2c_fwd_impl: x, y at Input Dims[2], [3]. */
static int
m_aiter_rope_2c(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape x, y;
	const char *dt;
	struct pynum E;
	int n;

	if (arg_shape(a, r, 2, &x) < 0 || arg_shape(a, r, 3, &y) < 0)
		return M_FAIL;
	if (type0(a, r, "c10::BFloat16", &dt, &n) < 0)
		return M_FAIL;
	E = add(r, I(prod(r, &x)), I(prod(r, &y)));
	p_shape(r, "x_shape", &x, 1);
	p_shape(r, "y_shape", &y, 1);
	p_num(r, "num_elements", E);
	if (bwd)
		return fail(r, "no backward model");
	r->dtype = n > 0 ? dt : NULL;
	r->flops = mul(r, I(3), E);
	set_bytes(r, 1, mul(r, mul(r, I(2), E), I(bpe_or2(dt))));
	return M_OK;
}

/*
 * sgl_kernel::rotary_embedding: q, k (tokens, heads*head) at Input Dims
 * [1], [2]; head size Concrete Inputs[3] (else q's last dim), rotary dim
 * Input Dims[4][1] when given; bytes and precision from q's dtype.
 */
static int
m_sgl_rotary(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape q, k, c;
	const struct jval *ci, *v;
	const char *qd;
	int64_t hs, rot;
	struct pynum E;
	long nd;
	int qb;

	if (arg_shape(a, r, 1, &q) < 0 || arg_shape(a, r, 2, &k) < 0 ||
	    (nd = arg_len(a, r, FD_DIMS)) < 0)
		return M_FAIL;
	if (q.n < 2 || k.n < 2)
		return fail(r, "q or k not 2-D");
	hs = q.d[q.n - 1];
	if (a->bad_concrete)
		return fail(r, "malformed Concrete Inputs");
	ci = a->has_concrete ? jdoc_root(&a->concrete) : NULL;
	if (ci != NULL && ci->t != J_ARR)
		return fail(r, "Concrete Inputs is not a list");
	/* "if len(concrete) > 3 and str(concrete[3]).strip(): int(concrete[3])" */
	if (ci != NULL && ci->n > 3) {
		v = jarr_at(&a->concrete, ci, 3);
		if (v->t == J_INT)
			hs = v->i;
		else if (v->t == J_STR) {
			const char *s = jstr(&a->concrete, v);

			while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
				s++;
			if (*s && shape_pyint(s, &hs) < 0)
				return fail(r, "Concrete Inputs[3] is not an int");
		} else
			return fail(r, "Concrete Inputs[3] is not an int");
	}
	rot = hs;
	if (nd > 4) {
		v = jarr_at(&a->dims, jdoc_root(&a->dims), 4);
		if (v->t != J_ARR)
			return fail(r, "Input Dims[4] has no length");
		if (v->n > 1) {
			if (arg_shape(a, r, 4, &c) < 0)
				return M_FAIL;
			rot = c.d[1];
		}
	}
	E = mul(r, mul(r, I(q.d[0]), add(r, fdiv(r, I(q.d[1]), I(hs)),
	    fdiv(r, I(k.d[1]), I(hs)))), I(rot));
	p_num(r, "num_elements", E);
	if (arg_str(a, r, FD_TYPES, 1, &qd) < 0)
		return M_FAIL;
	if (bwd)
		return fail(r, "no backward model");
	r->dtype = qd != NULL && *qd ? qd : NULL;
	qb = model_bpe(qd) ? model_bpe(qd) : 2;
	r->flops = mul(r, I(3), E);
	set_bytes(r, 1, mul(r, mul(r, I(2), E), I(qb)));
	return M_OK;
}

/*
 * aiter::fused_qk_rope_cat_and_cache_mla (k_nope heads KH = Input
 * Dims[2][1]) and fused_qk_rope_concat_and_cache_mla (KH 1, an output
 * dtype at Input type[5]): q_nope (T, QH, D_lora), q_pe (..., D_pe);
 * rotate the D_pe part of q and k, read q, k, write q and the KV cache
 * (Input type[4] when given).
 */
static int
qk_rope_cache(const struct opargs *a, struct mresult *r, int bwd, int concat)
{
	struct shape qn, qp, kn;
	const char *din, *dkv, *dout;
	int64_t T, QH, KH = 1, DL, DP;
	long nt;
	int bi, bk, bo;
	struct pynum b, x;

	if (arg_shape(a, r, 0, &qn) < 0)
		return M_FAIL;
	if (qn.n != 3)
		return fail(r, "q_nope is not (T, QH, D_lora)");
	if (arg_shape(a, r, 1, &qp) < 0 || (!concat && arg_shape(a, r, 2, &kn) < 0))
		return M_FAIL;
	if (qp.n < 3 || (!concat && kn.n < 2))
		return fail(r, "q_pe or k_nope too short");
	T = qn.d[0], QH = qn.d[1], DL = qn.d[2], DP = qp.d[2];
	if (!concat)
		KH = kn.d[1];
	if ((nt = arg_len(a, r, FD_TYPES)) < 0 || arg_str(a, r, FD_TYPES, 0, &din) < 0)
		return M_FAIL;
	dkv = dout = din;
	if (nt > 4 && arg_str(a, r, FD_TYPES, 4, &dkv) < 0)
		return M_FAIL;
	if (dkv == NULL || *dkv == '\0')
		dkv = din;
	if (concat && nt > 5 && arg_str(a, r, FD_TYPES, 5, &dout) < 0)
		return M_FAIL;
	if (dout == NULL || *dout == '\0')
		dout = din;
	p_int(r, "T", T);
	p_int(r, "QH", QH);
	p_int(r, "KH", KH);
	p_int(r, "D_lora", DL);
	p_int(r, "D_pe", DP);
	p_str(r, "dtype_in", din);
	p_str(r, "dtype_kv", dkv);
	if (concat)
		p_str(r, "dtype_out", dout);
	if (bwd)
		return fail(r, "no backward model");
	if (din == NULL)
		return fail(r, "no input dtype");	/* torch_dtype_map(None) */
	r->dtype = din;
	r->flops = mul(r, I(3), add(r, mul(r, mul(r, I(T), I(QH)), I(DP)),
	    mul(r, mul(r, I(T), I(KH)), I(DP))));
	if ((bi = model_bpe(din)) == 0) {
		set_bytes(r, 0, I(0));
		return M_OK;
	}
	bk = model_bpe(dkv) ? model_bpe(dkv) : bi;
	bo = concat && model_bpe(dout) ? model_bpe(dout) : bi;
	b = mul(r, add(r, mul(r, mul(r, I(T), I(QH)), I(DL)), mul(r, mul(r, I(T), I(QH)), I(DP))),
	    I(bi));
	b = add(r, b, mul(r, add(r, mul(r, mul(r, I(T), I(KH)), I(DL)),
	    mul(r, mul(r, I(T), I(KH)), I(DP))), I(bi)));
	x = add(r, I(DL), I(DP));
	b = add(r, b, mul(r, mul(r, mul(r, I(T), I(QH)), x), I(bo)));
	b = add(r, b, mul(r, mul(r, mul(r, I(T), I(KH)), x), I(bk)));
	set_bytes(r, 1, b);
	return M_OK;
}

static int
m_qk_rope_cat_cache(const struct opargs *a, struct mresult *r, int bwd)
{
	return qk_rope_cache(a, r, bwd, 0);
}

static int
m_qk_rope_concat_cache(const struct opargs *a, struct mresult *r, int bwd)
{
	return qk_rope_cache(a, r, bwd, 1);
}

/* sglang::store_cache: k at Input Dims[0]; no FLOPs; 4 E bpe (k, v read and written). */
static int
m_sglang_store_cache(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape k;
	const char *dt;
	struct pynum E;

	if (arg_shape(a, r, 0, &k) < 0 || arg_str(a, r, FD_TYPES, 0, &dt) < 0)
		return M_FAIL;
	E = I(prod(r, &k));
	p_shape(r, "op_shape", &k, 1);
	p_num(r, "nelems", E);
	p_str(r, "dtype", dt);
	if (bwd)
		return fail(r, "no backward model");
	r->dtype = dt != NULL && *dt ? dt : NULL;
	r->flops = I(0);
	set_bytes(r, 1, mul(r, mul(r, I(4), E), I(bpe_or2(dt))));
	return M_OK;
}

/*
 * aiter::mixed_sample_outer_exponential: logits (T, V) at Input Dims[1]
 * (missing dims 1); 2 FLOPs per logit; read logits and noise, write an
 * int32 id per row.
 */
static int
m_mixed_sample(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape l;
	const char *dl = "c10::bfloat16", *dn = "float";
	int64_t T, V;
	long nt;
	int bl, bn;

	if (arg_shape(a, r, 1, &l) < 0 || (nt = arg_len(a, r, FD_TYPES)) < 0)
		return M_FAIL;
	T = l.n >= 1 ? l.d[0] : 1;
	V = l.n >= 2 ? l.d[1] : 1;
	if ((nt > 1 && arg_str(a, r, FD_TYPES, 1, &dl) < 0) ||
	    (nt > 2 && arg_str(a, r, FD_TYPES, 2, &dn) < 0))
		return M_FAIL;
	p_int(r, "T", T);
	p_int(r, "V", V);
	p_str(r, "dtype_logits", dl);
	p_str(r, "dtype_noise", dn);
	if (bwd)
		return fail(r, "no backward model");
	r->dtype = dl != NULL && *dl ? dl : NULL;
	r->flops = mul(r, mul(r, I(2), I(T)), I(V));
	bl = model_bpe(dl);
	bn = model_bpe(dn);
	set_bytes(r, bl && bn, add(r, add(r, mul(r, mul(r, I(T), I(V)), I(bl)),
	    mul(r, mul(r, I(T), I(V)), I(bn))), mul(r, I(T), I(4))));
	return M_OK;
}

/*
 * aiter::pa_sparse_prefill_opus_fwd (DeepSeek-V4 sparse prefill): q
 * (N_Q, H_Q, d) at Input Dims[0]; the (query, KV slot) pairs are the
 * lengths of the prefix and extend index lists at [2], [5]; one latent
 * KV head.  Any parse error: not modelled (TraceLens's "no perf").
 */
static int
m_pa_sparse_prefill(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape q, p2, p5;
	const char *dq, *dkv;
	struct pynum pairs, b;
	long nt;
	int bq, bk;

	if (bwd)
		return M_UNDEF;
	if (arg_shape(a, r, 0, &q) < 0 || arg_shape(a, r, 2, &p2) < 0 ||
	    arg_shape(a, r, 5, &p5) < 0 || (nt = arg_len(a, r, FD_TYPES)) < 0 ||
	    arg_str(a, r, FD_TYPES, 0, &dq) < 0)
		return M_FAIL;
	if (q.n < 3 || p2.n < 1 || p5.n < 1)
		return fail(r, "q or index shapes too short");
	dkv = dq;
	if (nt > 1 && arg_str(a, r, FD_TYPES, 1, &dkv) < 0)
		return M_FAIL;
	pairs = add(r, I(p2.d[0]), I(p5.d[0]));
	p_int(r, "B", 1);
	p_int(r, "N_Q", q.d[0]);
	p_int(r, "H_Q", q.d[1]);
	p_int(r, "H_V", 1);
	p_int(r, "H_K", 1);
	p_num(r, "N_KV", pairs);
	p_int(r, "H_KV", 1);
	p_int(r, "d_h_qk", q.d[2]);
	p_int(r, "d_h_v", q.d[2]);
	p_num(r, "dropout", F(0.0));
	p_bool(r, "causal", 0);
	p_bool(r, "flash_impl", 1);
	p_num(r, "prefill_pairs", pairs);
	p_str(r, "dtype_Q", dq);
	p_str(r, "dtype_KV", dkv);
	/* precision: the Q dtype, else bf16 */
	r->dtype = dq != NULL && *dq ? dq : "c10::bfloat16";
	r->flops = mul(r, mul(r, mul(r, pairs, I(q.d[1])), I(2)), add(r, I(q.d[2]), I(q.d[2])));
	bq = model_bpe(dq) ? model_bpe(dq) : 2;
	bk = dkv != NULL && *dkv && model_bpe(dkv) ? model_bpe(dkv) : bq;
	b = mul(r, mul(r, mul(r, mul(r, I(2), I(q.d[0])), I(q.d[1])), I(q.d[2])), I(bq));
	set_bytes(r, 1, add(r, b, mul(r, mul(r, pairs, I(q.d[2])), I(bk))));
	return M_OK;
}

/* ---- AITER MoE kernels (fused, and the two stages of unfused) ---- */

/* TraceLens's MoE byte sizes (exact names), or dflt; FP4 is half a byte. */
static struct pynum
moe_bpe(const char *dt, int dflt)
{
	static const struct { const char *name; int twice; } tab[] = {
		{ "Float8_e4m3fn", 2 }, { "Float8_e4m3fnuz", 2 }, { "Float8_e5m2", 2 },
		{ "Float8_e5m2fnuz", 2 }, { "FP8", 2 }, { "FP4", 1 }, { "BFloat16", 4 },
		{ "Float16", 4 }, { "Half", 4 }, { "Float32", 8 }, { "Float", 8 },
		{ "c10::BFloat16", 4 }, { "c10::Float8_e4m3fn", 2 }, { "c10::Float8_e4m3fnuz", 2 },
		{ "c10::Float4_e2m1fn_x2", 1 }, { "c10::Half", 4 }, { "c10::Float", 8 },
	};
	size_t i;

	for (i = 0; dt != NULL && i < LEN(tab); i++)
		if (strcmp(dt, tab[i].name) == 0)
			return tab[i].twice == 1 ? F(0.5) : I(tab[i].twice / 2);
	return I(dflt);
}

/* What a MoE kernel's get_param_details gives. */
struct moe {
	int64_t M, K, N, E, topk;	/* tokens, hidden, inter, experts, experts per token */
	int gated;			/* gated activation (SwiGLU): W1 holds 2N rows */
	const char *din, *dw, *dout;	/* dtypes of input, weights, output */
};

/* The experts that M tokens touch under uniform routing: E (1 - ((E - k)/E)^M). */
static struct pynum
moe_active(struct mresult *r, const struct moe *m)
{
	struct pynum q = tdiv(r, sub(r, I(m->E), I(m->topk)), I(m->E));

	return mul(r, I(m->E), sub(r, I(1), F(pow(pynum_double(q), (double)m->M))));
}

static void
moe_params(struct mresult *r, const struct moe *m, int gated, int nd)
{
	p_int(r, "num_tokens", m->M);
	p_int(r, "hidden_dim", m->K);
	p_int(r, "inter_dim", m->N);
	p_int(r, "num_experts", m->E);
	p_int(r, "topk", m->topk);
	if (gated)
		p_bool(r, "gated", m->gated);
	p_str(r, "input_dtype", m->din);
	p_str(r, "weight_dtype", m->dw);
	if (nd > 2)
		p_str(r, "output_dtype", m->dout);
}

/* A shape of exactly n dims (Python's tuple unpacking). */
static int
shape_n(const struct opargs *a, struct mresult *r, size_t k, size_t n, struct shape *s)
{
	if (arg_shape(a, r, k, s) < 0)
		return -1;
	if (s->n != n)
		return fail(r, "Input Dims[%zu] does not have %zu dims", k, n), -1;
	return 0;
}

/* kind: 0 up (gemm1 / stage 1), 1 down (gemm2 / stage 2), 2 fused */
static int
moe_metrics(struct mresult *r, const struct moe *m, int kind, struct pynum ib,
    struct pynum wb, struct pynum ob)
{
	struct pynum ea, t, g = I(m->gated ? 2 : 1);

	r->dtype = m->din != NULL && *m->din ? m->din : NULL;
	if (kind == 0)
		r->flops = mul(r, mul(r, mul(r, mul(r, mul(r, I(2), I(m->M)), I(m->K)), I(m->N)),
		    I(m->topk)), g);
	else if (kind == 1)
		r->flops = mul(r, mul(r, mul(r, mul(r, I(2), I(m->M)), I(m->N)), I(m->K)),
		    I(m->topk));
	else {
		t = mul(r, mul(r, mul(r, mul(r, mul(r, I(2), I(m->M)), I(m->K)), I(m->N)),
		    I(m->topk)), g);
		t = add(r, t, I(0));
		t = add(r, t, mul(r, mul(r, mul(r, mul(r, I(2), I(m->M)), I(m->K)), I(m->N)),
		    I(m->topk)));
		r->flops = add(r, t, mul(r, mul(r, I(m->M), I(m->K)),
		    sub(r, mul(r, I(2), I(m->topk)), I(1))));
	}
	if (m->E == 0)
		return fail(r, "no experts");
	ea = moe_active(r, m);
	if (kind == 0) {
		t = mul(r, mul(r, I(m->M), I(m->K)), ib);
		t = add(r, t, mul(r, mul(r, mul(r, mul(r, ea, g), I(m->K)), I(m->N)), wb));
		t = add(r, t, mul(r, mul(r, mul(r, I(m->M), I(m->N)), I(m->topk)), ob));
	} else if (kind == 1) {
		t = mul(r, mul(r, mul(r, I(m->M), I(m->N)), I(m->topk)), ib);
		t = add(r, t, mul(r, mul(r, mul(r, ea, I(m->N)), I(m->K)), wb));
		t = add(r, t, mul(r, mul(r, I(m->M), I(m->K)), ob));
	} else {
		t = mul(r, mul(r, I(m->M), I(m->K)), ib);
		t = add(r, t, mul(r, mul(r, mul(r, mul(r, ea, I(m->N)), I(m->K)), wb), g));
		t = add(r, t, mul(r, mul(r, mul(r, ea, I(m->N)), I(m->K)), wb));
		t = add(r, t, mul(r, mul(r, I(m->M), I(m->K)), ob));
	}
	set_bytes(r, 1, t);
	return M_OK;
}

/* aiter::moe_cktile2stages_gemm1_ck: x (M, K), w1 (E, ., .), out (., topk, N). */
static int
m_moe_cktile_up(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape x, w1, w2;
	struct moe m = { 0 };

	if (shape_n(a, r, 0, 2, &x) < 0 || shape_n(a, r, 1, 3, &w1) < 0 ||
	    shape_n(a, r, 2, 3, &w2) < 0 || arg_str(a, r, FD_TYPES, 0, &m.din) < 0 ||
	    arg_str(a, r, FD_TYPES, 1, &m.dw) < 0 || arg_str(a, r, FD_TYPES, 2, &m.dout) < 0)
		return M_FAIL;
	m.M = x.d[0], m.K = x.d[1], m.E = w1.d[0], m.topk = w2.d[1], m.N = w2.d[2];
	m.gated = w1.d[1] == 2 * m.N;
	moe_params(r, &m, 1, 3);
	if (bwd)
		return M_UNDEF;
	return moe_metrics(r, &m, 0, moe_bpe(m.din, 2), moe_bpe(m.dw, 1), moe_bpe(m.dout, 2));
}

/* aiter::moe_cktile2stages_gemm2_ck: x (M, topk, N), w (E, K, .). */
static int
m_moe_cktile_down(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape x, w1;
	struct moe m = { 0 };

	if (shape_n(a, r, 0, 3, &x) < 0 || shape_n(a, r, 1, 3, &w1) < 0 ||
	    arg_str(a, r, FD_TYPES, 0, &m.din) < 0 || arg_str(a, r, FD_TYPES, 1, &m.dw) < 0 ||
	    arg_str(a, r, FD_TYPES, 2, &m.dout) < 0)
		return M_FAIL;
	m.M = x.d[0], m.topk = x.d[1], m.N = x.d[2], m.E = w1.d[0], m.K = w1.d[1];
	moe_params(r, &m, 0, 3);
	if (bwd)
		return M_UNDEF;
	return moe_metrics(r, &m, 1, moe_bpe(m.din, 2), moe_bpe(m.dw, 1), moe_bpe(m.dout, 2));
}

/*
 * aiter::ck_moe_stage1: x (M, .), w1, w2 (E, K, N), out at Input Dims[6]
 * (., topk, ...); N scaled by K // w1[-1] (packed INT4 weights).
 */
static int
m_moe_ck_stage1(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape x, w1, w2, o;
	struct moe m = { 0 };
	struct pynum ib;

	if (arg_shape(a, r, 0, &x) < 0 || arg_shape(a, r, 1, &w1) < 0 ||
	    shape_n(a, r, 2, 3, &w2) < 0 || arg_shape(a, r, 6, &o) < 0)
		return M_FAIL;
	if (x.n < 1 || w1.n < 2 || o.n < 2)
		return fail(r, "input, w1 or out too short");
	m.M = x.d[0], m.E = w2.d[0], m.K = w2.d[1];
	m.N = mul(r, I(w2.d[2]), fdiv(r, I(m.K), I(w1.d[w1.n - 1]))).i;
	m.topk = o.d[1];
	m.gated = w1.d[1] == 2 * m.N;
	if (arg_str(a, r, FD_TYPES, 0, &m.din) < 0 || arg_str(a, r, FD_TYPES, 1, &m.dw) < 0)
		return M_FAIL;
	moe_params(r, &m, 1, 2);
	if (bwd)
		return M_UNDEF;
	ib = moe_bpe(m.din, 2);
	return moe_metrics(r, &m, 0, ib, moe_bpe(m.dw, 1), ib);
}

/* aiter::ck_moe_stage2: x (M, topk, N), w1, w2 (E, K, .); weights dtype Input type[2]. */
static int
m_moe_ck_stage2(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape x, w1, w2;
	struct moe m = { 0 };
	struct pynum ib;

	if (shape_n(a, r, 0, 3, &x) < 0 || arg_shape(a, r, 1, &w1) < 0 ||
	    shape_n(a, r, 2, 3, &w2) < 0)
		return M_FAIL;
	m.M = x.d[0], m.topk = x.d[1], m.E = w2.d[0], m.K = w2.d[1];
	m.N = w1.n > 0 ? mul(r, I(x.d[2]), fdiv(r, I(m.K), I(w1.d[w1.n - 1]))).i : x.d[2];
	if (arg_str(a, r, FD_TYPES, 0, &m.din) < 0 || arg_str(a, r, FD_TYPES, 2, &m.dw) < 0)
		return M_FAIL;
	moe_params(r, &m, 0, 2);
	if (bwd)
		return M_UNDEF;
	ib = moe_bpe(m.din, 2);
	return moe_metrics(r, &m, 1, ib, moe_bpe(m.dw, 1), ib);
}

/*
 * aiter::fmoe_fp8_blockscale_g1u1, aiter::fmoe_g1u1: out (M, K) at [0],
 * w1 (E, ., K') at [2], w2 (E, K, N) at [3]; topk Concrete Inputs[8];
 * dtypes out, input, weights at Input type 0..2; precision "fp8" for a
 * dtype named fp8 or bf16.
 */
static int
m_moe_fused_blockscale(const struct opargs *a, struct mresult *r, int bwd)
{
	struct shape o, w1, w2;
	struct moe m = { 0 };
	const struct jval *ci, *t;
	const char *s;

	if (arg_shape(a, r, 0, &o) < 0 || shape_n(a, r, 2, 3, &w1) < 0 ||
	    shape_n(a, r, 3, 3, &w2) < 0)
		return M_FAIL;
	if (o.n < 1)
		return fail(r, "out shape is empty");
	m.M = o.d[0], m.K = w2.d[1], m.E = w1.d[0];
	m.N = mul(r, I(w2.d[2]), fdiv(r, I(m.K), I(w1.d[2]))).i;
	m.gated = w1.d[1] == 2 * m.N;
	if (a->bad_concrete)
		return fail(r, "malformed Concrete Inputs");
	ci = a->has_concrete ? jdoc_root(&a->concrete) : NULL;
	if (ci == NULL || ci->t != J_ARR || ci->n <= 8 ||
	    ((s = jstr(&a->concrete, jarr_at(&a->concrete, ci, 8))) != NULL && *s == '\0'))
		return fail(r, "no topk at Concrete Inputs[8]");
	if (arg_int(a, r, 8, &m.topk) < 0)
		return M_FAIL;
	t = a->has_types ? jdoc_root(&a->types) : NULL;
	if (t == NULL || a->bad_types)
		return fail(r, "no Input type");
	if (arg_str(a, r, FD_TYPES, 0, &m.dout) < 0 || arg_str(a, r, FD_TYPES, 1, &m.din) < 0 ||
	    arg_str(a, r, FD_TYPES, 2, &m.dw) < 0)
		return M_FAIL;
	moe_params(r, &m, 1, 3);
	if (bwd)
		return M_UNDEF;
	if (moe_metrics(r, &m, 2, moe_bpe(m.din, 1), moe_bpe(m.dw, 1),
	    moe_bpe(m.dout, 2)) != M_OK)
		return M_FAIL;
	if (r->dtype != NULL && (strcmp(r->dtype, "fp8") == 0 || strcmp(r->dtype, "bf16") == 0))
		snprintf(r->prec, sizeof(r->prec), "fp8");
	return M_OK;
}

/* ---- inference attention (vLLM, SGLang, ATOM; TraceLens's InferenceAttention) ---- */

/*
 * The sq/sk aggregates of an iteration: context (c_) and generation
 * (g_) token counts, and the sums of sq*sq and sq*sk over requests.
 */
struct chunks {
	int64_t c_sq, c_sk, c_sqsq, c_sqsk;	/* context (prefill) requests */
	int64_t g_sq, g_sk, g_sqsq, g_sqsk;	/* generation (decode) requests */
};

static int
isword(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '_';
}

static int
isdig(int c)
{
	return c >= '0' && c <= '9';
}

/* Match literal lit at *p; advance. */
static int
lit(const char **p, const char *l)
{
	size_t n = strlen(l);

	if (strncmp(*p, l, n) != 0)
		return 0;
	*p += n;
	return 1;
}

/* Match \d+ at *p into *v (ovf on overflow); advance. */
static int
digits(const char **p, int64_t *v, int *ovf)
{
	uint64_t u = 0;
	const char *s = *p;

	if (!isdig(*s))
		return 0;
	for (; isdig(*s); s++) {
		if (u > ((uint64_t)INT64_MAX - 9) / 10)
			*ovf = 1;
		u = u * 10 + (*s - '0');
	}
	*v = (int64_t)(u & INT64_MAX);
	*p = s;
	return 1;
}

/*
 * vLLM's detailed iteration name, matched at the start:
 * execute_N_context_N(sqNskNsqsqNsqskN)_generation_N(sqNskNsqsqNsqskN)
 */
static int
ann_vllm(const char *s, struct chunks *c, int *ovf)
{
	int64_t x;

	return lit(&s, "execute_") && digits(&s, &x, ovf) && lit(&s, "_context_") &&
	    digits(&s, &x, ovf) && lit(&s, "(sq") && digits(&s, &c->c_sq, ovf) &&
	    lit(&s, "sk") && digits(&s, &c->c_sk, ovf) && lit(&s, "sqsq") &&
	    digits(&s, &c->c_sqsq, ovf) && lit(&s, "sqsk") &&
	    digits(&s, &c->c_sqsk, ovf) && lit(&s, ")_generation_") &&
	    digits(&s, &x, ovf) && lit(&s, "(sq") && digits(&s, &c->g_sq, ovf) &&
	    lit(&s, "sk") && digits(&s, &c->g_sk, ovf) && lit(&s, "sqsq") &&
	    digits(&s, &c->g_sqsq, ovf) && lit(&s, "sqsk") &&
	    digits(&s, &c->g_sqsk, ovf) && lit(&s, ")");
}

/*
 * The key=value pairs of b[0..e), as re.findall(KEY=VALUE) finds them
 * (later keys win): key a \w run right before '='; the value \d+
 * (atom 0) or, for ATOM, a [...] list (optionally ...+N) or \S+.
 * Calls want() for the keys asked for; returns nothing.
 */
struct kv {
	const char *k[8];	/* keys wanted */
	int64_t *v[8];		/* where their int() goes (0 when not an int) */
	int seen[8];		/* key found */
	size_t n;		/* keys */
};

static void
kv_scan(const char *b, const char *e, int atom, struct kv *kv, int *ovf)
{
	const char *p = b, *q, *v, *ve;
	size_t i, kl;
	int64_t x;

	while (p < e) {
		if (!isword(*p)) {
			p++;
			continue;
		}
		for (q = p; q < e && isword(*q); q++)
			;
		if (q + 1 >= e || *q != '=') {
			p = q;
			continue;
		}
		v = q + 1;
		if (!atom) {
			if (!isdig(*v)) {
				p = q;
				continue;
			}
			for (ve = v; ve < e && isdig(*ve); ve++)
				;
		} else {
			ve = NULL;
			if (*v == '[') {
				const char *r = memchr(v, ']', e - v);

				if (r != NULL) {
					ve = r + 1;
					if (e - ve >= 5 && strncmp(ve, "...+", 4) == 0 &&
					    isdig(ve[4]))
						for (ve += 4; ve < e && isdig(*ve); ve++)
							;
				}
			}
			if (ve == NULL) {
				if (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r' ||
				    *v == '\f' || *v == '\v') {
					p = q;
					continue;
				}
				for (ve = v; ve < e && !(*ve == ' ' || *ve == '\t' ||
				    *ve == '\n' || *ve == '\r' || *ve == '\f' || *ve == '\v'); ve++)
					;
			}
		}
		kl = q - p;
		for (i = 0; i < kv->n; i++)
			if (strlen(kv->k[i]) == kl && strncmp(kv->k[i], p, kl) == 0) {
				char tmp[64];
				size_t vl = ve - v;

				kv->seen[i] = 1;
				*kv->v[i] = 0;
				if (vl < sizeof(tmp)) {
					memcpy(tmp, v, vl);
					tmp[vl] = '\0';
					if (shape_pyint(tmp, &x) == 0)
						*kv->v[i] = x;
					else if (bigint(tmp))
						*ovf = 1;
				} else {
					const char *d = v;

					while (d < ve && isdig(*d))
						d++;
					if (d == ve)
						*ovf = 1;	/* 64 digits */
				}
			}
		p = ve;
	}
}

/*
 * SGLang's detailed step name, matched at the start:
 * step[(EXTEND|DECODE|MIXED)\b ... sqsq=N ...]; the aggregates are the
 * c_/g_ keys between the first '[' and the last ']'.
 */
static int
ann_sglang(const char *s, struct chunks *c, int *ovf)
{
	const char *p = s, *r, *b, *e, *m;
	struct kv kv = { { "c_sq", "c_sk", "c_sqsq", "c_sqsk", "g_sq", "g_sk",
	    "g_sqsq", "g_sqsk" }, { &c->c_sq, &c->c_sk, &c->c_sqsq, &c->c_sqsk,
	    &c->g_sq, &c->g_sk, &c->g_sqsq, &c->g_sqsk }, { 0 }, 8 };

	if (!lit(&p, "step[") || !(lit(&p, "EXTEND") || lit(&p, "DECODE") ||
	    lit(&p, "MIXED")) || *p == '\0' || isword(*p))
		return 0;
	if ((r = strchr(p, ']')) == NULL)
		return 0;
	for (m = p; (m = strstr(m, "sqsq=")) != NULL && m < r; m++)
		if (m + 5 < r && isdig(m[5]))
			break;
	if (m == NULL || m >= r)
		return 0;
	b = strchr(s, '[') + 1;
	e = strrchr(s, ']');
	kv_scan(b, e, 0, &kv, ovf);
	return 1;
}

/*
 * ATOM's name: (prefill|decode)[...] on its first line, with sqsq= and
 * sqsk= keys; tok, sk, sqsq, sqsk give the prefill (c_) or decode (g_)
 * aggregates.
 */
static int
ann_atom(const char *s, struct chunks *c, int *ovf)
{
	const char *p = s, *nl, *e;
	int64_t tok = 0, sk = 0, sqsq = 0, sqsk = 0;
	int pre;
	struct kv kv = { { "tok", "sk", "sqsq", "sqsk" }, { &tok, &sk, &sqsq, &sqsk },
	    { 0 }, 4 };

	if ((pre = lit(&p, "prefill[")) == 0 && !lit(&p, "decode["))
		return 0;
	nl = strchr(p, '\n');
	if (nl == NULL)
		nl = p + strlen(p);
	for (e = nl; e > p && e[-1] != ']'; e--)
		;
	if (e == p)
		return 0;
	kv_scan(p, e - 1, 1, &kv, ovf);
	if (!kv.seen[2] || !kv.seen[3])
		return 0;
	if (pre) {
		c->c_sq = tok, c->c_sk = sk, c->c_sqsq = sqsq, c->c_sqsk = sqsk;
	} else {
		c->g_sq = tok, c->g_sk = sk, c->g_sqsq = sqsq, c->g_sqsk = sqsk;
	}
	return 1;
}

/*
 * TraceLens's IterationAnnotation(...).chunk_stats(): 0 and *c filled
 * for a detailed vLLM, SGLang or ATOM iteration name; -1 for any other
 * (native names carry no sq/sk sums; "NA" when the op is under none).
 */
static int
ann_chunks(const char *ann, struct chunks *c, int *ovf)
{
	memset(c, 0, sizeof(*c));
	if (ann == NULL)
		return -1;
	if (ann_vllm(ann, c, ovf))
		return 0;
	memset(c, 0, sizeof(*c));
	if (ann_sglang(ann, c, ovf))
		return 0;
	memset(c, 0, sizeof(*c));
	if (ann_atom(ann, c, ovf))
		return 0;
	return -1;
}

/*
 * vllm::unified_attention_with_output: q (N_Q, H_Q, d) and k (..., N_KV,
 * H_KV, d) with the sq/sk sums of the iteration the op runs in (its
 * annotation column: the name of the user_annotation around it).
 * FLOPs: context QK^T and PV over sum(sq*sk) minus half the causal
 * sum(sq*sq), plus generation over sum(sq*sk); bytes: Q, O and the new
 * K, V in the Q dtype, the cached K, V in the KV dtype.
 */
static int
m_inference_attention(const struct opargs *a, struct mresult *r, int bwd)
{
	struct chunks c;
	struct shape q, k;
	const char *dq = NULL, *dkv;
	int64_t NQ, HQ, dqk, NKV, HKV, dv, x;
	struct pynum f, t, cq, ckv, gq, gkv;
	long nt;
	int ovf = 0, bpe, bkv;

	if (bwd)
		return M_UNDEF;
	/* TraceLens turns every parse error into "no perf": flops() is None */
	if (ann_chunks(a->annotation, &c, &ovf) < 0)
		return fail(r, "no sq/sk iteration annotation");
	if (arg_shape(a, r, 0, &q) < 0 || arg_shape(a, r, 1, &k) < 0 ||
	    (nt = arg_len(a, r, FD_TYPES)) < 0 || arg_str(a, r, FD_TYPES, 0, &dq) < 0)
		return M_FAIL;
	if (q.n != 3 || k.n < 3)
		return fail(r, "q is not (N, H, d) or k has fewer than 3 dims");
	NQ = q.d[0], HQ = q.d[1], dqk = q.d[2];
	NKV = k.d[k.n - 3], HKV = k.d[k.n - 2], dv = k.d[k.n - 1];
	dkv = dq;
	if (nt > 1 && arg_str(a, r, FD_TYPES, 1, &dkv) < 0)
		return M_FAIL;
	if (ovf)
		r->ovf = 1;
	p_int(r, "B", 1);
	p_int(r, "N_Q", NQ);
	p_int(r, "H_Q", HQ);
	p_int(r, "H_V", HKV);
	p_int(r, "H_K", HKV);
	p_int(r, "N_KV", NKV);
	p_int(r, "H_KV", HKV);
	p_int(r, "d_h_qk", dqk);
	p_int(r, "d_h_v", dv);
	p_num(r, "dropout", F(0.0));
	p_bool(r, "causal", 0);
	p_bool(r, "flash_impl", 1);
	p_int(r, "c_sq", c.c_sq);
	p_int(r, "c_sk", c.c_sk);
	p_int(r, "c_sqsq", c.c_sqsq);
	p_int(r, "c_sqsk", c.c_sqsk);
	p_int(r, "g_sq", c.g_sq);
	p_int(r, "g_sk", c.g_sk);
	p_int(r, "g_sqsq", c.g_sqsq);
	p_int(r, "g_sqsk", c.g_sqsk);
	p_str(r, "dtype_Q", dq);
	p_str(r, "dtype_KV", dkv);
	if (c.c_sq == 0 && c.g_sq == 0)
		return M_UNDEF;	/* decode without annotations: NotImplementedError */
	r->dtype = dq != NULL && *dq ? dq : NULL;
	/* H_Q*(2*s*d): s = sum(sq*sk) for context and generation, less sum(sq*sq) causal */
	f = mul(r, I(HQ), mul(r, mul(r, I(2), I(c.c_sqsk)), I(dqk)));
	t = mul(r, I(HQ), mul(r, mul(r, I(2), I(c.c_sqsk)), I(dv)));
	f = sub(r, f, mul(r, I(HQ), mul(r, mul(r, I(1), I(c.c_sqsq)), I(dqk))));
	t = sub(r, t, mul(r, I(HQ), mul(r, mul(r, I(1), I(c.c_sqsq)), I(dv))));
	f = add(r, f, t);
	f = add(r, f, mul(r, I(HQ), mul(r, mul(r, I(2), I(c.g_sqsk)), I(dqk))));
	r->flops = add(r, f, mul(r, I(HQ), mul(r, mul(r, I(2), I(c.g_sqsk)), I(dv))));
	bpe = model_bpe(dq);
	if (bpe == 0)
		bpe = 2;	/* "name2bpe(dtype_Q) or 2" */
	bkv = dkv != NULL && *dkv ? model_bpe(dkv) : 0;
	if (bkv == 0)
		bkv = bpe;
#define Q4(s, h) add(r, add(r, add(r, mul(r, mul(r, I(s), I(HQ)), I(dqk)), \
	mul(r, mul(r, I(s), I(HQ)), I(dv))), mul(r, mul(r, I(s), I(h)), I(dqk))), \
	mul(r, mul(r, I(s), I(h)), I(dv)))
	cq = Q4(c.c_sq, HKV);
	gq = Q4(c.g_sq, HKV);
#undef Q4
	x = sub(r, I(c.c_sk), I(c.c_sq)).i;
	ckv = add(r, mul(r, mul(r, I(x), I(HKV)), I(dqk)), mul(r, mul(r, I(x), I(HKV)), I(dv)));
	x = sub(r, I(c.g_sk), I(c.g_sq)).i;
	gkv = add(r, mul(r, mul(r, I(x), I(HKV)), I(dqk)), mul(r, mul(r, I(x), I(HKV)), I(dv)));
	set_bytes(r, 1, add(r, mul(r, add(r, cq, gq), I(bpe)), mul(r, add(r, ckv, gkv), I(bkv))));
	return M_OK;
}

/*
 * The other inference-attention ops read the same annotation, which
 * TraceLens's perf report attaches to vllm::unified_attention_with_output
 * only: for them it is always missing, and they are never modelled.
 */
static int
m_infattn_unannotated(const struct opargs *a, struct mresult *r, int bwd)
{
	(void)a;
	if (bwd)
		return M_UNDEF;
	return fail(r, "no iteration annotation (TraceLens annotates only "
	    "vllm::unified_attention_with_output)");
}

/* vllm::gdn_attention_core raises NotImplementedError without an annotation. */
static int
m_gdn_attention(const struct opargs *a, struct mresult *r, int bwd)
{
	(void)a;
	(void)r;
	(void)bwd;
	return M_UNDEF;
}

/*
 * TraceLens models that tl has no formula for yet: the op still counts
 * as modelled (so unified_perf_summary collects it as TraceLens does),
 * but its metrics stay empty with a counted warning.
 */
static int
m_unported(const struct opargs *a, struct mresult *r, int bwd)
{
	(void)a;
	(void)bwd;
	return fail(r, "no tl formula for this TraceLens model yet");
}

/* ---- Triton kernels compiled by Inductor (TritonCompiledPerfModel) ---- */

/*
 * FLOPs per element of the ATen ops Inductor names in a fused kernel;
 * ops not listed (views, copies, comparisons other than these) count 0.
 */
static const struct { const char *op; int f; } triton_fpe[] = {
	{ "add", 1 }, { "sub", 1 }, { "mul", 1 }, { "div", 1 }, { "pow", 2 },
	{ "sqrt", 2 }, { "rsqrt", 2 }, { "exp", 4 }, { "log", 4 }, { "sigmoid", 4 },
	{ "tanh", 4 }, { "relu", 1 }, { "silu", 4 }, { "gelu", 8 }, { "mean", 1 },
	{ "sum", 1 }, { "var", 2 }, { "abs", 1 }, { "neg", 1 }, { "reciprocal", 2 },
	{ "ne", 1 }, { "eq", 1 }, { "lt", 1 }, { "gt", 1 },
};

/* Sizes of the c10 dtypes TraceLens knows for Triton tensor args (exact case). */
static int
triton_bpe(const char *dt)
{
	static const struct { const char *name; int bpe; } tab[] = {
		{ "c10::BFloat16", 2 }, { "c10::Half", 2 }, { "c10::Float", 4 },
		{ "c10::Double", 8 }, { "c10::Byte", 1 }, { "c10::Char", 1 },
		{ "c10::Int", 4 }, { "c10::Long", 8 },
	};
	size_t i;

	for (i = 0; dt != NULL && i < LEN(tab); i++)
		if (strcmp(dt, tab[i].name) == 0)
			return tab[i].bpe;
	return 0;
}

/* What TraceLens reads from the args of a triton_* op (its "V2" metadata). */
struct triton {
	int64_t xnumel, rnumel;	/* the last scalar args: grid sizes */
	int64_t sum;		/* sum of prod(shape) * bpe over the tensor args */
	int64_t bpe0;		/* bpe of the first tensor arg */
	int ntensor;		/* tensor args (those with a shape) */
	int pointwise;		/* triton_poi_: output written once more */
};

/*
 * TraceLens's _meta_from_trace_args: 1 and *t filled, 0 when the op
 * carries no Inductor metadata (TraceLens: None, not modelled), -1 with
 * r->why set when the args are malformed.  r->prec gets the precision.
 */
static int
triton_meta(const struct opargs *a, struct mresult *r, struct triton *t)
{
	const struct jval *ci, *dims, *types, *v, *dt;
	const char *s;
	struct shape sh;
	int64_t x, sc[2] = { 0, 0 }, p, nb;
	size_t i, n, nsc = 0;
	int red, bpe;

	memset(t, 0, sizeof(*t));
	r->prec[0] = '\0';
	/* a field that is not JSON: flag the op rather than drop it silently */
	if (a->bad_concrete || a->bad_dims || a->bad_types)
		return fail(r, "malformed %s", a->bad_dims ? "Input Dims" :
		    a->bad_types ? "Input type" : "Concrete Inputs"), -1;
	/* "if not concrete or not input_dims or not input_type: return None" */
	if (!a->has_concrete || !a->has_dims || !a->has_types)
		return 0;
	ci = jdoc_root(&a->concrete);
	dims = jdoc_root(&a->dims);
	types = jdoc_root(&a->types);
	if (ci->t != J_ARR || dims->t != J_ARR || types->t != J_ARR ||
	    ci->n == 0 || dims->n == 0 || types->n == 0)
		return 0;
	red = strncmp(a->name, "triton_red_", 11) == 0 ||
	    strncmp(a->name, "triton_per_", 11) == 0;
	t->pointwise = strncmp(a->name, "triton_poi_", 11) == 0;
	/* the scalars: every Concrete Input that int() takes */
	for (i = 0; i < ci->n; i++) {
		v = jarr_at(&a->concrete, ci, i);
		switch (v->t) {
		case J_STR:
			s = jstr(&a->concrete, v);
			if (*s == '\0')
				continue;
			if (shape_pyint(s, &x) < 0) {
				if (!bigint(s))
					continue;
				r->ovf = 1;	/* Python's int has no limit: a scalar */
				x = 0;
			}
			break;
		case J_INT: case J_BOOL:
			x = v->i;
			break;
		case J_FLOAT:
			if (!(fabs(v->d) < 9.2e18))
				continue;
			x = (int64_t)v->d;
			break;
		default:
			continue;
		}
		sc[0] = sc[1];
		sc[1] = x;
		nsc++;
	}
	if (red && nsc >= 2) {
		t->xnumel = sc[0];
		t->rnumel = sc[1];
	} else if (nsc > 0) {
		t->xnumel = sc[1];
		t->rnumel = 1;
	} else
		return 0;
	/* the tensors: zip(Input Dims, Input type), scalars and empty shapes skipped */
	n = MIN(dims->n, types->n);
	for (i = 0; i < n; i++) {
		v = jarr_at(&a->dims, dims, i);
		dt = jarr_at(&a->types, types, i);
		s = jstr(&a->types, dt);
		if ((s != NULL && strcmp(s, "Scalar") == 0) || !dims_truthy(a, i))
			continue;
		if (v->t != J_ARR || shape_get(&a->dims, v, &sh) < 0)
			return fail(r, "Input Dims[%zu] is not a shape", i), -1;
		bpe = triton_bpe(s);
		if (t->ntensor++ == 0)
			t->bpe0 = bpe;
		p = prod(r, &sh);
		if (__builtin_mul_overflow(p, (int64_t)bpe, &nb) ||
		    __builtin_add_overflow(t->sum, nb, &t->sum))
			r->ovf = 1;
		/* the precision: the first sized dtype, "c10::BFloat16" -> "bfloat16" */
		if (r->prec[0] == '\0' && bpe > 0) {
			const char *c = strrchr(s, ':');
			size_t k;

			c = c ? c + 1 : s;
			for (k = 0; c[k] && k + 1 < sizeof(r->prec); k++)
				r->prec[k] = c[k] >= 'A' && c[k] <= 'Z' ? c[k] - 'A' + 'a' : c[k];
			r->prec[k] = '\0';
		}
	}
	return 1;
}

static int
triton_can(const struct opargs *a)
{
	struct mresult r;

	memset(&r, 0, sizeof(r));
	return triton_meta(a, &r, &(struct triton){ 0 }) != 0;
}

/*
 * The fused ATen ops of an Inductor kernel name, as TraceLens segments
 * triton_(poi|red|per)_fused_<ops>_<n>: <ops> split on '_' into the
 * known operator names, every piece the longest name that ends there
 * (so "_unsafe_view_mul_silu" -> _unsafe_view, mul, silu).  Writes
 * "aten._unsafe_view, aten.mul, aten.silu" to b (nothing when the name
 * does not split) and adds the ops' FLOPs per element to *fpe.
 */
static void
triton_ops(const char *name, struct buf *b, int64_t *fpe)
{
	enum { MAXTOK = 256 };
	size_t start[MAXTOK + 1], bestj[MAXTOK + 1], end, i, j, n, k, len;
	size_t at[MAXTOK], nops = 0;
	unsigned char ok[MAXTOK + 1];
	const char *body, *u;

	*fpe = 0;
	if (strncmp(name, "triton_", 7) != 0 || (strncmp(name + 7, "poi", 3) != 0 &&
	    strncmp(name + 7, "red", 3) != 0 && strncmp(name + 7, "per", 3) != 0) ||
	    strncmp(name + 10, "_fused_", 7) != 0)
		return;
	body = name + 17;
	end = strlen(body);
	if (end > 0 && body[end - 1] == '\n')	/* Python's $ before a last newline */
		end--;
	if (memchr(body, '\n', end) != NULL)
		return;
	/* (.+)_(\d+)$: the last '_' starts the digits */
	for (u = NULL, i = 0; i < end; i++)
		if (body[i] == '_')
			u = body + i;
	if (u == NULL || u == body || u + 1 == body + end)
		return;
	for (i = u + 1 - body; i < end; i++)
		if (body[i] < '0' || body[i] > '9')
			return;
	len = u - body;
	/* the tokens and their start offsets */
	n = 0;
	start[n++] = 0;
	for (i = 0; i < len; i++)
		if (body[i] == '_') {
			if (n == MAXTOK)
				return;
			start[n++] = i + 1;
		}
	start[n] = len + 1;	/* one past the (virtual) separator after the last token */
	/* ok[i]: tokens[0:i] split; bestj[i]: the start of the longest piece ending at i */
	memset(ok, 0, sizeof(ok));
	ok[0] = 1;
	for (i = 1; i <= n; i++)
		for (j = 0; j < i && !ok[i]; j++)
			if (ok[j] && aten_known(body + start[j], start[i] - 1 - start[j])) {
				ok[i] = 1;
				bestj[i] = j;
			}
	if (!ok[n])
		return;
	for (i = n; i > 0; i = bestj[i])
		at[nops++] = i;
	while (nops-- > 0) {
		i = at[nops];
		j = bestj[i];
		k = start[i] - 1 - start[j];
		if (b->len > 0)
			buf_adds(b, ", ");
		buf_adds(b, "aten.");
		buf_add(b, body + start[j], k);
		for (j = 0; j < LEN(triton_fpe); j++)
			if (strlen(triton_fpe[j].op) == k &&
			    memcmp(triton_fpe[j].op, b->s + b->len - k, k) == 0)
				*fpe += triton_fpe[j].f;
	}
}

/*
 * triton_poi_*, triton_red_*, triton_per_*: FLOPs = (FLOPs per element
 * of the fused ops) * xnumel * rnumel; bytes = every tensor arg once
 * (+ the first one again, times xnumel, for a pointwise kernel).
 */
static int
m_triton(const struct opargs *a, struct mresult *r, int bwd)
{
	struct triton t;
	struct buf ops = { 0 };
	int64_t fpe, tot;
	int st;

	if ((st = triton_meta(a, r, &t)) <= 0)
		return st == 0 ? M_UNDEF : M_FAIL;
	if (bwd)
		return M_UNDEF;
	triton_ops(a->name, &ops, &fpe);
	pkey(r, "fused_ops");
	pystr(&r->params, ops.s ? ops.s : "", ops.len);
	buf_free(&ops);
	p_int(r, "xnumel", t.xnumel);
	p_int(r, "rnumel", t.rnumel);
	tot = mul(r, I(t.xnumel), I(t.rnumel)).i;
	r->flops = F((double)mul(r, I(fpe), I(tot)).i);
	r->bytes = F((double)t.sum);
	if (t.pointwise && t.ntensor > 0)
		r->bytes = add(r, r->bytes, mul(r, I(t.bpe0), I(t.xnumel)));
	r->has_bytes = 1;
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
static const struct mfamily F_RMSNORM = { "RMSNorm", "RMSNorm", NULL, "vector" };
/* GroupQuant ops in the BinaryElementwise sheet (their class's sheet_category) */
static const struct mfamily F_GQUANT_B = { "BinaryElementwise", "GroupQuant", NULL, "vector" };
static const struct mfamily F_GQUANT = { "GroupQuant", "GroupQuant", NULL, "vector" };
static const struct mfamily F_GGEMM = { "GroupedGEMM", "GroupedGEMM_fwd", "GroupedGEMM_bwd",
    "matrix" };
static const struct mfamily F_MOECOMM = { "MoE_comm", "MoE_comm_fwd", "MoE_comm_bwd", "vector" };
static const struct mfamily F_SSM = { "SSM", "SSM_fwd", NULL, "matrix" };
static const struct mfamily F_MAMBA = { "SSM", "SSM_fwd", "SSM_bwd", "matrix" };
static const struct mfamily F_ROPE = { "RoPE", "RoPE_fwd", NULL, "vector" };
static const struct mfamily F_XENT = { "CrossEntropy", "CrossEntropy_fwd", NULL, "vector" };
static const struct mfamily F_MOEFUSED = { "MoE_fused", "MoE_fused", NULL, "matrix" };
static const struct mfamily F_MOEUNF = { "MoE_unfused", "MoE_unfused", NULL, "matrix" };
static const struct mfamily F_MOEAUX = { "MoE_aux", "MoE_aux", NULL, "vector" };
static const struct mfamily F_ELT = { "elementwise", "elementwise", NULL, "vector" };
static const struct mfamily F_FROPE = { "FusedRoPE", "RoPE_fwd", NULL, "vector" };
static const struct mfamily F_COLL = { "CustomCollective", "CustomCollective", NULL, "vector" };
static const struct mfamily F_MHC = { "mHC", "mHC", NULL, "matrix" };
static const struct mfamily F_INFATTN_V = { "InferenceAttention", "InferenceAttention", NULL,
    "vector" };
static const struct mfamily F_INFATTN = { "InferenceAttention", "InferenceAttention", NULL,
    "matrix" };
/* no perf sheet: TraceLens finds Triton kernels by a name matcher, not its sheet map */
static const struct mfamily F_TRITON = { NULL, "triton", NULL, "vector" };

/* An exact-name entry: every op of that name has the model. */
#define E(op, cls, fam, fn) { op, cls, fam, fn, NULL, 0 }

static const struct model models[] = {
	/* exact names, in byte order: model_find is a binary search */
	E("ConvBiasReLU_", "ConvBiasReLU_", &F_CONV, m_conv_bias),
	E("ConvBiasReLU_Backward", "ConvBiasReLU_Backward", &F_CONV_B, m_unported),
	E("ConvBias_", "ConvBias_", &F_CONV, m_conv_bias),
	E("ConvBias_Backward", "ConvBias_Backward", &F_CONV_B, m_unported),
	E("CrossEntropyFunction", "cross_entropy_fwd", &F_XENT, m_cross_entropy),
	E("DaoAILab::_causal_conv1d_fwd_cpp", "causal_conv1d_fwd", &F_SSM, m_causal_conv1d),
	E("EvoformerAttention", "evoformer_attention", &F_SDPA, m_evoformer),
	E("FlashAttnFunc", "flash_attention", &F_SDPA, m_flash_attention),
	E("FusedRoPEFunc", "fused_rope_fwd", &F_ROPE, m_fused_rope),
	E("LigerSiLUMulFunction", "liger_silu_mul_function", &F_BINARY, m_liger_silu_mul),
	E("MambaSplitConv1dScanCombinedFn", "mamba_ssd_fwd", &F_MAMBA, m_mamba_ssd),
	E("MoECombine", "moe_combine", &F_MOECOMM, m_moe_comm),
	E("MoEDispatch", "moe_dispatch", &F_MOECOMM, m_moe_comm),
	E("_C::silu_and_mul", "aiter_silu_and_mul", &F_UNARY, m_silu_and_mul),
	E("_C_custom_ar::all_reduce", "custom_ar_all_reduce", &F_COLL, m_custom_all_reduce),
	E("_C_custom_ar::qr_all_reduce", "custom_ar_qr_all_reduce",
	    &F_COLL, m_custom_all_reduce),
	E("_LayerNormLinearBackward_wgrad_mm", "tev2_pseudo_gemm", &F_GEMM, m_tev2_gemm),
	E("_LayerNormLinearBackward_xgrad_mm", "tev2_pseudo_gemm", &F_GEMM, m_tev2_gemm),
	E("_LayerNormLinear_yfwd_mm", "tev2_pseudo_gemm", &F_GEMM, m_tev2_gemm),
	E("_LinearBackward_wgrad_mm", "tev2_pseudo_gemm", &F_GEMM, m_tev2_gemm),
	E("_LinearBackward_xgrad_mm", "tev2_pseudo_gemm", &F_GEMM, m_tev2_gemm),
	E("_Linear_yfwd_mm", "tev2_pseudo_gemm", &F_GEMM, m_tev2_gemm),
	E("aiter::_flash_attn_backward", "aiter__flash_attn_backward",
	    &F_SDPA_B, m_aiter_flash_bwd),
	E("aiter::_flash_attn_forward", "aiter__flash_attn_forward",
	    &F_SDPA, m_aiter_flash_fwd),
	E("aiter::_fuse_rmsnorm_fp4_quant", "fused_rms_mxfp4_quant",
	    &F_RMSNORM, m_rms_mxfp4_quant),
	E("aiter::_gemm_a16w16_asm", "gemm_a16w16_asm", &F_GEMM, m_gemm_a16w16_asm),
	E("aiter::_gemm_a4w4_asm", "aiter_gemm_a4w4", &F_GEMM, m_aiter_gemm_a4w4),
	E("aiter::_gemm_a8w8_blockscale_bpreshuffle_asm", "gemm_a8w8_blockscale",
	    &F_GEMM, m_gemm_a8w8_blockscale),
	E("aiter::_groupnorm_run", "GroupNorm", &F_NORM, m_group_norm),
	E("aiter::add_rmsnorm", "aiter_rmsnorm2d_fwd_with_add_ck",
	    &F_RMSNORM, m_aiter_rmsnorm_add),
	E("aiter::all_gather_reg", "aiter_all_gather_reg", &F_COLL, m_scatter_gather),
	E("aiter::batched_gemm_a16wfp4_", "batched_gemm_a16wfp4",
	    &F_GEMM, m_batched_gemm_a16wfp4),
	E("aiter::biased_grouped_topk_hip", "BiasedGroupedTopk", &F_MOEAUX, m_unported),
	E("aiter::ck_moe_stage1", "moe_aiter_ck_stage1", &F_MOEUNF, m_moe_ck_stage1),
	E("aiter::ck_moe_stage2", "moe_aiter_ck_stage2", &F_MOEUNF, m_moe_ck_stage2),
	E("aiter::dynamic_per_group_scaled_quant", "per_group_quant",
	    &F_GQUANT_B, m_per_group_quant),
	E("aiter::dynamic_per_group_scaled_quant_fp4",
	    "aiter_dynamic_per_group_scaled_quant_fp4", &F_GQUANT, m_group_quant_fp4),
	E("aiter::dynamic_per_tensor_quant", "per_group_quant",
	    &F_GQUANT_B, m_per_group_quant),
	E("aiter::dynamic_per_token_scaled_quant", "per_group_quant",
	    &F_GQUANT_B, m_per_group_quant),
	E("aiter::flatmm_a8w8_blockscale_asm", "gemm_a8w8_blockscale",
	    &F_GEMM, m_gemm_a8w8_blockscale),
	E("aiter::fmha_v3_fwd", "aiter__fmha_v3_fwd", &F_SDPA, m_aiter_mha_fwd),
	E("aiter::fmha_v3_varlen_fwd", "aiter_fmha_v3_varlen_fwd",
	    &F_INFATTN, m_infattn_unannotated),
	E("aiter::fmoe_fp8_blockscale_g1u1", "moe_aiter_fused_blockscale",
	    &F_MOEFUSED, m_moe_fused_blockscale),
	E("aiter::fmoe_g1u1", "moe_aiter_fused_blockscale",
	    &F_MOEFUSED, m_moe_fused_blockscale),
	E("aiter::fused_add_rmsnorm_pad_", "vllm_rocm_aiter_triton_add_rmsnorm_pad",
	    &F_RMSNORM, m_rmsnorm_add_pad),
	E("aiter::fused_allreduce_rmsnorm", "aiter_fused_allreduce_rmsnorm",
	    &F_COLL, m_allreduce_rmsnorm),
	E("aiter::fused_allreduce_rmsnorm_", "aiter_fused_allreduce_rmsnorm_",
	    &F_COLL, m_allreduce_rmsnorm_py),
	E("aiter::fused_dynamic_mx_quant_moe_sort_hip",
	    "fused_dynamic_mx_quant_moe_sort_hip", &F_GQUANT, m_mx_quant_moe_sort),
	E("aiter::fused_dynamic_mxfp4_quant_moe_sort_hip",
	    "aiter_fused_dynamic_mxfp4_quant_moe_sort_hip", &F_GQUANT, m_mxfp4_quant_moe_sort),
	E("aiter::fused_qk_rope_cat_and_cache_mla", "aiter_fused_qk_rope_cat_and_cache_mla",
	    &F_FROPE, m_qk_rope_cat_cache),
	E("aiter::fused_qk_rope_concat_and_cache_mla", "fused_qk_rope_concat_and_cache_mla",
	    &F_FROPE, m_qk_rope_concat_cache),
	E("aiter::gelu_and_mul", "aiter_gelu_and_mul", &F_UNARY, m_gelu_and_mul),
	E("aiter::gelu_tanh_and_mul", "aiter_gelu_tanh_and_mul",
	    &F_UNARY, m_gelu_tanh_and_mul),
	E("aiter::gemm_a16w16", "gemm_a16w16", &F_GEMM, m_gemm_a16w16),
	E("aiter::gemm_a16w16_atomic_", "gemm_a16w16_atomic_",
	    &F_GEMM, m_gemm_a16w16_atomic),
	E("aiter::gemm_a4w4", "aiter_gemm_a4w4", &F_GEMM, m_aiter_gemm_a4w4),
	E("aiter::gemm_a8w8_blockscale_bpreshuffle_ck", "gemm_a8w8_blockscale",
	    &F_GEMM, m_gemm_a8w8_blockscale),
	E("aiter::gemm_a8w8_blockscale_bpreshuffle_cktile", "gemm_a8w8_blockscale",
	    &F_GEMM, m_gemm_a8w8_blockscale),
	E("aiter::gemm_a8w8_blockscale_ck", "gemm_a8w8_blockscale",
	    &F_GEMM, m_gemm_a8w8_blockscale),
	E("aiter::gemm_a8w8_blockscale_cktile", "gemm_a8w8_blockscale",
	    &F_GEMM, m_gemm_a8w8_blockscale),
	E("aiter::gemm_a8w8_bpreshuffle", "gemm_a8w8_blockscale",
	    &F_GEMM, m_gemm_a8w8_blockscale),
	E("aiter::gemm_a8w8_bpreshuffle_ck", "gemm_a8w8_blockscale",
	    &F_GEMM, m_gemm_a8w8_blockscale),
	E("aiter::gemm_a8w8_ck", "gemm_a8w8_blockscale", &F_GEMM, m_gemm_a8w8_blockscale),
	E("aiter::gemm_afp4wfp4_", "gemm_afp4wfp4", &F_GEMM, m_gemm_afp4wfp4),
	E("aiter::gfx950_a8w8_blockscale_asm", "gemm_a8w8_blockscale",
	    &F_GEMM, m_gemm_a8w8_blockscale),
	E("aiter::linear_attention_with_output_base", "gdn_attention_core",
	    &F_INFATTN, m_gdn_attention),
	E("aiter::mha_batch_prefill", "aiter_mha_batch_prefill",
	    &F_INFATTN, m_infattn_unannotated),
	E("aiter::mha_bwd", "aiter__mha_bwd", &F_SDPA_B, m_aiter_mha_bwd),
	E("aiter::mha_fwd", "aiter__mha_fwd", &F_SDPA, m_aiter_mha_fwd),
	E("aiter::mha_varlen_fwd", "mha_varlen_fwd", &F_INFATTN, m_infattn_unannotated),
	E("aiter::mhc_fused_post_pre_gemm_sqrsum", "mhc_fused_post_pre_gemm_sqrsum",
	    &F_MHC, m_unported),
	E("aiter::mhc_post", "mhc_post", &F_MHC, m_unported),
	E("aiter::mhc_pre_big_fuse_rmsnorm", "mhc_pre_big_fuse_rmsnorm",
	    &F_MHC, m_unported),
	E("aiter::mhc_pre_gemm_sqrsum", "mhc_pre_gemm_sqrsum", &F_MHC, m_unported),
	E("aiter::mixed_sample_outer_exponential", "mixed_sample_outer_exponential",
	    &F_ELT, m_mixed_sample),
	E("aiter::moe_cktile2stages_gemm1_ck", "moe_aiter_unfused_up",
	    &F_MOEUNF, m_moe_cktile_up),
	E("aiter::moe_cktile2stages_gemm2_ck", "moe_aiter_unfused_down",
	    &F_MOEUNF, m_moe_cktile_down),
	E("aiter::moe_sorting_fwd", "MoeSortScatterGather", &F_MOEAUX, m_unported),
	E("aiter::mxfp4_moe_sort_hip", "MoeSortScatterGather", &F_MOEAUX, m_unported),
	E("aiter::pa_decode_gluon", "pa_decode_gluon", &F_INFATTN, m_infattn_unannotated),
	E("aiter::pa_sparse_prefill_opus_fwd", "pa_sparse_prefill_opus_fwd",
	    &F_INFATTN, m_pa_sparse_prefill),
	E("aiter::reduce_scatter", "aiter_reduce_scatter", &F_COLL, m_scatter_gather),
	E("aiter::rms_norm", "aiter_rms_norm", &F_RMSNORM, m_aiter_rms_norm),
	E("aiter::rmsnorm", "aiter_rmsnorm", &F_RMSNORM, m_aiter_rmsnorm),
	E("aiter::rmsnorm2d_fwd_ck", "aiter_rms_norm", &F_RMSNORM, m_aiter_rms_norm),
	E("aiter::rmsnorm2d_fwd_with_add_ck", "aiter_rmsnorm2d_fwd_with_add_ck",
	    &F_RMSNORM, m_aiter_rmsnorm_add),
	E("aiter::rmsnorm2d_fwd_with_dynamicquant_ck",
	    "aiter_rmsnorm2d_fwd_with_dynamicquant_ck", &F_RMSNORM, m_aiter_rmsnorm_dquant),
	E("aiter::rmsnorm_quant", "aiter_rmsnorm_quant", &F_RMSNORM, m_aiter_rmsnorm_quant),
	E("aiter::rope_cached_positions_2c_fwd_impl",
	    "aiter_rope_cached_positions_2c_fwd_impl", &F_ROPE, m_aiter_rope_2c),
	E("aiter::silu_and_mul", "aiter_silu_and_mul", &F_UNARY, m_silu_and_mul),
	E("aiter::topk_softplus", "topk_softplus", &F_MOEAUX, m_unported),
	E("aiter::wrapper_fmha_v3_bwd", "aiter__fmha_v3_backward",
	    &F_SDPA_B, m_aiter_fmha_v3_bwd_wrap),
	E("aiter::wrapper_fmha_v3_fwd", "aiter__fmha_v3_forward",
	    &F_SDPA, m_aiter_fmha_v3_fwd_wrap),
	E("aten::_fused_rms_norm", "RMSNorm", &F_NORM, m_rms_norm),
	E("aten::_fused_rms_norm_backward", "RMSNormBwd", &F_NORM_B, m_rms_norm_bwd),
	E("aten::_scaled_dot_product_cudnn_attention",
	    "aten__scaled_dot_product_cudnn_attention", &F_SDPA, m_sdpa_cudnn),
	E("aten::_scaled_dot_product_efficient_attention",
	    "aten__scaled_dot_product_efficient_attention", &F_SDPA, m_sdpa_efficient),
	E("aten::_scaled_dot_product_flash_attention",
	    "aten__scaled_dot_product_flash_attention", &F_SDPA, m_sdpa_flash),
	E("aten::_scaled_mm", "aten_scaled_mm", &F_GEMM, m_scaled_mm),
	E("aten::add", "aten_binary_elementwise", &F_BINARY, m_binary),
	E("aten::add_", "aten_binary_elementwise", &F_BINARY, m_binary),
	E("aten::addmm", "aten_addmm", &F_GEMM, m_addmm),
	E("aten::amax", "aten_reduce", &F_REDUCE, m_reduce),
	E("aten::amin", "aten_reduce", &F_REDUCE, m_reduce),
	E("aten::baddbmm", "aten_baddbmm", &F_GEMM, m_baddbmm),
	E("aten::batch_norm", "BatchNorm", &F_NORM, m_batch_norm),
	E("aten::batch_norm_backward", "BatchNormBwd", &F_NORM_B, m_batch_norm_bwd),
	E("aten::bmm", "aten_bmm", &F_GEMM, m_bmm),
	E("aten::clamp_max", "aten_unary_elementwise", &F_UNARY, m_unary),
	E("aten::clamp_max_", "aten_unary_elementwise", &F_UNARY, m_unary),
	E("aten::clamp_min", "aten_unary_elementwise", &F_UNARY, m_unary),
	E("aten::clamp_min_", "aten_unary_elementwise", &F_UNARY, m_unary),
	E("aten::convolution", "aten_conv", &F_CONV, m_conv),
	E("aten::convolution_backward", "aten_conv_bwd", &F_CONV_B, m_conv_bwd),
	E("aten::copy", "aten_unary_elementwise", &F_UNARY, m_unary),
	E("aten::copy_", "aten_unary_elementwise", &F_UNARY, m_unary),
	E("aten::cudnn_batch_norm", "BatchNorm", &F_NORM, m_batch_norm),
	E("aten::cudnn_batch_norm_backward", "BatchNormBwd", &F_NORM_B, m_batch_norm_bwd),
	E("aten::cudnn_group_norm", "GroupNorm", &F_NORM, m_group_norm),
	E("aten::cudnn_group_norm_backward", "GroupNormBwd", &F_NORM_B, m_group_norm_bwd),
	E("aten::cudnn_instance_norm", "InstanceNorm", &F_NORM, m_instance_norm),
	E("aten::cudnn_instance_norm_backward", "InstanceNormBwd",
	    &F_NORM_B, m_instance_norm_bwd),
	E("aten::cudnn_layer_norm", "LayerNorm", &F_NORM, m_layer_norm),
	E("aten::cudnn_layer_norm_backward", "LayerNormBwd", &F_NORM_B, m_layer_norm_bwd),
	E("aten::cudnn_rms_norm_backward", "RMSNormBwd", &F_NORM_B, m_rms_norm_bwd),
	E("aten::cumprod", "aten_reduce", &F_REDUCE, m_reduce),
	E("aten::cumsum", "aten_reduce", &F_REDUCE, m_reduce),
	E("aten::div", "aten_binary_elementwise", &F_BINARY, m_binary),
	E("aten::div_", "aten_binary_elementwise", &F_BINARY, m_binary),
	E("aten::group_norm", "GroupNorm", &F_NORM, m_group_norm),
	E("aten::group_norm_backward", "GroupNormBwd", &F_NORM_B, m_group_norm_bwd),
	E("aten::instance_norm", "InstanceNorm", &F_NORM, m_instance_norm),
	E("aten::instance_norm_backward", "InstanceNormBwd",
	    &F_NORM_B, m_instance_norm_bwd),
	E("aten::layer_norm", "LayerNorm", &F_NORM, m_layer_norm),
	E("aten::layer_norm_backward", "LayerNormBwd", &F_NORM_B, m_layer_norm_bwd),
	E("aten::linalg_norm", "aten_reduce", &F_REDUCE, m_reduce),
	E("aten::logsumexp", "aten_reduce", &F_REDUCE, m_reduce),
	E("aten::max", "aten_reduce", &F_REDUCE, m_reduce),
	E("aten::mean", "aten_reduce", &F_REDUCE, m_reduce),
	E("aten::min", "aten_reduce", &F_REDUCE, m_reduce),
	E("aten::miopen_batch_norm", "BatchNorm", &F_NORM, m_batch_norm),
	E("aten::miopen_batch_norm_backward", "BatchNormBwd", &F_NORM_B, m_batch_norm_bwd),
	E("aten::miopen_group_norm", "GroupNorm", &F_NORM, m_group_norm),
	E("aten::miopen_group_norm_backward", "GroupNormBwd", &F_NORM_B, m_group_norm_bwd),
	E("aten::miopen_instance_norm", "InstanceNorm", &F_NORM, m_instance_norm),
	E("aten::miopen_instance_norm_backward", "InstanceNormBwd",
	    &F_NORM_B, m_instance_norm_bwd),
	E("aten::miopen_layer_norm", "LayerNorm", &F_NORM, m_layer_norm),
	E("aten::miopen_layer_norm_backward", "LayerNormBwd", &F_NORM_B, m_layer_norm_bwd),
	E("aten::miopen_rms_norm_backward", "RMSNormBwd", &F_NORM_B, m_rms_norm_bwd),
	E("aten::mm", "aten_mm", &F_GEMM, m_mm),
	E("aten::mul", "aten_binary_elementwise", &F_BINARY, m_binary),
	E("aten::mul_", "aten_binary_elementwise", &F_BINARY, m_binary),
	E("aten::native_batch_norm", "BatchNorm", &F_NORM, m_batch_norm),
	E("aten::native_batch_norm_backward", "BatchNormBwd", &F_NORM_B, m_batch_norm_bwd),
	E("aten::native_group_norm", "GroupNorm", &F_NORM, m_group_norm),
	E("aten::native_group_norm_backward", "GroupNormBwd", &F_NORM_B, m_group_norm_bwd),
	E("aten::native_instance_norm", "InstanceNorm", &F_NORM, m_instance_norm),
	E("aten::native_instance_norm_backward", "InstanceNormBwd",
	    &F_NORM_B, m_instance_norm_bwd),
	E("aten::native_layer_norm", "LayerNorm", &F_NORM, m_layer_norm),
	E("aten::native_layer_norm_backward", "LayerNormBwd", &F_NORM_B, m_layer_norm_bwd),
	E("aten::native_rms_norm_backward", "RMSNormBwd", &F_NORM_B, m_rms_norm_bwd),
	E("aten::neg", "aten_unary_elementwise", &F_UNARY, m_unary),
	E("aten::norm", "aten_reduce", &F_REDUCE, m_reduce),
	E("aten::pow", "aten_unary_elementwise", &F_UNARY, m_unary),
	E("aten::replication_pad1d", "aten_replication_pad", &F_UNARY, m_replication_pad),
	E("aten::replication_pad2d", "aten_replication_pad", &F_UNARY, m_replication_pad),
	E("aten::replication_pad3d", "aten_replication_pad", &F_UNARY, m_replication_pad),
	E("aten::rms_norm_backward", "RMSNormBwd", &F_NORM_B, m_rms_norm_bwd),
	E("aten::rsqrt", "aten_unary_elementwise", &F_UNARY, m_unary),
	E("aten::sigmoid", "aten_unary_elementwise", &F_UNARY, m_unary),
	E("aten::sigmoid_backward", "aten_binary_elementwise", &F_BINARY, m_binary),
	E("aten::silu", "aten_unary_elementwise", &F_UNARY, m_unary),
	E("aten::std", "aten_reduce", &F_REDUCE, m_reduce),
	E("aten::sum", "aten_reduce", &F_REDUCE, m_reduce),
	E("aten::threshold_backward", "aten_binary_elementwise", &F_BINARY, m_binary),
	E("aten::upsample_nearest1d", "aten_upsample_nearest",
	    &F_UNARY, m_upsample_nearest),
	E("aten::upsample_nearest2d", "aten_upsample_nearest",
	    &F_UNARY, m_upsample_nearest),
	E("aten::upsample_nearest3d", "aten_upsample_nearest",
	    &F_UNARY, m_upsample_nearest),
	E("aten::var", "aten_reduce", &F_REDUCE, m_reduce),
	E("bitsandbytes::int8_linear_matmul", "aten_scaled_mm", &F_GEMM, m_scaled_mm),
	E("flash_attn::_flash_attn_backward", "flash_attention_backward",
	    &F_SDPA_B, m_flash_attention_backward),
	E("flash_attn::_flash_attn_forward", "flash_attention", &F_SDPA, m_flash_attention),
	E("flash_attn::_flash_attn_varlen_backward", "flash_attention_varlen_backward",
	    &F_SDPA_B, m_flash_varlen_bwd),
	E("flash_attn::_flash_attn_varlen_forward", "flash_attention_varlen_forward",
	    &F_SDPA, m_flash_varlen_fwd),
	E("flash_attn_3::fwd", "flash_attn_v3_forward", &F_SDPA, m_flash_attn_v3_fwd),
	E("primus::fused_ln_modulate", "FusedLnModulate", &F_NORM, m_ln_modulate),
	E("primus::fused_ln_modulate_backward", "FusedLnModulateBackward",
	    &F_NORM_B, m_ln_modulate_bwd),
	E("primus::quantize_mxfp4_dual", "primus_turbo_quantize_mxfp4_dual",
	    &F_UNARY, m_primus_quant_mxfp4),
	E("primus_turbo::grouped_gemm", "primus_turbo_grouped_gemm",
	    &F_GGEMM, m_grouped_gemm),
	E("primus_turbo::grouped_gemm_impl", "primus_turbo_grouped_gemm",
	    &F_GGEMM, m_grouped_gemm),
	E("primus_turbo::grouped_gemm_variable_k", "primus_turbo_grouped_gemm_variable_k",
	    &F_GGEMM, m_grouped_gemm_vk),
	E("primus_turbo::grouped_gemm_variable_k_impl",
	    "primus_turbo_grouped_gemm_variable_k", &F_GGEMM, m_grouped_gemm_vk),
	E("primus_turbo::hipblaslt_gemm_fp4", "hipblaslt_gemm_fp4",
	    &F_GEMM, m_hipblaslt_fp4),
	E("primus_turbo::hipblaslt_gemm_fp8", "hipblaslt_gemm_fp8",
	    &F_GEMM, m_hipblaslt_fp8),
	E("primus_turbo::quantize_fp8_tensorwise", "primus_turbo_quantize_fp8",
	    &F_UNARY, m_primus_quant_fp8),
	E("primus_turbo::quantize_mxfp4_dual", "primus_turbo_quantize_mxfp4_dual",
	    &F_UNARY, m_primus_quant_mxfp4),
	E("primus_turbo_cpp_extension::ck_grouped_gemm", "primus_turbo_grouped_gemm",
	    &F_GGEMM, m_grouped_gemm),
	E("primus_turbo_cpp_extension::ck_grouped_gemm_variable_k",
	    "primus_turbo_grouped_gemm_variable_k", &F_GGEMM, m_grouped_gemm_vk),
	E("primus_turbo_cpp_extension::grouped_gemm", "primus_turbo_grouped_gemm",
	    &F_GGEMM, m_grouped_gemm),
	E("primus_turbo_cpp_extension::grouped_gemm_variable_k",
	    "primus_turbo_grouped_gemm_variable_k", &F_GGEMM, m_grouped_gemm_vk),
	E("primus_turbo_cpp_extension::hipblaslt_gemm_fp4", "hipblaslt_gemm_fp4",
	    &F_GEMM, m_hipblaslt_fp4),
	E("primus_turbo_cpp_extension::hipblaslt_gemm_fp8", "hipblaslt_gemm_fp8",
	    &F_GEMM, m_hipblaslt_fp8),
	E("primus_turbo_cpp_extension::quantize_fp8_tensorwise",
	    "primus_turbo_quantize_fp8", &F_UNARY, m_primus_quant_fp8),
	E("primus_turbo_cpp_extension::quantize_mxfp4_dual",
	    "primus_turbo_quantize_mxfp4_dual", &F_UNARY, m_primus_quant_mxfp4),
	E("pseudo_mla_decode_fwd", "mla_decode_fwd", &F_INFATTN, m_unported),
	E("pseudo_mla_prefill_fwd", "pseudo_mla_prefill_fwd", &F_INFATTN, m_unported),
	E("pseudo_op::moe_aiter_fused_1stage", "moe_aiter_fused_1stage",
	    &F_MOEFUSED, m_unported),
	E("pseudo_op::moe_flydsl_stage1", "moe_flydsl_stage1", &F_MOEUNF, m_unported),
	E("pseudo_op::moe_flydsl_stage2", "moe_flydsl_stage2", &F_MOEUNF, m_unported),
	E("pseudo_op::moe_gptq_awq_down", "moe_gptq_awq_down", &F_MOEUNF, m_unported),
	E("pseudo_op::moe_gptq_awq_up", "moe_gptq_awq_up", &F_MOEUNF, m_unported),
	E("pseudo_op::moe_triton_unfused_down", "moe_triton_unfused_down",
	    &F_MOEUNF, m_unported),
	E("pseudo_op::moe_triton_unfused_up", "moe_triton_unfused_up",
	    &F_MOEUNF, m_unported),
	E("pseudo_v4_paged_decode_csa", "pseudo_v4_paged_decode_csa",
	    &F_INFATTN, m_unported),
	E("pseudo_v4_paged_decode_hca", "pseudo_v4_paged_decode_hca",
	    &F_INFATTN, m_unported),
	E("pseudo_v4_paged_decode_swa", "pseudo_v4_paged_decode_swa",
	    &F_INFATTN, m_unported),
	E("sgl_kernel::all_reduce_reg", "sgl_kernel_all_reduce_reg",
	    &F_COLL, m_custom_all_reduce),
	E("sgl_kernel::qr_all_reduce", "sgl_kernel_qr_all_reduce",
	    &F_COLL, m_custom_all_reduce),
	E("sgl_kernel::rotary_embedding", "sgl_kernel_rotary_embedding",
	    &F_ROPE, m_sgl_rotary),
	E("sgl_kernel::silu_and_mul", "sgl_kernel_silu_and_mul", &F_UNARY, m_silu_and_mul),
	E("sglang::reg_all_gather_into_tensor", "sgl_kernel_reg_all_gather_into_tensor",
	    &F_COLL, m_sgl_all_gather),
	E("sglang::store_cache", "sglang_store_cache", &F_INFATTN_V, m_sglang_store_cache),
	E("sglang_profiler::attention_paged_attention_ragged",
	    "aiter_paged_attention_ragged", &F_INFATTN, m_infattn_unannotated),
	E("sglang_profiler::batched_gemm_a8w8_a_per_token_group_prequant_w_per_batched_tens"
	    "or_quant_batched_gemm_a8w8_a_per_token_group_prequant_w_per_batched_tensor_quant",
	    "batched_gemm_a8w8", &F_GEMM, m_batched_gemm_a8w8),
	E("sglang_profiler::fp8_utils_gemm_a8w8_blockscale", "gemm_a8w8_blockscale",
	    &F_GEMM, m_gemm_a8w8_blockscale),
	E("sglang_profiler::fused_moe_triton_kernels_fused_append_shared_experts",
	    "sglang_fused_append_shared_experts", &F_MOEAUX, m_unported),
	E("sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel",
	    "moe_triton_invoke_grouped_gemm", &F_MOEUNF, m_unported),
	E("sglang_profiler::fused_mxfp4_quant_fused_flatten_mxfp4_quant",
	    "fused_flatten_mxfp4_quant", &F_GQUANT, m_flatten_mxfp4_quant),
	E("sglang_profiler::fused_mxfp4_quant_fused_rms_mxfp4_quant",
	    "fused_rms_mxfp4_quant", &F_RMSNORM, m_rms_mxfp4_quant),
	E("sglang_profiler::gemm_a8w8_blockscale_gemm_a8w8_blockscale",
	    "gemm_a8w8_blockscale", &F_GEMM, m_gemm_a8w8_blockscale),
	E("sglang_profiler::gemm_kernels_flydsl_hgemm", "gemm_a16w16_atomic_",
	    &F_GEMM, m_gemm_a16w16_atomic),
	E("sglang_profiler::quant_dynamic_mxfp4_quant", "sglang_quant_dynamic_mxfp4_quant",
	    &F_GQUANT, m_sglang_mxfp4_quant),
	E("sglang_profiler::tilelang_kernel_tilelang_sparse_fwd", "mla_tilelang_sparse_fwd",
	    &F_INFATTN, m_infattn_unannotated),
	E("tex_ts::te_gemm_ts", "tex_ts_te_gemm_ts", &F_GEMM, m_te_gemm_ts),
	E("trtllm::cublas_scaled_mm", "aten_scaled_mm", &F_GEMM, m_scaled_mm),
	E("vllm::_rocm_aiter_preshuffled_per_token_w8a8_gemm", "gemm_a8w8_blockscale",
	    &F_GEMM, m_gemm_a8w8_blockscale),
	E("vllm::gdn_attention_core", "gdn_attention_core", &F_INFATTN, m_gdn_attention),
	E("vllm::gemm_with_dynamic_quant", "vllm_gemm_with_dynamic_quant",
	    &F_GEMM, m_vllm_gemm_dq),
	E("vllm::rocm_aiter_rmsnorm_fp8_group_quant",
	    "vllm_rocm_aiter_rmsnorm_fp8_group_quant", &F_RMSNORM, m_vllm_rmsnorm_gquant),
	E("vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant",
	    "vllm_rocm_aiter_rmsnorm_with_add_fp8_group_quant", &F_RMSNORM, m_vllm_rmsnorm_add_gquant),
	E("vllm::rocm_aiter_triton_add_rmsnorm_pad",
	    "vllm_rocm_aiter_triton_add_rmsnorm_pad", &F_RMSNORM, m_rmsnorm_add_pad),
	E("vllm::rocm_aiter_triton_gemm_a8w8_blockscale", "gemm_a8w8_blockscale",
	    &F_GEMM, m_gemm_a8w8_blockscale),
	E("vllm::rocm_unquantized_gemm", "vllm_rocm_unquantized_gemm",
	    &F_GEMM, m_vllm_rocm_gemm),
	E("vllm::triton_per_token_group_quant_fp8", "vllm_triton_per_token_group_quant_fp8",
	    &F_GQUANT_B, m_vllm_group_quant_fp8),
	E("vllm::unified_attention_with_output", "vllm_unified_attention_with_output",
	    &F_INFATTN, m_inference_attention),
	/* name matchers (TraceLens's resolve_perf_model_class), tried after the exact names */
	{ "triton_poi_", "TritonCompiledPerfModel", &F_TRITON, m_triton, triton_can, 1 },
	{ "triton_red_", "TritonCompiledPerfModel", &F_TRITON, m_triton, triton_can, 1 },
	{ "triton_per_", "TritonCompiledPerfModel", &F_TRITON, m_triton, triton_can, 1 },
};

const struct model *
model_find(const char *name)
{
	size_t lo = 0, hi = LEN(models), mid, i, np;
	int c;

	/* the exact names come first, sorted; the prefixes after them */
	while (hi > 0 && models[hi - 1].prefix)
		hi--;
	np = hi;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((c = strcmp(models[mid].op, name)) == 0)
			return &models[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = np; i < LEN(models); i++)
		if (models[i].op[0] == name[0] &&
		    strncmp(models[i].op, name, strlen(models[i].op)) == 0)
			return &models[i];
	return NULL;
}

int
model_can(const struct model *m, const struct opargs *a)
{
	return m->can == NULL || m->can(a);
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
	r->prec[0] = '\0';
	r->why[0] = '\0';
	r->ovf = 0;
	st = m->fn(a, r, bwd);
	if (st == M_OK && r->ovf)
		st = fail(r, r->ovf == 2 ? "division by zero" : "integer overflow");
	if (st == M_OK)
		buf_addc(&r->params, '}');
	return st;
}
