# See LICENSE file for copyright and license details.
# stage: overlap
# --include_overlap_info: the GPU events each GPU event overlaps, as
# TraceLens's sweep lists them in its overlapping_uids (tl-overlap over
# gpu.tsv by ts; the launched events only, as its gpu_timeline's,
# unless --include-unlinked-kernels): overlap.tsv, which op_overlap
# and unified_perf_summary_kl_overlap read.  With --detect_recompute,
# the events not recomputed and the recomputed ones (by their launching
# runtime event: rc_mark) apart: TraceLens's first sweep of an event
# sets its list for good, and that is its gpu_timeline's, which sweeps
# each set alone then.
# in: gpu.tsv recompute.tsv
# out: overlap.tsv
# when: kl=1 cpu_ops=1
overlap() {
	u=
	[ "$unlinked" != 1 ] || u=-u
	if [ "$recompute" = 1 ]; then
		# (runtime: gpu.tsv's field 11)
		st hsort -t "$TAB" -k11,11n <gpu.tsv | st rc_mark runtime >overlap.in; ok
		: >overlap.tsv
		h=
		for f in False True; do
			st awkt -v f=$f 'NR == 1 || $NF == f' overlap.in |
			st hsort -t "$TAB" -k7,7g -k1,1n | st tl-overlap $u |
			st awkt -v h="$h" 'NR > 1 || h == ""' >>overlap.tsv; ok
			h=1
		done
		tl_drop overlap.in
		return 0
	fi
	st hsort -t "$TAB" -k7,7g -k1,1n <gpu.tsv | st tl-overlap $u >overlap.tsv; ok
}
