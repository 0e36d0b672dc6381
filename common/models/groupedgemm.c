/* See LICENSE file for copyright and license details. */
/*
 * GroupedGEMM: Primus-Turbo's grouped GEMMs (TraceLens's GroupedGemm
 * classes), one matrix multiplication per group of tokens.
 */
#include <stdio.h>
#include <string.h>

#include "models.h"

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
int
grouped_gemm(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
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
	if (empty)
		return fail_metric(r, "Input type is empty");
	r->flops = mul(r, mul(r, mul(r, I(2), I(M)), I(K)), I(N));
	if (bin == 0 || bout == 0)
		return fail_metric(r, "unknown dtype");
	set_bytes(r, 1, add(r, mul(r, add(r, mul(r, I(M), I(K)),
	    mul(r, mul(r, I(G), I(K)), I(N))), I(bin)), mul(r, mul(r, I(M), I(N)), I(bout))));
	return M_OK;
}

/*
 * primus_turbo grouped GEMM, variable K: [[M, K], [M, N]] as one group,
 * or zipped per-group [(M_i, K_i) ...], [(K_i, N_i) ...]; FLOPs and bytes
 * summed over the groups.
 */
int
grouped_gemm_vk(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
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
	if (empty)
		return fail_metric(r, "Input type is empty");
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
