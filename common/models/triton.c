/* See LICENSE file for copyright and license details. */
/*
 * Triton: the kernels Inductor compiles (triton_poi_*, triton_red_*,
 * triton_per_*; TraceLens's TritonCompiledPerfModel, found by a name
 * matcher): FLOPs from the fused ATen ops of the kernel name, bytes of
 * the tensor args.
 */
#include <math.h>
#include <string.h>

#include "models.h"

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

/* TraceLens's can_model: the op carries Inductor's metadata. */
int
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
int
triton(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct triton t;
	struct buf ops = { 0 };
	int64_t fpe, tot;
	int st;

	if ((st = triton_meta(a, r, &t)) <= 0)
		return st == 0 ? M_UNDEF : M_FAIL;
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
