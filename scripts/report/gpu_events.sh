# See LICENSE file for copyright and license details.
# stage: gpu_events
# The sheet gpu_timeline (gpu_timeline.sh) of the GPU events' busy
# intervals, which the tree stage's gpu_events_rows (tree.sh) wrote as
# soon as gpu.tsv was whole (busy0.tsv, unsorted: ts dur class, the
# linked GPU events, all of them with --include-unlinked-kernels; class
# comp, comm or memcpy as TraceLens's GPU timeline classifies them),
# here sorted by ts: busy.tsv, a pipe, not a work file (but with
# --detect_recompute, which reads it once per set: then busy.tsv has
# is_recompute last, that of the GPU event's launching runtime event,
# as TraceLens marks the GPU events of a recompute subtree through
# their launch, the intervals sorted by it first, rc_mark, then by ts).
# kernels.facts has busy_rows (some interval to measure).
# in: busy0.tsv kernels.facts recompute.tsv trace.facts health.tsv
# out: gpu_timeline.csv gpu_total
gpu_events() {
	if [ "$recompute" = 1 ]; then
		st hsort -t "$TAB" -k4,4n <busy0.tsv | st rc_mark 4 |
		st cut -f1-3,5 | st hsort -t "$TAB" -k1,1n >busy.tsv; ok
		. ./kernels.facts || exit 1
		gpu_timeline
		tl_drop busy.tsv
		return 0
	fi
	st hsort -t "$TAB" -k1,1n <busy0.tsv | gpu_timeline; ok
	. ./kernels.facts || exit 1
	# (the sheet of no interval is none: TraceLens stops)
	[ "$busy_rows" = 0 ] || return 0
	rm -f "$R/gpu_timeline.csv" gpu_total
	timeline_none
}
