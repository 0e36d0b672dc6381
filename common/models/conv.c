/* See LICENSE file for copyright and license details. */
/*
 * CONV: TraceLens's CONV classes, convolutions (aten::convolution and
 * its backward, the fused MIOpen/cuDNN ConvBias_ ops): 2 FLOPs per
 * multiply-add over the output (transposed: the input), the input and
 * weight gradients backward.
 */
#include <math.h>
#include <string.h>

#include "models.h"

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

/*
 * aten::convolution and aten::convolution_backward.  Table args: xi, the
 * Input Dims slot of the input (the weight follows; the Concrete Inputs
 * from xi + 3); isbwd, a backward op whose own metrics are the backward
 * formulas.
 */
int
conv_aten(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	size_t xi = m->arg[0];
	int back = bwd || m->arg[1];
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

/*
 * ConvBias_, ConvBiasReLU_ (fused MIOpen/cuDNN convolutions): input,
 * weight, bias at Input Dims[0..2]; one stride and one padding for every
 * spatial dim at Concrete Inputs[3], [4] ("" or absent: 1 and 0); no
 * dilation, groups 1; a bias always.
 */
int
conv_bias(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
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

/*
 * ConvBias_Backward, ConvBiasReLU_Backward: TraceLens takes the params
 * that the forward op of the same Sequence number (ConvBias_,
 * ConvBiasReLU_) cached when its model was built, and the backward
 * formulas whatever bwd says.  a->fwd holds that op's args (tl-roofline
 * -f); without them TraceLens's model fails to build.
 */
int
conv_bias_bwd(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	(void)bwd;
	if (a->fwd == NULL)
		return fail(r, "no forward op of its sequence number");
	return conv_bias(a->fwd, r, m, 1);
}
