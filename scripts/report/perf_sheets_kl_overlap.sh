# See LICENSE file for copyright and license details.
# sheet: perf_sheets_kl_overlap
# TraceLens's perf-model sheets with --include_overlap_info, each
# CATEGORY_kl_overlap of a CATEGORY sheet perf_sheets wrote, of a trace
# without overlapping kernels (kl_sheet): overlapping_kernel_names_first
# after name, overlapping_kernels_details__summarize_kernel_stats and
# the rest after trunc_kernel_details.
# in: GEMM.csv UnaryElementwise.csv BinaryElementwise.csv Normalization.csv
# in: SDPA_fwd.csv SDPA_bwd.csv CONV_fwd.csv CONV_bwd.csv Reduce_fwd.csv Reduce_bwd.csv
# in: RMSNorm_fwd.csv RMSNorm_bwd.csv GroupQuant_fwd.csv GroupQuant_bwd.csv
# in: GroupedGEMM_fwd.csv GroupedGEMM_bwd.csv MoE_comm_fwd.csv MoE_comm_bwd.csv
# in: SSM_fwd.csv SSM_bwd.csv RoPE_fwd.csv RoPE_bwd.csv
# in: CrossEntropy_fwd.csv CrossEntropy_bwd.csv MoE_fused_fwd.csv MoE_fused_bwd.csv
# in: MoE_unfused_fwd.csv MoE_unfused_bwd.csv MoE_aux_fwd.csv MoE_aux_bwd.csv
# in: elementwise_fwd.csv elementwise_bwd.csv FusedRoPE_fwd.csv FusedRoPE_bwd.csv
# in: CustomCollective_fwd.csv CustomCollective_bwd.csv mHC_fwd.csv mHC_bwd.csv
# in: InferenceAttention_fwd.csv InferenceAttention_bwd.csv
# out: GEMM_kl_overlap.csv UnaryElementwise_kl_overlap.csv
# out: BinaryElementwise_kl_overlap.csv Normalization_kl_overlap.csv
# out: SDPA_fwd_kl_overlap.csv SDPA_bwd_kl_overlap.csv CONV_fwd_kl_overlap.csv
# out: CONV_bwd_kl_overlap.csv Reduce_fwd_kl_overlap.csv Reduce_bwd_kl_overlap.csv
# out: RMSNorm_fwd_kl_overlap.csv RMSNorm_bwd_kl_overlap.csv
# out: GroupQuant_fwd_kl_overlap.csv GroupQuant_bwd_kl_overlap.csv
# out: GroupedGEMM_fwd_kl_overlap.csv GroupedGEMM_bwd_kl_overlap.csv
# out: MoE_comm_fwd_kl_overlap.csv MoE_comm_bwd_kl_overlap.csv
# out: SSM_fwd_kl_overlap.csv SSM_bwd_kl_overlap.csv RoPE_fwd_kl_overlap.csv
# out: RoPE_bwd_kl_overlap.csv CrossEntropy_fwd_kl_overlap.csv
# out: CrossEntropy_bwd_kl_overlap.csv MoE_fused_fwd_kl_overlap.csv
# out: MoE_fused_bwd_kl_overlap.csv MoE_unfused_fwd_kl_overlap.csv
# out: MoE_unfused_bwd_kl_overlap.csv MoE_aux_fwd_kl_overlap.csv
# out: MoE_aux_bwd_kl_overlap.csv elementwise_fwd_kl_overlap.csv
# out: elementwise_bwd_kl_overlap.csv FusedRoPE_fwd_kl_overlap.csv
# out: FusedRoPE_bwd_kl_overlap.csv CustomCollective_fwd_kl_overlap.csv
# out: CustomCollective_bwd_kl_overlap.csv mHC_fwd_kl_overlap.csv
# out: mHC_bwd_kl_overlap.csv InferenceAttention_fwd_kl_overlap.csv
# out: InferenceAttention_bwd_kl_overlap.csv
# when: kl=1 roofline=1 cpu_ops=1 gpu_work=1
perf_sheets_kl_overlap() {
	for _pk_s in GEMM UnaryElementwise BinaryElementwise Normalization \
	    SDPA_fwd SDPA_bwd CONV_fwd CONV_bwd Reduce_fwd Reduce_bwd \
	    RMSNorm_fwd RMSNorm_bwd GroupQuant_fwd GroupQuant_bwd \
	    GroupedGEMM_fwd GroupedGEMM_bwd MoE_comm_fwd MoE_comm_bwd \
	    SSM_fwd SSM_bwd RoPE_fwd RoPE_bwd CrossEntropy_fwd CrossEntropy_bwd \
	    MoE_fused_fwd MoE_fused_bwd MoE_unfused_fwd MoE_unfused_bwd \
	    MoE_aux_fwd MoE_aux_bwd elementwise_fwd elementwise_bwd \
	    FusedRoPE_fwd FusedRoPE_bwd CustomCollective_fwd CustomCollective_bwd \
	    mHC_fwd mHC_bwd InferenceAttention_fwd InferenceAttention_bwd; do
		kl_sheet "$R/$_pk_s.csv" "$R/${_pk_s}_kl_overlap.csv" overlapping_kernel_names_first \
		    overlapping_kernels_details__summarize_kernel_stats; ok
	done
}
