# See LICENSE file for copyright and license details.
# stage: first_kernels
# The first direct kernel of every source op of unified_perf_summary
# (the collected ops, and the sources of the synthetic ops): UID TAB
# name, UID order.  TraceLens categorises an op with it.
# in: collected_keys.tsv synthetic_ops.tsv intervals.tsv
# out: first_kernels.tsv
# when: roofline=1 cpu_ops=1 gpu_events=1
first_kernels() {
	{ cat collected_keys.tsv; awkt '{ print $2, $2 }' synthetic_ops.tsv; } |
	    st tl_sort -t "$TAB" -k1,1n -u >first_kernel_keys.tsv; ok
	# (each op its own tag: in op order, then ts, then GPU event)
	st tl-tree -m direct -k first_kernel_keys.tsv intervals.tsv |
	st awk -F '\t' '$1 != p { p = $1; print $1 "\t" $4 }' >first_kernels.tsv; ok
	rm -f first_kernel_keys.tsv
}
