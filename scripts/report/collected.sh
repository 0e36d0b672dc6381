# See LICENSE file for copyright and license details.
# stage: collected
# The ops of unified_perf_summary (TraceLens's
# collect_unified_perf_events), one call tree at a time (tl-forest -m
# collect over forest.tsv): collected_ops.tsv, UID type fwd (type P: a
# perf model of its own, S: the sole backward op of a modelled forward
# op, O: any other op that launches GPU work without communication
# below it), which tl-pick -u reads as keys too (each op its own).  The
# walk's "sole backward op" test reads, as forest keys, the ops whose
# forward op has backward metrics in TraceLens (and a backward
# category) and GPU work: made first, so that the walk holds one tree.
# Then the backward metrics of the forward ops of the S ops (their sole
# backward op takes them in unified_perf_summary): UID TAB model_status
# GFLOPS Data Moved (MB) FLOPS/Byte TB/s TFLOPS/s Compute Spec params op
# category Kernel Time (µs) [Roofline Time (µs) Roofline Bound Pct
# Roofline], by UID (sole_bwd_metrics.tsv, empty without backward
# metrics).
# in: forest.tsv forest_fwd_keys.tsv bwd_metrics.tsv bwd_modelled_ops.tsv
# out: collected_ops.tsv sole_bwd_metrics.tsv
# when: roofline=1 cpu_ops=1 gpu_work=1
collected() {
	: >bwd_eligible.tsv
	if [ -f bwd_metrics.tsv ]; then
		# (bwd_metrics.tsv has one line per line of bwd_modelled_ops.tsv)
		st awkt 'NR == 1 {
			for (i = 1; i <= NF; i++) col[$i] = i
			getline l <fb; nh = split(l, h, "\t")
			for (i = 1; i <= nh; i++) bc[h[i]] = i
			next
		}
		{
			getline l <fb; split(l, m, "\t")
			if (m[bc["model_status"]] == "ok" && m[bc["op category"]] != "" &&
			    $col["cat"] == "cpu_op" && $col["ngpu"] > 0) print $col["UID"]
		}' fb=bwd_metrics.tsv bwd_modelled_ops.tsv >bwd_eligible_ops.tsv; ok
		# (forest_fwd_keys.tsv: fwd op TAB KEY of the ops with a fwd link)
		st tl_sort -t "$TAB" -k1,1n forest_fwd_keys.tsv |
		st awkt "$PERF_HAS"'
				has(ef, $1 + 0) { print $2 }' ef=bwd_eligible_ops.tsv |
		st tl_sort >bwd_eligible.tsv; ok
		tl_drop bwd_eligible_ops.tsv
	fi
	# Only host events with GPU work below them are ever visited.
	# (by UID, once: the keys, and unified's merge join with the
	# kernels, want that order)
	st tl-forest -m collect -s bwd_eligible.tsv forest.tsv |
	st tl_sort -t "$TAB" -k1,1n >collected_ops.tsv; ok
	tl_drop bwd_eligible.tsv
	: >sole_bwd_metrics.tsv
	[ -f bwd_metrics.tsv ] || return 0
	awkt '$2 == "S" { print $3, $1 }' collected_ops.tsv | st tl_sort -t "$TAB" -k1,1n |
	st awkt '
	NR == 1 { getline l <fb; nh = split(l, h, "\t"); for (i = 1; i <= nh; i++) hc[h[i]] = i; bu = -1 }
	{
		f = $1 + 0
		while (bu < f) {
			if ((getline l <fb) <= 0) { bu = 1e300; break }
			split(l, b, "\t"); bu = b[hc["UID"]] + 0
		}
		if (bu == f) print $2, metrics()
	}
	# the model columns unified_perf_summary takes, and the roofline
	# columns with a GPU spec
	function metrics(   v, i, nn) {
		v = b[hc["model_status"]]
		split("GFLOPS|Data Moved (MB)|FLOPS/Byte|TB/s|TFLOPS/s|Compute Spec|params|op category|Kernel Time (µs)", nn, "|")
		for (i = 1; i <= 9; i++) v = v "\t" b[hc[nn[i]]]
		if (arch != "") v = v "\t" b[hc["Roofline Time (µs)"]] "\t" b[hc["Roofline Bound"]] "\t" b[hc["Pct Roofline"]]
		return v
	}' fb=bwd_metrics.tsv arch="$arch" | st tl_sort -t "$TAB" -k1,1n >sole_bwd_metrics.tsv; ok
}
