/* See LICENSE file for copyright and license details. */
/*
 * model.c: the model tl-gentrace imitates, a small vision-language
 * transformer: its forward pass on the main thread, its backward pass
 * on the autograd thread, and the rest of a training step (data
 * loading, the optimizer, DDP's all-reduces), built in memory with
 * step.c's events.
 */

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gentrace.h"
#include "model.h"
#include "tl.h"

static const char *const nodename[2][NNODE] = { {
	"AddmmBackward0", "MmBackward0", "TBackward0",
	"NativeLayerNormBackward0", "ScaledDotProductFlashAttentionBackward0",
	"AddBackward0", "GeluBackward0", "ViewBackward0", "SplitBackward0",
	"TransposeBackward0", "CloneBackward0", "UnsafeViewBackward0",
	"EmbeddingBackward0", "ConvolutionBackward0", "CatBackward0",
	"LogSoftmaxBackward0", "NllLossBackward0", "MeanBackward0",
	"MulBackward0" }, {
	"AddmmBackward0", "MmBackward0", "TBackward0",
	"NativeLayerNormBackward0",
	"ScaledDotProductEfficientAttentionBackward0",
	"AddBackward0", "GeluBackward0", "ViewBackward0", "SplitBackward0",
	"TransposeBackward0", "CloneBackward0", "UnsafeViewBackward0",
	"EmbeddingBackward0", "ConvolutionBackward0", "CatBackward0",
	"LogSoftmaxBackward0", "NllLossBackward0", "MeanBackward0",
	"MulBackward0" } };

/* ------------------------------------------------------------------ */
/* The model: a patch-embedding stem and a text embedding feeding     */
/* L decoder layers, an LM head and a cross-entropy loss.             */

/* A non-ASCII path keeps \u escapes in every trace. */
#define MODEL_PY	"my_project/caf\\u00e9/model.py"
/* Quotes and backslashes in a user annotation. */
#define LOAD_NAME	"load_batch \\\"train\\\" C:\\\\data\\\\shard_0"

static const char *const clsname[NCLS] = {
	"VLM", "PatchEmbed", "Conv2d", "Embedding", "DecoderLayer",
	"Attention", "MLP", "GELU", "LayerNorm", "Linear"
};

static char *
xstrdupf(const char *fmt, ...)
{
	va_list ap;
	char buf[256], *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(buf))
		tl_die("name too long");
	p = xrealloc(NULL, (size_t)n + 1, 1);
	memcpy(p, buf, (size_t)n + 1);
	return p;
}

void
mkmnames(struct gen *gen)
{
	int c, k, n = 4 * gen->tr.L + 2;

	for (c = 0; c < NCLS; c++) {
		gen->mname[c] = xrealloc(NULL, (size_t)n, sizeof(char *));
		for (k = 0; k < n; k++)
			gen->mname[c][k] = xstrdupf("nn.Module: %s_%d",
			    clsname[c], k);
	}
	for (k = 0; k < NNODE; k++)
		gen->evalname[k] =
		    xstrdupf("autograd::engine::evaluate_function: %s",
		    nodename[opt.amd][k]);
}

/* Python frames of a module call, innermost its forward(). */
static void
mod(struct gen *gen, struct thr *t, int cls, int k, const char *fwd)
{
	int i;

	py(gen, t, "torch/nn/modules/module.py(1751): _wrapped_call_impl");
	py(gen, t, "torch/nn/modules/module.py(1762): _call_impl");
	i = beg(gen, t, H_PY, gen->mname[cls][k]);
	gen->hv[i].modid = (int16_t)(k + 1);
	py(gen, t, fwd);
}

static int64_t
tokens(struct gen *gen)
{
	return (int64_t)gen->tr.B * gen->tr.T;
}

/* aten::t of a weight [a, b]; only the forward pass records it. */
static void
f_t(struct gen *gen, struct thr *t, int a, int b, int fwd)
{
	if (fwd)
		opseq(gen, t, "aten::t", N_T, a, b, 0, 0);
	else
		op(gen, t, "aten::t");
	T2(BF, a, b);
	op(gen, t, "aten::transpose");
	T2(BF, a, b); SC("0"); SC("1");
	op(gen, t, "aten::as_strided");
	T2(BF, a, b); L2(b, a); L2(1, b); NO();
	leaf(gen, t);
	if (gen->bleed) {
		endbleed(gen, t);
		gen->bleed = 0;
	} else
		end(gen, t);
	end(gen, t);
}

static void
f_view(struct gen *gen, struct thr *t, int node, int64_t a, int64_t b,
    int64_t c, int64_t d)
{
	if (node >= 0)
		opseq(gen, t, "aten::view", node, (int)(a * b), (int)(c * d), 0,
		    0);
	else
		op(gen, t, "aten::view");
	T2(BF, a * b, c * d); L4(a, b, c, d);
	leaf(gen, t);
}

static void
f_linear(struct gen *gen, struct thr *t, int k, int64_t M, int K, int N,
    int bias)
{
	int role = gemmrole(M, N, K);

	mod(gen, t, C_LIN, k, "torch/nn/modules/linear.py(125): forward");
	py(gen, t, "<built-in function linear>");
	op(gen, t, "aten::linear");
	T3(BF, gen->tr.B, gen->tr.T, K); T2(BF, N, K);
	if (bias)
		T1(BF, N);
	else
		NO();
	f_t(gen, t, N, K, 1);
	if (bias) {
		opseq(gen, t, "aten::addmm", N_ADDMM, (int)M, K, N, 0);
		T1(BF, N); T2(BF, M, K); TT(BF, K, N); SC("1"); SC("1");
		launch(gen, t, role, SC_, gemm_ns(gen, M, N, K),
		    clampgrid((M + 127) / 128 * ((N + 127) / 128)), 1);
		end(gen, t);
	} else {
		op(gen, t, "aten::matmul");
		T3(BF, gen->tr.B, gen->tr.T, K); TT(BF, K, N);
		f_view(gen, t, -1, 1, M, 1, K);
		opseq(gen, t, "aten::mm", N_MM, (int)M, K, N, 0);
		T2(BF, M, K); TT(BF, K, N);
		launch(gen, t, role, SC_, gemm_ns(gen, M, N, K),
		    clampgrid((M + 127) / 128 * ((N + 127) / 128)), 1);
		end(gen, t);
		opseq(gen, t, "aten::_unsafe_view", N_UVIEW, (int)M, N, 0, 0);
		T2(BF, M, N); L3(gen->tr.B, gen->tr.T, N);
		leaf(gen, t);
		end(gen, t);
	}
	end(gen, t);
	endn(gen, t, 5);
}

static int
f_ln(struct gen *gen, struct thr *t, int k)
{
	int64_t M = tokens(gen);
	int e;

	mod(gen, t, C_LN, k, "torch/nn/modules/normalization.py(217): forward");
	py(gen, t, "torch/nn/functional.py(2910): layer_norm");
	py(gen, t,
	    "<built-in method layer_norm of type object at 0x7f3b1c2e4a40>");
	op(gen, t, "aten::layer_norm");
	T3(BF, gen->tr.B, gen->tr.T, gen->tr.H); L1(gen->tr.H);
	T1(BF, gen->tr.H); T1(BF, gen->tr.H);
	SC("1e-05"); SC("True");
	opseq(gen, t, "aten::native_layer_norm", N_LN, (int)M, gen->tr.H, 0, 0);
	e = gen->ntp - 1;
	T3(BF, gen->tr.B, gen->tr.T, gen->tr.H); L1(gen->tr.H);
	T1(BF, gen->tr.H); T1(BF, gen->tr.H);
	SC("1e-05");
	f_empty(gen, t, gen->tr.B, (int64_t)gen->tr.T * gen->tr.H);
	f_empty(gen, t, M, 1);
	launch(gen, t, K_LNF, SC_, mem_ns(gen, M * gen->tr.H * 4), clampgrid(M),
	    1);
	end(gen, t);
	end(gen, t);
	endn(gen, t, 6);
	return e;
}

static void
f_add(struct gen *gen, struct thr *t, int64_t a, int64_t b)
{
	opseq(gen, t, "aten::add", N_ADD, (int)a, (int)b, 0, 0);
	T2(BF, a, b); T2(BF, a, b); SC("1");
	launch(gen, t, K_ADD, SC_, mem_ns(gen, a * b * 6), egrid(gen, K_ADD,
	    a * b), 1);
	end(gen, t);
}

static void
f_attn(struct gen *gen, struct thr *t, int i)
{
	int64_t M = tokens(gen), bh = (int64_t)gen->tr.B * gen->tr.nh;
	int j, q;
	int64_t fl;

	mod(gen, t, C_ATTN, i, MODEL_PY "(96): forward");
	f_linear(gen, t, 4 * i, M, gen->tr.H, 3 * gen->tr.H, 1);
	opseq(gen, t, "aten::split", N_SPLIT, (int)M, 3 * gen->tr.H, 0, 0);
	T3(BF, gen->tr.B, gen->tr.T, 3 * gen->tr.H); SI(gen->tr.H); SC("-1");
	for (j = 0; j < 3; j++) {
		op(gen, t, "aten::narrow");
		T3(BF, gen->tr.B, gen->tr.T, 3 * gen->tr.H); SC("-1");
		SI(j * gen->tr.H); SI(gen->tr.H);
		op(gen, t, "aten::slice");
		T3(BF, gen->tr.B, gen->tr.T, 3 * gen->tr.H); SC("-1");
		SI(j * gen->tr.H);
		SI((j + 1) * gen->tr.H); SC("1");
		op(gen, t, "aten::as_strided");
		T3(BF, gen->tr.B, gen->tr.T, 3 * gen->tr.H);
		L3(gen->tr.B, gen->tr.T, gen->tr.H);
		L3((int64_t)gen->tr.T * 3 * gen->tr.H, 3 * gen->tr.H, 1);
		SI(j * gen->tr.H);
		leaf(gen, t);
		endn(gen, t, 2);
	}
	end(gen, t);
	for (j = 0; j < 3; j++) {
		f_view(gen, t, N_VIEW, gen->tr.B, gen->tr.T, gen->tr.nh,
		    gen->tr.hd);
		opseq(gen, t, "aten::transpose", N_TRANSPOSE, (int)M, gen->tr.H,
		    0, 0);
		T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd); SC("1");
		SC("2");
		op(gen, t, "aten::as_strided");
		T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
		L4(gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd);
		L4((int64_t)gen->tr.T * gen->tr.H, gen->tr.hd, gen->tr.H, 1);
		NO();
		leaf(gen, t);
		end(gen, t);
	}
	py(gen, t, "<built-in function scaled_dot_product_attention>");
	op(gen, t, "aten::scaled_dot_product_attention");
	for (j = 0; j < 3; j++)
		T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd);
	NO(); SC("0."); SC("True"); NO(); SC("False");
	opseq(gen, t,
	    opt.amd ? "aten::_scaled_dot_product_efficient_attention" :
	    "aten::_scaled_dot_product_flash_attention", N_SDPA, (int)bh,
	    gen->tr.T, gen->tr.hd, 0);
	for (j = 0; j < 3; j++)
		T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd);
	SC("0."); SC("True"); SC("False"); NO();
	for (q = 0; q < 3; q++) {
		op(gen, t, "aten::transpose");
		T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd); SC("1");
		SC("2");
		op(gen, t, "aten::as_strided");
		T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd);
		L4(gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
		L4((int64_t)gen->tr.T * gen->tr.H, gen->tr.H, gen->tr.hd, 1);
		NO();
		leaf(gen, t);
		end(gen, t);
	}
	op(gen, t, opt.amd ? "aten::_efficient_attention_forward" :
	    "aten::_flash_attention_forward");
	for (j = 0; j < 3; j++)
		T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
	NO(); NO(); SI(gen->tr.T); SI(gen->tr.T); SC("0."); SC("True");
	f_empty(gen, t, M, gen->tr.H);
	f_empty(gen, t, bh, gen->tr.T);
	/* Causal attention: half of 4*T*T*hd flops per head. */
	fl = 2 * bh * gen->tr.T * gen->tr.T * gen->tr.hd;
	launch(gen, t, K_ATTF, SC_,
	    fl / ((int64_t)gen->tr.g->tflops * 600) + 5000,
	    clampgrid((gen->tr.T + 127) / 128), clampgrid(bh));
	end(gen, t);
	end(gen, t);
	end(gen, t);
	end(gen, t);
	opseq(gen, t, "aten::transpose", N_TRANSPOSE, (int)M, gen->tr.H, 0, 0);
	T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd); SC("1"); SC("2");
	op(gen, t, "aten::as_strided");
	T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd);
	L4(gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
	L4((int64_t)gen->tr.T * gen->tr.H, gen->tr.hd, gen->tr.H, 1); NO();
	leaf(gen, t);
	end(gen, t);
	op(gen, t, "aten::reshape");
	T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
	L3(gen->tr.B, gen->tr.T, gen->tr.H);
	opseq(gen, t, "aten::clone", N_CLONE, (int)M, gen->tr.H, 0, 0);
	T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd); NO();
	op(gen, t, "aten::empty_like");
	T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd); NO(); NO(); NO();
	NO(); SC("0");
	op(gen, t, "aten::empty_strided");
	L4(gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
	L4((int64_t)gen->tr.T * gen->tr.H, gen->tr.H, gen->tr.hd, 1);
	SC("15"); SC("0"); NO(); NO();
	leaf(gen, t);
	end(gen, t);
	op(gen, t, "aten::copy_");
	T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
	T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
	SC("False");
	launch(gen, t, K_COPY, SC_, mem_ns(gen, M * gen->tr.H * 4), egrid(gen,
	    K_COPY, M * gen->tr.H), 1);
	end(gen, t);
	end(gen, t);
	opseq(gen, t, "aten::_unsafe_view", N_UVIEW, (int)M, gen->tr.H, 0, 0);
	T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
	L3(gen->tr.B, gen->tr.T, gen->tr.H);
	leaf(gen, t);
	end(gen, t);
	f_linear(gen, t, 4 * i + 1, M, gen->tr.H, gen->tr.H, 1);
	endn(gen, t, 4);
}

static void
f_mlp(struct gen *gen, struct thr *t, int i)
{
	int64_t M = tokens(gen);

	mod(gen, t, C_MLP, i, MODEL_PY "(64): forward");
	f_linear(gen, t, 4 * i + 2, M, gen->tr.H, gen->tr.F, 1);
	mod(gen, t, C_GELU, i, "torch/nn/modules/activation.py(734): forward");
	py(gen, t, "<built-in function gelu>");
	opseq(gen, t, "aten::gelu", N_GELU, (int)M, gen->tr.F, 0, 0);
	T3(BF, gen->tr.B, gen->tr.T, gen->tr.F);
	launch(gen, t, K_GELU, SC_, mem_ns(gen, M * gen->tr.F * 4), egrid(gen,
	    K_GELU, M * gen->tr.F), 1);
	end(gen, t);
	endn(gen, t, 5);
	f_linear(gen, t, 4 * i + 3, M, gen->tr.F, gen->tr.H, 1);
	endn(gen, t, 4);
}

static void
f_layer(struct gen *gen, struct thr *t, int i)
{
	int e;

	mod(gen, t, C_LAYER, i, MODEL_PY "(140): forward");
	e = f_ln(gen, t, 2 * i);
	/* Backward reaches this node last for the layer: a bucket fills. */
	if (i % gen->tr.bucket == 0)
		gen->tp[e].flush = 1;
	f_attn(gen, t, i);
	f_add(gen, t, tokens(gen), gen->tr.H);
	f_ln(gen, t, 2 * i + 1);
	f_mlp(gen, t, i);
	f_add(gen, t, tokens(gen), gen->tr.H);
	endn(gen, t, 4);
}

static void
f_stem(struct gen *gen, struct thr *t)
{
	int64_t M = tokens(gen), n;
	int ip = gen->tr.img / gen->tr.patch;

	mod(gen, t, C_PATCH, 0, MODEL_PY "(31): forward");
	mod(gen, t, C_CONV, 0, "torch/nn/modules/conv.py(554): forward");
	py(gen, t, "torch/nn/modules/conv.py(549): _conv_forward");
	py(gen, t, "<built-in method conv2d of type object at 0x7f3b1c2e4a40>");
	op(gen, t, "aten::conv2d");
	T4(BF, gen->tr.B, 3, gen->tr.img, gen->tr.img);
	T4(BF, gen->tr.H, 3, gen->tr.patch, gen->tr.patch);
	T1(BF, gen->tr.H); L2(gen->tr.patch, gen->tr.patch); L2(0, 0); L2(1, 1);
	SC("1");
	opseq(gen, t, "aten::convolution", N_CONV, gen->tr.B, gen->tr.H, 0, 0);
	T4(BF, gen->tr.B, 3, gen->tr.img, gen->tr.img);
	T4(BF, gen->tr.H, 3, gen->tr.patch, gen->tr.patch);
	T1(BF, gen->tr.H); L2(gen->tr.patch, gen->tr.patch); L2(0, 0); L2(1, 1);
	SC("False"); L2(0, 0); SC("1");
	op(gen, t, "aten::_convolution");
	T4(BF, gen->tr.B, 3, gen->tr.img, gen->tr.img);
	T4(BF, gen->tr.H, 3, gen->tr.patch, gen->tr.patch);
	T1(BF, gen->tr.H); L2(gen->tr.patch, gen->tr.patch); L2(0, 0); L2(1, 1);
	SC("False"); L2(0, 0); SC("1"); SC("False"); SC("False");
	SC("True"); SC("True");
	op(gen, t,
	    opt.amd ? "aten::miopen_convolution" : "aten::cudnn_convolution");
	T4(BF, gen->tr.B, 3, gen->tr.img, gen->tr.img);
	T4(BF, gen->tr.H, 3, gen->tr.patch, gen->tr.patch);
	L2(0, 0); L2(gen->tr.patch, gen->tr.patch); L2(1, 1); SC("1");
	SC("False"); SC("True"); SC("True");
	f_empty(gen, t, (int64_t)gen->tr.B * gen->tr.H, (int64_t)ip * ip);
	n = (int64_t)gen->tr.B * 3 * gen->tr.img * gen->tr.img;
	launch(gen, t, K_CONVT, SC_, mem_ns(gen, n * 4), egrid(gen, K_CONVT, n),
	    1);
	n = (int64_t)gen->tr.B * ip * ip;
	launch(gen, t, K_CONVF, SC_, gemm_ns(gen, n, gen->tr.H,
	    3 * gen->tr.patch * gen->tr.patch),
	    clampgrid((n + 127) / 128 * ((gen->tr.H + 127) / 128)), 1);
	end(gen, t);
	op(gen, t, "aten::reshape");
	T1(BF, gen->tr.H); L4(1, gen->tr.H, 1, 1);
	op(gen, t, "aten::view");
	T1(BF, gen->tr.H); L4(1, gen->tr.H, 1, 1);
	leaf(gen, t);
	end(gen, t);
	op(gen, t, "aten::add_");
	T4(BF, gen->tr.B, gen->tr.H, ip, ip); T4(BF, 1, gen->tr.H, 1, 1);
	SC("1");
	launch(gen, t, K_ADD, SC_, mem_ns(gen, n * gen->tr.H * 4), egrid(gen,
	    K_ADD, n * gen->tr.H), 1);
	end(gen, t);
	end(gen, t);
	end(gen, t);
	end(gen, t);
	endn(gen, t, 6);
	op(gen, t, "aten::flatten");
	T4(BF, gen->tr.B, gen->tr.H, ip, ip); SC("2"); SC("-1");
	f_view(gen, t, N_VIEW, gen->tr.B, gen->tr.H, ip, ip);
	end(gen, t);
	opseq(gen, t, "aten::transpose", N_TRANSPOSE,
	    (int)(gen->tr.B * gen->tr.P), gen->tr.H, 0, 0);
	T3(BF, gen->tr.B, gen->tr.H, gen->tr.P); SC("1"); SC("2");
	op(gen, t, "aten::as_strided");
	T3(BF, gen->tr.B, gen->tr.H, gen->tr.P);
	L3(gen->tr.B, gen->tr.P, gen->tr.H);
	L3((int64_t)gen->tr.H * gen->tr.P, 1, gen->tr.P); NO();
	leaf(gen, t);
	end(gen, t);
	endn(gen, t, 4);

	mod(gen, t, C_EMB, 0, "torch/nn/modules/sparse.py(190): forward");
	py(gen, t, "torch/nn/functional.py(2551): embedding");
	py(gen, t,
	    "<built-in method embedding of type object at 0x7f3b1c2e4a40>");
	opseq(gen, t, "aten::embedding", N_EMB, gen->tr.V, gen->tr.H,
	    gen->tr.B * gen->tr.S, 0);
	T2(BF, gen->tr.V, gen->tr.H); T2(TY_I64, gen->tr.B, gen->tr.S);
	SC("-1"); SC("False");
	SC("False");
	op(gen, t, "aten::reshape");
	T2(TY_I64, gen->tr.B, gen->tr.S); L1(-1);
	op(gen, t, "aten::view");
	T2(TY_I64, gen->tr.B, gen->tr.S); L1(-1);
	leaf(gen, t);
	end(gen, t);
	op(gen, t, "aten::index_select");
	T2(BF, gen->tr.V, gen->tr.H); SC("0");
	T1(TY_I64, (int64_t)gen->tr.B * gen->tr.S);
	f_empty(gen, t, (int64_t)gen->tr.B * gen->tr.S, gen->tr.H);
	launch(gen, t, K_IDXSEL, SC_, mem_ns(gen,
	    (int64_t)gen->tr.B * gen->tr.S * gen->tr.H * 4),
	    clampgrid((int64_t)gen->tr.B * gen->tr.S / 8 + 1), 1);
	end(gen, t);
	op(gen, t, "aten::view");
	T2(BF, (int64_t)gen->tr.B * gen->tr.S, gen->tr.H);
	L3(gen->tr.B, gen->tr.S, gen->tr.H);
	leaf(gen, t);
	end(gen, t);
	endn(gen, t, 6);

	opseq(gen, t, "aten::cat", N_CAT, (int)M, gen->tr.H, 0, 0);
	TL(); SC("1");
	launch(gen, t, K_CAT, SC_, mem_ns(gen, M * gen->tr.H * 4), egrid(gen,
	    K_CAT, M * gen->tr.H), 1);
	end(gen, t);
}

static void
f_loss(struct gen *gen, struct thr *t)
{
	int64_t M = tokens(gen);

	py(gen, t, "torch/nn/functional.py(3494): cross_entropy");
	py(gen, t,
	    "<built-in method cross_entropy_loss of PyCapsule object at 0x7f3a5d8c1e70>");
	op(gen, t, "aten::cross_entropy_loss");
	T2(BF, M, gen->tr.V); T1(TY_I64, M); NO(); SC("1"); SC("-100");
	SC("0.0");
	op(gen, t, "aten::log_softmax");
	T2(BF, M, gen->tr.V); SC("1"); NO();
	opseq(gen, t, "aten::_log_softmax", N_LOGSM, (int)M, gen->tr.V, 0, 0);
	T2(BF, M, gen->tr.V); SC("1"); SC("True");
	launch(gen, t, K_LSMF, SC_, mem_ns(gen, M * gen->tr.V * 6),
	    clampgrid(M), 1);
	endn(gen, t, 2);
	op(gen, t, "aten::nll_loss_nd");
	T2(TY_F32, M, gen->tr.V); T1(TY_I64, M); NO(); SC("1"); SC("-100");
	op(gen, t, "aten::nll_loss");
	T2(TY_F32, M, gen->tr.V); T1(TY_I64, M); NO(); SC("1"); SC("-100");
	opseq(gen, t, "aten::nll_loss_forward", N_NLL, (int)M, gen->tr.V, 0, 0);
	T2(TY_F32, M, gen->tr.V); T1(TY_I64, M); NO(); SC("1"); SC("-100");
	launch(gen, t, K_NLLF, SC_, mem_ns(gen, M * 12), 1, 1);
	endn(gen, t, 3);
	end(gen, t);
	endn(gen, t, 2);

	/* A z-loss term brings mean, mul and add into the graph. */
	opseq(gen, t, "aten::mean", N_MEAN, (int)M, 1, 0, 0);
	T1(TY_F32, M); NO();
	launch(gen, t, K_MEAN, SC_, mem_ns(gen, M * 4), 1, 1);
	end(gen, t);
	opseq(gen, t, "aten::mul", N_MUL, 1, 1, 0, 0);
	T0(TY_F32); SC("0.0001");
	launch(gen, t, K_MUL, SC_, 2500, 1, 1);
	end(gen, t);
	opseq(gen, t, "aten::add", N_ADD, 1, 1, 0, 0);
	T0(TY_F32); T0(TY_F32); SC("1");
	launch(gen, t, K_ADD, SC_, 2500, 1, 1);
	end(gen, t);

	/* A compiled region: a Triton kernel launched through the driver. */
	beg(gen, t, H_UANN, "## Call CompiledFxGraph fq3kzv7bnw ##");
	launch(gen, t, K_TAB, SC_, mem_ns(gen, M * 8), egrid(gen, K_TAB, M), 1);
	end(gen, t);
}

static void
forward(struct gen *gen, struct thr *t)
{
	int i;

	mod(gen, t, C_VLM, 0, MODEL_PY "(210): forward");
	f_stem(gen, t);
	for (i = 0; i < gen->tr.L; i++)
		f_layer(gen, t, i);
	f_ln(gen, t, 2 * gen->tr.L);
	f_linear(gen, t, 4 * gen->tr.L, tokens(gen), gen->tr.H, gen->tr.V, 0);
	endn(gen, t, 4);
}

/* ------------------------------------------------------------------ */
/* Backward pass on the autograd thread.                              */

/* AccumulateGrad of a parameter [a] or [a, b]. */
static int64_t
accgrad(struct gen *gen, struct thr *t, int a, int b)
{
	int i;

	i = op(gen, t,
	    "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad");
	gen->hv[i].kind = A_ANN;
	gen->hv[i].nin = -1;
	op(gen, t, "torch::autograd::AccumulateGrad");
	if (b) T2(BF, a, b); else T1(BF, a);
	op(gen, t, "aten::detach");
	if (b) T2(BF, a, b); else T1(BF, a);
	op(gen, t, "detach");
	if (b) T2(BF, a, b); else T1(BF, a);
	leaf(gen, t);
	endn(gen, t, 3);
	return (int64_t)a * (b ? b : 1);
}

static int64_t
bnode(struct gen *gen, struct thr *t, const struct tape *e)
{
	int64_t M = e->a, n, p = 0;
	int i;

	i = op(gen, t, gen->evalname[e->node]);
	gen->hv[i].kind = A_EVAL;
	gen->hv[i].seq = e->seq;
	gen->hv[i].nin = -1;
	i = op(gen, t, nodename[opt.amd][e->node]);
	gen->hv[i].kind = A_NODE;
	gen->hv[i].seq = e->seq;
	if (e->node == N_SDPA)
		T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd);
	else if (e->node == N_T)
		T2(BF, e->b, e->a);
	else if (e->node == N_CONV)
		T4(BF, gen->tr.B, gen->tr.H, gen->tr.img / gen->tr.patch,
		    gen->tr.img / gen->tr.patch);
	else if (e->node == N_ADDMM || e->node == N_MM)
		T2(BF, e->a, e->c);
	else if (e->node == N_EMB)
		T3(BF, gen->tr.B, gen->tr.S, gen->tr.H);
	else
		T2(BF, e->a, e->b);
	GROW(gen->fb, gen->nfb, gen->fbcap);
	gen->fb[gen->nfb].fts = e->ts;
	gen->fb[gen->nfb++].bts = gen->hv[i].ts;

	switch (e->node) {
	case N_ADDMM:
	case N_MM:
		f_t(gen, t, e->c, e->b, 0);
		op(gen, t, "aten::mm");
		T2(BF, e->a, e->c); T2(BF, e->c, e->b);
		launch(gen, t, gemmrole(e->a, e->b, e->c), SC_,
		    gemm_ns(gen, e->a, e->b, e->c),
		    clampgrid((M + 127) / 128 * ((e->b + 127) / 128)), 1);
		end(gen, t);
		op(gen, t, "aten::t");
		T2(BF, e->a, e->c);
		leaf(gen, t);
		op(gen, t, "aten::mm");
		TT(BF, e->c, e->a); T2(BF, e->a, e->b);
		launch(gen, t, gemmrole(e->c, e->b, e->a), SC_,
		    gemm_ns(gen, e->c, e->b, e->a),
		    clampgrid((e->c + 127) / 128 * ((e->b + 127) / 128)), 1);
		end(gen, t);
		if (e->node == N_ADDMM) {
			op(gen, t, "aten::sum");
			T2(BF, e->a, e->c); L1(0); SC("True"); NO();
			launch(gen, t, K_SUM, SC_, mem_ns(gen, M * e->c * 2),
			    clampgrid(e->c / 32 + 1), 16);
			end(gen, t);
			op(gen, t, "aten::view");
			T2(BF, 1, e->c); L1(e->c);
			leaf(gen, t);
		}
		break;
	case N_T:
		f_t(gen, t, e->b, e->a, 0);
		break;
	case N_LN:
		op(gen, t, "aten::native_layer_norm_backward");
		T2(BF, e->a, e->b); T2(BF, e->a, e->b); L1(e->b);
		T1(TY_F32, e->a); T1(TY_F32, e->a); T1(BF, e->b); T1(BF, e->b);
		f_empty(gen, t, e->a, e->b);
		launch(gen, t, K_LNBI, SC_, mem_ns(gen, M * e->b * 6),
		    clampgrid(M), 1);
		launch(gen, t, K_LNBG, SC_, mem_ns(gen, M * e->b * 4),
		    clampgrid(e->b / 32 + 1), 1);
		end(gen, t);
		memfree(gen, t);
		break;
	case N_SDPA:
		op(gen, t, opt.amd ?
		    "aten::_scaled_dot_product_efficient_attention_backward" :
		    "aten::_scaled_dot_product_flash_attention_backward");
		T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd);
		T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd);
		T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd);
		T4(BF, gen->tr.B, gen->tr.nh, gen->tr.T, gen->tr.hd);
		SC("0."); SC("True");
		op(gen, t, opt.amd ? "aten::_efficient_attention_backward" :
		    "aten::_flash_attention_backward");
		T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
		T4(BF, gen->tr.B, gen->tr.T, gen->tr.nh, gen->tr.hd);
		SC("0."); SC("True");
		f_empty(gen, t, (int64_t)e->a * e->b, e->c);
		f_empty(gen, t, (int64_t)e->a * e->b, e->c);
		n = (int64_t)e->a * e->b * e->c;
		launch(gen, t, K_ATTB0, SC_, mem_ns(gen, n * 4),
		    clampgrid((e->b + 127) / 128), clampgrid(e->a));
		if (!opt.amd)
			memop(gen, t, G_MEMSET, "Memset (Device)", SC_, n * 4,
			    0);
		launch(gen, t, K_ATTB1, SC_,
		    5 * n * e->b / ((int64_t)gen->tr.g->tflops * 600) + 8000,
		    clampgrid((e->b + 127) / 128), clampgrid(e->a));
		launch(gen, t, K_ATTB2, SC_, mem_ns(gen, n * 6),
		    clampgrid((e->b + 127) / 128), clampgrid(e->a));
		endn(gen, t, 2);
		memfree(gen, t);
		break;
	case N_GELU:
		op(gen, t, "aten::gelu_backward");
		T2(BF, e->a, e->b); T2(BF, e->a, e->b);
		launch(gen, t, K_GELUB, SC_, mem_ns(gen, M * e->b * 6),
		    egrid(gen, K_GELUB, M * e->b), 1);
		end(gen, t);
		break;
	case N_VIEW:
	case N_UVIEW:
		op(gen, t, "aten::reshape");
		T2(BF, e->a, e->b); L2(e->a, e->b);
		op(gen, t, "aten::view");
		T2(BF, e->a, e->b); L2(e->a, e->b);
		leaf(gen, t);
		end(gen, t);
		break;
	case N_SPLIT:
		op(gen, t, "aten::cat");
		TL(); SC("-1");
		launch(gen, t, K_CAT, SC_, mem_ns(gen, M * e->b * 4),
		    egrid(gen, K_CAT, M * e->b), 1);
		end(gen, t);
		break;
	case N_TRANSPOSE:
		op(gen, t, "aten::transpose");
		T2(BF, e->a, e->b); SC("1"); SC("2");
		op(gen, t, "aten::as_strided");
		T2(BF, e->a, e->b); L2(e->a, e->b); L2(e->b, 1); NO();
		leaf(gen, t);
		end(gen, t);
		break;
	case N_EMB:
		op(gen, t, "aten::embedding_backward");
		T3(BF, gen->tr.B, gen->tr.S, gen->tr.H);
		T2(TY_I64, gen->tr.B, gen->tr.S); SI(e->a);
		SC("-1"); SC("False"); SC("False");
		op(gen, t, "aten::embedding_dense_backward");
		T3(BF, gen->tr.B, gen->tr.S, gen->tr.H);
		T2(TY_I64, gen->tr.B, gen->tr.S); SI(e->a);
		SC("-1"); SC("False");
		op(gen, t, "aten::new_zeros");
		T3(BF, gen->tr.B, gen->tr.S, gen->tr.H); L2(e->a, e->b);
		SC("15"); SC("0");
		NO(); NO();
		f_empty(gen, t, e->a, e->b);
		op(gen, t, "aten::zero_");
		T2(BF, e->a, e->b);
		memop(gen, t, G_MEMSET, "Memset (Device)", SC_,
		    (int64_t)e->a * e->b * 2, 0);
		end(gen, t);
		end(gen, t);
		launch(gen, t, K_EMBB, SC_, mem_ns(gen,
		    (int64_t)e->c * e->b * 8), clampgrid(e->b / 32 + 1), 1);
		endn(gen, t, 2);
		break;
	case N_CONV:
		op(gen, t, "aten::convolution_backward");
		T4(BF, gen->tr.B, gen->tr.H, gen->tr.img / gen->tr.patch,
		    gen->tr.img / gen->tr.patch);
		T4(BF, gen->tr.B, 3, gen->tr.img, gen->tr.img);
		T4(BF, gen->tr.H, 3, gen->tr.patch, gen->tr.patch);
		L1(gen->tr.H);
		L2(gen->tr.patch, gen->tr.patch); L2(0, 0); L2(1, 1);
		SC("False");
		L2(0, 0); SC("1"); NO();
		n = (int64_t)gen->tr.B * gen->tr.P;
		launch(gen, t, K_CONVT, SC_, mem_ns(gen, n * gen->tr.H * 4),
		    egrid(gen, K_CONVT, n * gen->tr.H), 1);
		launch(gen, t, K_CONVW, SC_, gemm_ns(gen, gen->tr.H,
		    3 * gen->tr.patch * gen->tr.patch, n),
		    clampgrid((gen->tr.H + 127) / 128 * 2), 1);
		launch(gen, t, K_SUM, SC_, mem_ns(gen, n * gen->tr.H * 2),
		    clampgrid(gen->tr.H / 32 + 1), 16);
		end(gen, t);
		break;
	case N_CAT:
		for (n = 0; n < 2; n++) {
			op(gen, t, "aten::narrow");
			T3(BF, gen->tr.B, gen->tr.T, gen->tr.H); SC("1");
			SI(n ? gen->tr.P : 0);
			SI(n ? gen->tr.S : gen->tr.P);
			op(gen, t, "aten::slice");
			T3(BF, gen->tr.B, gen->tr.T, gen->tr.H); SC("1");
			SI(n ? gen->tr.P : 0);
			SI(n ? gen->tr.T : gen->tr.P); SC("1");
			leaf(gen, t);
			end(gen, t);
		}
		break;
	case N_LOGSM:
		op(gen, t, "aten::_log_softmax_backward_data");
		T2(TY_F32, e->a, e->b); T2(TY_F32, e->a, e->b); SC("1"); SC("15");
		launch(gen, t, K_LSMB, SC_, mem_ns(gen, M * e->b * 10),
		    clampgrid(M), 1);
		end(gen, t);
		break;
	case N_NLL:
		op(gen, t, "aten::nll_loss_backward");
		T0(TY_F32); T2(TY_F32, e->a, e->b); T1(TY_I64, e->a); NO();
		SC("1"); SC("-100"); T0(TY_F32);
		op(gen, t, "aten::zero_");
		T2(TY_F32, e->a, e->b);
		op(gen, t, "aten::fill_");
		T2(TY_F32, e->a, e->b); SC("0");
		launch(gen, t, K_FILL, SC_, mem_ns(gen, M * e->b * 4),
		    egrid(gen, K_FILL, M * e->b), 1);
		endn(gen, t, 2);
		launch(gen, t, K_NLLB, SC_, mem_ns(gen, M * 12), 1, 1);
		end(gen, t);
		break;
	case N_MEAN:
		op(gen, t, "aten::expand");
		T0(TY_F32); L1(e->a); SC("False");
		op(gen, t, "aten::as_strided");
		T0(TY_F32); L1(e->a); L1(0); NO();
		leaf(gen, t);
		end(gen, t);
		op(gen, t, "aten::div");
		T1(TY_F32, e->a); SI(e->a);
		launch(gen, t, K_DIV, SC_, mem_ns(gen, M * 8), egrid(gen, K_DIV,
		    M), 1);
		end(gen, t);
		break;
	case N_MUL:
		op(gen, t, "aten::mul");
		T0(TY_F32); SC("0.0001");
		launch(gen, t, K_MUL, SC_, 2500, 1, 1);
		end(gen, t);
		break;
	default:	/* N_ADD, N_CLONE: the gradient passes through */
		t->now += urange(gen, 500, 3000);
		break;
	}
	end(gen, t);
	end(gen, t);

	switch (e->node) {
	case N_ADDMM:
		p += accgrad(gen, t, e->c, e->b);
		p += accgrad(gen, t, e->c, 0);
		break;
	case N_MM:
		p += accgrad(gen, t, e->c, e->b);
		break;
	case N_LN:
		p += accgrad(gen, t, e->b, 0);
		p += accgrad(gen, t, e->b, 0);
		break;
	case N_EMB:
		p += accgrad(gen, t, e->a, e->b);
		break;
	case N_CONV:
		p += accgrad(gen, t, gen->tr.H,
		    3 * gen->tr.patch * gen->tr.patch);
		p += accgrad(gen, t, gen->tr.H, 0);
		break;
	}
	return p;
}

static void
backward(struct gen *gen, struct thr *t)
{
	int64_t acc = 0;
	int j;

	for (j = gen->ntp - 1; j >= 0; j--) {
		acc += bnode(gen, t, &gen->tp[j]);
		if (gen->tr.world > 1 && gen->tp[j].flush && acc) {
			allreduce(gen, t, acc);
			acc = 0;
		}
	}
	if (gen->tr.world > 1 && acc)
		allreduce(gen, t, acc);
	/* DDP finalize: the compute stream waits for the last bucket. */
	rtcall(gen, t, L_WAIT);
	gen->sfree[SC_] = imax(gen->sfree[SC_], gen->sfree[SNC]);
}

/* ------------------------------------------------------------------ */
/* The rest of a step.                                                */

static void
f_to(struct gen *gen, struct thr *t, int ty, int nd, int64_t a, int64_t b,
    int64_t c, int64_t d, int pinned)
{
	int64_t bytes = a * (b ? b : 1) * (c ? c : 1) * (d ? d : 1) *
	    (ty == TY_I64 ? 8 : 2);

	op(gen, t, "aten::to");
	addin(gen, ty, nd, 0, IN_PLAIN, "", a, b, c, d); NO(); SC("15"); NO();
	NO();
	SC(pinned ? "True" : "False"); SC("False"); NO();
	op(gen, t, "aten::_to_copy");
	addin(gen, ty, nd, 0, IN_PLAIN, "", a, b, c, d); SC("15"); SC("0");
	NO(); NO();
	SC(pinned ? "True" : "False"); NO();
	op(gen, t, "aten::empty_strided");
	L2(a, b); L2(b, 1); SC("15"); SC("0"); NO(); NO();
	t->now += urange(gen, 300, 1500);
	memev(gen, t, bytes);
	end(gen, t);
	op(gen, t, "aten::copy_");
	addin(gen, ty, nd, 0, IN_PLAIN, "", a, b, c, d);
	addin(gen, ty, nd, 0, IN_PLAIN, "", a, b, c, d);
	SC(pinned ? "True" : "False");
	memop(gen, t, G_MEMCPY, pinned ? "Memcpy HtoD (Pinned -> Device)" :
	    opt.amd ? "Memcpy HtoD (Host -> Device)" :
	    "Memcpy HtoD (Pageable -> Device)", pinned ? SCP : SC_, bytes, 0);
	endn(gen, t, 3);
}

/* Mirror a host annotation on the compute stream, as Kineto does. */
static void
gann(struct gen *gen, int h, int g0)
{
	int64_t lo = INT64_MAX, hi = 0;
	int i, g;

	for (i = g0; i < gen->ngv; i++)
		if (gen->gv[i].stream == SC_ && gen->gv[i].cat != G_UANN) {
			if (gen->gv[i].ts < lo)
				lo = gen->gv[i].ts;
			if (gen->gv[i].ts + gen->gv[i].dur > hi)
				hi = gen->gv[i].ts + gen->gv[i].dur;
		}
	if (hi == 0)
		return;
	g = gnew(gen);
	gen->gv[g].cat = G_UANN;
	gen->gv[g].name = gen->hv[h].name;
	gen->gv[g].ext = gen->hv[h].id;
	gen->gv[g].ts = lo;
	gen->gv[g].dur = hi - lo;
	gen->gv[g].stream = SC_;
}

static void
optimizer(struct gen *gen, struct thr *t)
{
	int u, g0 = gen->ngv, nch, c;
	int64_t ns;

	nch = (int)(gen->nparams / 24) + 1;
	/* AdamW touches weight, grad and two moments: 14 bytes a weight. */
	ns = mem_ns(gen, gen->pelems * 14) / nch;
	u = beg(gen, t, H_UANN, "Optimizer.step#AdamW.step");
	py(gen, t, "torch/optim/optimizer.py(485): wrapper");
	py(gen, t, "torch/optim/adamw.py(209): step");
	if (chance(gen, 4)) {
		py(gen, t, "torch/cuda/graphs.py(139): replay");
		py(gen, t,
		    "<built-in method replay of torch._C._CUDAGraph object at 0x7f3a8c0e1230>");
		graph(gen, t, nch + 1, ns);
		endn(gen, t, 2);
	} else {
		py(gen, t, "torch/optim/adamw.py(751): _fused_adamw");
		op(gen, t, "aten::_foreach_add_");
		TL(); SC("1");
		launch(gen, t, K_FADD, SC_, 4000,
		    clampgrid(gen->nparams / 8 + 1), 1);
		end(gen, t);
		op(gen, t, "aten::_fused_adamw_");
		TL(); TL(); TL(); TL(); TL(); TL(); SC("0.0003"); SC("0.9");
		SC("0.95"); SC("0.1"); SC("1e-08"); SC("False"); SC("False");
		NO(); NO();
		for (c = 0; c < nch; c++)
			launch(gen, t, K_ADAM, SC_, ns,
			    clampgrid(gen->pelems / nch / 65536 + 1), 1);
		end(gen, t);
		end(gen, t);
	}
	endn(gen, t, 2);
	end(gen, t);
	gann(gen, u, g0);
}

void
genstep(struct gen *gen)
{
	struct thr *t = &gen->th[0];
	int ps, g0;

	gen->nhv = gen->ngv = gen->ninp = gen->ntp = gen->nfb = gen->nalloc = 0;
	while (gen->ncv > 0) {
		gen->ncv--;
		free(gen->cv[gen->ncv].insplit);
		free(gen->cv[gen->ncv].outsplit);
	}
	gen->bleed = chance(gen, 6);
	/* Data loading and logging between steps (and -c idle:US). */
	t->now += urange(gen, 80000, 600000) + change_gap();
	ps = beg(gen, t, gen->tr.stepop ? H_CPU : H_UANN, NULL);
	gen->hv[ps].kind = A_ANN;
	gen->hv[ps].nin = -1;
	g0 = gen->ngv;
	py(gen, t, "train.py(62): train_step");

	beg(gen, t, H_UANN, "Optimizer.zero_grad#AdamW.zero_grad");
	py(gen, t, "torch/optim/optimizer.py(957): zero_grad");
	t->now += urange(gen, 20000, 60000);
	endn(gen, t, 2);

	beg(gen, t, H_UANN, LOAD_NAME);
	py(gen, t, "torch/utils/data/dataloader.py(733): __next__");
	t->now += urange(gen, 30000, 200000);
	end(gen, t);
	f_to(gen, t, TY_I64, 2, gen->tr.B, gen->tr.S, 0, 0, 1);
	f_to(gen, t, BF, 4, gen->tr.B, 3, gen->tr.img, gen->tr.img, 1);
	f_to(gen, t, TY_I64, 2, gen->tr.B, gen->tr.S, 0, 0, 0);
	rtcall(gen, t, L_EVREC);
	rtcall(gen, t, L_WAIT);
	gen->sfree[SC_] = imax(gen->sfree[SC_], gen->sfree[SCP]);
	end(gen, t);

	forward(gen, t);
	if (opt.world) {
		alltoallv(gen, t);
		nodegather(gen, t);
	}
	f_loss(gen, t);

	py(gen, t, "torch/_tensor.py(648): backward");
	py(gen, t, "torch/autograd/__init__.py(353): backward");
	py(gen, t, "torch/autograd/graph.py(829): _engine_run_backward");
	gen->th[1].now = t->now + urange(gen, 3000, 9000);
	backward(gen, &gen->th[1]);
	t->now = gen->th[1].now + urange(gen, 2000, 8000);
	endn(gen, t, 3);

	optimizer(gen, t);

	py(gen, t, "<built-in method item of Tensor object at 0x7f3a5d9e2b10>");
	op(gen, t, "aten::item");
	T0(TY_F32);
	op(gen, t, "aten::_local_scalar_dense");
	T0(TY_F32);
	memop(gen, t, G_MEMCPY, opt.amd ? "Memcpy DtoH (Device -> Host)" :
	    "Memcpy DtoH (Device -> Pageable)", SC_, 4, 1);
	syncall(gen, t);
	endn(gen, t, 3);

	end(gen, t);
	end(gen, t);
	if (!gen->tr.stepop)
		gann(gen, ps, g0);
}
