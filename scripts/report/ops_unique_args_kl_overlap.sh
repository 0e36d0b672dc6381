# See LICENSE file for copyright and license details.
# sheet: ops_unique_args_kl_overlap
# TraceLens's ops_unique_args with --include_overlap_info, of a trace
# without overlapping kernels (kl_sheet): overlapping_kernel_names after
# name, overlapping_kernels_details_summary and the rest after
# trunc_kernel_details.
# in: ops_unique_args.csv
# out: ops_unique_args_kl_overlap.csv
# when: kl=1 cpu_ops=1
ops_unique_args_kl_overlap() {
	kl_sheet "$R/ops_unique_args.csv" "$R/ops_unique_args_kl_overlap.csv" \
	    overlapping_kernel_names overlapping_kernels_details_summary; ok
}
