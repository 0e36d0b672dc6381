# See LICENSE file for copyright and license details.
# sheet: health
# What TraceLens absorbs silently (tl(7), health.tsv), and one line on
# stderr naming the facts that change numbers.
# in: health.tsv
# out: health.csv
health() {
	st tl-sheet 't:fact' 't:count' <health.tsv >"$R/health.csv"; ok
	st awkt '
	NR > 1 && $1 ~ /^(host_events_dropped|gpu_events_unlinked|gpu_events_same_stream_overlap|gpu_events_zero_duration|events_out_of_time_order|flows_legacy_followed|compat_flows_legacy_ignored)$/ && $2 + 0 > 0 {
		msg = msg sep $2 " " $1; sep = ", "
	}
	END { if (msg != "") print msg }' health.tsv >health.msg; ok
	[ ! -s health.msg ] || { read -r msg <health.msg; echo "$prog: $trace_name: health: $msg" >&2; }
}
