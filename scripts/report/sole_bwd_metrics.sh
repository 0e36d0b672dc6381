# See LICENSE file for copyright and license details.
# stage: sole_bwd_metrics
# The backward metrics of the forward ops of the collected S ops (their
# sole backward op takes them in unified_perf_summary): UID TAB
# model_status GFLOPS Data Moved (MB) FLOPS/Byte TB/s TFLOPS/s Compute
# Spec params op category Kernel Time (µs) [Roofline Time (µs) Roofline
# Bound Pct Roofline], by UID (empty without backward metrics).
# in: collected_ops.tsv bwd_metrics.tsv
# out: sole_bwd_metrics.tsv
# when: roofline=1 cpu_ops=1 gpu_events=1
sole_bwd_metrics() {
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
