/* See LICENSE file for copyright and license details. */
/*
 * Elementwise: TraceLens's UnaryElementwise and BinaryElementwise
 * classes (aten::copy_, add, mul ..., padding and upsampling), the gated
 * activations of AITER, vLLM and SGLang, Liger's SiLU-mul, AITER's
 * sampling: one FLOP an output element, every tensor moved once.
 */
#include <string.h>

#include "models.h"

/* The input/output dtype pair a unary op or norm reads. */
static void
bpe_pair(const char *in, const char *out, int hasout, int *bi, int *bo)
{
	*bi = model_bpe(in);
	*bo = hasout ? model_bpe(out) : *bi;
}

/* n*bpe_in + n*bpe_out; None if either bpe is None */
static void
unary_bytes(struct mresult *r, struct pynum nin, struct pynum nout, int bi, int bo)
{
	set_bytes(r, bi && bo, add(r, mul(r, nin, I(bi)), mul(r, nout, I(bo))));
}

/* aten::copy_, silu, neg, ...: Input Dims[1] present means an out tensor. */
int
elt_unary(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct shape sh;
	const char *t[2] = { NULL, NULL };
	long n;
	int out, bi, bo;

	if (arg_shape(a, r, 0, &sh) < 0 || arg_str(a, r, FD_TYPES, 0, &t[0]) < 0)
		return M_FAIL;
	if ((n = arg_len(a, r, FD_DIMS)) < 0)
		return M_FAIL;
	out = n > 1 && dims_truthy(a, 1);
	if (out && arg_str(a, r, FD_TYPES, 1, &t[1]) < 0)
		return M_FAIL;
	p_shape(r, "op_shape", &sh, 1);
	p_dtypes(r, "dtype_in_out", 2, t);
	if (p_stride(a, r, "stride_input", 0, 0) < 0)
		return M_FAIL;
	if (!out)
		p_raw(r, "stride_output", "None");
	else if (p_stride(a, r, "stride_output", 1, 0) < 0)
		return M_FAIL;
	r->dtype = t[0];
	r->flops = I(prod(r, &sh));
	bpe_pair(t[0], t[1], t[1] != NULL, &bi, &bo);
	unary_bytes(r, I(prod(r, &sh)), I(prod(r, &sh)), bi, bo);
	return M_OK;
}

/*
 * Padding and upsampling: their params from input_shape on (pad, the
 * padding, or NULL), then the metrics: read the input, write the output;
 * a None bpe raises in TraceLens.  Entries of out may be bools (bit i
 * of bools) or floats (bit i of floats, fv[i]); the output's elements
 * are then math.prod's, left to right from the int 1, a float from the
 * first float on.
 */
static int
resize(const struct opargs *a, struct mresult *r, const struct shape *in,
    const struct shape *out, unsigned bools, const double *fv, unsigned floats,
    const struct shape *pad, const char *dt)
{
	struct pynum nout = I(1);
	size_t i;
	int bpe;

	p_shape(r, "input_shape", in, 1);
	p_shapeb(r, "output_shape", out, bools, fv, floats);
	if (pad != NULL)
		p_shape(r, "padding", pad, 0);
	p_shapeb(r, "op_shape", out, bools, fv, floats);
	p_dtypes(r, "dtype_in_out", 2, (const char *[]){ dt, dt });
	if (p_stride(a, r, "stride_input", 0, 0) < 0)
		return M_FAIL;
	p_raw(r, "stride_output", "None");
	if ((bpe = model_bpe(dt)) == 0)
		return fail_metric(r, "unknown dtype %s", dt ? dt : "None");
	r->dtype = dt;
	for (i = 0; i < out->n; i++)
		nout = mul(r, nout, floats & (1u << i) ? F(fv[i]) : I(out->d[i]));
	r->flops = nout;
	unary_bytes(r, I(prod(r, in)), nout, bpe, bpe);
	return M_OK;
}

/* aten::replication_pad{1,2,3}d: padding pairs innermost dimension first. */
int
elt_pad(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct shape in, out, pad;
	const char *dt, *s;
	char tmp[256];
	size_t i, j, n;
	long idx;

	if (arg_shape(a, r, 0, &in) < 0 || arg_str(a, r, FD_TYPES, 0, &dt) < 0 ||
	    field(a, r, FD_STRIDES) == NULL || arg_ci(a, r, 1, &s) < 0)
		return M_FAIL;
	/* pad_str.strip("[]").replace(" ", "").split(",") */
	n = strlen(s);
	while (n > 0 && (s[n - 1] == '[' || s[n - 1] == ']'))
		n--;
	while (n > 0 && (*s == '[' || *s == ']'))
		s++, n--;
	for (i = j = 0; i < n && j < sizeof(tmp) - 1; i++)
		if (s[i] != ' ')
			tmp[j++] = s[i];
	tmp[j] = '\0';
	if (i < n || shape_split(tmp, tmp + j, &pad) < 0)
		return fail(r, "Concrete Inputs[1] is not a padding list");
	out = in;
	for (i = 0; i < pad.n / 2; i++) {
		idx = (long)in.n - 1 - (long)i;
		if (idx < 0)
			idx += in.n;
		if (idx < 0)
			return fail(r, "padding longer than the shape");
		out.d[idx] = add(r, I(out.d[idx]), add(r, I(pad.d[2 * i]),
		    I(pad.d[2 * i + 1]))).i;
	}
	return resize(a, r, &in, &out, 0, NULL, 0, &pad, dt);
}

/*
 * aten::upsample_nearest{1,2,3}d: output size at Concrete Inputs[1], as
 * ast.literal_eval reads it: ints, bools (1 and 0 in the sums, True
 * and False in the shapes) or floats (2.5: the element count, FLOPs
 * and bytes are floats, as Python's products of them).
 */
int
elt_upsample(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct shape in, out, sp;
	double fv[SHAPE_MAX], ofv[SHAPE_MAX];
	const char *dt, *s;
	unsigned bools, floats;
	size_t i, k;

	if (arg_shape(a, r, 0, &in) < 0 || arg_str(a, r, FD_TYPES, 0, &dt) < 0 ||
	    field(a, r, FD_STRIDES) == NULL || arg_ci(a, r, 1, &s) < 0)
		return M_FAIL;
	if (shape_pysize(s, &sp, &bools, fv, &floats) < 0)
		return fail(r, "Concrete Inputs[1] is not an output size");
	out.n = 0;
	for (i = 0; i < in.n && i < 2; i++)
		out.d[out.n++] = in.d[i];
	if (out.n + sp.n > SHAPE_MAX)
		return fail(r, "output shape too long");
	k = out.n;
	for (i = 0; i < sp.n; i++) {
		ofv[out.n] = fv[i];
		out.d[out.n++] = sp.d[i];
	}
	return resize(a, r, &in, &out, bools << k, ofv, floats << k, NULL, dt);
}

/* Right-aligned broadcast of two shapes; -1 when not broadcastable. */
static int
broadcast(const struct shape *a, const struct shape *b, struct shape *o)
{
	size_t n = MAX(a->n, b->n), i;
	int64_t x, y;

	o->n = n;
	for (i = 0; i < n; i++) {
		x = i + a->n >= n ? a->d[i + a->n - n] : 1;
		y = i + b->n >= n ? b->d[i + b->n - n] : 1;
		if (x != y && x != 1 && y != 1)
			return -1;
		o->d[i] = MAX(x, y);
	}
	return 0;
}

/*
 * Binary ops: out dtype from Input type[2] when Input Dims[2] is a
 * tensor; else the wider input when both are tensors, else input 1.
 * Table arg: liger, LigerSiLUMulFunction(a, b), SiLU(a) * b: no output
 * tensor, Input Strides required.
 */
int
elt_binary(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	int liger = m->arg[0];
	struct shape s1, s2, so;
	const char *t[3] = { NULL, NULL, NULL };
	long n;
	int out = 0, b1, b2, bo;
	struct pynum v;

	if (arg_shape(a, r, 0, &s1) < 0 || arg_shape(a, r, 1, &s2) < 0 ||
	    arg_str(a, r, FD_TYPES, 0, &t[0]) < 0 || arg_str(a, r, FD_TYPES, 1, &t[1]) < 0)
		return M_FAIL;
	if (liger) {
		if (field(a, r, FD_STRIDES) == NULL)
			return M_FAIL;
	} else {
		if ((n = arg_len(a, r, FD_DIMS)) < 0)
			return M_FAIL;
		out = n > 2 && dims_truthy(a, 2);
		if (out && arg_str(a, r, FD_TYPES, 2, &t[2]) < 0)
			return M_FAIL;
	}
	p_shape(r, "shape_in1", &s1, 1);
	p_shape(r, "shape_in2", &s2, 1);
	p_dtypes(r, "dtype_in1_in2_out", 3, t);
	if (p_stride(a, r, "stride_input1", 0, 0) < 0 ||
	    p_stride(a, r, "stride_input2", 1, 0) < 0)
		return M_FAIL;
	if (!out)
		p_raw(r, "stride_output", "None");
	else if (p_stride(a, r, "stride_output", 2, 0) < 0)
		return M_FAIL;
	if (broadcast(&s1, &s2, &so) < 0)
		return fail(r, "shapes not broadcastable");
	b1 = model_bpe(t[0]);
	b2 = model_bpe(t[1]);
	if (t[2] != NULL)
		bo = model_bpe(t[2]);
	else if (b1 && b2)
		bo = s1.n > 0 && s2.n > 0 ? MAX(b1, b2) : b1;
	else
		bo = 0;
	r->dtype = t[0];
	r->flops = I(prod(r, &so));
	v = add(r, mul(r, I(prod(r, &s1)), I(b1)), mul(r, I(prod(r, &s2)), I(b2)));
	v = add(r, v, mul(r, I(prod(r, &so)), I(bo)));
	set_bytes(r, b1 && b2 && bo, v);
	return M_OK;
}

/*
 * aiter::silu_and_mul (and sgl_kernel's, gelu, gelu_tanh): out [..., d]
 * at Input Dims[0], the gate and up halves [..., 2d] at [1]; bytes read
 * the input twice the output size.  Table arg: the FLOPs per output
 * element.
 */
int
elt_act_and_mul(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	int fpe = m->arg[0];
	struct shape op;
	const char *din, *dout;
	struct pynum E;
	int bi, bo;

	if (arg_shape(a, r, 0, &op) < 0 || arg_str(a, r, FD_TYPES, 1, &din) < 0 ||
	    arg_str(a, r, FD_TYPES, 0, &dout) < 0)
		return M_FAIL;
	p_shape(r, "op_shape", &op, 1);
	p_dtypes(r, "dtype_in_out", 2, (const char *[]){ din, dout });
	if (p_stride(a, r, "stride_input", 1, 0) < 0 || p_stride(a, r, "stride_output", 0, 0) < 0)
		return M_FAIL;
	E = I(prod(r, &op));
	r->dtype = din;
	r->flops = mul(r, I(fpe), E);
	bi = model_bpe(din);
	bo = dout != NULL ? model_bpe(dout) : bi;
	if (bi == 0 || bo == 0)
		return fail(r, "unknown dtype");
	set_bytes(r, 1, add(r, mul(r, mul(r, I(2), E), I(bi)), mul(r, E, I(bo))));
	return M_OK;
}

/*
 * aiter::mixed_sample_outer_exponential: logits (T, V) at Input Dims[1]
 * (missing dims 1); 2 FLOPs per logit; read logits and noise, write an
 * int32 id per row.
 */
int
elt_mixed_sample(const struct opargs *a, struct mresult *r, const struct model *m,
    int bwd)
{
	struct shape l;
	const char *dl = "c10::bfloat16", *dn = "float";
	int64_t T, V;
	long nt;
	int bl, bn;

	if (arg_shape(a, r, 1, &l) < 0 || (nt = arg_len(a, r, FD_TYPES)) < 0)
		return M_FAIL;
	T = l.n >= 1 ? l.d[0] : 1;
	V = l.n >= 2 ? l.d[1] : 1;
	if ((nt > 1 && arg_str(a, r, FD_TYPES, 1, &dl) < 0) ||
	    (nt > 2 && arg_str(a, r, FD_TYPES, 2, &dn) < 0))
		return M_FAIL;
	p_int(r, "T", T);
	p_int(r, "V", V);
	p_str(r, "dtype_logits", dl);
	p_str(r, "dtype_noise", dn);
	r->dtype = dl != NULL && *dl ? dl : NULL;
	r->flops = mul(r, mul(r, I(2), I(T)), I(V));
	bl = model_bpe(dl);
	bn = model_bpe(dn);
	set_bytes(r, bl && bn, add(r, add(r, mul(r, mul(r, I(T), I(V)), I(bl)),
	    mul(r, mul(r, I(T), I(V)), I(bn))), mul(r, I(T), I(4))));
	return M_OK;
}
