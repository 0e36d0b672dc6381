# See LICENSE file for copyright and license details.
# sheet: rp_short_kernels_summary
# TraceLens's rocprof short_kernels_summary (--short-kernel-study): the
# short dispatches by name, most short time first, then by name
# (TraceLens sorts by every column), their count, sum and mean, and the
# sum in percent of every dispatch's time; in nanoseconds as TraceLens
# has them, or microseconds with --exact-time.
# in: short.tsv k.tsv
# out: short_kernels_summary.csv
# when: short=1
rp_short_kernels_summary() {
	set -- 'name=t:name' 'Short Kernel count=t:n' 'Short Kernel duration (µs) sum=t:sum' \
	    'Short Kernel duration (µs) mean=t:mean' \
	    'Short Kernel duration (µs) percent of total time=t:pct'
	if ! tl_rows short.tsv; then
		printf 'name\tn\tsum\tmean\tpct\n' | st tl-sheet "$@" >"$R/short_kernels_summary.csv"; ok
		return 0
	fi
	u=
	[ -z "$xflag" ] || u=' / 1000'
	t=$(st tl-aggregate sum:dur <k.tsv | sed 1d); ok
	st tl-aggregate -g name -K UID:n <short.tsv | st hsort |
	st tl-aggregate -H -g name n=count:dur sum=sum:dur mean=mean:dur |
	st hsort -t "$TAB" -k3,3gr -k1,1 |
	st tl-calc -v T="$t" name=name n=n sum="sum$u" mean="mean$u" \
	    pct='if($T > 0, sum / $T * 100, 0)' |
	st tl-sheet "$@" >"$R/short_kernels_summary.csv"; ok
}
