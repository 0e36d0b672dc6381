# See LICENSE file for copyright and license details.
# stage: synthetic
# The GPU events under some collected op (covered_gpu.tsv, one UID a
# line, ascending; with --comparison, also the intervals themselves,
# tag ts dur name stream gpu, for kernel_map: collected_intervals.tsv).
# TraceLens's synthetic ops: each linked, non-communication GPU event
# that no collected op covers, as a copy of its nearest cpu_op (or of
# its runtime call when it has none), named "SOURCE->KERNEL (Synthetic
# Op)".  They are numbered after the trace's last UID: first those of
# runtimes, by runtime (in order of their first event), then the
# others, in GPU event order.  synthetic_ops.tsv: UID src name ts dur
# kname stream gpu; synthetic_kernels.tsv: each one's kernel, as op kt
# kd.  Then the first direct kernel of every source op
# of unified_perf_summary (the collected ops, and the sources of the
# synthetic ops), UID TAB name, UID order: TraceLens categorises an op
# with it (first_kernels.tsv).
# in: gpu.tsv trace.facts ops.tsv collected_ops.tsv intervals.tsv walk.tsv
# out: synthetic_ops.tsv synthetic_kernels.tsv first_kernels.tsv collected_intervals.tsv
# when: roofline=1 cpu_ops=1 gpu_work=1
synthetic() {
	if [ "$comparison" = 1 ]; then
		st tl-pick -s -W walk.tsv -u collected_ops.tsv intervals.tsv |
		st tee collected_intervals.tsv | st cut -f 6
	else
		st tl-pick -s -o gpu -W walk.tsv -u collected_ops.tsv intervals.tsv
	fi | st tl_sort -n -u >covered_gpu.tsv; ok
	max=$last_uid
	case $max in
	'' | *[!0-9]*) max=$(awk -F '\t' 'NR > 1 && $1 + 0 > m { m = $1 + 0 } END { print m + 0 }' ops.tsv gpu.tsv) ;;
	esac
	# src name ts dur kname stream gpu (runtime ones: led by the runtime
	# and the GPU event, for the sort; tl-uncovered)
	st tl-uncovered -c covered_gpu.tsv -o synthetic_cpu.tsv gpu.tsv |
	st tl_sort -t "$TAB" -k1,1n -k2,2n |
	st awkt '$1 != r { r = $1; f = $2 } { print f, $0 }' |
	st tl_sort -t "$TAB" -k1,1n -k3,3n |
	# UID src name ts dur kname stream gpu to synthetic_ops.tsv, the
	# runtime ones (from the pipe, after their three sort keys) first;
	# and each one's kernel, as perf_kinfo's records, whose tags (the
	# synthetic UIDs, numbered here) ascend and are each one kernel's:
	# no sort (tl-aggregate checks the order)
	st awkt -v u="$max" -v cf=synthetic_cpu.tsv -v so=synthetic_ops.tsv '
	BEGIN { printf "" >so; print "tag", "ts", "dur", "name", "stream", "gpu" }
	{
		o = FILENAME == cf ? 0 : 3
		print ++u, $(o + 1), $(o + 2) "->" $(o + 5) " (Synthetic Op)", $(o + 3),
		    $(o + 4), $(o + 5), $(o + 6), $(o + 7) >so
		print u, $(o + 3), $(o + 4), $(o + 5), $(o + 6), $(o + 7)
	}' - synthetic_cpu.tsv |
	st tl-aggregate -g tag:n 'kt=union:ts,dur' 'kd=list:name,dur,stream' 'kn=count' \
	    >synthetic_kernels.tsv; ok
	tl_drop synthetic_cpu.tsv covered_gpu.tsv
	st awkt '{ print $o, $o }' o=1 collected_ops.tsv o=2 synthetic_ops.tsv |
	st tl_sort -t "$TAB" -k1,1n -u >first_kernel_keys.tsv; ok
	# (each op its own tag: in op order, then ts, then GPU event)
	st tl-pick -d -1 -o tag,name -k first_kernel_keys.tsv intervals.tsv >first_kernels.tsv; ok
	tl_drop first_kernel_keys.tsv
}
