/* See LICENSE file for copyright and license details. */
/*
 * GEMM: TraceLens's GEMM classes (perf_model.py) and its GEMM
 * extensions: aten::mm and kin, TransformerEngine, vLLM, the Primus
 * hipBLASLt FP8/FP4 GEMMs, the AITER and SGLang GEMMs.  FLOPs 2MNK (+ MN
 * for a bias), bytes A, B, the output and the bias once.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "models.h"

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

/*
 * aten::mm, aten::addmm, aten::bmm, aten::baddbmm: one bpe for all.
 * Table args: the Input Dims slot of A (B follows), batched (B, M, K) x
 * (B, K, N), bias.
 */
int
gemm_aten(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	size_t off = m->arg[0];
	int batched = m->arg[1], bias = m->arg[2];
	struct gemm g;
	int bpe;

	if (gemm_params(a, r, &g, off, batched, bias) < 0 ||
	    gemm_finish(a, r, &g, batched) != M_OK)
		return M_FAIL;
	if (g.ndt < 2)
		return fail_metric(r, "Input type has no dtype of B");
	bpe = model_bpe(g.dt[0]);
	set_bytes(r, bpe != 0, batched ? mul(r, I(g.B), gemm_bytes(r, &g, bpe, bpe, bpe, bpe)) :
	    gemm_bytes(r, &g, bpe, bpe, bpe, bpe));
	return M_OK;
}

/* aten::_scaled_mm: fp8 in gives a 2-byte (fp16) output, by assumption. */
int
gemm_scaled_mm(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct gemm g;
	long n;
	int bpe, bpeb, out;

	if ((n = arg_len(a, r, FD_DIMS)) < 0)
		return M_FAIL;
	if (gemm_params(a, r, &g, 0, 0, n == 3) < 0 ||
	    gemm_finish(a, r, &g, 0) != M_OK)
		return M_FAIL;
	if (g.ndt < 2)
		return fail_metric(r, "Input type has no dtype of B");
	bpe = model_bpe(g.dt[0]);
	bpeb = model_bpe(g.dt[1]);
	if (bpe == 0 || bpeb == 0)
		return fail_metric(r, "unsupported dtypes of A and B");
	out = bpe == 1 ? 2 : (bpe == 2 || bpe == 4) ? bpe : 0;
	set_bytes(r, out != 0, gemm_bytes(r, &g, bpe, bpe, bpe, out));
	return M_OK;
}

/*
 * vllm::rocm_unquantized_gemm (a TraceLens pseudo-op extension):
 * x[M, K] @ weight[N, K].T (+ bias[N]); out and bias in the bias dtype.
 */
int
gemm_vllm_rocm(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
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
	b1 = model_bpe(g.dt[0]);
	b2 = model_bpe(g.dt[1]);
	bo = g.bias ? model_bpe(t3) : b2;
	set_bytes(r, b1 && b2 && bo, gemm_bytes(r, &g, b1, b2, bo, bo));
	return M_OK;
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
int
gemm_vllm_dq(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
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
int
gemm_te_ts(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
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
int
gemm_tev2(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct shape A, Bm;
	struct gemm g = { 0 };
	int bpe;

	if (arg_shape(a, r, 0, &A) < 0 || arg_shape(a, r, 1, &Bm) < 0 ||
	    dim(r, &A, 0, &g.M) < 0 || dim(r, &Bm, 1, &g.N) < 0 || dim(r, &A, 1, &g.K) < 0 ||
	    (g.ndt = dtype_slice(a, r, 0, 2, g.dt)) < 0 || gemm_head(a, r, &g, 0, 1, 0) < 0 ||
	    gemm_finish(a, r, &g, 0) != M_OK)
		return M_FAIL;
	if (g.ndt < 2)
		return fail_metric(r, "Input type has no dtype of B");
	if ((g.dt[0] == NULL) != (g.dt[1] == NULL) ||
	    (g.dt[0] != NULL && strcmp(g.dt[0], g.dt[1]) != 0))
		return fail_metric(r, "data types of A and B differ");
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
		return fail_metric(r, "unsupported dtypes of A and B");
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

/*
 * primus_turbo's hipblaslt_gemm_fp8 and _fp4, and aiter::gemm_a4w4 (A,
 * B at Input Dims[0], [1]; always NT: no transC).  Table args: the Input
 * Dims slot of B, the flags from Concrete Inputs, fp4.
 */
int
gemm_hipblaslt(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	size_t bi = m->arg[0];
	int fromci = m->arg[1], fp4 = m->arg[2];
	struct gemm g;
	const char *dsc[2];
	int b1, b2;

	if (hipblaslt_params(a, r, &g, 0, bi, fromci, fp4, dsc) < 0)
		return M_FAIL;
	if (fp4)
		return fp4_bytes(r, &g, dsc);
	b1 = model_bpe(g.dt[0]);
	b2 = model_bpe(g.dt[1]);
	if (b1 == 0 || b2 == 0)
		return fail_metric(r, "unsupported dtypes of A and B");
	/* fp8 in, 2-byte (bf16/fp16) out */
	set_bytes(r, 1, gemm_bytes(r, &g, b1, b2, b1, b1 == 1 ? 2 : b1));
	return M_OK;
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
int
gemm_a8w8_blockscale(const struct opargs *a, struct mresult *r, const struct model *m,
    int bwd)
{
	struct shape x, w, xs, ws;
	struct gemm g = { 0 };
	const char *dt[3] = { "", "", "c10::bfloat16" }, *sd;
	long nd, nt = 0;
	struct pynum bk, bn;

	if (arg_shape(a, r, 0, &x) < 0 || dim(r, &x, 0, &g.M) < 0 || dim(r, &x, 1, &g.K) < 0 ||
	    arg_shape(a, r, 1, &w) < 0 || dim(r, &w, 0, &g.N) < 0 || (nd = arg_len(a, r, FD_DIMS)) < 0)
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
		if ((dims_truthy(a, 2) && arg_shape(a, r, 2, &xs) < 0) ||
		    (dims_truthy(a, 3) && arg_shape(a, r, 3, &ws) < 0))
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
	if (arg_shape(a, r, 0, &x) < 0 || dim(r, &x, 0, &g->M) < 0 ||
	    arg_shape(a, r, 1, &w) < 0 || dim(r, &w, 0, &g->N) < 0 || dim(r, &x, 1, &g->K) < 0)
		return -1;
	g->B = 1;
	if (bias) {
		struct shape bs;
		long nd = arg_len(a, r, FD_DIMS);

		if (nd > 2 && arg_shape(a, r, 2, &bs) < 0)
			return -1;
		g->bias = nd > 2 && bs.n > 0;
	}
	return 0;
}

static int
ext_gemm_finish(const struct opargs *a, struct mresult *r, struct gemm *g,
    const char *const *dt)
{
	ext_gemm_head(r, g, dt);
	g->dt[0] = dt[0];
	g->ndt = 1;
	if (gemm_finish(a, r, g, 1) != M_OK)
		return M_FAIL;
	ext_gemm_bytes(r, g, dt, 0, 0);
	return M_OK;
}

int
gemm_a16w16_atomic(const struct opargs *a, struct mresult *r, const struct model *m,
    int bwd)
{
	struct gemm g;
	const char *dt[3];

	if (ext_gemm_mk_nk(a, r, &g, 0) < 0 || arg_str(a, r, FD_TYPES, 0, &dt[0]) < 0 ||
	    arg_str(a, r, FD_TYPES, 1, &dt[1]) < 0 ||
	    type_or(a, r, 3, "c10::bfloat16", &dt[2]) < 0)
		return M_FAIL;
	return ext_gemm_finish(a, r, &g, dt);
}

/* aiter::gemm_a16w16: a bias at Input Dims[2]; the output in the dtype of X. */
int
gemm_a16w16(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct gemm g;
	const char *dt[3];

	if (ext_gemm_mk_nk(a, r, &g, 1) < 0 || arg_str(a, r, FD_TYPES, 0, &dt[0]) < 0 ||
	    arg_str(a, r, FD_TYPES, 1, &dt[1]) < 0)
		return M_FAIL;
	dt[2] = dt[0];
	return ext_gemm_finish(a, r, &g, dt);
}

/* aiter::_gemm_a16w16_asm: the output tensor at Input type[2] when it has a size. */
int
gemm_a16w16_asm(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct gemm g;
	const char *dt[3], *o = NULL;
	long nt;

	if ((nt = arg_len(a, r, FD_TYPES)) < 0 || (nt > 2 && arg_str(a, r, FD_TYPES, 2, &o) < 0) ||
	    arg_str(a, r, FD_TYPES, 0, &dt[0]) < 0 ||
	    ext_gemm_mk_nk(a, r, &g, 0) < 0 || arg_str(a, r, FD_TYPES, 1, &dt[1]) < 0)
		return M_FAIL;
	dt[2] = nt > 2 && model_bpe(o) != 0 ? o : dt[0];
	return ext_gemm_finish(a, r, &g, dt);
}

/* aiter::gemm_afp4wfp4_: packed FP4 X[M, K/2], W[N, K/2]; bf16 out; precision fp4. */
int
gemm_afp4wfp4(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
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
	r->dtype = "mxfp4";
	ext_gemm_bytes(r, &g, dt, 1, 1);
	return M_OK;
}

/*
 * aiter::batched_gemm_a16wfp4_: X[B, M, K] @ W[B, N, K/2]^T with FP4
 * weights (half a byte each); FLOPs and bytes times B; precision fp4.
 */
int
gemm_batched_a16wfp4(const struct opargs *a, struct mresult *r, const struct model *m,
    int bwd)
{
	struct shape x, w;
	struct gemm g = { 0 };
	const char *dt[3] = { NULL, NULL, "c10::bfloat16" };

	if (arg_shape(a, r, 0, &x) < 0 || dim(r, &x, 0, &g.B) < 0 || dim(r, &x, 1, &g.M) < 0 ||
	    arg_shape(a, r, 1, &w) < 0 || dim(r, &w, 1, &g.N) < 0 || dim(r, &x, 2, &g.K) < 0 ||
	    arg_str(a, r, FD_TYPES, 0, &dt[0]) < 0 || arg_str(a, r, FD_TYPES, 1, &dt[1]) < 0)
		return M_FAIL;
	ext_gemm_head(r, &g, dt);
	if (gemm_finish(a, r, &g, 1) != M_OK)
		return M_FAIL;
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
int
gemm_batched_a8w8(const struct opargs *a, struct mresult *r, const struct model *m,
    int bwd)
{
	struct shape x, w;
	struct gemm g = { 0 };
	const char *dt[3] = { NULL, NULL, "c10::bfloat16" };
	int64_t x0;

	if (arg_shape(a, r, 0, &x) < 0 || arg_shape(a, r, 1, &w) < 0 || dim(r, &w, 0, &g.B) < 0 ||
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
	if (dt[1] == NULL)
		return fail_metric(r, "no dtype of WQ");
	r->dtype = dt[1];
	ext_gemm_bytes(r, &g, dt, 0, 0);
	if (r->has_bytes)
		r->bytes = mul(r, I(g.B), r->bytes);
	return M_OK;
}
