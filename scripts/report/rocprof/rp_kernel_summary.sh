# See LICENSE file for copyright and license details.
# sheet: rp_kernel_summary
# TraceLens's rocprof kernel_summary: one row per kernel name, largest
# total first, its count, statistics, share of all dispatches' time and
# category.  TraceLens's "(µs)" columns hold nanoseconds and its "(ms)"
# column microseconds, and its Cumulative Percentage is summed in name
# order, before the rows are sorted; with --exact-time the units are
# the ones the columns name and the running sum follows the rows.
# ks.tsv (name Count sum Category, in name order) for the next sheet.
# in: k.tsv
# out: kernel_summary.csv ks.tsv
# when: ksum=1
rp_kernel_summary() {
	# each name's dispatches in trace order (UID), as pandas folds them
	# (sort moves each dispatch's place in k.tsv, not its long name:
	# -O, then -R reads the rows again)
	st tl-aggregate -O -g name -K UID:n <k.tsv | st hsort |
	st tl-aggregate -H -R k.tsv -g name Count=count:dur sum=sum:dur mean=mean:dur median=median:dur \
	    std=std:dur min=min:dur max=max:dur Category=kcat:name >ks0.tsv; ok
	# pandas' group order: the names in code point order (tl-join -p's
	# key; each name behind a k, so that an empty one is text, not missing)
	awkt 'NR > 1 { $1 = "k" $1 } 1' ks0.tsv |
	st tl-join -p -k name | st hsort -s -t "$TAB" -k1,1 |
	awkt 'NR > 1 { $2 = substr($2, 2) } { $1 = ""; print substr($0, 2) }' >ks.tsv; ok
	tl_drop ks0.tsv
	set -- 'name=t:name' 'Count=t:Count' 'Mean Kernel Time (µs)=t:mean' \
	    'Median Kernel Time (µs)=t:median' 'Std Kernel Time (µs)=t:std' \
	    'Min Kernel Time (µs)=t:min' 'Max Kernel Time (µs)=t:max' \
	    'Percentage (%)=t:pct' 'Cumulative Percentage (%)=t:cum' \
	    'Total Kernel Time (ms)=t:ms' 'Category=t:Category'
	if ! tl_rows ks.tsv; then
		# (TraceLens's empty frame has the ms column before the percentages)
		set -- 'name=t:name' 'Count=t:Count' 'Mean Kernel Time (µs)=t:mean' \
		    'Median Kernel Time (µs)=t:median' 'Std Kernel Time (µs)=t:std' \
		    'Min Kernel Time (µs)=t:min' 'Max Kernel Time (µs)=t:max' \
		    'Total Kernel Time (ms)=t:ms' 'Percentage (%)=t:pct' \
		    'Cumulative Percentage (%)=t:cum' 'Category=t:Category'
		printf 'name\tCount\tmean\tmedian\tstd\tmin\tmax\tms\tpct\tcum\tCategory\n' |
		st tl-sheet "$@" >"$R/kernel_summary.csv"; ok
		return 0
	fi
	t=$(st tl-aggregate sum:sum <ks.tsv | sed 1d); ok
	pct="if(\$T > 0, sum / \$T * 100, 0)"
	if [ -z "$xflag" ]; then
		# TraceLens: the running sum before the sort, in name order
		st tl-calc -v T="$t" name=name Count=Count mean=mean median=median std=std \
		    min=min max=max pct="$pct" cum="cum($pct)" sum=sum Category=Category \
		    ms='sum / 1000' <ks.tsv |
		st hsort -t "$TAB" -k10,10gr |
		st tl-sheet "$@" >"$R/kernel_summary.csv"; ok
	else
		st hsort -t "$TAB" -k3,3gr <ks.tsv |
		st tl-calc -v T="$t" name=name Count=Count mean='mean / 1000' \
		    median='median / 1000' std='std / 1000' min='min / 1000' max='max / 1000' \
		    pct="$pct" cum="cum($pct)" ms='sum / 1000000' Category=Category |
		st tl-sheet "$@" >"$R/kernel_summary.csv"; ok
	fi
}
