# tl-lib-rocprof.sh: tl-report on a rocprofv3 (ROCprofiler-SDK) trace:
# the sheets of TraceLens's rocprof report (generate_perf_report_rocprof),
# made from tl-parse's rocprofv3 records with sort, tl-aggregate(1),
# tl-sheet(1) and tl-hist(1).  Sourced by tl-report, which calls
# rp_report TRACE once it knows the trace's kind; the helpers st, ok, bgok
# and hsort and the variables SORT, TAB, w (work directory), R (report
# directory) and the options (xflag, short, thresh, bins, ksum, kdetails,
# ktopk) of tl-report are in scope.  Each sheet is one function, its
# inputs and output named above it.  All shell variables here start
# with rp_: tl-report's are global too.
#
# TraceLens reads the first process result only; its durations are
# nanoseconds, and only gpu_timeline converts them, so that kernel_summary's
# "(µs)" columns hold nanoseconds and its "(ms)" column microseconds,
# kernel_details' "Kernel duration (µs)" nanoseconds, and the short-kernel
# threshold compares nanoseconds.  tl-report keeps all that by default;
# with --exact-time ($xflag) the units are the ones the columns name, the
# cumulative percentages follow the rows, and gpu_timeline is exact.

# The fields the sheets read of tl-parse's records.
RP_FIELDS=UID,cat,name,process,tid,start,end,stream,queue,agent,kernel_id,dispatch_id,symbol,grid_x,grid_y,grid_z,block_x,block_y,block_z

# rp_prepare TRACE
#   in:  TRACE, the rocprofv3 file
#   out: $w/k.tsv, the first process's dispatches in trace order, named,
#        TraceLens's defaults filled in, dur = end - start (nanoseconds):
#          UID name dur stream dispatch_id grid_x grid_y grid_z block_x
#          block_y block_z agent tid start end queue symbol
#        $w/m.tsv, its memory copies (start end); $w/meta, its metadata
#        record (start end: init and fini); $w/rp.facts, counts for the
#        health sheet.
rp_prepare() {
	# the records, split by kind (awk: field selection and defaults only)
	st tl-parse -f "$RP_FIELDS" -- "$1" >"$w/rp.tsv"; bgok || return 1
	st awk -F '\t' -v OFS='\t' -v w="$w" '
	function d(v, x) { return v == "" ? x : v }
	NR == 1 {
		print "UID", "name", "start", "end", "stream", "dispatch_id",
		    "grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z",
		    "agent", "tid", "queue", "symbol", "kernel_id" >(w "/k0.tsv")
		print "UID", "kernel_id", "name" >(w "/syms.tsv")
		print "start", "end" >(w "/m.tsv")
		next
	}
	$4 + 0 > np { np = $4 + 0 }
	$4 != "0" { if ($2 == "kernel" || $2 == "gpu_memcpy") other++; next }
	$2 == "kernel" {
		if ($13 == "") late++
		print $1, $3, d($6, 0), d($7, 0), d($8, 0), d($12, 0),
		    d($14, 1), d($15, 1), d($16, 1), d($17, 1), d($18, 1), d($19, 1),
		    d($10, 0), d($5, 0), $9, $13, $11 >(w "/k0.tsv")
	}
	$2 == "kernel_symbol" { print $1, $11, $3 >(w "/syms.tsv") }
	$2 == "gpu_memcpy" { print d($6, 0), d($7, 0) >(w "/m.tsv") }
	$2 == "process" && !meta { print "start\tend\n" d($6, 0) "\t" d($7, 0) >(w "/meta"); meta = 1 }
	END {
		if (!meta) printf "start\tend\n0\t0\n" >(w "/meta")
		print "processes", np + (NR > 1) >(w "/rp.facts")
		print "records_other_processes", other + 0 >(w "/rp.facts")
		print "process_metadata_missing", 1 - meta >(w "/rp.facts")
		print "dispatches_before_symbols", late + 0 >(w "/rp.facts")
	}' "$w/rp.tsv"; bgok || return 1
	rm -f "$w/rp.tsv"
	# A dispatch read before its symbols: named by kernel_id, by sort.
	if [ "$(awk -F '\t' '$1 == "dispatches_before_symbols" { print $2 }' "$w/rp.facts")" != 0 ]; then
		rp_join || return 1
	fi
	st tl-sheet -r UID=UID name=name dur='end - start' stream=stream dispatch_id=dispatch_id \
	    grid_x=grid_x grid_y=grid_y grid_z=grid_z block_x=block_x block_y=block_y block_z=block_z \
	    agent=agent tid=tid start=start end=end queue=queue symbol=symbol \
	    <"$w/k0.tsv" >"$w/k.tsv"; bgok || return 1
	rm -f "$w/k0.tsv" "$w/syms.tsv"
}

# rp_join
#   in:  $w/k0.tsv, whose unnamed dispatches (symbol empty) came before
#        their process's kernel_symbols; $w/syms.tsv (UID kernel_id name)
#   out: $w/k0.tsv with them named: the symbol's name (a later symbol of
#        the same id wins, as in TraceLens's dict), else TraceLens's
#        unknown_kernel_ID; their symbol field 1 or 0.
rp_join() {
	{ head -n 1 "$w/k0.tsv"
	  # the symbols (class 0) before the dispatches (class 1) of an id
	  { awk -F '\t' -v OFS='\t' 'NR > 1 { print $2, 0, $1, $3 }' "$w/syms.tsv"
	    awk -F '\t' -v OFS='\t' 'NR > 1 { print $17, 1, $0 }' "$w/k0.tsv"; } |
	  st $SORT -s -t "$TAB" -k1,1 -k2,2n |
	  st awk -F '\t' -v OFS='\t' '
	  $2 == 0 { if ($1 != id) { id = $1 } nm = $4; have = 1; next }
	  {
		if ($1 != id) { id = $1; have = 0 }
		sub(/^[^\t]*\t[^\t]*\t/, "")
		if ($16 == "") {
			$16 = have ? 1 : 0
			$2 = have ? nm : "unknown_kernel_" ($17 == "" ? "None" : $17)
		}
		print
	  }' | st $SORT -t "$TAB" -k1,1n; } >"$w/k0.join"; bgok || return 1
	mv "$w/k0.join" "$w/k0.tsv"
}

# rp_gpu_timeline
#   in:  $w/k.tsv, $w/m.tsv, $w/meta
#   out: $R/gpu_timeline.csv: total_time (fini - init), kernel and memory
#        (the union of their intervals), busy_time (of both), idle; no rows
#        when there are no dispatches.  $w/overlap: how many dispatches
#        start before an earlier one on their agent's queue ended.
rp_gpu_timeline() {
	echo 0 >"$w/overlap"
	if [ "$(sed -n '2{p;q;}' "$w/k.tsv" | wc -l)" = 0 ]; then
		echo "type,time ms,percent" >"$R/gpu_timeline.csv"
		return
	fi
	# TraceLens: intervals (start / 1000, end / 1000) in microseconds,
	# merged in start order, kernels before copies on a tie (tl-aggregate
	# -n; sorted by the nanoseconds, which order the doubles too); exact:
	# in nanoseconds (-x).
	{ printf 'start\tend\tclass\tq\n'
	  { awk -F '\t' -v OFS='\t' 'NR > 1 { print $14, $15, "k", $12 "/" $16 }' "$w/k.tsv"
	    awk -F '\t' -v OFS='\t' 'NR > 1 { print $1, $2, "m", "" }' "$w/m.tsv"; } |
	  st $SORT -s -t "$TAB" -k1,1n -k3,3; } >"$w/iv.tsv"; bgok || return 1
	st tl-aggregate -n -e $xflag 'kernel=union:start,end,class=k' 'memory=union:start,end,class=m' \
	    'busy=union:start,end' <"$w/iv.tsv" >"$w/tl.agg"; bgok || return 1
	# (the nanoseconds compared as decimal text: exact beyond 2^53)
	st awk -F '\t' '
	function lt(a, b) {
		if (a ~ /^-/ || b ~ /^-/) return a + 0 < b + 0
		return length(a) < length(b) || (length(a) == length(b) && ("" a) < ("" b))
	}
	$3 == "k" {
		if (($4 in e) && lt($1, e[$4])) n++
		if (!($4 in e) || lt(e[$4], $2)) e[$4] = $2
	}
	END { print n + 0 }' "$w/iv.tsv" >"$w/overlap"; bgok || return 1
	rm -f "$w/iv.tsv"
	# T (TraceLens: fini / 1000 - init / 1000), kernel, memory, busy:
	# microseconds (doubles), or exact nanoseconds
	if [ -n "$xflag" ]; then
		set -- 'end - start' 'ns(kernel)' 'ns(memory)' 'ns(busy)' 1000000
	else
		set -- 'end / 1000 - start / 1000' kernel memory busy 1000
	fi
	st tl-sheet -r T="$1" <"$w/meta" | paste - "$w/tl.agg" |
	st tl-sheet -r T=T K="$2" M="$3" B="$4" |
	st tl-sheet -r tt="T / $5" kt="K / $5" kp='if(T > 0, K / T * 100, 0.0)' \
	    mt="M / $5" mp='if(T > 0, M / T * 100, 0.0)' \
	    bt="B / $5" bp='if(T > 0, B / T * 100, 0.0)' \
	    it="max(0, T - B) / $5" ip='if(T > 0, max(0, T - B) / T * 100, 0.0)' >"$w/tl.row"; bgok || return 1
	# one row of numbers, tl-sheet's text, laid out as five
	st awk -F '\t' 'NR == 2 {
		print "type,time ms,percent"
		print "total_time," $1 ",100.0"
		print "kernel," $2 "," $3
		print "memory," $4 "," $5
		print "busy_time," $6 "," $7
		print "idle," $8 "," $9
	}' "$w/tl.row" >"$R/gpu_timeline.csv"
}

# rp_kernel_summary
#   in:  $w/k.tsv
#   out: $R/kernel_summary.csv, one row per kernel name, largest total
#        first; $w/ks.tsv (name Count sum Category) for the next sheet
rp_kernel_summary() {
	# each name's dispatches in trace order (UID), as pandas folds them
	{ printf 'UID\tname\tdur\n'; cut -f1-3 "$w/k.tsv" | sed 1d; } |
	st tl-aggregate -g name -K UID:n | st hsort -t "$TAB" -k1,1 |
	st tl-aggregate -H -g name Count=count:dur sum=sum:dur mean=mean:dur median=median:dur \
	    std=std:dur min=min:dur max=max:dur Category=kcat:name >"$w/ks0.tsv"; bgok || return 1
	# pandas' group order: the names in code point order (tl-join -p's
	# key; each name behind a k, so that an empty one is text, not missing)
	awk -F '\t' -v OFS='\t' 'NR > 1 { $1 = "k" $1 } 1' "$w/ks0.tsv" |
	st tl-join -p -k name | st hsort -s -t "$TAB" -k1,1 |
	awk -F '\t' -v OFS='\t' 'NR > 1 { $2 = substr($2, 2) } { $1 = ""; print substr($0, 2) }' >"$w/ks.tsv"; bgok || return 1
	rm -f "$w/ks0.tsv"
	if [ "$(sed -n '2{p;q;}' "$w/ks.tsv" | wc -l)" = 0 ]; then
		echo "name,Count,Mean Kernel Time (µs),Median Kernel Time (µs),Std Kernel Time (µs),Min Kernel Time (µs),Max Kernel Time (µs),Total Kernel Time (ms),Percentage (%),Cumulative Percentage (%),Category" >"$R/kernel_summary.csv"
		return
	fi
	rp_t=$(st tl-aggregate sum:sum <"$w/ks.tsv" | sed 1d); bgok || return 1
	rp_pct="if(\$T > 0, sum / \$T * 100, 0)"
	if [ -z "$xflag" ]; then
		# TraceLens: the cumulative sum before the sort, in name order
		st tl-sheet -r -v T="$rp_t" name=name Count=Count mean=mean median=median std=std \
		    min=min max=max pct="$rp_pct" cum="cum($rp_pct)" sum=sum Category=Category <"$w/ks.tsv" |
		st hsort -t "$TAB" -k10,10gr |
		st tl-sheet name=name Count=Count 'Mean Kernel Time (µs)=mean' 'Median Kernel Time (µs)=median' \
		    'Std Kernel Time (µs)=std' 'Min Kernel Time (µs)=min' 'Max Kernel Time (µs)=max' \
		    'Percentage (%)=pct' 'Cumulative Percentage (%)=cum' 'Total Kernel Time (ms)=sum / 1000' \
		    Category=Category >"$R/kernel_summary.csv"
	else
		st hsort -t "$TAB" -k3,3gr <"$w/ks.tsv" |
		st tl-sheet -v T="$rp_t" name=name Count=Count 'Mean Kernel Time (µs)=mean / 1000' \
		    'Median Kernel Time (µs)=median / 1000' 'Std Kernel Time (µs)=std / 1000' \
		    'Min Kernel Time (µs)=min / 1000' 'Max Kernel Time (µs)=max / 1000' \
		    "Percentage (%)=$rp_pct" "Cumulative Percentage (%)=cum($rp_pct)" \
		    'Total Kernel Time (ms)=sum / 1000000' Category=Category >"$R/kernel_summary.csv"
	fi
	bgok
}

# rp_kernel_summary_by_category
#   in:  $w/ks.tsv (rp_kernel_summary's)
#   out: $R/kernel_summary_by_category.csv, one row per category
rp_kernel_summary_by_category() {
	rp_h="op category,Count,total_direct_kernel_time_ms,Percentage (%),Cumulative Percentage (%)"
	if [ "$(sed -n '2{p;q;}' "$w/ks.tsv" | wc -l)" = 0 ]; then
		echo "$rp_h" >"$R/kernel_summary_by_category.csv"
		return
	fi
	if [ -n "$xflag" ]; then rp_ms='sum / 1000000'; else rp_ms='sum / 1000'; fi
	cut -f2,3,9 "$w/ks.tsv" | st hsort -s -t "$TAB" -k3,3 |
	st tl-aggregate -g Category Count=sum:Count sum=sum:sum |
	st tl-sheet -r cat=Category Count='int(Count)' ms="$rp_ms" >"$w/kc.tsv"; bgok || return 1
	# pandas' Series.sum of the ms column: numpy's pairwise sum
	rp_t=$(st tl-aggregate npsum:ms <"$w/kc.tsv" | sed 1d); bgok || return 1
	rp_pct="if(\$T > 0, ms / \$T * 100, 0)"
	if [ -z "$xflag" ]; then
		st tl-sheet -r -v T="$rp_t" cat=cat Count=Count ms=ms pct="$rp_pct" cum="cum($rp_pct)" <"$w/kc.tsv" |
		st hsort -t "$TAB" -k3,3gr |
		st tl-sheet 'op category=cat' Count=Count total_direct_kernel_time_ms=ms \
		    'Percentage (%)=pct' 'Cumulative Percentage (%)=cum' >"$R/kernel_summary_by_category.csv"
	else
		st hsort -t "$TAB" -k3,3gr <"$w/kc.tsv" |
		st tl-sheet -v T="$rp_t" 'op category=cat' Count=Count total_direct_kernel_time_ms=ms \
		    "Percentage (%)=$rp_pct" "Cumulative Percentage (%)=cum($rp_pct)" >"$R/kernel_summary_by_category.csv"
	fi
	bgok && rm -f "$w/kc.tsv"
}

# rp_kernel_details
#   in:  $w/k.tsv
#   out: $R/kernel_details.csv, every dispatch, longest first, the first
#        $ktopk when set (rows of equal duration in no set order)
rp_kernel_details() {
	if [ "$(sed -n '2{p;q;}' "$w/k.tsv" | wc -l)" = 0 ]; then
		# pandas writes an empty DataFrame as one empty line
		echo >"$R/kernel_details.csv"
		return
	fi
	if [ -n "$xflag" ]; then rp_d='dur / 1000'; else rp_d=dur; fi
	# (sed, not head: the sort must not see a broken pipe)
	rp_last='$'
	[ -z "$ktopk" ] || rp_last=$((ktopk + 1))
	st hsort -t "$TAB" -k3,3nr <"$w/k.tsv" | sed -n "1,${rp_last}p" |
	st tl-sheet name=name "Kernel duration (µs)=$rp_d" stream=stream dispatch_id=dispatch_id \
	    grid_x=grid_x grid_y=grid_y grid_z=grid_z block_x=block_x block_y=block_y block_z=block_z \
	    agent_id=agent thread_id=tid >"$R/kernel_details.csv"
	bgok
}

# rp_short_kernels
#   in:  $w/k.tsv
#   out: $R/short_kernels_summary.csv, the kernels shorter than $thresh
#        by name, most short time first; $R/short_kernel_histogram.csv,
#        numpy's histogram of their durations in $bins bins
rp_short_kernels() {
	# TraceLens compares the threshold with nanoseconds; exact: microseconds
	if [ -n "$xflag" ]; then rp_th=$((thresh * 1000)) rp_u=' / 1000'; else rp_th=$thresh rp_u=; fi
	awk -F '\t' -v OFS='\t' -v th="$rp_th" 'NR == 1 || $3 + 0 < th + 0 { print $1, $2, $3 }' \
	    "$w/k.tsv" >"$w/short.tsv"
	# the histogram, of the same values
	st tl-sheet -r v="dur$rp_u" <"$w/short.tsv" >"$w/short.v"; bgok || return 1
	st tl-hist -b "$bins" -f v "$w/short.v" |
	st tl-sheet bin_start=bin_start bin_end=bin_end count=count >"$R/short_kernel_histogram.csv"; bgok || return 1
	rm -f "$w/short.v"
	rp_h="name,Short Kernel count,Short Kernel duration (µs) sum,Short Kernel duration (µs) mean,Short Kernel duration (µs) percent of total time"
	if [ "$(sed -n '2{p;q;}' "$w/short.tsv" | wc -l)" = 0 ]; then
		echo "$rp_h" >"$R/short_kernels_summary.csv"
		rm -f "$w/short.tsv"
		return
	fi
	# percent of the total of every dispatch's duration
	rp_t=$(st tl-aggregate sum:dur <"$w/k.tsv" | sed 1d); bgok || return 1
	st tl-aggregate -g name -K UID:n <"$w/short.tsv" | st hsort -t "$TAB" -k1,1 |
	st tl-aggregate -H -g name n=count:dur sum=sum:dur mean=mean:dur |
	# most short time first, then by name (TraceLens: by every column)
	st hsort -t "$TAB" -k3,3gr -k1,1 |
	st tl-sheet -v T="$rp_t" name=name 'Short Kernel count=n' \
	    "Short Kernel duration (µs) sum=int(sum)$rp_u" "Short Kernel duration (µs) mean=mean$rp_u" \
	    'Short Kernel duration (µs) percent of total time=if($T > 0, sum / $T * 100, 0)' \
	    >"$R/short_kernels_summary.csv"; bgok || return 1
	rm -f "$w/short.tsv"
}

# rp_health
#   in:  $w/k.tsv, $w/rp.facts, $w/overlap
#   out: $R/health.csv (fact,count): what TraceLens passes over silently;
#        the odd ones also on the standard error
rp_health() {
	{ printf 'fact\tcount\n'
	  cat "$w/rp.facts"
	  awk -F '\t' -v OFS='\t' 'NR > 1 {
		n++; if ($17 == "0") nosym++
		if ($3 + 0 == 0) zero++; else if ($3 + 0 < 0) neg++
	  } END {
		print "kernel_dispatches", n + 0
		print "dispatches_without_symbol", nosym + 0
		print "dispatches_zero_duration", zero + 0
		print "dispatches_negative_duration", neg + 0
	  }' "$w/k.tsv"
	  echo "memory_copies	$(($(wc -l <"$w/m.tsv") - 1))"
	  echo "dispatches_same_queue_overlap	$(cat "$w/overlap")"
	} | st tl-sheet fact=fact count=count >"$R/health.csv"; bgok || return 1
	awk -F ',' -v tr="$1" 'NR > 1 && $2 + 0 > 0 &&
	    $1 ~ /^(records_other_processes|dispatches_without_symbol|dispatches_zero_duration|dispatches_negative_duration|dispatches_same_queue_overlap)$/ {
		msg = msg sep $2 " " $1; sep = ", "
	} END { if (msg != "") print "tl-report: " tr ": health: " msg >"/dev/stderr" }' "$R/health.csv"
}

# rp_report TRACE: every sheet, into $R.  The sheets read k.tsv each on
# their own: two at a time, one in the background (a failure is in $F).
rp_report() {
	rp_prepare "$1" || return 1
	rp_gpu_timeline &
	rp_p=$!
	if [ "$ksum" = 1 ]; then
		rp_kernel_summary && rp_kernel_summary_by_category
	fi
	wait "$rp_p"
	bgok || return 1
	if [ "$kdetails" = 1 ]; then
		rp_kernel_details &
		rp_p=$!
	fi
	if [ "$short" = 1 ]; then
		rp_short_kernels
	fi
	[ "$kdetails" = 1 ] && wait "$rp_p"
	bgok || return 1
	rp_health "$1" || return 1
	rm -f "$w/k.tsv" "$w/m.tsv" "$w/meta" "$w/ks.tsv" "$w/rp.facts" "$w/overlap"
}
