/* See LICENSE file for copyright and license details. */
/*
 * models.h: what the perf-model families of common/models/ share, and
 * their formulas, which table.c names.  Private to common/models/;
 * the rest of tl sees perfmodel.h.
 *
 * A formula reads the op with the arg_* readers, writes each param
 * with a p_* writer in TraceLens's key order, then sets r->flops, the
 * bytes (set_bytes) and r->dtype.  Arithmetic is Python's: struct pynum
 * keeps int and float apart, so "x / 2" gives a float and "x // 2" an
 * int exactly where TraceLens's expressions do, in the same order.
 * Where TraceLens raises an exception (bad index, dtype mismatch, not
 * broadcastable ...) the formula fails with a reason: fail() while it
 * reads the op (TraceLens's get_param_details), fail_metric() once
 * every param is written (TraceLens's flops() or bytes(), which the
 * backward of a model without one never reaches).
 */
#ifndef MODELS_H
#define MODELS_H

#include <math.h>
#include <stdint.h>

#include "tl.h"
#include "shape.h"
#include "perfmodel.h"

/* ---- Python numbers (args.c): the operations of TraceLens's expressions ---- */

static inline struct pynum
I(int64_t v)
{
	struct pynum p = { 0, v, (double)v };

	return p;
}

static inline struct pynum
F(double v)
{
	struct pynum p = { 1, 0, v };

	return p;
}

static inline struct pynum
add(struct mresult *r, struct pynum a, struct pynum b)
{
	int64_t v;

	if (a.isf || b.isf)
		return F(pynum_double(a) + pynum_double(b));
	if (__builtin_add_overflow(a.i, b.i, &v))
		r->ovf = 1;
	return I(v);
}

static inline struct pynum
sub(struct mresult *r, struct pynum a, struct pynum b)
{
	int64_t v;

	if (a.isf || b.isf)
		return F(pynum_double(a) - pynum_double(b));
	if (__builtin_sub_overflow(a.i, b.i, &v))
		r->ovf = 1;
	return I(v);
}

static inline struct pynum
mul(struct mresult *r, struct pynum a, struct pynum b)
{
	int64_t v;

	if (a.isf || b.isf)
		return F(pynum_double(a) * pynum_double(b));
	if (__builtin_mul_overflow(a.i, b.i, &v))
		r->ovf = 1;
	return I(v);
}

/* a / b: always a float; int / int is the rounded exact quotient. */
static inline struct pynum
tdiv(struct mresult *r, struct pynum a, struct pynum b)
{
	if (pynum_double(b) == 0) {
		r->ovf = 2;
		return F(NAN);
	}
	return F(pynum_double(a) / pynum_double(b));
}

/* a // b, floor division, as CPython computes it for ints and floats. */
struct pynum fdiv(struct mresult *r, struct pynum a, struct pynum b);

/* The element count of a shape (an overflow is flagged). */
static inline int64_t
prod(struct mresult *r, const struct shape *sh)
{
	int64_t p;

	if (shape_prod(sh, &p) < 0)
		r->ovf = 1;
	return p;
}

/* The bytes, or None (known 0: a bytes-per-element was None). */
static inline void
set_bytes(struct mresult *r, int known, struct pynum v)
{
	r->has_bytes = known;
	r->bytes = v;
}

/* ---- failures: r->why gets the reason; they return M_FAIL ---- */

/* TraceLens raises while it reads the op (get_param_details). */
int fail(struct mresult *r, const char *fmt, ...);
/* TraceLens raises in flops() or bytes(), after the params. */
int fail_metric(struct mresult *r, const char *fmt, ...);

/* ---- reading the op's arguments, with Python's failures (-1, NULL: r->why set) ---- */

/* Which argument field. */
enum field { FD_DIMS, FD_TYPES, FD_STRIDES, FD_CONCRETE };

/* The root array of a field (KeyError when missing). */
const struct jval *field(const struct opargs *a, struct mresult *r, enum field f);
/* field[k] (KeyError or IndexError). */
const struct jval *item(const struct opargs *a, struct mresult *r, enum field f,
    size_t k);
/* Input Dims[k] as a shape of ints. */
int arg_shape(const struct opargs *a, struct mresult *r, size_t k, struct shape *sh);
/* A string item of Input type or Concrete Inputs: *s NULL for JSON null (None). */
int arg_str(const struct opargs *a, struct mresult *r, enum field f, size_t k,
    const char **s);
/* A Concrete Inputs string that must not be None. */
int arg_ci(const struct opargs *a, struct mresult *r, size_t k, const char **s);
/* Python's float(), int() and eval() ("True", "False") of a Concrete Inputs string. */
int arg_float(const struct opargs *a, struct mresult *r, size_t k, double *d);
int arg_int(const struct opargs *a, struct mresult *r, size_t k, int64_t *v);
int arg_evalbool(const struct opargs *a, struct mresult *r, size_t k, int *b);
/* Python's "Input Dims[k] is not None" (--fixed-models: a non-empty tensor). */
int arg_notnone(const struct opargs *a, struct mresult *r, size_t k, int *b);
/* len(field). */
long arg_len(const struct opargs *a, struct mresult *r, enum field f);
/* Python truth of Input Dims[k] when it exists; 0 when it does not. */
int dims_truthy(const struct opargs *a, size_t k);
/* 1 if s is a decimal integer too big for int64 (Python would take it). */
int bigint(const char *s);
/* tuple(Input type[from:to]) into t[] (a short list gives fewer); the count. */
long dtype_slice(const struct opargs *a, struct mresult *r, size_t from, size_t to,
    const char **t);
/* Input type[0] when the list is not empty, else dflt; *n: 0 when empty or missing. */
int type0(const struct opargs *a, struct mresult *r, const char *dflt, const char **s,
    int *n);
/* "bpe = name2bpe(dtype) if dtype else None; bpe if bpe is not None else 2" */
int bpe_or2(const char *dt);

/* ---- writing the params: a Python dict literal, in TraceLens's key order ---- */

/* The key k (the value follows, written to r->params). */
void pkey(struct mresult *r, const char *k);
/* Python's repr of an int, of a str (NULL: None). */
void vint(struct buf *b, int64_t v);
void vstr(struct buf *b, const char *s);
/* Param k: an int, a number, a bool, a literal as is (None, [] ...), a str or None. */
void p_int(struct mresult *r, const char *k, int64_t v);
void p_num(struct mresult *r, const char *k, struct pynum v);
void p_bool(struct mresult *r, const char *k, int v);
void p_raw(struct mresult *r, const char *k, const char *lit);
void p_str(struct mresult *r, const char *k, const char *s);
/* A shape as a tuple (a 1-tuple with its comma) or a list. */
void vshape(struct buf *b, const struct shape *sh, int tuple);
/* A shape as a tuple or a list. */
void p_shape(struct mresult *r, const char *k, const struct shape *sh, int tuple);
/*
 * p_shape of a tuple whose entry i is a Python bool when bit i of bools
 * is set, and the float fv[i] when bit i of floats is.
 */
void p_shapeb(struct mresult *r, const char *k, const struct shape *sh, unsigned bools,
    const double *fv, unsigned floats);
/* A tuple of n dtype strings (NULL: None). */
void p_dtypes(struct mresult *r, const char *k, size_t n, const char *const *t);
/* tuple(Input Strides[idx]); opt: a missing Input Strides gives None. */
int p_stride(const struct opargs *a, struct mresult *r, const char *k, size_t idx,
    int opt);
/*
 * Python's "try: tuple(S[i]), tuple(S[j]) except KeyError[, IndexError]:
 * None, None" for the params ka, kb (idxerr: IndexError caught too).
 */
int p_strides2(const struct opargs *a, struct mresult *r, const char *ka, const char *kb,
    size_t i, size_t j, int idxerr);
/* Python's "try: tuple(S[k]) except (KeyError, IndexError): None". */
int p_stride_opt(const struct opargs *a, struct mresult *r, const char *key, size_t k);

/* ---- the formulas, by family (their file); table.c says which op has which ---- */

/* A formula takes the table row and bwd, which most do not need. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

/* gemm.c */
mformula gemm_aten, gemm_scaled_mm, gemm_vllm_rocm, gemm_vllm_dq, gemm_te_ts, gemm_tev2,
    gemm_hipblaslt, gemm_a8w8_blockscale, gemm_a16w16, gemm_a16w16_atomic,
    gemm_a16w16_asm, gemm_afp4wfp4, gemm_batched_a16wfp4, gemm_batched_a8w8;
/* groupedgemm.c */
mformula grouped_gemm, grouped_gemm_vk;
/* sdpa.c */
mformula sdpa_flash, sdpa_flash_bwd, sdpa_varlen, sdpa_aten, sdpa_aiter, sdpa_evoformer;
/* conv.c */
mformula conv_aten, conv_bias, conv_bias_bwd;
/* elementwise.c */
mformula elt_unary, elt_pad, elt_upsample, elt_binary, elt_act_and_mul, elt_mixed_sample;
/* quant.c */
mformula quant_primus, quant_per_group, quant_vllm_group_fp8, quant_mxfp4;
/* reduce.c */
mformula reduce_aten;
/* norm.c */
mformula norm_channels, norm_layer, norm_batch_bwd, norm_layer_bwd, norm_group_bwd,
    norm_rms, norm_rms_bwd, norm_rms_ext, norm_ln_modulate;
/* moe.c */
mformula moe_comm, moe_cktile_up, moe_cktile_down, moe_ck_stage1, moe_ck_stage2, moe_flydsl,
    moe_fused_blockscale, moe_sort, moe_topk_softplus,
    moe_triton_invoke, moe_append_shared;
/* mhc.c */
mformula mhc;
/* ssm.c */
mformula ssm_causal_conv1d, ssm_mamba;
/* rope.c */
mformula rope_fused, rope_aiter_2c, rope_sgl, rope_qk_cache;
/* crossentropy.c */
mformula cross_entropy;
/* collective.c */
mformula collective;
/* infattn.c */
mformula infattn_vllm, infattn_unannotated, infattn_pa_sparse_prefill,
    infattn_store_cache;
/* triton.c */
mformula triton;
int triton_can(const struct opargs *a);

/* The kinds of extension RMSNorm (norm_rms_ext), by what they fuse around the norm. */
enum rmskind {
	RMS_PLAIN,	/* aiter::rms_norm, aiter::rmsnorm */
	RMS_DQUANT,	/* + per-token FP8 quant */
	RMS_QUANT,	/* + per-group FP8 quant, group size Concrete Inputs[5] (0: N) */
	RMS_GQUANT,	/* + per-group FP8 quant, group size Concrete Inputs[3] */
	RMS_ADD,	/* residual add + norm */
	RMS_ADDGQUANT,	/* residual add + norm + per-group FP8 quant, group size [4] */
	RMS_ADDPAD,	/* residual add + norm + pad to a multiple (Concrete Inputs[4]) */
	RMS_MXFP4	/* [add] + norm [+ a second norm] + MXFP4 quant */
};

#endif
