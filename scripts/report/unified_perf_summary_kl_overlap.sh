# See LICENSE file for copyright and license details.
# sheet: unified_perf_summary_kl_overlap
# TraceLens's unified_perf_summary with --include_overlap_info, of a
# trace without overlapping kernels (kl_sheet): overlapping_kernel_names
# after name, overlapping_kernels_details_summary and the rest after
# trunc_kernel_details; without the seven columns of a comparison,
# which TraceLens adds to unified_perf_summary only.
# in: unified_perf_summary.csv
# out: unified_perf_summary_kl_overlap.csv
# when: kl=1 roofline=1 cpu_ops=1 gpu_work=1
unified_perf_summary_kl_overlap() {
	kl_sheet "$R/unified_perf_summary.csv" "$R/unified_perf_summary_kl_overlap.csv" \
	    overlapping_kernel_names overlapping_kernels_details_summary \
	    'speedup (trace2/trace1)' 'delta_us (trace2 - trace1)' lca_count_trace2 lca_id \
	    lca_name lca_total_kernel_time_trace1_us lca_total_kernel_time_trace2_us; ok
}
