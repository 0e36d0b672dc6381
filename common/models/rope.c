/* See LICENSE file for copyright and license details. */
/*
 * RoPE: rotary position embeddings (TransformerEngine's FusedRoPEFunc,
 * the AITER and SGLang RoPE ops; FusedRoPE: AITER's RoPE fused with the
 * MLA KV-cache write): 3 FLOPs a rotated element.
 */
#include <string.h>

#include "models.h"

/* RoPE's metrics: 3 FLOPs a rotated element, read and written in dt (2 bytes when unknown). */
static int
rope_metrics(struct mresult *r, struct pynum E, const char *dt)
{
	r->flops = mul(r, I(3), E);
	set_bytes(r, 1, mul(r, mul(r, I(2), E), I(bpe_or2(dt))));
	return M_OK;
}

/* FusedRoPEFunc (TE): t (seq_len, batch, heads, head_dim); 3 FLOPs per element. */
int
rope_fused(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
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
	r->dtype = n > 0 ? dt : NULL;
	return rope_metrics(r, E, dt);
}

/* aiter::rope_cached_positions_2c_fwd_impl: x, y at Input Dims[2], [3]. */
int
rope_aiter_2c(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
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
	r->dtype = n > 0 ? dt : NULL;
	return rope_metrics(r, E, dt);
}

/*
 * sgl_kernel::rotary_embedding: q, k (tokens, heads*head) at Input Dims
 * [1], [2]; head size Concrete Inputs[3] (else q's last dim), rotary dim
 * Input Dims[4][1] when given; bytes and precision from q's dtype.
 */
int
rope_sgl(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
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
 * (Input type[4] when given).  Table arg: concat.
 */
int
rope_qk_cache(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	int concat = m->arg[0];
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
	if (din == NULL)
		return fail_metric(r, "no input dtype");	/* torch_dtype_map(None) */
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
