# See LICENSE file for copyright and license details.
# sheet: diff_stats
# --comparison: TraceDiff's diff_stats sheet, as tl-tracediff wrote it
# (TraceLens writes it only beside a unified_perf_summary).
# in: comparison/diff_stats.csv unified.tsv unified.facts
# out: diff_stats.csv
# when: comparison=1 roofline=1 cpu_ops=1 gpu_work=1
diff_stats() {
	[ "${unified_rows:-0}" -gt 0 ] || return 0
	[ -f comparison/diff_stats.csv ] || return 0
	mv comparison/diff_stats.csv "$R/diff_stats.csv"
}
