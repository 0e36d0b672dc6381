/* See LICENSE file for copyright and license details. */
/*
 * MoE: TransformerEngine's MoE dispatch and combine (MoE_comm: bytes
 * only) and the AITER MoE kernels of TraceLens's extensions (MoE_fused,
 * MoE_unfused): the up and down GEMMs of the routed tokens, the weights
 * of the experts they touch.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "models.h"

/*
 * MoEDispatch, MoECombine: tokens (num_tokens, hidden_dim) at Input
 * Dims[0]; no FLOPs; bytes = tokens * hidden * bpe; the same backward.
 */
int
moe_comm(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	const struct jval *d, *t;
	const char *dt;
	int n, bpe, has[2] = { 0, 0 };
	int64_t v[2] = { 0, 0 };
	size_t i;

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

/*
 * The experts that M tokens touch under uniform routing: E (1 - ((E -
 * k)/E)^M), or -1 when the power overflows (Python's OverflowError:
 * topk > 2E, a large M).
 */
static int
moe_active(struct mresult *r, const struct moe *m, struct pynum *ea)
{
	struct pynum q = tdiv(r, sub(r, I(m->E), I(m->topk)), I(m->E));
	double p = pow(pynum_double(q), (double)m->M);

	if (isinf(p))
		return fail_metric(r, "OverflowError in the active experts"), -1;
	*ea = mul(r, I(m->E), sub(r, I(1), F(p)));
	return 0;
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
		return fail_metric(r, "no experts");
	if (moe_active(r, m, &ea) < 0)
		return M_FAIL;
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

/*
 * The end of the models whose output has the input's dtype: the
 * dtypes at Input type 0 (input) and wslot (weights), the params (with
 * gated when gated), the metrics of kind.
 */
static int
moe_sameout(const struct opargs *a, struct mresult *r, struct moe *mo,
    int wslot, int gated, int kind)
{
	struct pynum ib;

	if (arg_str(a, r, FD_TYPES, 0, &mo->din) < 0 ||
	    arg_str(a, r, FD_TYPES, wslot, &mo->dw) < 0)
		return M_FAIL;
	moe_params(r, mo, gated, 2);
	ib = moe_bpe(mo->din, 2);
	return moe_metrics(r, mo, kind, ib, moe_bpe(mo->dw, 1), ib);
}

/* aiter::moe_cktile2stages_gemm1_ck: x (M, K), w1 (E, ., .), out (., topk, N). */
int
moe_cktile_up(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct shape x, w1, w2;
	struct moe mo = { 0 };

	if (shape_n(a, r, 0, 2, &x) < 0 || shape_n(a, r, 1, 3, &w1) < 0 ||
	    shape_n(a, r, 2, 3, &w2) < 0 || arg_str(a, r, FD_TYPES, 0, &mo.din) < 0 ||
	    arg_str(a, r, FD_TYPES, 1, &mo.dw) < 0 || arg_str(a, r, FD_TYPES, 2, &mo.dout) < 0)
		return M_FAIL;
	mo.M = x.d[0], mo.K = x.d[1], mo.E = w1.d[0], mo.topk = w2.d[1], mo.N = w2.d[2];
	mo.gated = w1.d[1] == 2 * mo.N;
	moe_params(r, &mo, 1, 3);
	return moe_metrics(r, &mo, 0, moe_bpe(mo.din, 2), moe_bpe(mo.dw, 1),
	    moe_bpe(mo.dout, 2));
}

/* aiter::moe_cktile2stages_gemm2_ck: x (M, topk, N), w (E, K, .). */
int
moe_cktile_down(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct shape x, w1;
	struct moe mo = { 0 };

	if (shape_n(a, r, 0, 3, &x) < 0 || shape_n(a, r, 1, 3, &w1) < 0 ||
	    arg_str(a, r, FD_TYPES, 0, &mo.din) < 0 || arg_str(a, r, FD_TYPES, 1, &mo.dw) < 0 ||
	    arg_str(a, r, FD_TYPES, 2, &mo.dout) < 0)
		return M_FAIL;
	mo.M = x.d[0], mo.topk = x.d[1], mo.N = x.d[2], mo.E = w1.d[0], mo.K = w1.d[1];
	moe_params(r, &mo, 0, 3);
	return moe_metrics(r, &mo, 1, moe_bpe(mo.din, 2), moe_bpe(mo.dw, 1),
	    moe_bpe(mo.dout, 2));
}

/*
 * aiter::ck_moe_stage1: x (M, .), w1, w2 (E, K, N), out at Input Dims[6]
 * (., topk, ...); N scaled by K // w1[-1] (packed INT4 weights).
 */
int
moe_ck_stage1(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct shape x, w1, w2, o;
	struct moe mo = { 0 };

	if (arg_shape(a, r, 0, &x) < 0 || arg_shape(a, r, 1, &w1) < 0 ||
	    shape_n(a, r, 2, 3, &w2) < 0 || arg_shape(a, r, 6, &o) < 0)
		return M_FAIL;
	if (x.n < 1 || w1.n < 2 || o.n < 2)
		return fail(r, "input, w1 or out too short");
	mo.M = x.d[0], mo.E = w2.d[0], mo.K = w2.d[1];
	mo.N = mul(r, I(w2.d[2]), fdiv(r, I(mo.K), I(w1.d[w1.n - 1]))).i;
	mo.topk = o.d[1];
	mo.gated = w1.d[1] == 2 * mo.N;
	return moe_sameout(a, r, &mo, 1, 1, 0);
}

/*
 * pseudo_op::moe_flydsl_stage{1,2} and pseudo_op::moe_aiter_fused_1stage
 * (the parent aiter::fused_moe_'s args): x (M, .) at [0], w1 (E, ., K')
 * at [1], w2 (E, K, N) at [2], topk_weights (., topk) at [3]; N scaled
 * by K // K' (packed FP4/INT4 weights); every kind gives gated.  Table
 * args: kind, 0 up (stage 1), 1 down (stage 2), 2 fused; wprec, the
 * compute precision is the weights' dtype (flydsl), else the input's.
 */
int
moe_flydsl(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct shape x, w1, w2, tw;
	struct moe mo = { 0 };
	int st;

	if (arg_shape(a, r, 0, &x) < 0 || arg_shape(a, r, 1, &w1) < 0 ||
	    arg_shape(a, r, 2, &w2) < 0 || arg_shape(a, r, 3, &tw) < 0)
		return M_FAIL;
	if (x.n < 1)
		return fail(r, "Input Dims[0] is empty");
	if (w1.n != 3 || w2.n != 3)
		return fail(r, "w1 or w2 does not have 3 dims");
	mo.M = x.d[0], mo.E = w2.d[0], mo.K = w2.d[1];
	mo.N = mul(r, I(w2.d[2]), fdiv(r, I(mo.K), I(w1.d[2]))).i;
	if (r->ovf == 2)
		return fail(r, "division by zero");
	if (tw.n < 2)
		return fail(r, "Input Dims[3] has no item 1");
	mo.topk = tw.d[1];
	mo.E = w1.d[0];
	mo.gated = w1.d[1] == 2 * mo.N;
	st = moe_sameout(a, r, &mo, 1, 1, m->arg[0]);
	if (m->arg[1])
		r->dtype = mo.dw != NULL && *mo.dw ? mo.dw : NULL;
	return st;
}

/* aiter::ck_moe_stage2: x (M, topk, N), w1, w2 (E, K, .); weights dtype Input type[2]. */
int
moe_ck_stage2(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct shape x, w1, w2;
	struct moe mo = { 0 };

	if (shape_n(a, r, 0, 3, &x) < 0 || arg_shape(a, r, 1, &w1) < 0 ||
	    shape_n(a, r, 2, 3, &w2) < 0)
		return M_FAIL;
	mo.M = x.d[0], mo.topk = x.d[1], mo.E = w2.d[0], mo.K = w2.d[1];
	mo.N = w1.n > 0 ? mul(r, I(x.d[2]), fdiv(r, I(mo.K), I(w1.d[w1.n - 1]))).i : x.d[2];
	return moe_sameout(a, r, &mo, 2, 0, 1);
}

/*
 * aiter::fmoe_fp8_blockscale_g1u1, aiter::fmoe_g1u1: out (M, K) at [0],
 * w1 (E, ., K') at [2], w2 (E, K, N) at [3]; topk Concrete Inputs[8];
 * dtypes out, input, weights at Input type 0..2; precision "fp8" for a
 * dtype named fp8 or bf16.
 */
int
moe_fused_blockscale(const struct opargs *a, struct mresult *r, const struct model *m,
    int bwd)
{
	struct shape o, w1, w2;
	struct moe mo = { 0 };
	const struct jval *ci, *t;
	const char *s;

	if (arg_shape(a, r, 0, &o) < 0 || shape_n(a, r, 2, 3, &w1) < 0 ||
	    shape_n(a, r, 3, 3, &w2) < 0)
		return M_FAIL;
	if (o.n < 1)
		return fail(r, "out shape is empty");
	mo.M = o.d[0], mo.K = w2.d[1], mo.E = w1.d[0];
	mo.N = mul(r, I(w2.d[2]), fdiv(r, I(mo.K), I(w1.d[2]))).i;
	mo.gated = w1.d[1] == 2 * mo.N;
	if (a->bad_concrete)
		return fail(r, "malformed Concrete Inputs");
	ci = a->has_concrete ? jdoc_root(&a->concrete) : NULL;
	if (ci == NULL || ci->t != J_ARR || ci->n <= 8 ||
	    ((s = jstr(&a->concrete, jarr_at(&a->concrete, ci, 8))) != NULL && *s == '\0'))
		return fail(r, "no topk at Concrete Inputs[8]");
	if (arg_int(a, r, 8, &mo.topk) < 0)
		return M_FAIL;
	t = a->has_types ? jdoc_root(&a->types) : NULL;
	if (t == NULL || a->bad_types)
		return fail(r, "no Input type");
	if (arg_str(a, r, FD_TYPES, 0, &mo.dout) < 0 || arg_str(a, r, FD_TYPES, 1, &mo.din) < 0 ||
	    arg_str(a, r, FD_TYPES, 2, &mo.dw) < 0)
		return M_FAIL;
	moe_params(r, &mo, 1, 3);
	if (moe_metrics(r, &mo, 2, moe_bpe(mo.din, 1), moe_bpe(mo.dw, 1),
	    moe_bpe(mo.dout, 2)) != M_OK)
		return M_FAIL;
	if (r->dtype != NULL && (strcmp(r->dtype, "fp8") == 0 || strcmp(r->dtype, "bf16") == 0))
		snprintf(r->prec, sizeof(r->prec), "fp8");
	return M_OK;
}

/*
 * aiter::moe_sorting_fwd, aiter::mxfp4_moe_sort_hip
 * (MoeSortScatterGather) and aiter::biased_grouped_topk_hip
 * (BiasedGroupedTopk): every operand whose Input Dims entry is a
 * non-empty list of ints, with its Input type (None past the end);
 * memory-bound: 1 FLOP per element of the largest operand, bytes over
 * every operand of a known size (None when that makes 0); the dtype
 * of the largest (the first of equals, as Python's max()).  arg[0]:
 * Input Dims must exist (BiasedGroupedTopk indexes it; the other
 * class reads a missing one as []).
 */
int
moe_sort(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	const struct jval *d, *e;
	const char *dt, *big = NULL;
	struct shape sh;
	int64_t p, maxp = -1, total = 0;
	long nt = 0;
	size_t i, n = 0;
	int bpe;

	if (a->bad_dims)
		return fail(r, "malformed Input Dims");
	if (m->arg[0] && !a->has_dims)
		return fail(r, "no Input Dims");
	d = a->has_dims ? jdoc_root(&a->dims) : NULL;
	if (d != NULL && d->t != J_ARR)
		return fail(r, "Input Dims is not a list");
	if (a->has_types && (nt = arg_len(a, r, FD_TYPES)) < 0)
		return M_FAIL;
	pkey(r, "operands");
	buf_addc(&r->params, '[');
	for (i = 0; d != NULL && i < d->n; i++) {
		e = jarr_at(&a->dims, d, i);
		/* "shape and all(isinstance(d, int) for d in shape)" */
		if (e->t == J_INT || e->t == J_FLOAT || e->t == J_BOOL)
			if (e->t == J_FLOAT ? e->d != 0 : e->i != 0)
				return fail(r, "Input Dims[%zu] is not iterable", i);
		if (e->t != J_ARR || e->n == 0 || shape_get(&a->dims, e, &sh) < 0)
			continue;
		dt = NULL;
		if ((long)i < nt && arg_str(a, r, FD_TYPES, i, &dt) < 0)
			return M_FAIL;
		if (n++ > 0)
			buf_adds(&r->params, ", ");
		buf_addc(&r->params, '(');
		vshape(&r->params, &sh, 1);
		buf_adds(&r->params, ", ");
		vstr(&r->params, dt);
		buf_addc(&r->params, ')');
		p = prod(r, &sh);
		if (p > maxp) {
			maxp = p;
			big = dt;
		}
		if ((bpe = model_bpe(dt)) != 0 &&
		    (__builtin_mul_overflow(p, bpe, &p) ||
		    __builtin_add_overflow(total, p, &total)))
			r->ovf = 1;
	}
	buf_addc(&r->params, ']');
	r->flops = I(n > 0 ? maxp : 0);
	set_bytes(r, total > 0, I(total));
	r->dtype = big != NULL && *big ? big : NULL;
	return M_OK;
}

/*
 * aiter::topk_softplus: topk_weights (M, topk) at Input Dims[0], the
 * gating logits (M, E) at [2] in Input type[2] (else bf16); 6 FLOPs
 * per logit; bytes: the logits, an fp32 bias per expert, fp32 weights
 * and int32 ids written (None when the logits' dtype is unknown).
 */
int
moe_topk_softplus(const struct opargs *a, struct mresult *r, const struct model *m,
    int bwd)
{
	struct shape w, g;
	const char *dt = "c10::BFloat16";
	long nt = 0;
	int bpe;

	if (arg_shape(a, r, 2, &g) < 0)
		return M_FAIL;
	if (g.n < 2)
		return fail(r, "Input Dims[2] has fewer than 2 dims");
	if (arg_shape(a, r, 0, &w) < 0)
		return M_FAIL;
	if (w.n < 2)
		return fail(r, "Input Dims[0] has fewer than 2 dims");
	if (a->has_types && (nt = arg_len(a, r, FD_TYPES)) < 0)
		return M_FAIL;
	if (nt > 2 && arg_str(a, r, FD_TYPES, 2, &dt) < 0)
		return M_FAIL;
	p_int(r, "M", g.d[0]);
	p_int(r, "n", 1);
	p_int(r, "C", g.d[1]);
	p_int(r, "E", g.d[1]);
	p_int(r, "topk", w.d[1]);
	p_str(r, "dtype_in", dt);
	r->dtype = dt != NULL && *dt ? dt : NULL;
	r->flops = mul(r, mul(r, I(6), I(g.d[0])), I(g.d[1]));
	bpe = model_bpe(dt);
	set_bytes(r, bpe != 0, add(r, add(r, add(r,
	    mul(r, mul(r, I(g.d[0]), I(g.d[1])), I(bpe)), mul(r, I(g.d[1]), I(4))),
	    mul(r, mul(r, I(g.d[0]), I(w.d[1])), I(4))),
	    mul(r, mul(r, I(g.d[0]), I(w.d[1])), I(4))));
	return M_OK;
}

/*
 * sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel
 * (moe_triton_invoke_grouped_gemm): SGLang's Triton grouped GEMM, up or
 * down alike.  At least 9 Input Dims: weights (E, N, K) at [1],
 * topk_ids (tokens, topk) at [8]; dtypes of A [0], B [1] and C [3]
 * (else A's).  FLOPs 2 (tokens topk) N K; bytes: A gathered, the
 * weights of the experts uniform routing touches, C written, in
 * TraceLens's MoE byte sizes (2, 1 and 2 when a dtype is not there).
 */
int
moe_triton_invoke(const struct opargs *a, struct mresult *r, const struct model *m,
    int bwd)
{
	struct shape w, t;
	struct moe mo = { 0 };
	const char *din = NULL, *dw = NULL, *dout = NULL;
	struct pynum mw, ea;
	long nd, nt = 0;

	if ((nd = arg_len(a, r, FD_DIMS)) < 0)
		return M_FAIL;
	if (nd < 9)
		return fail(r, "Expected >=9 Input Dims for invoke_fused_moe_kernel, got %ld",
		    nd);
	if (arg_shape(a, r, 1, &w) < 0)
		return M_FAIL;
	if (w.n != 3)
		return fail(r, "Expected 3D weight tensor at Input Dims[1]");
	if (arg_shape(a, r, 8, &t) < 0)
		return M_FAIL;
	if (t.n != 2)
		return fail(r, "Expected 2D topk_ids at Input Dims[8]");
	if (a->has_types && (nt = arg_len(a, r, FD_TYPES)) < 0)
		return M_FAIL;
	if ((nt > 0 && arg_str(a, r, FD_TYPES, 0, &din) < 0) ||
	    (nt > 1 && arg_str(a, r, FD_TYPES, 1, &dw) < 0) ||
	    (nt > 3 && arg_str(a, r, FD_TYPES, 3, &dout) < 0))
		return M_FAIL;
	if (dout == NULL || *dout == '\0')
		dout = din;
	mo.E = w.d[0];
	mo.N = w.d[1];
	mo.K = w.d[2];
	mo.M = t.d[0];
	mo.topk = t.d[1];
	mw = mul(r, I(mo.M), I(mo.topk));
	p_num(r, "m_work", mw);
	p_int(r, "num_tokens", mo.M);
	p_int(r, "topk", mo.topk);
	p_int(r, "N", mo.N);
	p_int(r, "K", mo.K);
	p_int(r, "num_experts", mo.E);
	p_str(r, "input_dtype", din);
	p_str(r, "weight_dtype", dw);
	p_str(r, "output_dtype", dout);
	r->dtype = dw != NULL && *dw ? dw : NULL;
	r->flops = mul(r, mul(r, mul(r, I(2), mw), I(mo.N)), I(mo.K));
	ea = I(0);
	if (mo.E > 0 && moe_active(r, &mo, &ea) < 0)
		return M_FAIL;
	set_bytes(r, 1, add(r, add(r, mul(r, mul(r, mw, I(mo.K)), moe_bpe(din, 2)),
	    mul(r, mul(r, mul(r, ea, I(mo.N)), I(mo.K)), moe_bpe(dw, 1))),
	    mul(r, mul(r, mw, I(mo.N)), moe_bpe(dout, 2))));
	return M_OK;
}

/*
 * sglang_profiler::fused_moe_triton_kernels_fused_append_shared_experts
 * (a BinaryElementwise in TraceLens): topk ids (M, topk) at Input
 * Dims[0], weights at [1] (else the ids' shape), which must broadcast;
 * dtypes Input type[0] (else int) and [1] (else float); 1 FLOP per id;
 * both tensors read and written (4 bytes an element when a size is
 * unknown).  Input type must exist.
 */
int
moe_append_shared(const struct opargs *a, struct mresult *r, const struct model *m,
    int bwd)
{
	struct shape s1, s2;
	const char *dt[3] = { "int", "float", "float" };
	long nd, nt;
	size_t i, n;
	int64_t d1, d2;
	int b1, b2;

	if ((nd = arg_len(a, r, FD_DIMS)) < 0 || (nt = arg_len(a, r, FD_TYPES)) < 0)
		return M_FAIL;
	if (arg_shape(a, r, 0, &s1) < 0)
		return M_FAIL;
	if (nd > 1 && dims_truthy(a, 1)) {
		if (arg_shape(a, r, 1, &s2) < 0)
			return M_FAIL;
	} else
		s2 = s1;
	if ((nt > 0 && arg_str(a, r, FD_TYPES, 0, &dt[0]) < 0) ||
	    (nt > 1 && arg_str(a, r, FD_TYPES, 1, &dt[1]) < 0))
		return M_FAIL;
	dt[2] = dt[1];
	/* BinaryElementwise's get_broadcast_shape: shapes aligned right */
	n = s1.n > s2.n ? s1.n : s2.n;
	for (i = 0; i < n; i++) {
		d1 = i < n - s1.n ? 1 : s1.d[i - (n - s1.n)];
		d2 = i < n - s2.n ? 1 : s2.d[i - (n - s2.n)];
		if (d1 != d2 && d1 != 1 && d2 != 1)
			return fail(r, "Shapes not broadcastable");
	}
	p_shape(r, "shape_in1", &s1, 1);
	p_shape(r, "shape_in2", &s2, 1);
	p_dtypes(r, "dtype_in1_in2_out", 3, dt);
	p_raw(r, "stride_input1", "None");
	p_raw(r, "stride_input2", "None");
	p_raw(r, "stride_output", "None");
	r->dtype = dt[1] != NULL && *dt[1] ? dt[1] : NULL;
	r->flops = I(prod(r, &s1));
	b1 = model_bpe(dt[0]);
	b2 = model_bpe(dt[1]);
	set_bytes(r, 1, mul(r, I(2), add(r, mul(r, I(prod(r, &s1)), I(b1 ? b1 : 4)),
	    mul(r, I(prod(r, &s2)), I(b2 ? b2 : 4)))));
	return M_OK;
}
