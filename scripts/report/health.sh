# See LICENSE file for copyright and license details.
# sheet: health
# What TraceLens absorbs silently (tl(7), health.tsv), and one line on
# stderr naming the facts that change numbers.
# First, in a trace without GPU events (gpu_events=0), cpu_ops_summary:
# its CPU ops by name (time, count, mean), so that the report says
# something (TraceLens writes nothing here); in this stage, which runs
# whenever it could, not one of its own: a shell fewer.
# in: health.tsv ops.tsv trace.facts
# out: health.csv cpu_ops_summary.csv
health() {
	[ "${gpu_events:-}" != 0 ] || cpu_ops_summary
	st tl-sheet 't:fact' 't:count' <health.tsv >"$R/health.csv"; ok
	st awkt '
	NR > 1 && $1 ~ /^(host_events_dropped|gpu_events_unlinked|gpu_events_same_stream_overlap|gpu_events_zero_duration|events_out_of_time_order|flows_legacy_followed|flows_legacy_ignored)$/ && $2 + 0 > 0 {
		msg = msg sep $2 " " $1; sep = ", "
	}
	END { if (msg != "") print msg }' health.tsv >health.msg; ok
	[ ! -s health.msg ] || { read -r msg <health.msg; echo "$prog: $trace_name: health: $msg" >&2; }
}

cpu_ops_summary() {
	st awkt 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; print "name", "dur"; next }
	$col["cat"] == "cpu_op" { print $col["name"], $col["dur"] }' ops.tsv |
	st hsort -s -t "$TAB" -k1,1 |
	st tl-aggregate -g name 'sum:dur' 'count:dur' 'mean:dur' |
	st hsort -t "$TAB" -k2,2gr |
	st tl-sheet 't:name' 'cpu_time_sum_us=f:dur_sum' 'Count=t:dur_count' \
	    'cpu_time_mean_us=f:dur_mean' >"$R/cpu_ops_summary.csv"; ok
}
