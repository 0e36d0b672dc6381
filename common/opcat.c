/* See LICENSE file for copyright and license details. */
/*
 * TraceLens's op categorizer.  Its OP_CATEGORY_REGISTRY at commit
 * 171dd747 is every op with a perf model, mapped to its model's
 * category, then the category-only names (CATEGORY_ONLY_OP_MAPPING,
 * pseudo-op extensions included), which win (build_op_category_registry
 * in PerfModel/torch_op_mapping.py).  The modelled ops and their
 * categories are the perf-model table's (common/models/table.c); the
 * table here holds the category-only names, kept sorted by name in
 * byte order so that a lookup is a binary search.
 */
#include <stdlib.h>
#include <string.h>

#include "perfmodel.h"
#include "opcat.h"
#include "tl.h"

/* One registry entry. */
struct opcat_ent {
	const char *name;	/* op name exactly as in the trace */
	const char *cat;	/* its category */
};

/*
 * The category-only names.  One is also modelled:
 * aiter::fused_dynamic_mxfp4_quant_moe_sort_hip, whose class says
 * GroupQuant; TraceLens's pseudo_ops_perf_utils.py (line 173) makes it
 * MoE_aux, and that wins.
 */
static const struct opcat_ent registry[] = {
	{ "CrossEntropyFunctionBackward", "CrossEntropy_bwd" },
	{ "DaoAILab::_causal_conv1d_bwd_cpp", "SSM_bwd" },
	{ "FlashAttnFuncBackward", "SDPA_bwd" },
	{ "FusedAttnFuncBackward", "SDPA_bwd" },
	{ "FusedRoPEFuncBackward", "RoPE_bwd" },
	{ "MambaSplitConv1dScanCombinedFnBackward", "SSM_bwd" },
	{ "MoECombineBackward", "MoE_comm_bwd" },
	{ "MoEDispatchBackward", "MoE_comm_bwd" },
	{ "TokenPermuteMaskMap", "MoE_comm_fwd" },
	{ "TokenPermuteMaskMapBackward", "MoE_comm_bwd" },
	{ "_C_cache_ops::concat_and_cache_mla", "InferenceAttention" },
	{ "_C_cache_ops::reshape_and_cache_flash", "InferenceAttention" },
	{ "_OperationFuserAutogradFunction", "MoE_comm_fwd" },
	{ "_OperationFuserAutogradFunctionBackward", "MoE_comm_bwd" },
	{ "_moe_C::moe_align_block_size", "MoE_aux" },
	{ "aiter::allgather_lastdim<std::bfloat16_t, 2>(aiter::RankData*, aiter::RankSignals, aiter::Signal*, std::bfloat16_t*, int, int, int) (Synthetic Op)", "CustomCollective" },
	{ "aiter::allgather_lastdim<std::bfloat16_t, 4>(aiter::RankData*, aiter::RankSignals, aiter::Signal*, std::bfloat16_t*, int, int, int) (Synthetic Op)", "CustomCollective" },
	{ "aiter::fused_dynamic_mxfp4_quant_moe_sort_hip", "MoE_aux" },
	{ "aiter::fused_moe_->_fused_dynamic_mxfp4_quant_moe_sort_kernel (Synthetic Op)", "MoE_aux" },
	{ "aiter::get_mla_metadata_v1", "InferenceAttention" },
	{ "aiter::grouped_topk", "MoE_aux" },
	{ "aiter::indexer_score_topk", "InferenceAttention" },
	{ "aiter::moe_align_block_size", "MoE_aux" },
	{ "aiter::moe_fused_gate", "MoE_aux" },
	{ "aiter::moe_sorting_opus_fwd", "MoE_aux" },
	{ "aiter::moe_sum", "MoE_aux" },
	{ "aiter::topk_sigmoid", "MoE_aux" },
	{ "aiter::topk_softmax", "MoE_aux" },
	{ "aiter::topk_softmax_asm", "MoE_aux" },
	{ "aiter::unified_attention_with_output_base->_fused_qk_rope_reshape_and_cache_kernel (Synthetic Op)", "FusedRoPE" },
	{ "aiter::v4_attention_with_output->_inverse_rope_gptj_kernel (Synthetic Op)", "FusedRoPE" },
	{ "aiter::v4_attention_with_output->_swa_write_kernel (Synthetic Op)", "InferenceAttention" },
	{ "aiter::v4_attention_with_output->_update_compressor_states_kernel (Synthetic Op)", "InferenceAttention" },
	{ "aiter::v4_attention_with_output->fused_compress_attn_D128_RD64_R4_OVL_SS8_KB32_Q_ue8m0_psh_rmsbf16_pf_flydsl (Synthetic Op)", "InferenceAttention" },
	{ "aiter::v4_attention_with_output->fused_compress_attn_D512_RD64_R4_OVL_SS8_KB32_rmsbf16_pf_flydsl (Synthetic Op)", "InferenceAttention" },
	{ "aiter::v4_attention_with_output->hca_compress_forward_D512_R128_NW4_SL256_S128_flydsl (Synthetic Op)", "InferenceAttention" },
	{ "aiter::v4_attention_with_output->hca_compress_forward_D512_R128_NW8_SL128_S128_flydsl (Synthetic Op)", "InferenceAttention" },
	{ "aiter::v4_attention_with_output->hca_norm_rope_scatter_D512_RD64_R128_KB1_rmsbf16_flydsl (Synthetic Op)", "FusedRoPE" },
	{ "aiter::v4_attention_with_output->qk_norm_rope_H32_D512_RD64_flydsl (Synthetic Op)", "FusedRoPE" },
	{ "aiter::v4_attention_with_output->qk_norm_rope_H64_D512_RD64_flydsl (Synthetic Op)", "FusedRoPE" },
	{ "aten::_efficient_attention_backward", "SDPA_bwd" },
	{ "aten::_efficient_attention_forward", "SDPA_fwd" },
	{ "aten::_scaled_dot_product_cudnn_attention_backward", "SDPA_bwd" },
	{ "aten::_scaled_dot_product_efficient_attention_backward", "SDPA_bwd" },
	{ "aten::_scaled_dot_product_flash_attention_backward", "SDPA_bwd" },
	{ "aten::cudnn_convolution", "CONV_fwd" },
	{ "aten::miopen_convolution", "CONV_fwd" },
	{ "hipModuleLaunchKernel->kv_indices_generate_kernel (Synthetic Op)", "InferenceAttention" },
};

const char *
opcat_lookup(const char *name)
{
	size_t lo = 0, hi = sizeof(registry) / sizeof(registry[0]), mid;
	const struct model *m;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		/* (most ops are in neither table: the first byte often tells) */
		c = (unsigned char)registry[mid].name[0] - (unsigned char)name[0];
		if (c == 0 && (c = strcmp(registry[mid].name, name)) == 0)
			return registry[mid].cat;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* (the registry holds exact names only: not Triton's matchers) */
	if ((m = model_find(name)) != NULL && !m->prefix)
		return m->fam->cat;
	return NULL;
}

const char *
opcat(const char *name, const char *first_kernel)
{
	static const char *const kinds[] = {
		"elementwise", "reduce", "multi_tensor_apply"
	};
	const char *c;
	size_t i;

	if ((c = opcat_lookup(name)) != NULL)
		return c;
	if (strncmp(name, "triton", 6) == 0)
		return "triton";
	if (strncmp(name, "record_param_comms", 18) == 0)
		return "record_param_comms";
	/* TraceLens looks at the first kernel only for ATen's own kernels */
	if (first_kernel != NULL &&
	    strncmp(first_kernel, "void at::native", 15) == 0)
		for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			if (strstr(first_kernel, kinds[i]) != NULL)
				return kinds[i];
	return "other";
}

const char *
kernelcat(const char *name)
{
	/* In TraceLens's order: the first family with a marker wins. */
	static const struct {
		const char *cat;		/* the category */
		const char *mark[4];		/* its markers, NULL-ended */
	} fam[] = {
		{ "GEMM", { "gemm", "matmul", "cijk", NULL } },
		{ "Elementwise", { "elementwise", NULL } },
		{ "Reduction", { "reduce", "sum", NULL } },
		{ "Convolution", { "conv", NULL } },
		{ "Normalization", { "norm", NULL } },
		{ "Attention", { "flash", "attn", "fmha", NULL } },
		{ "Memory", { "copy", "memcpy", NULL } },
		/* TraceEventUtils.is_communication_string */
		{ "COMM", { "rccl", "nccl", "cross_device_reduce", NULL } },
	};
	char *low = tl_strdup(name), *p;
	const char *c = NULL;
	size_t i, j;

	/* Python's lower(); letters outside ASCII stay as they are */
	for (p = low; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	for (i = 0; i < sizeof(fam) / sizeof(fam[0]) && c == NULL; i++)
		for (j = 0; fam[i].mark[j] != NULL && c == NULL; j++)
			if (strstr(low, fam[i].mark[j]) != NULL)
				c = fam[i].cat;
	free(low);
	return c != NULL ? c : "Other";
}
