# See LICENSE file for copyright and license details.
# helpers: ops_summary_by_category, a sheet of the stage ops_sheets (ops_sheets.sh).
# TraceLens's ops summary by category: the launchers' direct kernel
# time per op category, in TraceLens's order of the launchers (by ts,
# ties by first kernel: each group's rows sorted by tkey).  With
# --detect_recompute, per category and is_recompute (the column after
# it; False before True, as pandas groups bools).
ops_summary_by_category() {
	tl_rows launchers.tsv || return 0
	g='op category' col=
	[ "$recompute" != 1 ] || g='op category,is_recompute' col=is_recompute=t:is_recompute
	# (the if in a pipeline is a subshell: g and col set before it)
	if [ "$recompute" = 1 ]; then
		st cut -f3,12,16,18 launchers.tsv | st hsort -s -t "$TAB" -k1,1 -k4,4 -k3,3
	else
		# (category tkey direct: sorted as whole lines, by category,
		# then tkey; see launchers)
		st hsort <launcher_cats.tsv
	fi |
	st tl-aggregate -g "$g" 'sum=sum:direct' 'Count=count:direct' |
	st tl-sheet -s sum 'op category=t:op category' $col 'Count=t:Count' \
	    'total_direct_kernel_time_ms=f:sum/1000' \
	    'Percentage (%)=pct:sum/1000' 'Cumulative Percentage (%)=cum:sum/1000' \
	    >"$R/ops_summary_by_category.csv"; ok
}
