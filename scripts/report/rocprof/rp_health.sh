# See LICENSE file for copyright and license details.
# sheet: rp_health
# What TraceLens's rocprof report passes over silently (fact,count):
# the counts of rp_dispatches (processes, records of other processes,
# missing metadata, dispatches before their symbols), the dispatches,
# those without a symbol, of zero or negative duration, the memory
# copies, the dispatches overlapping an earlier one on their queue; and
# one line on stderr naming the odd ones.
# in: rp_counts.tsv rp_kcounts rp_overlap m.tsv
# out: health.csv
rp_health() {
	read -r overlap <rp_overlap
	{ cat rp_counts.tsv rp_kcounts
	  echo "memory_copies	$(($(wc -l <m.tsv) - 1))"
	  echo "dispatches_same_queue_overlap	$overlap"
	} >rp_health.tsv
	st tl-sheet t:fact t:count <rp_health.tsv >"$R/health.csv"; ok
	st awkt 'NR > 1 && $2 + 0 > 0 &&
	    $1 ~ /^(records_other_processes|dispatches_without_symbol|dispatches_zero_duration|dispatches_negative_duration|dispatches_same_queue_overlap)$/ {
		msg = msg sep $2 " " $1; sep = ", "
	} END { if (msg != "") print msg }' rp_health.tsv >health.msg; ok
	[ ! -s health.msg ] || { read -r msg <health.msg; echo "$prog: $trace_name: health: $msg" >&2; }
}
