# See LICENSE file for copyright and license details.
# stage: gpu_events
# One pass over the GPU events for two readers: busy.tsv, the
# intervals gpu_timeline measures (ts dur class, by ts: the linked GPU
# events, all of them with --include-unlinked-kernels; class comp,
# comm or memcpy as TraceLens's GPU timeline classifies them), and
# kernels.tsv, one record per kernel (linked or not), in UID order:
#	cpu_op UID cpu_op_name runtime_name linked name stream dur dims strides concrete
# (the last three for the short-kernel sheets only); both with a header.
# kernels.facts: kernels (there are any) and kernels_cpu_op (some has
# a cpu_op).  With --detect_recompute busy.tsv has is_recompute last:
# that of the GPU event's launching runtime event (TraceLens marks the
# GPU events of a recompute subtree through their launch), the
# intervals sorted by it first (rc_mark), then by ts.
# Then the sheet gpu_timeline of busy.tsv (gpu_timeline.sh), which no
# other stage reads: in this stage, busy.tsv is a pipe, not a work file
# (but with --detect_recompute, which reads it once per set).
# kernels.facts has busy_rows too (some interval to measure).
# in: gpu.tsv recompute.tsv trace.facts
# out: kernels.tsv kernels.facts gpu_timeline.csv gpu_total
gpu_events() {
	if [ "$recompute" = 1 ]; then
		gpu_events_rows runtime | st hsort -t "$TAB" -k4,4n | st rc_mark 4 |
		st cut -f1-3,5 | st hsort -t "$TAB" -k1,1n >busy.tsv; ok
		. ./kernels.facts || exit 1
		gpu_timeline
		tl_drop busy.tsv
		return 0
	fi
	gpu_events_rows | st hsort -t "$TAB" -k1,1n | gpu_timeline; ok
	. ./kernels.facts || exit 1
	# (the sheet of no interval is none: TraceLens stops)
	[ "$busy_rows" = 0 ] || return 0
	rm -f "$R/gpu_timeline.csv" gpu_total
	timeline_none
}

# gpu_events_rows [runtime]: busy.tsv's records, unsorted (with the
# launching runtime event's UID last); kernels.tsv, kernels.facts.
gpu_events_rows() {
	st awkt -v kf=kernels.tsv -v ff=kernels.facts -v rt="${1:-}" '
	BEGIN {
		print "ts", "dur", "class" (rt ? OFS "runtime" : "")
		print "cpu_op", "UID", "cpu_op_name", "runtime_name", "linked", "name",
		    "stream", "dur", "dims", "strides", "concrete" >kf
	}
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ c = $col["cat"]; n = $col["name"] }
	c == "kernel" {
		nk = 1
		if ($col["cpu_op"] != "") kc = 1
		print $col["cpu_op"], $col["UID"], $col["cpu_op_name"], $col["runtime_name"],
		    $col["linked"], n, $col["stream"], $col["dur"],
		    (short ? $col["Input Dims"] OFS $col["Input Strides"] OFS $col["Concrete Inputs"] : OFS OFS) >kf
	}
	unl || $col["linked"] == 1 {
		if (c == "gpu_memcpy") k = "memcpy"
		else if (c == "kernel" && n ~ /^(MEMORY_COPY_(HOST_TO_DEVICE|DEVICE_TO_HOST|DEVICE_TO_DEVICE)|__amd_rocclr_copyBuffer(Rect)?(Aligned)?)(\.kd)?$/) k = "memcpy"
		else if (c == "kernel" && n ~ /^__amd_rocclr_fillBuffer(Aligned)?(\.kd)?$/) k = "comp"
		else if (tolower(n) ~ /nccl|rccl|cross_device_reduce/) k = "comm"
		else k = "comp"
		print $col["ts"], $col["dur"], k (rt ? OFS $col["runtime"] : "")
		nb = 1
	}
	END { printf "kernels=%d\nkernels_cpu_op=%d\nbusy_rows=%d\n", nk, kc, nb >ff }
	' unl="$unlinked" short="$short" gpu.tsv
}
