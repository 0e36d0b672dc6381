# See LICENSE file for copyright and license details.
# sheet: coll_analysis
# TraceLens's NcclAnalyser: the collective kernels (sel.tsv: the events'
# header, the communication kernels and the annotations) grouped by
# process group, collective, sizes and stream, with message sizes in
# MB and duration statistics.
# in: sel.tsv trace.facts
# out: coll_analysis.csv
# when: coll=1 cpu_ops=1
coll_analysis() {
	# name ts dur pgname pgranks coll gsize dtype innel outnel insplit outsplit stream
	st awkt '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["cat"] == "kernel" && tolower($col["name"]) ~ /nccl|rccl|cross_device_reduce/ {
		c = $col["correlation"]; x = $col["External id"]
		if ((c == "" || c == "null") && (x == "" || x == "null")) next
		print $col["name"], $col["ts"], $col["dur"], $col["Process Group Name"],
		    $col["Process Group Ranks"], $col["Collective name"], $col["Group size"],
		    $col["dtype"], $col["In msg nelems"], $col["Out msg nelems"],
		    $col["In split size"], $col["Out split size"], $col["stream"]
	}' sel.tsv >coll.tsv; ok
	[ -s coll.tsv ] || return 0
	# TraceLens's process group and collective names; the bytes of an
	# element (for the sizes in MB, which the sheet computes)
	st awkt '
	FNR == NR {
		if ($4 != "" && $4 != "null" && $4 != "Unknown_Group") pg = 1
		if ($13 != "" && $13 != "null") s[$13]
		next
	}
	FNR == 1 {
		ns = 0; for (k in s) ns++
		simple = !pg && ns <= 1
		b["Float"] = 4; b["Int"] = 4; b["Long"] = 8; b["BFloat16"] = 2; b["Bool"] = 1
		b["Byte"] = 1; b["Double"] = 8; b["Half"] = 2; b["Short"] = 2
		print "rank", "Process Group Name", "Process Group Ranks", "Collective name",
		    "Group size", "dtype", "In msg nelems", "Out msg nelems", "In split size",
		    "Out split size", "stream", "bytes", "dur"
	}
	{
		for (i = 4; i <= 13; i++) if ($i == "null") $i = ""
		if (simple) $4 = "all"
		else if ($4 == "") $4 = "Unknown_Group"
		if ($6 == "" && tolower($1) ~ /cross_device_reduce/) $6 = "allreduce"
		for (i = 4; i <= 13; i++) if ($i == "") next
		print 0, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, b[$8], $3
	}' coll.tsv coll.tsv |
	st hsort -s -t "$TAB" -k1,1 -k2,2 -k3,3 -k4,4 -k5,5n -k6,6 -k7,7n -k8,8n -k9,9 -k10,10 -k11,11n |
	st tl-aggregate -g 'rank,Process Group Name,Process Group Ranks,Collective name,Group size:n,dtype,In msg nelems:n,Out msg nelems:n,In split size,Out split size,stream:n' \
	    'r=pylit:Process Group Ranks' 'i=pylit:In split size' 'o=pylit:Out split size' \
	    'first:bytes' 'sum:dur' 'mean:dur' 'std:dur' 'min:dur' 'max:dur' 'count:dur' >coll.agg; ok
	tl_rows coll.agg || return 0
	st tl-sheet -s dur_sum 't:rank' 't:Process Group Name' 'Process Group Ranks=t:r' \
	    't:Collective name' 't:Group size' 't:dtype' 't:In msg nelems' 't:Out msg nelems' \
	    'In split size=t:i' 'Out split size=t:o' 't:stream' \
	    'In msg size (MB)_first=f:{In msg nelems}*bytes_first/1048576' \
	    'Out msg size (MB)_first=f:{Out msg nelems}*bytes_first/1048576' \
	    "$ifmt:dur_sum" 'f:dur_mean' 'f:dur_std' "$ifmt:dur_min" "$ifmt:dur_max" \
	    'operation_count=t:dur_count' <coll.agg >"$R/coll_analysis.csv"; ok
}
