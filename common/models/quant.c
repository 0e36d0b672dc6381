/* See LICENSE file for copyright and license details. */
/*
 * Quantization: the quantizers of TraceLens's extensions (GroupQuant:
 * AITER's per-token, per-group and per-tensor FP8 quant, vLLM's, the
 * MXFP4 activation quantizers; Primus-Turbo's FP8 and MXFP4 quantizers,
 * UnaryElementwise): read the input, write the quantized copy and its
 * scales.
 */
#include <string.h>

#include "models.h"

/*
 * The Primus-Turbo quantizers: x at Input Dims[0] to FP8 (1 FLOP and
 * 1 + 1 bytes per element) or to row- and column-wise MXFP4 with E8M0
 * scales per 32 (bytes only; x must be 2-D).  Table arg: fp4.
 */
int
quant_primus(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	int fp4 = m->arg[0];
	struct shape op;
	const char *din;
	struct pynum E, M, N, b;
	int bi;

	if (arg_shape(a, r, 0, &op) < 0 || arg_str(a, r, FD_TYPES, 0, &din) < 0)
		return M_FAIL;
	p_shape(r, "op_shape", &op, 1);
	p_dtypes(r, "dtype_in_out", 2, (const char *[]){ din,
	    fp4 ? "c10::Float4_e2m1fn_x2" : "c10::Float8_e4m3fnuz" });
	if (p_stride_opt(a, r, "stride_input", 0) < 0)
		return M_FAIL;
	p_raw(r, "stride_output", "None");
	E = I(prod(r, &op));
	r->dtype = din;
	r->flops = E;
	bi = model_bpe(din);
	if (!fp4) {
		set_bytes(r, bi != 0, add(r, mul(r, E, I(bi)), mul(r, E, I(1))));
		return M_OK;
	}
	if (op.n != 2)
		return fail(r, "x is not 2-D");
	if (bi == 0) {
		set_bytes(r, 0, I(0));
		return M_OK;
	}
	M = I(op.d[0]);
	N = I(op.d[1]);
	b = mul(r, mul(r, M, N), I(bi));
	b = add(r, b, fdiv(r, add(r, mul(r, M, N), I(1)), I(2)));
	b = add(r, b, fdiv(r, add(r, mul(r, N, M), I(1)), I(2)));
	b = add(r, b, mul(r, M, fdiv(r, sub(r, add(r, N, I(32)), I(1)), I(32))));
	b = add(r, b, mul(r, N, fdiv(r, sub(r, add(r, M, I(32)), I(1)), I(32))));
	set_bytes(r, 1, b);
	return M_OK;
}

/*
 * AITER's dynamic per-token/group/tensor quant: out at Input Dims[0],
 * input at [1], scales at [2]; 2.59375 FLOPs per output element (from
 * rocprof counters); every tensor moved once.
 */
int
quant_per_group(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	struct shape in1, in2, out;
	const char *d1, *d2, *dout;
	int b1, b2, bo;

	if (arg_shape(a, r, 1, &in1) < 0 || arg_shape(a, r, 2, &in2) < 0 ||
	    arg_shape(a, r, 0, &out) < 0 || arg_str(a, r, FD_TYPES, 1, &d1) < 0 ||
	    arg_str(a, r, FD_TYPES, 2, &d2) < 0 || arg_str(a, r, FD_TYPES, 0, &dout) < 0)
		return M_FAIL;
	p_shape(r, "shape_in1", &in1, 1);
	p_shape(r, "shape_in2", &in2, 1);
	p_shape(r, "shape_out", &out, 1);
	p_dtypes(r, "dtype_in1_in2_out", 3, (const char *[]){ d1, d2, dout });
	if (p_stride(a, r, "stride_input1", 1, 0) < 0 ||
	    p_stride(a, r, "stride_input2", 2, 0) < 0 || p_stride(a, r, "stride_output", 0, 0) < 0)
		return M_FAIL;
	r->dtype = d1;
	r->flops = mul(r, I(prod(r, &out)), F(2.59375));
	b1 = model_bpe(d1);
	b2 = model_bpe(d2);
	bo = model_bpe(dout);
	if (b1 == 0 || b2 == 0 || bo == 0)
		return fail(r, "unknown dtype");
	set_bytes(r, 1, add(r, add(r, mul(r, I(prod(r, &out)), I(bo)),
	    mul(r, I(prod(r, &in1)), I(b1))), mul(r, I(prod(r, &in2)), I(b2))));
	return M_OK;
}

/*
 * vllm::triton_per_token_group_quant_fp8: x (M, N) to FP8 with one float
 * scale per group of Concrete Inputs[1] (default 128) elements; 6 FLOPs
 * per element.
 */
int
quant_vllm_group_fp8(const struct opargs *a, struct mresult *r, const struct model *m,
    int bwd)
{
	const struct jval *d, *ci, *v, *t;
	struct shape x = { { 0 }, 0 };
	int64_t M = 1, N = 1, gs = 128;
	const char *dx = "";
	struct pynum ng;
	int bi;

	/* dims = args.get("Input Dims") or [] */
	d = a->has_dims ? jdoc_root(&a->dims) : NULL;
	if (a->bad_dims || (d != NULL && d->t != J_ARR && d->t != J_NULL))
		return fail(r, "malformed Input Dims");
	if (d != NULL && d->t == J_ARR && d->n > 0 && arg_shape(a, r, 0, &x) < 0)
		return M_FAIL;
	if (x.n >= 2)
		M = x.d[0], N = x.d[1];
	else if (x.n == 1)
		N = x.d[0];
	ci = a->has_concrete ? jdoc_root(&a->concrete) : NULL;
	if (a->bad_concrete)
		return fail(r, "malformed Concrete Inputs");
	if (ci != NULL && ci->t == J_ARR && ci->n > 1) {
		/* str(concrete[1]).strip(); "" and "none" keep 128; int() or keep */
		v = jarr_at(&a->concrete, ci, 1);
		if (v->t == J_INT)
			gs = v->i;
		else if (v->t == J_STR) {
			const char *s = jstr(&a->concrete, v);
			int64_t g;

			if (shape_pyint(s, &g) == 0)
				gs = g;
		}
	}
	ng = fdiv(r, sub(r, add(r, I(N), I(gs)), I(1)), I(gs));
	if (!ng.isf && ng.i < 1)
		ng = I(1);
	/* dtype_x = types[0] if types else "" */
	t = a->has_types ? jdoc_root(&a->types) : NULL;
	if (a->bad_types)
		return fail(r, "malformed Input type");
	if (t != NULL && t->t == J_ARR && t->n > 0 && arg_str(a, r, FD_TYPES, 0, &dx) < 0)
		return M_FAIL;
	if (t != NULL && t->t != J_ARR && t->t != J_NULL)
		return fail(r, "Input type is not a list");
	p_int(r, "M", M);
	p_int(r, "N", N);
	p_int(r, "group_size", gs);
	p_num(r, "num_groups", ng);
	p_shape(r, "shape_x", &x, 1);
	p_str(r, "dtype_x", dx);
	p_shape(r, "shape_in1", &x, 1);
	p_raw(r, "shape_in2", "()");
	p_shape(r, "shape_out", &x, 1);
	p_dtypes(r, "dtype_in1_in2_out", 3, (const char *[]){ dx, NULL, "c10::float8_e4m3fn" });
	p_raw(r, "stride_input1", "None");
	p_raw(r, "stride_input2", "None");
	p_raw(r, "stride_output", "None");
	r->dtype = dx != NULL && *dx ? dx : NULL;
	r->flops = mul(r, mul(r, I(6), I(M)), I(N));
	bi = model_bpe(dx);
	set_bytes(r, bi != 0, add(r, add(r, mul(r, mul(r, I(M), I(N)), I(bi)),
	    mul(r, mul(r, I(M), I(N)), I(1))), mul(r, mul(r, I(M), ng), I(4))));
	return M_OK;
}

/*
 * The MXFP4 activation quantizers: 2 FLOPs per element; read x, write
 * half a byte per element and one E8M0 scale per 32.  Table args: xi,
 * the Input Dims slot of x; strides, Input Strides[xi] is a param
 * (missing: an error).
 */
int
quant_mxfp4(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	size_t xi = m->arg[0];
	int strides = m->arg[1];
	struct shape op;
	const char *din;
	struct pynum E, b;
	int bi;

	if (arg_shape(a, r, xi, &op) < 0 || arg_str(a, r, FD_TYPES, xi, &din) < 0)
		return M_FAIL;
	p_shape(r, "op_shape", &op, 1);
	p_dtypes(r, "dtype_in_out", 2, (const char *[]){ din, din });
	if (!strides)
		p_raw(r, "stride_input", "None");
	else if (p_stride(a, r, "stride_input", xi, 0) < 0)
		return M_FAIL;
	p_raw(r, "stride_output", "None");
	E = I(prod(r, &op));
	r->dtype = din;
	r->flops = mul(r, I(2), E);
	if ((bi = model_bpe(din)) == 0) {
		set_bytes(r, 0, I(0));
		return M_OK;
	}
	b = add(r, mul(r, E, I(bi)), mul(r, E, F(0.5)));
	set_bytes(r, 1, add(r, b, mul(r, fdiv(r, E, I(32)), I(1))));
	return M_OK;
}
