/* See LICENSE file for copyright and license details. */
/*
 * mHC: AITER's manifold hyper-connection ops (TraceLens's _MHCBase
 * models): M tokens, n residual streams of C channels, the projection
 * to hc3 = n^2 + 2n mixes, split_k partial sums.  Activations are in
 * dtype_in (bf16 when Input type is too short); mixes, the projection
 * matrix and the partials are fp32.  Bytes are None for an unknown
 * dtype_in.
 */
#include "models.h"

enum { MHC_POST, MHC_PRE_GEMM, MHC_BIG_FUSE, MHC_FUSED };

/* Input Dims[k][i], an IndexError when the shape is shorter. */
static int
dim(const struct opargs *a, struct mresult *r, size_t k, size_t i, int64_t *v)
{
	struct shape s;

	if (arg_shape(a, r, k, &s) < 0)
		return -1;
	if (i >= s.n)
		return fail(r, "Input Dims[%zu] has no item %zu", k, i), -1;
	*v = s.d[i];
	return 0;
}

/*
 * arg[0]: which op.  mhc_post (out (M, n, C), x (M, C)): 2MnC(n + 1)
 * FLOPs.  mhc_pre_gemm_sqrsum (out (split_k, M, hc3), x (M, n, C), fn
 * (hc3, K)): 2M hc3 K.  mhc_pre_big_fuse_rmsnorm (post_mix (M, n, 1),
 * layer input (M, C), gemm partials (split_k, ...), hc_base (hc3)):
 * 2MCn + 5MC.  mhc_fused_post_pre_gemm_sqrsum: the post step and the
 * projection of its result.
 */
int
mhc(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	/* where each op reads M and C, n, hc3, K, split_k and its dtype */
	static const struct { int mc, n, nn, hc3, k, sk, dt; } w[] = {
		[MHC_POST] = { 1, 0, 1, -1, -1, -1, 1 },
		[MHC_PRE_GEMM] = { 2, 2, 1, 3, 3, 0, 2 },
		[MHC_BIG_FUSE] = { 2, 0, 1, 6, -1, 3, 7 },
		[MHC_FUSED] = { 3, 2, 1, 7, 7, 0, 3 },
	};
	int op = m->arg[0], bpe;
	int64_t M, n, C, hc3 = 0, K = 0, sk = 0;
	const char *dt = "c10::BFloat16";
	struct pynum f, b, mnc, mix, t;
	long nt = 0;

	if (op == MHC_PRE_GEMM) {
		if (dim(a, r, 2, 0, &M) < 0 || dim(a, r, 2, 1, &n) < 0 ||
		    dim(a, r, 2, 2, &C) < 0)
			return M_FAIL;
	} else if (dim(a, r, w[op].mc, 0, &M) < 0 || dim(a, r, w[op].mc, 1, &C) < 0 ||
	    dim(a, r, w[op].n, w[op].nn, &n) < 0)
		return M_FAIL;
	if ((w[op].hc3 >= 0 && dim(a, r, w[op].hc3, 0, &hc3) < 0) ||
	    (w[op].k >= 0 && dim(a, r, w[op].k, 1, &K) < 0) ||
	    (w[op].sk >= 0 && dim(a, r, w[op].sk, 0, &sk) < 0))
		return M_FAIL;
	if (a->has_types && (nt = arg_len(a, r, FD_TYPES)) < 0)
		return M_FAIL;
	if (nt > w[op].dt && arg_str(a, r, FD_TYPES, w[op].dt, &dt) < 0)
		return M_FAIL;
	p_int(r, "M", M);
	p_int(r, "n", n);
	p_int(r, "C", C);
	if (op == MHC_POST)
		p_raw(r, "hc3", "None");
	else
		p_int(r, "hc3", hc3);
	if (w[op].k >= 0)
		p_int(r, "K", K);
	if (w[op].sk >= 0)
		p_int(r, "split_k", sk);
	p_str(r, "dtype_in", dt);
	r->dtype = dt != NULL && *dt ? dt : NULL;
	bpe = model_bpe(dt);
	/* (M*n*4 + M*n*n*4): the fp32 post and combine mixes */
	mix = add(r, mul(r, mul(r, I(M), I(n)), I(4)),
	    mul(r, mul(r, mul(r, I(M), I(n)), I(n)), I(4)));
	mnc = mul(r, mul(r, mul(r, I(M), I(n)), I(C)), I(bpe));
	/* 2 * M * n * C * (n + 1): the post step */
	f = mul(r, mul(r, mul(r, mul(r, I(2), I(M)), I(n)), I(C)), add(r, I(n), I(1)));
	switch (op) {
	case MHC_POST:
		b = add(r, add(r, add(r, mul(r, mul(r, I(M), I(C)), I(bpe)), mnc), mix), mnc);
		break;
	case MHC_PRE_GEMM:
		f = mul(r, mul(r, mul(r, I(2), I(M)), I(hc3)), I(K));
		b = add(r, add(r, add(r, mnc, mul(r, mul(r, I(hc3), I(K)), I(4))),
		    mul(r, mul(r, mul(r, I(sk), I(M)), I(hc3)), I(4))),
		    mul(r, mul(r, I(sk), I(M)), I(4)));
		break;
	case MHC_BIG_FUSE:
		f = add(r, mul(r, mul(r, mul(r, I(2), I(M)), I(C)), I(n)),
		    mul(r, mul(r, I(5), I(M)), I(C)));
		b = add(r, add(r, add(r, add(r, mnc,
		    mul(r, mul(r, mul(r, I(sk), I(M)), I(hc3)), I(4))),
		    mul(r, I(C), I(bpe))), mul(r, mul(r, I(M), I(C)), I(bpe))), mix);
		break;
	default:
		f = add(r, f, mul(r, mul(r, mul(r, I(2), I(M)), I(hc3)), I(K)));
		t = add(r, mul(r, mul(r, mul(r, I(sk), I(M)), I(hc3)), I(4)),
		    mul(r, mul(r, I(sk), I(M)), I(4)));
		b = add(r, add(r, add(r, add(r, add(r, add(r,
		    mul(r, mul(r, I(M), I(C)), I(bpe)), mnc), mnc), mnc), mix),
		    mul(r, mul(r, I(hc3), I(K)), I(4))), t);
		break;
	}
	r->flops = f;
	set_bytes(r, bpe != 0, b);
	return M_OK;
}
