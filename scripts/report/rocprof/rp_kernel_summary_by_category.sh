# See LICENSE file for copyright and license details.
# sheet: rp_kernel_summary_by_category
# TraceLens's rocprof kernel_summary_by_category: one row per kernel
# category, largest total first, its share of the categories' total
# (pandas' Series.sum: numpy's pairwise sum); the Cumulative Percentage
# summed in category order before the sort, as TraceLens does, or down
# the rows with --exact-time.
# in: ks.tsv
# out: kernel_summary_by_category.csv
# when: ksum=1
rp_kernel_summary_by_category() {
	set -- 'op category=t:cat' 'Count=t:Count' 'total_direct_kernel_time_ms=t:ms' \
	    'Percentage (%)=t:pct' 'Cumulative Percentage (%)=t:cum'
	if ! tl_rows ks.tsv; then
		printf 'cat\tCount\tms\tpct\tcum\n' | st tl-sheet "$@" >"$R/kernel_summary_by_category.csv"; ok
		return 0
	fi
	if [ -n "$xflag" ]; then ms='sum / 1000000'; else ms='sum / 1000'; fi
	cut -f2,3,9 ks.tsv | st hsort -s -t "$TAB" -k3,3 |
	st tl-aggregate -g Category Count=sum:Count sum=sum:sum |
	st tl-calc cat=Category Count='int(Count)' ms="$ms" >kc.tsv; ok
	t=$(st tl-aggregate npsum:ms <kc.tsv | sed 1d); ok
	pct="if(\$T > 0, ms / \$T * 100, 0)"
	if [ -z "$xflag" ]; then
		st tl-calc -v T="$t" cat=cat Count=Count ms=ms pct="$pct" cum="cum($pct)" <kc.tsv |
		st hsort -t "$TAB" -k3,3gr |
		st tl-sheet "$@" >"$R/kernel_summary_by_category.csv"; ok
	else
		st hsort -t "$TAB" -k3,3gr <kc.tsv |
		st tl-calc -v T="$t" cat=cat Count=Count ms=ms pct="$pct" cum="cum($pct)" |
		st tl-sheet "$@" >"$R/kernel_summary_by_category.csv"; ok
	fi
	tl_drop kc.tsv
}
