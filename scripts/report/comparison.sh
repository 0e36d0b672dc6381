# See LICENSE file for copyright and license details.
# stage: comparison
# --comparison: TraceLens's TraceDiff of the trace (trace1) and trace2
# (tl-tracediff --records), beside the whole report: the diff_stats
# sheet and the LCA totals that unified_perf_summary's comparison
# columns come from.  Whether its failure is the report's is for
# comparison_check to say (not when the trace has no CPU ops).
# in:
# out: comparison/diff_stats.csv comparison/lca_totals.tsv comparison.err comparison.failed
# when: comparison=1
comparison() {
	mkdir comparison || return 1
	(cd "$cwd" && tl-tracediff --records $flows "$trace" "$cmp" "$TL_WORK/comparison") <&9 2>comparison.err ||
		: >comparison.failed
}
