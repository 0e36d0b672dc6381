# See LICENSE file for copyright and license details.
# helpers: ops_summary, a sheet of the stage ops_sheets (ops_sheets.sh).
# TraceLens's ops summary: the launchers' direct and subtree kernel
# time per op name, with the categories the name was given.  With
# --detect_recompute, per op name and is_recompute (the column after
# name; False before True, as pandas groups bools).
ops_summary() {
	tl_rows launchers.tsv || return 0
	g=name col=
	[ "$recompute" != 1 ] || g=name,is_recompute col=is_recompute=t:is_recompute
	# (the if in a pipeline is a subshell: g and col set before it)
	if [ "$recompute" = 1 ]; then
		st cut -f2,3,12,13,16,18 launchers.tsv | st hsort -s -t "$TAB" -k1,1 -k6,6 -k5,5
	else
		# (nkey tkey name ...: sorted as whole lines, by name, then
		# tkey; see launchers)
		st hsort <launcher_names.tsv
	fi |
	st tl-aggregate $xflag -g "$g" 'dsum=sum:direct' 'ssum=sum:subtree' 'Count=count:direct' \
	    'Categories=set:op category' |
	st tl-sheet -s dsum 'name=t:name' $col "total_direct_kernel_time_sum=$ifmt:dsum" \
	    "total_subtree_kernel_time_sum=$ifmt:ssum" 'total_direct_kernel_time_ms=f:dsum/1000' \
	    'total_subtree_kernel_time_ms=f:ssum/1000' 'Count=t:Count' 'Categories=t:Categories' \
	    'Percentage (%)=pct:dsum/1000' 'Cumulative Percentage (%)=cum:dsum/1000' \
	    >"$R/ops_summary.csv"; ok
}
