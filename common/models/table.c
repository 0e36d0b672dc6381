/* See LICENSE file for copyright and license details. */
/*
 * The perf-model table: every op name TraceLens has a perf model for
 * (its op_to_perf_model_class_map at 171dd747, pseudo-op extensions
 * included, then its name matchers), with TraceLens's class, the
 * family (sheet, op categories, MAF type), the formula that computes
 * it, the formula's parameters and what the model answers for the
 * backward.  The formulas live in the family files of common/models/
 * (models.h lists them).  The op category of a modelled op comes from
 * this table: opcat.c asks model_find.
 *
 * Adding a perf model:
 *  1. If no formula fits, write one in its family's file (gemm.c,
 *     sdpa.c ...; a new family goes in a new file, which the Makefile
 *     picks up) and declare it in models.h.  It reads the op with the
 *     arg_* readers, writes each param with a p_* writer in
 *     TraceLens's key order, then sets r->flops, the bytes (set_bytes)
 *     and r->dtype.  A failure while it reads the op is fail(), one in
 *     the FLOPs or bytes fail_metric().  Argument slots and variants
 *     are table args (m->arg[]), not wrapper functions.
 *  2. Add one row per op name below, in byte order (model_find is a
 *     binary search): R(op, class, &family, formula, backward, args).
 *     backward says what TraceLens's flops_bwd does (perfmodel.h,
 *     BWD_*); args are the formula's parameters (0 when it has none).
 *     A new sheet family gets an F_ line; a name prefix a row after
 *     the exact names (one more NMATCHERS), with TraceLens's can_model,
 *     as Triton's.
 *  3. Add a golden case tests/cases/tl-roofline/NAME, checked by hand
 *     or against TraceLens, and the name to the model-table case.
 *  4. Add the op name to the list of Models in man/tl-roofline.1.
 * Nothing else changes: tl-report makes a sheet of every family's
 * sheet name.
 */
#include <string.h>

#include "models.h"

static const struct mfamily F_GEMM = { "GEMM", "GEMM", NULL, "matrix" };
static const struct mfamily F_SDPA = { "SDPA", "SDPA_fwd", "SDPA_bwd", "matrix" };
static const struct mfamily F_SDPA_B = { "SDPA", "SDPA_bwd", "SDPA_bwd", "matrix" };
static const struct mfamily F_CONV = { "CONV", "CONV_fwd", "CONV_bwd", "matrix" };
static const struct mfamily F_CONV_B = { "CONV", "CONV_bwd", "CONV_bwd", "matrix" };
static const struct mfamily F_UNARY = { "UnaryElementwise", "elementwise", NULL, "vector" };
static const struct mfamily F_BINARY = { "BinaryElementwise", "elementwise", NULL, "vector" };
static const struct mfamily F_NORM = { "Normalization", "NORM_fwd", "NORM_bwd", "vector" };
static const struct mfamily F_NORM_B = { "Normalization", "NORM_bwd", "NORM_bwd", "vector" };
static const struct mfamily F_REDUCE = { "Reduce", "reduce", NULL, "vector" };
static const struct mfamily F_RMSNORM = { "RMSNorm", "RMSNorm", NULL, "vector" };
/* GroupQuant ops in the BinaryElementwise sheet (their class's sheet_category) */
static const struct mfamily F_GQUANT_B = { "BinaryElementwise", "GroupQuant", NULL, "vector" };
static const struct mfamily F_GQUANT = { "GroupQuant", "GroupQuant", NULL, "vector" };
static const struct mfamily F_GGEMM = { "GroupedGEMM", "GroupedGEMM_fwd", "GroupedGEMM_bwd",
    "matrix" };
static const struct mfamily F_MOECOMM = { "MoE_comm", "MoE_comm_fwd", "MoE_comm_bwd", "vector" };
static const struct mfamily F_SSM = { "SSM", "SSM_fwd", NULL, "matrix" };
static const struct mfamily F_MAMBA = { "SSM", "SSM_fwd", "SSM_bwd", "matrix" };
static const struct mfamily F_ROPE = { "RoPE", "RoPE_fwd", NULL, "vector" };
static const struct mfamily F_XENT = { "CrossEntropy", "CrossEntropy_fwd", NULL, "vector" };
static const struct mfamily F_MOEFUSED = { "MoE_fused", "MoE_fused", NULL, "matrix" };
static const struct mfamily F_MOEUNF = { "MoE_unfused", "MoE_unfused", NULL, "matrix" };
static const struct mfamily F_MOEAUX = { "MoE_aux", "MoE_aux", NULL, "vector" };
static const struct mfamily F_ELT = { "elementwise", "elementwise", NULL, "vector" };
static const struct mfamily F_FROPE = { "FusedRoPE", "RoPE_fwd", NULL, "vector" };
static const struct mfamily F_COLL = { "CustomCollective", "CustomCollective", NULL, "vector" };
static const struct mfamily F_MHC = { "mHC", "mHC", NULL, "matrix" };
static const struct mfamily F_MHC_V = { "mHC", "mHC", NULL, "vector" };
static const struct mfamily F_INFATTN_V = { "InferenceAttention", "InferenceAttention", NULL,
    "vector" };
static const struct mfamily F_INFATTN = { "InferenceAttention", "InferenceAttention", NULL,
    "matrix" };
/* no perf sheet: TraceLens finds Triton kernels by a name matcher, not its sheet map */
static const struct mfamily F_TRITON = { NULL, "triton", NULL, "vector" };

/*
 * A row: op name, TraceLens class, family, formula, backward, the
 * formula's args.  Exact names only; a prefix row is written out.
 */
#define R(op, cls, fam, fn, bwd, ...) { op, cls, fam, fn, { __VA_ARGS__ }, bwd, NULL, 0 }

/* TraceLens's class raises NotImplementedError for every op. */
static int
undefined(const struct opargs *a, struct mresult *r, const struct model *m, int bwd)
{
	return M_UNDEF;
}

/* The name matchers, at the end of the table. */
enum { NMATCHERS = 3 };

static const struct model models[] = {
	/* exact names, in byte order: model_find is a binary search */
	R("ConvBiasReLU_", "ConvBiasReLU_", &F_CONV, conv_bias, BWD_OWN, 0),
	R("ConvBiasReLU_Backward", "ConvBiasReLU_Backward", &F_CONV_B, conv_bias_bwd, BWD_OWN, 0),
	R("ConvBias_", "ConvBias_", &F_CONV, conv_bias, BWD_OWN, 0),
	R("ConvBias_Backward", "ConvBias_Backward", &F_CONV_B, conv_bias_bwd, BWD_OWN, 0),
	R("CrossEntropyFunction", "cross_entropy_fwd", &F_XENT,
	    cross_entropy, BWD_FAIL, 0),
	R("DaoAILab::_causal_conv1d_fwd_cpp", "causal_conv1d_fwd", &F_SSM,
	    ssm_causal_conv1d, BWD_FAIL, 0),
	R("EvoformerAttention", "evoformer_attention", &F_SDPA,
	    sdpa_evoformer, BWD_OWN, 0),
	R("FlashAttnFunc", "flash_attention", &F_SDPA, sdpa_flash, BWD_OWN, 0),
	R("FusedRoPEFunc", "fused_rope_fwd", &F_ROPE, rope_fused, BWD_FAIL, 0),
	R("LigerSiLUMulFunction", "liger_silu_mul_function", &F_BINARY,
	    elt_binary, BWD_FAIL, 1),
	R("MambaSplitConv1dScanCombinedFn", "mamba_ssd_fwd", &F_MAMBA,
	    ssm_mamba, BWD_OWN, 0),
	R("MoECombine", "moe_combine", &F_MOECOMM, moe_comm, BWD_OWN, 0),
	R("MoEDispatch", "moe_dispatch", &F_MOECOMM, moe_comm, BWD_OWN, 0),
	R("_C::silu_and_mul", "aiter_silu_and_mul", &F_UNARY,
	    elt_act_and_mul, BWD_FAIL, 5),
	R("_C_custom_ar::all_reduce", "custom_ar_all_reduce", &F_COLL,
	    collective, BWD_FAIL, 1, -1, 0, 1, 1, -1),
	R("_C_custom_ar::qr_all_reduce", "custom_ar_qr_all_reduce", &F_COLL,
	    collective, BWD_FAIL, 1, -1, 0, 1, 1, -1),
	R("_LayerNormLinearBackward_wgrad_mm", "tev2_pseudo_gemm", &F_GEMM,
	    gemm_tev2, BWD_UNDEF, 0),
	R("_LayerNormLinearBackward_xgrad_mm", "tev2_pseudo_gemm", &F_GEMM,
	    gemm_tev2, BWD_UNDEF, 0),
	R("_LayerNormLinear_yfwd_mm", "tev2_pseudo_gemm", &F_GEMM,
	    gemm_tev2, BWD_UNDEF, 0),
	R("_LinearBackward_wgrad_mm", "tev2_pseudo_gemm", &F_GEMM,
	    gemm_tev2, BWD_UNDEF, 0),
	R("_LinearBackward_xgrad_mm", "tev2_pseudo_gemm", &F_GEMM,
	    gemm_tev2, BWD_UNDEF, 0),
	R("_Linear_yfwd_mm", "tev2_pseudo_gemm", &F_GEMM, gemm_tev2, BWD_UNDEF, 0),
	R("aiter::_flash_attn_backward", "aiter__flash_attn_backward", &F_SDPA_B,
	    sdpa_aiter, BWD_OWN, 0, 10, 12, 1),
	R("aiter::_flash_attn_forward", "aiter__flash_attn_forward", &F_SDPA,
	    sdpa_aiter, BWD_OWN, 0, 3, 5, 0),
	R("aiter::_fuse_rmsnorm_fp4_quant", "fused_rms_mxfp4_quant", &F_RMSNORM,
	    norm_rms_ext, BWD_UNDEF, 0, 1, RMS_MXFP4),
	R("aiter::_gemm_a16w16_asm", "gemm_a16w16_asm", &F_GEMM,
	    gemm_a16w16_asm, BWD_UNDEF, 0),
	R("aiter::_gemm_a4w4_asm", "aiter_gemm_a4w4", &F_GEMM,
	    gemm_hipblaslt, BWD_UNDEF, 1, 0, 1),
	R("aiter::_gemm_a8w8_blockscale_bpreshuffle_asm", "gemm_a8w8_blockscale", &F_GEMM,
	    gemm_a8w8_blockscale, BWD_UNDEF, 0),
	R("aiter::_groupnorm_run", "GroupNorm", &F_NORM, norm_channels, BWD_UNDEF, -1),
	R("aiter::add_rmsnorm", "aiter_rmsnorm2d_fwd_with_add_ck", &F_RMSNORM,
	    norm_rms_ext, BWD_UNDEF, 1, 4, RMS_ADD),
	R("aiter::all_gather_reg", "aiter_all_gather_reg", &F_COLL,
	    collective, BWD_FAIL, 1, 2, 0, 1, 1, -1),
	R("aiter::batched_gemm_a16wfp4_", "batched_gemm_a16wfp4", &F_GEMM,
	    gemm_batched_a16wfp4, BWD_UNDEF, 0),
	R("aiter::biased_grouped_topk_hip", "BiasedGroupedTopk", &F_MOEAUX,
	    moe_sort, BWD_UNDEF, 1),
	R("aiter::ck_moe_stage1", "moe_aiter_ck_stage1", &F_MOEUNF,
	    moe_ck_stage1, BWD_UNDEF, 0),
	R("aiter::ck_moe_stage2", "moe_aiter_ck_stage2", &F_MOEUNF,
	    moe_ck_stage2, BWD_UNDEF, 0),
	R("aiter::dynamic_per_group_scaled_quant", "per_group_quant", &F_GQUANT_B,
	    quant_per_group, BWD_FAIL, 0),
	R("aiter::dynamic_per_group_scaled_quant_fp4",
	    "aiter_dynamic_per_group_scaled_quant_fp4", &F_GQUANT,
	    quant_mxfp4, BWD_FAIL, 1, 0),
	R("aiter::dynamic_per_tensor_quant", "per_group_quant", &F_GQUANT_B,
	    quant_per_group, BWD_FAIL, 0),
	R("aiter::dynamic_per_token_scaled_quant", "per_group_quant", &F_GQUANT_B,
	    quant_per_group, BWD_FAIL, 0),
	R("aiter::flatmm_a8w8_blockscale_asm", "gemm_a8w8_blockscale", &F_GEMM,
	    gemm_a8w8_blockscale, BWD_UNDEF, 0),
	R("aiter::fmha_v3_fwd", "aiter__fmha_v3_fwd", &F_SDPA,
	    sdpa_aiter, BWD_OWN, 0, 3, 5, 0),
	R("aiter::fmha_v3_varlen_fwd", "aiter_fmha_v3_varlen_fwd", &F_INFATTN,
	    infattn_unannotated, BWD_NONE, 0),
	R("aiter::fmoe_fp8_blockscale_g1u1", "moe_aiter_fused_blockscale", &F_MOEFUSED,
	    moe_fused_blockscale, BWD_UNDEF, 0),
	R("aiter::fmoe_g1u1", "moe_aiter_fused_blockscale", &F_MOEFUSED,
	    moe_fused_blockscale, BWD_UNDEF, 0),
	R("aiter::fused_add_rmsnorm_pad_",
	    "vllm_rocm_aiter_triton_add_rmsnorm_pad", &F_RMSNORM,
	    norm_rms_ext, BWD_UNDEF, 0, 1, RMS_ADDPAD),
	R("aiter::fused_allreduce_rmsnorm", "aiter_fused_allreduce_rmsnorm", &F_COLL,
	    collective, BWD_FAIL, 2, -1, 0, 2, 1, 6),
	R("aiter::fused_allreduce_rmsnorm_", "aiter_fused_allreduce_rmsnorm_", &F_COLL,
	    collective, BWD_FAIL, 0, -1, 0, 0, 1, 2),
	R("aiter::fused_dynamic_mx_quant_moe_sort_hip",
	    "fused_dynamic_mx_quant_moe_sort_hip", &F_GQUANT, quant_mxfp4, BWD_FAIL, 2, 1),
	R("aiter::fused_dynamic_mxfp4_quant_moe_sort_hip",
	    "aiter_fused_dynamic_mxfp4_quant_moe_sort_hip", &F_GQUANT,
	    quant_mxfp4, BWD_FAIL, 2, 0),
	R("aiter::fused_qk_rope_cat_and_cache_mla",
	    "aiter_fused_qk_rope_cat_and_cache_mla", &F_FROPE,
	    rope_qk_cache, BWD_FAIL, 0),
	R("aiter::fused_qk_rope_concat_and_cache_mla",
	    "fused_qk_rope_concat_and_cache_mla", &F_FROPE, rope_qk_cache, BWD_FAIL, 1),
	R("aiter::gelu_and_mul", "aiter_gelu_and_mul", &F_UNARY,
	    elt_act_and_mul, BWD_FAIL, 8),
	R("aiter::gelu_tanh_and_mul", "aiter_gelu_tanh_and_mul", &F_UNARY,
	    elt_act_and_mul, BWD_FAIL, 10),
	R("aiter::gemm_a16w16", "gemm_a16w16", &F_GEMM, gemm_a16w16, BWD_UNDEF, 0),
	R("aiter::gemm_a16w16_atomic_", "gemm_a16w16_atomic_", &F_GEMM,
	    gemm_a16w16_atomic, BWD_UNDEF, 0),
	R("aiter::gemm_a4w4", "aiter_gemm_a4w4", &F_GEMM,
	    gemm_hipblaslt, BWD_UNDEF, 1, 0, 1),
	R("aiter::gemm_a8w8_blockscale_bpreshuffle_ck", "gemm_a8w8_blockscale", &F_GEMM,
	    gemm_a8w8_blockscale, BWD_UNDEF, 0),
	R("aiter::gemm_a8w8_blockscale_bpreshuffle_cktile",
	    "gemm_a8w8_blockscale", &F_GEMM, gemm_a8w8_blockscale, BWD_UNDEF, 0),
	R("aiter::gemm_a8w8_blockscale_ck", "gemm_a8w8_blockscale", &F_GEMM,
	    gemm_a8w8_blockscale, BWD_UNDEF, 0),
	R("aiter::gemm_a8w8_blockscale_cktile", "gemm_a8w8_blockscale", &F_GEMM,
	    gemm_a8w8_blockscale, BWD_UNDEF, 0),
	R("aiter::gemm_a8w8_bpreshuffle", "gemm_a8w8_blockscale", &F_GEMM,
	    gemm_a8w8_blockscale, BWD_UNDEF, 0),
	R("aiter::gemm_a8w8_bpreshuffle_ck", "gemm_a8w8_blockscale", &F_GEMM,
	    gemm_a8w8_blockscale, BWD_UNDEF, 0),
	R("aiter::gemm_a8w8_ck", "gemm_a8w8_blockscale", &F_GEMM,
	    gemm_a8w8_blockscale, BWD_UNDEF, 0),
	R("aiter::gemm_afp4wfp4_", "gemm_afp4wfp4", &F_GEMM, gemm_afp4wfp4, BWD_UNDEF, 0),
	R("aiter::gfx950_a8w8_blockscale_asm", "gemm_a8w8_blockscale", &F_GEMM,
	    gemm_a8w8_blockscale, BWD_UNDEF, 0),
	R("aiter::linear_attention_with_output_base", "gdn_attention_core", &F_INFATTN,
	    undefined, BWD_OWN, 0),
	R("aiter::mha_batch_prefill", "aiter_mha_batch_prefill", &F_INFATTN,
	    infattn_unannotated, BWD_NONE, 0),
	R("aiter::mha_bwd", "aiter__mha_bwd", &F_SDPA_B, sdpa_aiter, BWD_OWN, 1, 6, 8, 1),
	R("aiter::mha_fwd", "aiter__mha_fwd", &F_SDPA, sdpa_aiter, BWD_OWN, 0, 3, 5, 0),
	R("aiter::mha_varlen_fwd", "mha_varlen_fwd", &F_INFATTN,
	    infattn_unannotated, BWD_NONE, 0),
	R("aiter::mhc_fused_post_pre_gemm_sqrsum",
	    "mhc_fused_post_pre_gemm_sqrsum", &F_MHC, mhc, BWD_FAIL, 3),
	R("aiter::mhc_post", "mhc_post", &F_MHC_V, mhc, BWD_FAIL, 0),
	R("aiter::mhc_pre_big_fuse_rmsnorm", "mhc_pre_big_fuse_rmsnorm", &F_MHC_V,
	    mhc, BWD_FAIL, 2),
	R("aiter::mhc_pre_gemm_sqrsum", "mhc_pre_gemm_sqrsum", &F_MHC, mhc, BWD_FAIL, 1),
	R("aiter::mixed_sample_outer_exponential",
	    "mixed_sample_outer_exponential", &F_ELT, elt_mixed_sample, BWD_FAIL, 0),
	R("aiter::moe_cktile2stages_gemm1_ck", "moe_aiter_unfused_up", &F_MOEUNF,
	    moe_cktile_up, BWD_UNDEF, 0),
	R("aiter::moe_cktile2stages_gemm2_ck", "moe_aiter_unfused_down", &F_MOEUNF,
	    moe_cktile_down, BWD_UNDEF, 0),
	R("aiter::moe_sorting_fwd", "MoeSortScatterGather", &F_MOEAUX, moe_sort,
	    BWD_UNDEF, 0),
	R("aiter::mxfp4_moe_sort_hip", "MoeSortScatterGather", &F_MOEAUX,
	    moe_sort, BWD_UNDEF, 0),
	R("aiter::pa_decode_gluon", "pa_decode_gluon", &F_INFATTN,
	    infattn_unannotated, BWD_NONE, 0),
	R("aiter::pa_sparse_prefill_opus_fwd", "pa_sparse_prefill_opus_fwd", &F_INFATTN,
	    infattn_pa_sparse_prefill, BWD_NONE, 0),
	R("aiter::reduce_scatter", "aiter_reduce_scatter", &F_COLL,
	    collective, BWD_FAIL, 1, 2, 0, 1, 1, -1),
	R("aiter::rms_norm", "aiter_rms_norm", &F_RMSNORM,
	    norm_rms_ext, BWD_UNDEF, 0, 1, RMS_PLAIN),
	R("aiter::rmsnorm", "aiter_rmsnorm", &F_RMSNORM,
	    norm_rms_ext, BWD_UNDEF, 1, 2, RMS_PLAIN),
	R("aiter::rmsnorm2d_fwd_ck", "aiter_rms_norm", &F_RMSNORM,
	    norm_rms_ext, BWD_UNDEF, 0, 1, RMS_PLAIN),
	R("aiter::rmsnorm2d_fwd_with_add_ck",
	    "aiter_rmsnorm2d_fwd_with_add_ck", &F_RMSNORM,
	    norm_rms_ext, BWD_UNDEF, 1, 4, RMS_ADD),
	R("aiter::rmsnorm2d_fwd_with_dynamicquant_ck",
	    "aiter_rmsnorm2d_fwd_with_dynamicquant_ck", &F_RMSNORM,
	    norm_rms_ext, BWD_UNDEF, 1, 3, RMS_DQUANT),
	R("aiter::rmsnorm_quant", "aiter_rmsnorm_quant", &F_RMSNORM,
	    norm_rms_ext, BWD_UNDEF, 1, 3, RMS_QUANT),
	R("aiter::rope_cached_positions_2c_fwd_impl",
	    "aiter_rope_cached_positions_2c_fwd_impl", &F_ROPE,
	    rope_aiter_2c, BWD_FAIL, 0),
	R("aiter::silu_and_mul", "aiter_silu_and_mul", &F_UNARY,
	    elt_act_and_mul, BWD_FAIL, 5),
	R("aiter::topk_softplus", "topk_softplus", &F_MOEAUX, moe_topk_softplus,
	    BWD_FAIL, 0),
	R("aiter::wrapper_fmha_v3_bwd", "aiter__fmha_v3_backward", &F_SDPA_B,
	    sdpa_aiter, BWD_OWN, 1, 7, 9, 1),
	R("aiter::wrapper_fmha_v3_fwd", "aiter__fmha_v3_forward", &F_SDPA,
	    sdpa_aiter, BWD_OWN, 1, 4, 6, 0),
	R("aten::_fused_rms_norm", "RMSNorm", &F_NORM, norm_rms, BWD_UNDEF, 0),
	R("aten::_fused_rms_norm_backward", "RMSNormBwd", &F_NORM_B,
	    norm_rms_bwd, BWD_OWN, 0),
	R("aten::_scaled_dot_product_cudnn_attention",
	    "aten__scaled_dot_product_cudnn_attention", &F_SDPA,
	    sdpa_aten, BWD_OWN, 5, 0),
	R("aten::_scaled_dot_product_efficient_attention",
	    "aten__scaled_dot_product_efficient_attention", &F_SDPA,
	    sdpa_aten, BWD_OWN, 5, 0),
	R("aten::_scaled_dot_product_flash_attention",
	    "aten__scaled_dot_product_flash_attention", &F_SDPA,
	    sdpa_aten, BWD_OWN, 3, 1),
	R("aten::_scaled_mm", "aten_scaled_mm", &F_GEMM, gemm_scaled_mm, BWD_UNDEF, 0),
	R("aten::add", "aten_binary_elementwise", &F_BINARY, elt_binary, BWD_FAIL, 0),
	R("aten::add_", "aten_binary_elementwise", &F_BINARY, elt_binary, BWD_FAIL, 0),
	R("aten::addmm", "aten_addmm", &F_GEMM, gemm_aten, BWD_UNDEF, 1, 0, 1),
	R("aten::amax", "aten_reduce", &F_REDUCE, reduce_aten, BWD_OWN, 0),
	R("aten::amin", "aten_reduce", &F_REDUCE, reduce_aten, BWD_OWN, 0),
	R("aten::baddbmm", "aten_baddbmm", &F_GEMM, gemm_aten, BWD_UNDEF, 1, 1, 1),
	R("aten::batch_norm", "BatchNorm", &F_NORM, norm_channels, BWD_UNDEF, 5),
	R("aten::batch_norm_backward", "BatchNormBwd", &F_NORM_B,
	    norm_batch_bwd, BWD_OWN, 0),
	R("aten::bmm", "aten_bmm", &F_GEMM, gemm_aten, BWD_UNDEF, 0, 1, 0),
	R("aten::clamp_max", "aten_unary_elementwise", &F_UNARY, elt_unary, BWD_FAIL, 0),
	R("aten::clamp_max_", "aten_unary_elementwise", &F_UNARY, elt_unary, BWD_FAIL, 0),
	R("aten::clamp_min", "aten_unary_elementwise", &F_UNARY, elt_unary, BWD_FAIL, 0),
	R("aten::clamp_min_", "aten_unary_elementwise", &F_UNARY, elt_unary, BWD_FAIL, 0),
	R("aten::convolution", "aten_conv", &F_CONV, conv_aten, BWD_OWN, 0, 0),
	R("aten::convolution_backward", "aten_conv_bwd", &F_CONV_B,
	    conv_aten, BWD_OWN, 1, 1),
	R("aten::copy", "aten_unary_elementwise", &F_UNARY, elt_unary, BWD_FAIL, 0),
	R("aten::copy_", "aten_unary_elementwise", &F_UNARY, elt_unary, BWD_FAIL, 0),
	R("aten::cudnn_batch_norm", "BatchNorm", &F_NORM, norm_channels, BWD_UNDEF, 5),
	R("aten::cudnn_batch_norm_backward", "BatchNormBwd", &F_NORM_B,
	    norm_batch_bwd, BWD_OWN, 0),
	R("aten::cudnn_group_norm", "GroupNorm", &F_NORM, norm_channels, BWD_UNDEF, -1),
	R("aten::cudnn_group_norm_backward", "GroupNormBwd", &F_NORM_B,
	    norm_group_bwd, BWD_OWN, 0),
	R("aten::cudnn_instance_norm", "InstanceNorm", &F_NORM,
	    norm_channels, BWD_UNDEF, 5),
	R("aten::cudnn_instance_norm_backward", "InstanceNormBwd", &F_NORM_B,
	    undefined, BWD_OWN, 0),
	R("aten::cudnn_layer_norm", "LayerNorm", &F_NORM, norm_layer, BWD_UNDEF, 0),
	R("aten::cudnn_layer_norm_backward", "LayerNormBwd", &F_NORM_B,
	    norm_layer_bwd, BWD_OWN, 0),
	R("aten::cudnn_rms_norm_backward", "RMSNormBwd", &F_NORM_B,
	    norm_rms_bwd, BWD_OWN, 0),
	R("aten::cumprod", "aten_reduce", &F_REDUCE, reduce_aten, BWD_OWN, 0),
	R("aten::cumsum", "aten_reduce", &F_REDUCE, reduce_aten, BWD_OWN, 0),
	R("aten::div", "aten_binary_elementwise", &F_BINARY, elt_binary, BWD_FAIL, 0),
	R("aten::div_", "aten_binary_elementwise", &F_BINARY, elt_binary, BWD_FAIL, 0),
	R("aten::group_norm", "GroupNorm", &F_NORM, norm_channels, BWD_UNDEF, -1),
	R("aten::group_norm_backward", "GroupNormBwd", &F_NORM_B,
	    norm_group_bwd, BWD_OWN, 0),
	R("aten::instance_norm", "InstanceNorm", &F_NORM, norm_channels, BWD_UNDEF, 5),
	R("aten::instance_norm_backward", "InstanceNormBwd", &F_NORM_B,
	    undefined, BWD_OWN, 0),
	R("aten::layer_norm", "LayerNorm", &F_NORM, norm_layer, BWD_UNDEF, 0),
	R("aten::layer_norm_backward", "LayerNormBwd", &F_NORM_B,
	    norm_layer_bwd, BWD_OWN, 0),
	R("aten::linalg_norm", "aten_reduce", &F_REDUCE, reduce_aten, BWD_OWN, 0),
	R("aten::logsumexp", "aten_reduce", &F_REDUCE, reduce_aten, BWD_OWN, 0),
	R("aten::max", "aten_reduce", &F_REDUCE, reduce_aten, BWD_OWN, 0),
	R("aten::mean", "aten_reduce", &F_REDUCE, reduce_aten, BWD_OWN, 0),
	R("aten::min", "aten_reduce", &F_REDUCE, reduce_aten, BWD_OWN, 0),
	R("aten::miopen_batch_norm", "BatchNorm", &F_NORM, norm_channels, BWD_UNDEF, 5),
	R("aten::miopen_batch_norm_backward", "BatchNormBwd", &F_NORM_B,
	    norm_batch_bwd, BWD_OWN, 0),
	R("aten::miopen_group_norm", "GroupNorm", &F_NORM, norm_channels, BWD_UNDEF, -1),
	R("aten::miopen_group_norm_backward", "GroupNormBwd", &F_NORM_B,
	    norm_group_bwd, BWD_OWN, 0),
	R("aten::miopen_instance_norm", "InstanceNorm", &F_NORM,
	    norm_channels, BWD_UNDEF, 5),
	R("aten::miopen_instance_norm_backward", "InstanceNormBwd", &F_NORM_B,
	    undefined, BWD_OWN, 0),
	R("aten::miopen_layer_norm", "LayerNorm", &F_NORM, norm_layer, BWD_UNDEF, 0),
	R("aten::miopen_layer_norm_backward", "LayerNormBwd", &F_NORM_B,
	    norm_layer_bwd, BWD_OWN, 0),
	R("aten::miopen_rms_norm_backward", "RMSNormBwd", &F_NORM_B,
	    norm_rms_bwd, BWD_OWN, 0),
	R("aten::mm", "aten_mm", &F_GEMM, gemm_aten, BWD_UNDEF, 0, 0, 0),
	R("aten::mul", "aten_binary_elementwise", &F_BINARY, elt_binary, BWD_FAIL, 0),
	R("aten::mul_", "aten_binary_elementwise", &F_BINARY, elt_binary, BWD_FAIL, 0),
	R("aten::native_batch_norm", "BatchNorm", &F_NORM, norm_channels, BWD_UNDEF, 5),
	R("aten::native_batch_norm_backward", "BatchNormBwd", &F_NORM_B,
	    norm_batch_bwd, BWD_OWN, 0),
	R("aten::native_group_norm", "GroupNorm", &F_NORM, norm_channels, BWD_UNDEF, -1),
	R("aten::native_group_norm_backward", "GroupNormBwd", &F_NORM_B,
	    norm_group_bwd, BWD_OWN, 0),
	R("aten::native_instance_norm", "InstanceNorm", &F_NORM,
	    norm_channels, BWD_UNDEF, 5),
	R("aten::native_instance_norm_backward", "InstanceNormBwd", &F_NORM_B,
	    undefined, BWD_OWN, 0),
	R("aten::native_layer_norm", "LayerNorm", &F_NORM, norm_layer, BWD_UNDEF, 0),
	R("aten::native_layer_norm_backward", "LayerNormBwd", &F_NORM_B,
	    norm_layer_bwd, BWD_OWN, 0),
	R("aten::native_rms_norm_backward", "RMSNormBwd", &F_NORM_B,
	    norm_rms_bwd, BWD_OWN, 0),
	R("aten::neg", "aten_unary_elementwise", &F_UNARY, elt_unary, BWD_FAIL, 0),
	R("aten::norm", "aten_reduce", &F_REDUCE, reduce_aten, BWD_OWN, 0),
	R("aten::pow", "aten_unary_elementwise", &F_UNARY, elt_unary, BWD_FAIL, 0),
	R("aten::replication_pad1d", "aten_replication_pad", &F_UNARY,
	    elt_pad, BWD_FAIL, 0),
	R("aten::replication_pad2d", "aten_replication_pad", &F_UNARY,
	    elt_pad, BWD_FAIL, 0),
	R("aten::replication_pad3d", "aten_replication_pad", &F_UNARY,
	    elt_pad, BWD_FAIL, 0),
	R("aten::rms_norm_backward", "RMSNormBwd", &F_NORM_B, norm_rms_bwd, BWD_OWN, 0),
	R("aten::rsqrt", "aten_unary_elementwise", &F_UNARY, elt_unary, BWD_FAIL, 0),
	R("aten::sigmoid", "aten_unary_elementwise", &F_UNARY, elt_unary, BWD_FAIL, 0),
	R("aten::sigmoid_backward", "aten_binary_elementwise", &F_BINARY,
	    elt_binary, BWD_FAIL, 0),
	R("aten::silu", "aten_unary_elementwise", &F_UNARY, elt_unary, BWD_FAIL, 0),
	R("aten::std", "aten_reduce", &F_REDUCE, reduce_aten, BWD_OWN, 0),
	R("aten::sum", "aten_reduce", &F_REDUCE, reduce_aten, BWD_OWN, 0),
	R("aten::threshold_backward", "aten_binary_elementwise", &F_BINARY,
	    elt_binary, BWD_FAIL, 0),
	R("aten::upsample_nearest1d", "aten_upsample_nearest", &F_UNARY,
	    elt_upsample, BWD_FAIL, 0),
	R("aten::upsample_nearest2d", "aten_upsample_nearest", &F_UNARY,
	    elt_upsample, BWD_FAIL, 0),
	R("aten::upsample_nearest3d", "aten_upsample_nearest", &F_UNARY,
	    elt_upsample, BWD_FAIL, 0),
	R("aten::var", "aten_reduce", &F_REDUCE, reduce_aten, BWD_OWN, 0),
	R("bitsandbytes::int8_linear_matmul", "aten_scaled_mm", &F_GEMM,
	    gemm_scaled_mm, BWD_UNDEF, 0),
	R("flash_attn::_flash_attn_backward", "flash_attention_backward", &F_SDPA_B,
	    sdpa_flash_bwd, BWD_OWN, 0),
	R("flash_attn::_flash_attn_forward", "flash_attention", &F_SDPA,
	    sdpa_flash, BWD_OWN, 0),
	R("flash_attn::_flash_attn_varlen_backward",
	    "flash_attention_varlen_backward", &F_SDPA_B,
	    sdpa_varlen, BWD_OWN, 1, 9, 11, 1),
	R("flash_attn::_flash_attn_varlen_forward",
	    "flash_attention_varlen_forward", &F_SDPA, sdpa_varlen, BWD_OWN, 0, 3, 5, 0),
	R("flash_attn_3::fwd", "flash_attn_v3_forward", &F_SDPA,
	    sdpa_aiter, BWD_OWN, 0, -1, 24, 0),
	R("primus::fused_ln_modulate", "FusedLnModulate", &F_NORM,
	    norm_ln_modulate, BWD_UNDEF, 0),
	R("primus::fused_ln_modulate_backward", "FusedLnModulateBackward", &F_NORM_B,
	    norm_ln_modulate, BWD_UNDEF, 1),
	R("primus::quantize_mxfp4_dual", "primus_turbo_quantize_mxfp4_dual", &F_UNARY,
	    quant_primus, BWD_FAIL, 1),
	R("primus_turbo::grouped_gemm", "primus_turbo_grouped_gemm", &F_GGEMM,
	    grouped_gemm, BWD_UNDEF, 0),
	R("primus_turbo::grouped_gemm_impl", "primus_turbo_grouped_gemm", &F_GGEMM,
	    grouped_gemm, BWD_UNDEF, 0),
	R("primus_turbo::grouped_gemm_variable_k",
	    "primus_turbo_grouped_gemm_variable_k", &F_GGEMM,
	    grouped_gemm_vk, BWD_UNDEF, 0),
	R("primus_turbo::grouped_gemm_variable_k_impl",
	    "primus_turbo_grouped_gemm_variable_k", &F_GGEMM,
	    grouped_gemm_vk, BWD_UNDEF, 0),
	R("primus_turbo::hipblaslt_gemm_fp4", "hipblaslt_gemm_fp4", &F_GEMM,
	    gemm_hipblaslt, BWD_UNDEF, 2, 1, 1),
	R("primus_turbo::hipblaslt_gemm_fp8", "hipblaslt_gemm_fp8", &F_GEMM,
	    gemm_hipblaslt, BWD_UNDEF, 2, 1, 0),
	R("primus_turbo::quantize_fp8_tensorwise", "primus_turbo_quantize_fp8", &F_UNARY,
	    quant_primus, BWD_FAIL, 0),
	R("primus_turbo::quantize_mxfp4_dual",
	    "primus_turbo_quantize_mxfp4_dual", &F_UNARY, quant_primus, BWD_FAIL, 1),
	R("primus_turbo_cpp_extension::ck_grouped_gemm",
	    "primus_turbo_grouped_gemm", &F_GGEMM, grouped_gemm, BWD_UNDEF, 0),
	R("primus_turbo_cpp_extension::ck_grouped_gemm_variable_k",
	    "primus_turbo_grouped_gemm_variable_k", &F_GGEMM,
	    grouped_gemm_vk, BWD_UNDEF, 0),
	R("primus_turbo_cpp_extension::grouped_gemm",
	    "primus_turbo_grouped_gemm", &F_GGEMM, grouped_gemm, BWD_UNDEF, 0),
	R("primus_turbo_cpp_extension::grouped_gemm_variable_k",
	    "primus_turbo_grouped_gemm_variable_k", &F_GGEMM,
	    grouped_gemm_vk, BWD_UNDEF, 0),
	R("primus_turbo_cpp_extension::hipblaslt_gemm_fp4", "hipblaslt_gemm_fp4", &F_GEMM,
	    gemm_hipblaslt, BWD_UNDEF, 2, 1, 1),
	R("primus_turbo_cpp_extension::hipblaslt_gemm_fp8", "hipblaslt_gemm_fp8", &F_GEMM,
	    gemm_hipblaslt, BWD_UNDEF, 2, 1, 0),
	R("primus_turbo_cpp_extension::quantize_fp8_tensorwise",
	    "primus_turbo_quantize_fp8", &F_UNARY, quant_primus, BWD_FAIL, 0),
	R("primus_turbo_cpp_extension::quantize_mxfp4_dual",
	    "primus_turbo_quantize_mxfp4_dual", &F_UNARY, quant_primus, BWD_FAIL, 1),
	R("pseudo_mla_decode_fwd", "mla_decode_fwd", &F_INFATTN, infattn_unannotated, BWD_NONE, 0),
	R("pseudo_mla_prefill_fwd", "pseudo_mla_prefill_fwd", &F_INFATTN,
	    infattn_unannotated, BWD_NONE, 0),
	R("pseudo_op::moe_aiter_fused_1stage", "moe_aiter_fused_1stage", &F_MOEFUSED,
	    moe_flydsl, BWD_UNDEF, 2, 0),
	R("pseudo_op::moe_flydsl_stage1", "moe_flydsl_stage1", &F_MOEUNF,
	    moe_flydsl, BWD_UNDEF, 0, 1),
	R("pseudo_op::moe_flydsl_stage2", "moe_flydsl_stage2", &F_MOEUNF,
	    moe_flydsl, BWD_UNDEF, 1, 1),
	R("pseudo_op::moe_gptq_awq_down", "moe_gptq_awq_down", &F_MOEUNF,
	    NULL, BWD_OWN, 0),
	R("pseudo_op::moe_gptq_awq_up", "moe_gptq_awq_up", &F_MOEUNF, NULL, BWD_OWN, 0),
	R("pseudo_op::moe_triton_unfused_down", "moe_triton_unfused_down", &F_MOEUNF,
	    NULL, BWD_OWN, 0),
	R("pseudo_op::moe_triton_unfused_up", "moe_triton_unfused_up", &F_MOEUNF,
	    NULL, BWD_OWN, 0),
	R("pseudo_v4_paged_decode_csa", "pseudo_v4_paged_decode_csa", &F_INFATTN,
	    infattn_unannotated, BWD_NONE, 0),
	R("pseudo_v4_paged_decode_hca", "pseudo_v4_paged_decode_hca", &F_INFATTN,
	    infattn_unannotated, BWD_NONE, 0),
	R("pseudo_v4_paged_decode_swa", "pseudo_v4_paged_decode_swa", &F_INFATTN,
	    infattn_unannotated, BWD_NONE, 0),
	R("sgl_kernel::all_reduce_reg", "sgl_kernel_all_reduce_reg", &F_COLL,
	    collective, BWD_FAIL, 1, -1, 0, 1, 1, -1),
	R("sgl_kernel::qr_all_reduce", "sgl_kernel_qr_all_reduce", &F_COLL,
	    collective, BWD_FAIL, 1, -1, 0, 1, 1, -1),
	R("sgl_kernel::rotary_embedding", "sgl_kernel_rotary_embedding", &F_ROPE,
	    rope_sgl, BWD_FAIL, 0),
	R("sgl_kernel::silu_and_mul", "sgl_kernel_silu_and_mul", &F_UNARY,
	    elt_act_and_mul, BWD_FAIL, 5),
	R("sglang::reg_all_gather_into_tensor",
	    "sgl_kernel_reg_all_gather_into_tensor", &F_COLL,
	    collective, BWD_FAIL, 1, 0, 1, 0, 0, -1),
	R("sglang::store_cache", "sglang_store_cache", &F_INFATTN_V,
	    infattn_store_cache, BWD_FAIL, 0),
	R("sglang_profiler::attention_paged_attention_ragged",
	    "aiter_paged_attention_ragged", &F_INFATTN, infattn_unannotated, BWD_NONE, 0),
	R("sglang_profiler::batched_gemm_a8w8_a_per_token_group_prequant_w_per_batched_tens"
	    "or_quant_batched_gemm_a8w8_a_per_token_group_prequant_w_per_batched_tensor_quant",
	    "batched_gemm_a8w8", &F_GEMM, gemm_batched_a8w8, BWD_UNDEF, 0),
	R("sglang_profiler::fp8_utils_gemm_a8w8_blockscale",
	    "gemm_a8w8_blockscale", &F_GEMM, gemm_a8w8_blockscale, BWD_UNDEF, 0),
	R("sglang_profiler::fused_moe_triton_kernels_fused_append_shared_experts",
	    "sglang_fused_append_shared_experts", &F_MOEAUX, moe_append_shared,
	    BWD_FAIL, 0),
	R("sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel",
	    "moe_triton_invoke_grouped_gemm", &F_MOEUNF, moe_triton_invoke, BWD_UNDEF, 0),
	R("sglang_profiler::fused_mxfp4_quant_fused_flatten_mxfp4_quant",
	    "fused_flatten_mxfp4_quant", &F_GQUANT, quant_mxfp4, BWD_FAIL, 0, 1),
	R("sglang_profiler::fused_mxfp4_quant_fused_rms_mxfp4_quant",
	    "fused_rms_mxfp4_quant", &F_RMSNORM,
	    norm_rms_ext, BWD_UNDEF, 0, 1, RMS_MXFP4),
	R("sglang_profiler::gemm_a8w8_blockscale_gemm_a8w8_blockscale",
	    "gemm_a8w8_blockscale", &F_GEMM, gemm_a8w8_blockscale, BWD_UNDEF, 0),
	R("sglang_profiler::gemm_kernels_flydsl_hgemm", "gemm_a16w16_atomic_", &F_GEMM,
	    gemm_a16w16_atomic, BWD_UNDEF, 0),
	R("sglang_profiler::quant_dynamic_mxfp4_quant",
	    "sglang_quant_dynamic_mxfp4_quant", &F_GQUANT, quant_mxfp4, BWD_FAIL, 0, 0),
	R("sglang_profiler::tilelang_kernel_tilelang_sparse_fwd",
	    "mla_tilelang_sparse_fwd", &F_INFATTN, infattn_unannotated, BWD_NONE, 0),
	R("tex_ts::te_gemm_ts", "tex_ts_te_gemm_ts", &F_GEMM, gemm_te_ts, BWD_UNDEF, 0),
	R("trtllm::cublas_scaled_mm", "aten_scaled_mm", &F_GEMM,
	    gemm_scaled_mm, BWD_UNDEF, 0),
	R("vllm::_rocm_aiter_preshuffled_per_token_w8a8_gemm",
	    "gemm_a8w8_blockscale", &F_GEMM, gemm_a8w8_blockscale, BWD_UNDEF, 0),
	R("vllm::gdn_attention_core", "gdn_attention_core", &F_INFATTN,
	    undefined, BWD_OWN, 0),
	R("vllm::gemm_with_dynamic_quant", "vllm_gemm_with_dynamic_quant", &F_GEMM,
	    gemm_vllm_dq, BWD_UNDEF, 0),
	R("vllm::rocm_aiter_rmsnorm_fp8_group_quant",
	    "vllm_rocm_aiter_rmsnorm_fp8_group_quant", &F_RMSNORM,
	    norm_rms_ext, BWD_UNDEF, 0, 1, RMS_GQUANT),
	R("vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant",
	    "vllm_rocm_aiter_rmsnorm_with_add_fp8_group_quant", &F_RMSNORM,
	    norm_rms_ext, BWD_UNDEF, 0, 2, RMS_ADDGQUANT),
	R("vllm::rocm_aiter_triton_add_rmsnorm_pad",
	    "vllm_rocm_aiter_triton_add_rmsnorm_pad", &F_RMSNORM,
	    norm_rms_ext, BWD_UNDEF, 0, 1, RMS_ADDPAD),
	R("vllm::rocm_aiter_triton_gemm_a8w8_blockscale", "gemm_a8w8_blockscale", &F_GEMM,
	    gemm_a8w8_blockscale, BWD_UNDEF, 0),
	R("vllm::rocm_unquantized_gemm", "vllm_rocm_unquantized_gemm", &F_GEMM,
	    gemm_vllm_rocm, BWD_FAIL, 0),
	R("vllm::triton_per_token_group_quant_fp8",
	    "vllm_triton_per_token_group_quant_fp8", &F_GQUANT_B,
	    quant_vllm_group_fp8, BWD_FAIL, 0),
	R("vllm::unified_attention_with_output",
	    "vllm_unified_attention_with_output", &F_INFATTN, infattn_vllm, BWD_NONE, 0),
	/* the NMATCHERS name matchers (resolve_perf_model_class), after the exact names */
	{ "triton_poi_", "TritonCompiledPerfModel", &F_TRITON, triton, { 0 }, BWD_UNDEF,
	    triton_can, 1 },
	{ "triton_red_", "TritonCompiledPerfModel", &F_TRITON, triton, { 0 }, BWD_UNDEF,
	    triton_can, 1 },
	{ "triton_per_", "TritonCompiledPerfModel", &F_TRITON, triton, { 0 }, BWD_UNDEF,
	    triton_can, 1 },
};

const struct model *
model_find(const char *name)
{
	size_t lo = 0, hi = LEN(models) - NMATCHERS, mid, i;
	int c;

	/* the exact names come first, sorted; the name matchers after them */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		/* (most ops have no model: the first byte often tells) */
		c = (unsigned char)models[mid].op[0] - (unsigned char)name[0];
		if (c == 0 && (c = strcmp(models[mid].op, name)) == 0)
			return &models[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = LEN(models) - NMATCHERS; i < LEN(models); i++)
		if (models[i].op[0] == name[0] &&
		    strncmp(models[i].op, name, strlen(models[i].op)) == 0)
			return &models[i];
	return NULL;
}

int
model_can(const struct model *m, const struct opargs *a)
{
	return m->can == NULL || m->can(a);
}

const struct model *
model_table(size_t *n)
{
	*n = LEN(models);
	return models;
}

int
model_run(const struct model *m, const struct opargs *a, struct mresult *r, int bwd)
{
	int st;

	buf_reset(&r->params);
	r->flops = I(0);
	r->bytes = I(0);
	r->has_bytes = 0;
	r->dtype = NULL;
	r->prec[0] = '\0';
	r->why[0] = '\0';
	r->ovf = 0;
	r->inmetrics = 0;
	/*
	 * A TraceLens model that tl has no formula for yet: the op still
	 * counts as modelled (unified_perf_summary collects it as TraceLens
	 * does), its metrics stay empty with a counted warning.
	 */
	if (m->fn == NULL)
		return fail(r, "no tl formula for this TraceLens model yet");
	if (bwd && m->bwd == BWD_NONE)
		return M_UNDEF;
	st = m->fn(a, r, m, bwd && m->bwd == BWD_OWN);
	/* no backward model: TraceLens's params must be read, no more */
	if (bwd && m->bwd != BWD_OWN && (st != M_FAIL || r->inmetrics))
		st = m->bwd == BWD_UNDEF ? M_UNDEF : fail(r, "no backward model");
	if (st == M_OK && r->ovf)
		st = fail(r, r->ovf == 2 ? "division by zero" : "integer overflow");
	if (st == M_OK)
		buf_addc(&r->params, '}');
	return st;
}
