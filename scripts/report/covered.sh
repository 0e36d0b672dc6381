# See LICENSE file for copyright and license details.
# stage: covered
# The GPU events under some collected op (covered_gpu.tsv, one UID a
# line, ascending): the others become synthetic ops.  With
# --comparison, also the intervals themselves (collected_intervals.tsv,
# tag ts dur name stream gpu), for kernel_map.
# in: collected_keys.tsv intervals.tsv
# out: covered_gpu.tsv collected_intervals.tsv
# when: roofline=1 cpu_ops=1 gpu_events=1
covered() {
	if [ "$comparison" = 1 ]; then
		st tl-tree -m subtree -k collected_keys.tsv intervals.tsv | st tee collected_intervals.tsv
	else
		st tl-tree -m subtree -k collected_keys.tsv intervals.tsv
	fi | st cut -f 6 | st tl_sort -n -u >covered_gpu.tsv; ok
}
