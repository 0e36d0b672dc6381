# See LICENSE file for copyright and license details.
# stage: rp_dispatches
# The rocprofv3 results as the rocprof sheets read them (tl-parse's
# records, tl(7)).  TraceLens reads the first process result only; its
# durations are nanoseconds, and only gpu_timeline converts them.
# k.tsv: the first process's dispatches in trace order, named,
# TraceLens's defaults filled in, dur = end - start (exact nanoseconds,
# tl-calc: the clocks pass 2^53): UID name dur stream dispatch_id
# grid_x grid_y grid_z block_x block_y block_z agent tid start end queue
# symbol kernel_id (header).  m.tsv: its memory copies (start end); meta.tsv: its
# metadata (start end: init and fini time); rp_counts.tsv: counts for
# the health sheet (fact count).  A dispatch read before its process's kernel_symbols is
# named by its kernel_id through sort, not by any order of the file.
# The records go from tl-parse to k.tsv through one pipeline: no file of
# them but k.tsv (they are most of the bytes the report writes).
# in:
# out: k.tsv m.tsv meta.tsv rp_counts.tsv
rp_dispatches() {
	f=UID,cat,name,process,tid,start,end,stream,queue,agent,kernel_id,dispatch_id,symbol
	f=$f,grid_x,grid_y,grid_z,block_x,block_y,block_z
	# the records, split by kind (awk: field selection and defaults
	# only), the dispatches on to tl-calc
	(cd "$cwd" && st tl_parse -f "$f" -N "$trace_name" -- "$trace") | st awkt '
	function d(v, x) { return v == "" ? x : v }
	NR == 1 {
		print "UID", "name", "start", "end", "stream", "dispatch_id",
		    "grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z",
		    "agent", "tid", "queue", "symbol", "kernel_id"
		print "UID", "kernel_id", "name" >"syms.tsv"
		print "start", "end" >"m.tsv"
		next
	}
	# (the dispatches of the first process, nearly every record, first; with
	# no empty field, none takes a default: one test of the line, not
	# twelve calls of d)
	$2 == "kernel" && $4 == "0" {
		if ($13 == "") late++
		if ($6 $7 ~ /[^-0-9]/) fl = 1
		if ($0 !~ /\t\t|\t$/)
			print $1, $3, $6, $7, $8, $12, $14, $15, $16, $17, $18, $19,
			    $10, $5, $9, $13, $11
		else
			print $1, $3, d($6, 0), d($7, 0), d($8, 0), d($12, 0),
			    d($14, 1), d($15, 1), d($16, 1), d($17, 1), d($18, 1), d($19, 1),
			    d($10, 0), d($5, 0), $9, $13, $11
		next
	}
	$4 + 0 > np { np = $4 + 0 }
	$4 != "0" { if ($2 == "kernel" || $2 == "gpu_memcpy") other++; next }
	$2 == "kernel_symbol" { print $1, $11, $3 >"syms.tsv" }
	$2 == "gpu_memcpy" { print d($6, 0), d($7, 0) >"m.tsv" }
	$2 == "process" && !meta { print "start\tend\n" d($6, 0) "\t" d($7, 0) >"meta.tsv"; meta = 1 }
	END {
		if (!meta) printf "start\tend\n0\t0\n" >"meta.tsv"
		print "fact", "count" >"rp_counts.tsv"
		print "processes", np + (NR > 1) >"rp_counts.tsv"
		print "records_other_processes", other + 0 >"rp_counts.tsv"
		print "process_metadata_missing", 1 - meta >"rp_counts.tsv"
		print "dispatches_before_symbols", late + 0 >"rp_counts.tsv"
		print late + 0 >"late"
		print fl + 0 >"fl"
	}' | st tl-calc UID=UID name=name dur='end - start' stream=stream dispatch_id=dispatch_id \
	    grid_x=grid_x grid_y=grid_y grid_z=grid_z block_x=block_x block_y=block_y block_z=block_z \
	    agent=agent tid=tid start=start end=end queue=queue symbol=symbol \
	    kernel_id=kernel_id >k.tsv; ok
	read -r late <late
	[ "$late" = 0 ] || rp_join
	read -r fl <fl
	[ "$fl" = 0 ] || rp_float
	tl_drop syms.tsv
}

# rp_float: every duration of k.tsv made a float, as TraceLens's dur
# column is when one of its durations is (a timestamp written as a
# float): pandas makes the column float64, and every sheet of it writes
# 2270.0 where the ints wrote 2270.
rp_float() {
	set --
	for f in $(head -n 1 k.tsv | tr '\t' '\n'); do
		if [ "$f" = dur ]; then set -- "$@" 'dur=dur + 0.0'; else set -- "$@" "$f=$f"; fi
	done
	st tl-calc "$@" <k.tsv >k.float; ok
	mv k.float k.tsv || exit 1
}

# rp_join: k.tsv's unnamed dispatches (symbol empty), which came before
# their process's kernel_symbols, named from syms.tsv (UID kernel_id
# name): the symbol's name (a later symbol of the same id wins, as in
# TraceLens's dict), else TraceLens's unknown_kernel_ID; their symbol
# field 1 or 0.  Then k.tsv in UID order again.
rp_join() {
	{ head -n 1 k.tsv
	  # the symbols (class 0) before the dispatches (class 1) of an id
	  { awkt 'NR > 1 { print $2, 0, $1, $3 }' syms.tsv
	    awkt 'NR > 1 { print $18, 1, $0 }' k.tsv; } |
	  st tl_sort -s -t "$TAB" -k1,1 -k2,2n |
	  st awkt '
	  $2 == 0 { if ($1 != id) { id = $1 } nm = $4; have = 1; next }
	  {
		if ($1 != id) { id = $1; have = 0 }
		sub(/^[^\t]*\t[^\t]*\t/, "")
		if ($17 == "") {
			$17 = have ? 1 : 0
			$2 = have ? nm : "unknown_kernel_" ($18 == "" ? "None" : $18)
		}
		print
	  }' | st tl_sort -t "$TAB" -k1,1n; } >k.join; ok
	mv k.join k.tsv || exit 1
}
