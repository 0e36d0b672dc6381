# See LICENSE file for copyright and license details.
# sheet: rp_gpu_timeline
# TraceLens's rocprof gpu_timeline: total_time (fini - init of the
# process), kernel and memory (the union of their intervals), busy_time
# (of both) and idle, in ms and percent of the total; no rows without a
# dispatch.  TraceLens merges the intervals (start / 1000, end / 1000)
# in microseconds, as doubles, in start order, kernels before copies on
# a tie (tl-aggregate -n; sorted by the nanoseconds, which order the
# doubles too); with --exact-time the nanoseconds, exactly (-x).
# rp_overlap: how many dispatches start before an earlier one on their
# agent's queue ended; rp_kcounts: the dispatches, those without a
# symbol, of zero and of negative duration (fact count lines).  Both
# for the health sheet, counted here, in this stage's one pass over
# the dispatches, not in a pass of their own.
# in: k.tsv m.tsv meta.tsv
# out: gpu_timeline.csv rp_overlap rp_kcounts
rp_gpu_timeline() {
	echo 0 >rp_overlap
	printf '%s\t0\n' kernel_dispatches dispatches_without_symbol \
	    dispatches_zero_duration dispatches_negative_duration >rp_kcounts
	if ! tl_rows k.tsv; then
		echo "type,time ms,percent" >"$R/gpu_timeline.csv"
		return 0
	fi
	{ printf 'start\tend\tclass\tq\n'
	  { awkt 'NR > 1 {
		print $14, $15, "k", $12 "/" $16
		n++; if ($17 == "0") nosym++
		if ($3 + 0 == 0) zero++; else if ($3 + 0 < 0) neg++
	    } END {
		print "kernel_dispatches", n + 0 >"rp_kcounts"
		print "dispatches_without_symbol", nosym + 0 >"rp_kcounts"
		print "dispatches_zero_duration", zero + 0 >"rp_kcounts"
		print "dispatches_negative_duration", neg + 0 >"rp_kcounts"
	    }' k.tsv
	    awkt 'NR > 1 { print $1, $2, "m", "" }' m.tsv; } |
	  st tl_sort -s -t "$TAB" -k1,1n -k3,3; } >iv.tsv; ok
	st tl-aggregate -n -e $xflag 'kernel=union:start,end,class=k' 'memory=union:start,end,class=m' \
	    'busy=union:start,end' <iv.tsv >tl.agg; ok
	# (the nanoseconds compared as decimal text: exact beyond 2^53)
	st awkt '
	function lt(a, b) {
		if (a ~ /^-/ || b ~ /^-/) return a + 0 < b + 0
		return length(a) < length(b) || (length(a) == length(b) && ("" a) < ("" b))
	}
	# (lt inlined where no number has a minus sign: a call per test
	# was a third of the time)
	$3 == "k" {
		if (!($4 in e)) { e[$4] = $2; next }
		x = e[$4]
		if (index($1 x $2, "-")) {
			if (lt($1, x)) n++
			if (lt(x, $2)) e[$4] = $2
			next
		}
		if (length($1) < length(x) || (length($1) == length(x) && ("" $1) < x)) n++
		if (length(x) < length($2) || (length(x) == length($2) && x < ("" $2))) e[$4] = $2
	}
	END { print n + 0 }' iv.tsv >rp_overlap; ok
	tl_drop iv.tsv
	# T (TraceLens: fini / 1000 - init / 1000), kernel, memory, busy:
	# microseconds (doubles), or exact nanoseconds
	if [ -n "$xflag" ]; then
		set -- 'end - start' 'ns(kernel)' 'ns(memory)' 'ns(busy)' 1000000
	else
		set -- 'end / 1000 - start / 1000' kernel memory busy 1000
	fi
	st tl-calc T="$1" <meta.tsv | paste - tl.agg |
	st tl-calc T=T K="$2" M="$3" B="$4" |
	st tl-calc tt="T / $5" kt="K / $5" kp='if(T > 0, K / T * 100, 0.0)' \
	    mt="M / $5" mp='if(T > 0, M / T * 100, 0.0)' \
	    bt="B / $5" bp='if(T > 0, B / T * 100, 0.0)' \
	    it="max(0, T - B) / $5" ip='if(T > 0, max(0, T - B) / T * 100, 0.0)' >tl.row; ok
	# one record of numbers, tl-calc's text, laid out as five rows
	st awkt 'NR == 2 {
		print "type", "time", "pct"
		print "total_time", $1, "100.0"
		print "kernel", $2, $3
		print "memory", $4, $5
		print "busy_time", $6, $7
		print "idle", $8, $9
	}' tl.row |
	st tl-sheet 'type=t:type' 'time ms=t:time' 'percent=t:pct' >"$R/gpu_timeline.csv"; ok
}
