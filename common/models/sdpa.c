/* See LICENSE file for copyright and license details. */
/*
 * SDPA: TraceLens's SDPA classes, scaled dot-product attention
 * (FlashAttention, the ATen SDPA ops, AITER, FlashAttention-3,
 * Evoformer): FLOPs of QK^T and PV, halved when causal; the backward
 * formulas of flops_bwd and bytes_bwd.
 */
#include <string.h>
#include <strings.h>

#include "models.h"

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
		return fail_metric(r, "causal=True but N_Q != N_KV"), -1;
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

/* q, k, v read and o written; bwd: q, k, v and dO read, dq, dk, dv written. */
static struct pynum
sdpa_bytes(struct mresult *r, const struct sdpa *s, int bpe, int bwd)
{
	struct pynum t;

	t = elems4(r, s->B, s->NQ, s->HQ, s->dqk);
	t = add(r, t, elems4(r, s->B, s->NKV, s->HKV, s->dqk));
	t = add(r, t, elems4(r, s->B, s->NKV, s->HKV, s->dv));
	t = add(r, t, elems4(r, s->B, s->NQ, s->HQ, s->dv));
	if (bwd) {
		t = add(r, t, elems4(r, s->B, s->NQ, s->HQ, s->dqk));
		t = add(r, t, elems4(r, s->B, s->NKV, s->HKV, s->dqk));
		t = add(r, t, elems4(r, s->B, s->NKV, s->HKV, s->dv));
	}
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
	set_bytes(r, bpe != 0, sdpa_bytes(r, s, bpe, bwd));
	return M_OK;
}

static int
sdpa_dtypes(const struct opargs *a, struct mresult *r, struct sdpa *s)
{
	return (s->ndt = dtype_slice(a, r, 0, 2, s->dt)) < 0 ? -1 : 0;
}

/* FlashAttnFunc, flash_attn::_flash_attn_forward: (B, N, H, d). */
int
sdpa_flash(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
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

/*
 * Python's eval() of a Concrete Inputs literal: True, False, None, an
 * int or a float.  flash_attn::_flash_attn_backward's causal slot 10
 * holds softmax_scale in real traces (dropout_p is 9, causal 11), so
 * TraceLens's causal there is that float: its truth halves the FLOPs
 * and its repr is the param.  Other text fails, as eval raises.
 */
static int
ci_evallit(const struct opargs *a, struct mresult *r, size_t k, int *truth,
    struct pynum *v, const char **lit)
{
	const char *s, *p;
	int64_t i;
	double d;

	if (arg_ci(a, r, k, &s) < 0)
		return -1;
	*lit = NULL;
	if (strcmp(s, "True") == 0 || strcmp(s, "False") == 0 || strcmp(s, "None") == 0) {
		*truth = s[0] == 'T';
		*lit = s;
		return 0;
	}
	/* a literal: an optional sign, digits, at most a point and an exponent */
	for (p = *s == '-' || *s == '+' ? s + 1 : s; *p; p++)
		if (strchr("0123456789.eE+-", *p) == NULL)
			break;
	if (*p == '\0' && strpbrk(s, ".eE") == NULL && shape_pyint(s, &i) == 0) {
		*v = I(i);
		*truth = i != 0;
		return 0;
	}
	if (*p == '\0' && strpbrk(s, "0123456789") != NULL && shape_pyfloat(s, &d) == 0) {
		*v = F(d);
		*truth = d != 0;
		return 0;
	}
	return fail(r, "Concrete Inputs[%zu] is not a Python literal", k), -1;
}

/* flash_attn::_flash_attn_backward: dout, q, k, v, ... */
int
sdpa_flash_bwd(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	static const int bnhd[] = { 0, 2, 1, 3 };
	struct sdpa s = { 0 };
	const struct jval *ci = NULL;
	const char *c, *lit = "True";
	double dropout = 0;
	struct pynum t, cv = I(0);
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
		if (c != NULL && *c && ci_evallit(a, r, 10, &s.causal, &cv, &lit) < 0)
			return M_FAIL;
	}
	s.flash = 1;
	sdpa_sizes(r, &s);
	if (sdpa_strides(a, r, 1) < 0)
		return M_FAIL;
	p_num(r, "dropout", F(dropout));
	if (lit != NULL)
		p_raw(r, "causal", lit);
	else
		p_num(r, "causal", cv);
	p_bool(r, "flash_impl", 1);
	p_dtypes(r, "dtype_A_B", s.ndt, s.dt);
	r->dtype = s.ndt > 0 ? s.dt[0] : NULL;
	if (sdpa_flops_bwd(r, &s, &t) < 0)
		return M_FAIL;
	r->flops = t;
	/* its fwd bytes use the dtype; TraceLens's bytes_bwd() uses 2 */
	bpe = bwd ? sdpa_bpe(a, &s) : (s.ndt > 0 ? model_bpe(s.dt[0]) : 0);
	if (bwd) {
		set_bytes(r, bpe != 0, sdpa_bytes(r, &s, bpe, 1));
		return M_OK;
	}
	if (bpe == 0)
		return fail_metric(r, "unknown dtype %s", s.ndt > 0 && s.dt[0] ? s.dt[0] : "None");
	set_bytes(r, 1, sdpa_bytes(r, &s, bpe, 1));
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
 * flash_attn::_flash_attn_varlen_forward and _backward: (T, H, d) with
 * B = 1.  Table args: q0, the Input Dims slot of q (k, v follow); cu,
 * that of cu_seqlens q (kv follows); ci, the Concrete Inputs slot of
 * max_seqlen q (kv, dropout follow; causal at ci + 4); isbwd, a
 * backward op whose own FLOPs are the backward formulas.
 */
int
sdpa_varlen(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	static const int hnd[] = { 1, 0, 2 };
	size_t q0 = m->arg[0], cu = m->arg[1], ci = m->arg[2];
	int isbwd = m->arg[3];
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
	set_bytes(r, sdpa_bpe(a, &s) != 0, sdpa_bytes(r, &s, sdpa_bpe(a, &s), isbwd));
	return M_OK;
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
 * in (B, H, N, d).  Table args: ci, the Concrete Inputs slot of dropout
 * (is_causal follows); flash, flash_impl.
 */
int
sdpa_aten(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	static const int bhnd[] = { 0, 1, 2, 3 };
	size_t ci = m->arg[0];
	int flash = m->arg[1];
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

/*
 * The AITER and FlashAttention-3 SDPA ops: q, k, v in (B, N, H, d),
 * dropout by optional_float; no dtypes in the params, so no Compute
 * Spec.  Table args: q0, the Input Dims slot of q (k, v follow); cd,
 * the Concrete Inputs slot of dropout (-1: none, always 0.0); cc, that
 * of causal; isbwd, a backward op whose own metrics are the backward
 * formulas.
 */
int
sdpa_aiter(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	static const int bnhd[] = { 0, 2, 1, 3 };
	size_t q0 = m->arg[0], cc = m->arg[2];
	int cd = m->arg[1], isbwd = m->arg[3];
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

/*
 * EvoformerAttention(Q, K, V, res_mask, pair_bias): Q is (Batch, N_seq,
 * N_res, Head, Dim); N_seq folds into the batch; never causal, not flash.
 */
int
sdpa_evoformer(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
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
