# See LICENSE file for copyright and license details.
# sheet: perf_sheets_kl_overlap
# TraceLens's perf-model sheets with --include_overlap_info, each
# CATEGORY_kl_overlap of a CATEGORY sheet: the model rows, by UID, with
# what op_overlap found of their op (kl_join: a launcher's own kernels,
# as TraceLens's perf tables take them from the launchers; nothing for
# an op that is none), grouped as perf_sheets groups them, the names a
# key too (perf_groups kl), then laid out by tl-perfsheet -k: the
# groups by the total and least UID of their group but the names, then
# their own total and first UID.  Where no kernels overlap, the rows of
# the CATEGORY sheets in their order, with the overlap columns.
# in: perf_rows.tsv perf_rows_bwd.tsv op_overlap.tsv
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
	awk 'FNR > 1 || NR == 1' perf_rows.tsv perf_rows_bwd.tsv |
	st hsort -t "$TAB" -k2,2n | st kl_join 2 | perf_groups kl >perf_groups_kl.tsv; ok
	st tl-perfsheet -k -d "$R" perf_groups_kl.tsv; ok
	rm -f perf_groups_kl.tsv
}
