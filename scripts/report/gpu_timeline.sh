# See LICENSE file for copyright and license details.
# helpers: gpu_timeline, a sheet of the stage gpu_events (gpu_events.sh).
# TraceLens's GPU timeline: computation, exposed communication and
# memcpy, busy, idle and total time (tl-aggregate's interval
# operations, in TraceLens's arithmetic, or exact with --exact-time),
# in ms and percent of the total.  gpu_total holds the total (us),
# which the kernel sheets divide by; none when the trace has no GPU
# event to count, which TraceLens reports as its CPU ops only.  With
# --detect_recompute, the rows of the events not recomputed, then
# those of the recomputed ones (each set measured alone, and left out
# when empty), with is_recompute last; gpu_total the first set's.
# The intervals come on stdin, through a pipe from the pass over the GPU
# events; with --detect_recompute from busy.tsv, which is read a set at
# a time.  The caller has read kernels.facts.
gpu_timeline() {
	if [ "$recompute" = 1 ] && ! tl_rows busy.tsv; then
		timeline_none
		return 0
	fi
	if [ -n "$micro" ]; then
		set -- "micro=gaps:ts,dur,<$micro" "macro=gaps:ts,dur,>=$micro"
	else
		set -- 'idle=gaps:ts,dur'
	fi
	col=
	if [ "$recompute" = 1 ]; then
		# one record per set, led by its flag
		col=is_recompute=t:rc h=
		: >timeline.tsv
		for f in False True; do
			st awkt -v f=$f 'NR == 1 || $4 == f' busy.tsv >timeline.in; ok
			tl_rows timeline.in || continue
			timeline_sums "$@" <timeline.in | st awkt -v f=$f '
			NR == 1 { if (!h) print "rc", $0; next }
			{ print f, $0 }' h=$h >>timeline.tsv; ok
			h=1
		done
		tl_drop timeline.in
		timeline_sheet <timeline.tsv; ok
		tl_drop timeline.tsv
	else
		timeline_sums "$@" | timeline_sheet; ok
	fi
}

# timeline_sheet: the records of timeline_sums on stdin (led by rc with
# --detect_recompute) laid out as the sheet; gpu_total.
timeline_sheet() {
	# one row per time of each record: type, time (a - b: TraceLens's
	# idle time is total - busy), total (and the set: rc); gpu_total the
	# first record's total
	st awkt '
	NR == 1 {
		for (i = 1; i <= NF; i++) col[$i] = i
		print "type", "a", "b", "total" ("rc" in col ? OFS "rc" : "")
		next
	}
	{
		tot = $col["total"]
		rc = "rc" in col ? OFS $col["rc"] : ""
		row("computation_time", "comp")
		row("exposed_comm_time", "xcomm")
		row("exposed_memcpy_time", "xmem")
		row("busy_time", "busy")
		if ("micro" in col) {
			row("micro_idle_time", "micro")
			row("macro_idle_time", "macro")
		} else if (exact)
			row("idle_time", "idle")
		else
			print "idle_time", tot, $col["busy"], tot rc
		row("total_time", "total")
		row("total_comm_time", "comm")
		row("total_memcpy_time", "memcpy")
		if (NR == 2)
			print tot >totf
	}
	function row(name, c) { print name, $col[c], 0, tot rc }
	' exact="$xflag" totf=gpu_total |
	st tl-sheet 'type=t:type' 'time ms=f:(a-b)/1000' 'percent=f:(a-b)/total*100' $col \
	    >"$R/gpu_timeline.csv"; ok
}

# timeline_sums [IDLE...]: the one record of TraceLens's GPU timeline
# sums (tl-aggregate) of the intervals of stdin; IDLE the idle sums.
timeline_sums() {
	st tl-aggregate $xflag 'comp=union:ts,dur,class=comp' \
	    'xcomm=minus:ts,dur,class=comm,comp' \
	    'xmem=minus:ts,dur,class=memcpy,comp,comm' 'busy=union:ts,dur' \
	    "$@" 'total=span:ts,dur' 'comm=union:ts,dur,class=comm' \
	    'memcpy=union:ts,dur,class=memcpy'
}

# timeline_none: no interval to measure: the notice.  (GPU events that
# no launch took: TraceLens counts only the linked ones, and stops as
# if there were none; when the trace's older flows would have linked
# them, the notice names the switch that follows them: health.tsv, a
# short file, read by the shell.)
timeline_none() {
	_tn_hint=
	while IFS="$TAB" read -r _tn_f _tn_n; do
		[ "$_tn_f" != flows_legacy_ignored ] || [ "$_tn_n" = 0 ] ||
			_tn_hint="; --legacy-flows follows the trace's older flows"
	done <health.tsv
	if [ "$gpu_events" = 1 ] && [ "$kernels" = 1 ]; then
		echo "$prog: $trace_name: no GPU event linked to a launch (TraceLens stops here): reporting its kernels unlinked, without GPU time$_tn_hint" >&2
	elif [ "$gpu_events" = 1 ]; then
		echo "$prog: $trace_name: no GPU event linked to a launch, and no kernel (TraceLens stops here): nothing to report but health$_tn_hint" >&2
	else
		echo "$prog: $trace_name: no GPU events (TraceLens stops here): reporting its CPU ops only" >&2
	fi
}
