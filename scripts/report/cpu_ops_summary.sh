# See LICENSE file for copyright and license details.
# sheet: cpu_ops_summary
# A trace without GPU events: its CPU ops by name (time, count, mean),
# so that the report says something (TraceLens writes nothing here).
# in: ops.tsv trace.facts
# out: cpu_ops_summary.csv
# when: gpu_events=0
cpu_ops_summary() {
	st awkt 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; print "name", "dur"; next }
	$col["cat"] == "cpu_op" { print $col["name"], $col["dur"] }' ops.tsv |
	st hsort -s -t "$TAB" -k1,1 |
	st tl-aggregate -g name 'sum:dur' 'count:dur' 'mean:dur' |
	st hsort -t "$TAB" -k2,2gr |
	st tl-sheet 't:name' 'cpu_time_sum_us=f:dur_sum' 'Count=t:dur_count' \
	    'cpu_time_mean_us=f:dur_mean' >"$R/cpu_ops_summary.csv"; ok
}
