/* See LICENSE file for copyright and license details. */
/*
 * SSM: the state-space model ops of TraceLens (DaoAILab's causal
 * conv1d, Mamba-2's SSD scan).
 */
#include <string.h>

#include "models.h"

/*
 * DaoAILab::_causal_conv1d_fwd_cpp: x (batch, channels, seq_len), weight
 * (channels, kernel_size), an optional bias; a depthwise convolution.
 */
int
ssm_causal_conv1d(const struct opargs *a, struct mresult *r, const struct model *m,
    int bwd)
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
	if (a->has_types && n == 0)
		return fail_metric(r, "Input type is empty");
	r->dtype = a->has_types ? dt : NULL;
	bcs = mul(r, mul(r, I(x.d[0]), I(x.d[1])), I(x.d[2]));
	r->flops = mul(r, mul(r, mul(r, mul(r, I(2), I(x.d[0])), I(x.d[1])), I(x.d[2])),
	    I(w.d[1]));
	set_bytes(r, 1, add(r, add(r, add(r, mul(r, bcs, I(bpe)),
	    mul(r, mul(r, I(x.d[1]), I(w.d[1])), I(bpe))), mul(r, bcs, I(bpe))),
	    I(bias ? mul(r, I(x.d[1]), I(bpe)).i : 0)));
	return M_OK;
}

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
int
ssm_mamba(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct shape z, w, h;
	const char *dt;
	int64_t C, P, G, B, T, H, cd, ch, dc;
	struct pynum di, num, den, N, f, b;
	int n, bpe;

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
