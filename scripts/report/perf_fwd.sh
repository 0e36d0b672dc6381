# See LICENSE file for copyright and license details.
# stage: perf_fwd
# The forward model of every modelled op: its subtree kernels (busy
# time and list, tl-pick -s -b), then tl-roofline: the perf
# sheets' rows (perf_rows.tsv) and every op's model columns
# (fwd_metrics.tsv, for unified_perf_summary).
# in: modelled_ops.tsv modelled_keys.tsv intervals.tsv gpuev.tsv meta.tsv annotations.tsv
# out: perf_rows.tsv fwd_metrics.tsv
# when: roofline=1 cpu_ops=1 gpu_events=1
perf_fwd() {
	# (the kernels go to perf_model through a pipe, not a file)
	st tl-pick -s -b -G gpuev.tsv -k modelled_keys.tsv intervals.tsv |
	perf_model modelled_ops.tsv /dev/stdin F fwd_metrics.tsv >perf_rows.tsv; ok
}
