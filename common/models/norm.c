/* See LICENSE file for copyright and license details. */
/*
 * Normalization: TraceLens's Normalization classes (batch, layer,
 * group, instance and RMS norms and their backward ops), its RMSNorm
 * extensions (AITER, vLLM, SGLang: the RMSNorm sheet) and Primus's
 * fused LayerNorm + modulate.
 */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "models.h"

/* What a Normalization get_param_details gives. */
struct norm {
	struct shape op;	/* op_shape */
	const char *dt;		/* dtype_in */
	struct pynum C;		/* num_channels (a float for GroupNormBwd) */
	int has_bias, affine, training; /* flags */
	int mask[16];		/* output_mask (Python allows any length; 16 is plenty) */
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
		return fail_metric(r, "unknown dtype %s", n->dt ? n->dt : "None");
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
		return fail_metric(r, "unknown dtype %s", n->dt ? n->dt : "None");
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

/*
 * s with the words True and False as 1 and 0 (int() of a bool), in
 * out[0..n); -1 when it does not fit.
 */
static int
bools_as_ints(const char *s, char *out, size_t n)
{
	size_t i = 0, w;

	while (*s) {
		for (w = 0; isalpha((unsigned char)s[w]); w++)
			;
		if ((w == 4 && strncmp(s, "True", 4) == 0) ||
		    (w == 5 && strncmp(s, "False", 5) == 0)) {
			if (i + 1 >= n)
				return -1;
			out[i++] = *s == 'T' ? '1' : '0';
			s += w;
			continue;
		}
		if (w == 0)
			w = 1;
		if (i + w >= n)
			return -1;
		memcpy(out + i, s, w);
		i += w;
		s += w;
	}
	out[i] = '\0';
	return 0;
}

/* prod(parse_list(Concrete Inputs[k], int)): bools are 1 and 0 */
static int
ci_prod(const struct opargs *a, struct mresult *r, size_t k, struct pynum *p)
{
	struct shape sh;
	const char *s;
	char tmp[256];

	if (arg_ci(a, r, k, &s) < 0)
		return -1;
	if (shape_pylist(s, &sh) < 0 && (bools_as_ints(s, tmp, sizeof(tmp)) < 0 ||
	    shape_pylist(tmp, &sh) < 0))
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

/*
 * BatchNorm, InstanceNorm and GroupNorm: C = dims[0][1]; affine: the
 * weight not None.  Table arg: the Concrete Inputs slot of training,
 * bool() of it (BatchNorm's training, InstanceNorm's use_input_stats),
 * or -1: always training (GroupNorm).
 */
int
norm_channels(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	int ts = m->arg[0];
	struct norm n = { 0 };

	if (norm_head(a, r, &n, 0) < 0 || arg_notnone(a, r, 2, &n.affine) < 0 ||
	    (ts >= 0 && ci_bool(a, r, ts, &n.training) < 0))
		return M_FAIL;
	if (n.op.n < 2)
		return fail(r, "Input Dims[0] has no channel dimension");
	n.C = I(n.op.d[1]);
	n.has_bias = 1;
	if (ts < 0)
		n.training = 1;
	norm_tail(r, &n);
	return norm_fwd(r, &n);
}

/* The cudnn/miopen variants take the input first and are inference only. */
int
norm_batch_bwd(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct norm n = { 0 };
	size_t in = 1;
	int hasout;

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
int
norm_layer(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct norm n = { 0 };

	if (norm_head(a, r, &n, 0) < 0 || ci_prod(a, r, 1, &n.C) < 0 ||
	    arg_notnone(a, r, 3, &n.has_bias) < 0 || arg_notnone(a, r, 2, &n.affine) < 0)
		return M_FAIL;
	n.training = 1;
	norm_tail(r, &n);
	return norm_fwd(r, &n);
}

/* affine and bias from output_mask[1], [2]. */
int
norm_layer_bwd(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct norm n = { 0 };

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

/* num_channels = C / groups: a float. */
int
norm_group_bwd(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct norm n = { 0 };
	int64_t g;

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

/* RMSNorm: (E/C)*(2C+2) for the rsqrt, then 1 or 2 per element. */
int
norm_rms(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct norm n = { 0 };
	struct pynum E, f;
	int bpe;

	if (norm_head(a, r, &n, 0) < 0 || arg_notnone(a, r, 2, &n.affine) < 0 ||
	    ci_prod(a, r, 1, &n.C) < 0)
		return M_FAIL;
	norm_tail(r, &n);
	E = I(prod(r, &n.op));
	r->dtype = n.dt;
	f = mul(r, tdiv(r, E, n.C), add(r, mul(r, I(2), n.C), I(2)));
	r->flops = add(r, f, mul(r, E, I(n.affine ? 2 : 1)));
	if ((bpe = model_bpe(n.dt)) == 0)
		return fail_metric(r, "unknown dtype %s", n.dt ? n.dt : "None");
	f = add(r, mul(r, E, I(bpe)), mul(r, E, I(bpe)));
	set_bytes(r, 1, add(r, f, n.affine ? mul(r, n.C, I(bpe)) : I(0)));
	return M_OK;
}

int
norm_rms_bwd(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct norm n = { 0 };
	struct pynum E, f, nn;
	int bpe;

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
		return fail_metric(r, "output_mask too short");
	if (n.mask[1] && n.affine) {
		f = add(r, f, E);
		if (pynum_double(nn) > 1)
			f = add(r, f, E);
	}
	r->flops = f;
	if ((bpe = model_bpe(n.dt)) == 0)
		return fail_metric(r, "unknown dtype %s", n.dt ? n.dt : "None");
	f = add(r, mul(r, E, I(bpe)), mul(r, mul(r, E, I(bpe)), I(2)));
	if (n.affine)
		f = add(r, f, mul(r, mul(r, n.C, I(bpe)), I(2)));
	set_bytes(r, 1, f);
	return M_OK;
}

/* RMSNorm.flops(): (E / C) * (2C + 2) for the rsqrt, then 2 per element (affine). */
static struct pynum
rms_flops(struct mresult *r, struct pynum E, struct pynum C)
{
	struct pynum f = mul(r, tdiv(r, E, C), add(r, mul(r, I(2), C), I(2)));

	return add(r, f, mul(r, E, I(2)));
}

/*
 * The RMSNorm extensions: affine, no bias, inference; num_channels =
 * the weight's first dim.  Table args: xi, wi, the Input Dims slots of
 * x and the weight; the kind (enum rmskind).
 */
int
norm_rms_ext(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	size_t xi = m->arg[0], wi = m->arg[1];
	enum rmskind kind = m->arg[2];
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
	r->dtype = n.dt;
	E = I(prod(r, &n.op));
	C = n.C;
	if ((bpe = model_bpe(n.dt)) == 0)
		return fail_metric(r, "unknown dtype %s", n.dt ? n.dt : "None");
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
				return fail_metric(r, "bad size");
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

/*
 * primus::fused_ln_modulate[_backward]: LayerNorm + scale/shift over x
 * (T, B, H): 12 (fwd) or 15 (bwd) FLOPs per element; bytes read and
 * written once, plus scale, shift and the float mean and rstd per row.
 * Table arg: back, the backward op.
 */
int
norm_ln_modulate(const struct opargs *a, struct mresult *r, const struct model *m,
    int bwd)
{
	int back = m->arg[0];
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
	r->dtype = n.dt;
	E = I(prod(r, &n.op));
	T = I(n.op.d[0]);
	B = I(n.op.d[1]);
	H = n.C;
	r->flops = mul(r, E, I(back ? 15 : 12));
	if ((bpe = model_bpe(n.dt)) == 0)
		return fail_metric(r, "unknown dtype %s", n.dt ? n.dt : "None");
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
