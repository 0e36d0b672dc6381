# See LICENSE file for copyright and license details.
# stage: kernel_map
# --comparison: each GPU event in the kernel list of a row of
# unified_perf_summary, and the row (1 = the first data row), by GPU
# event: GPU UID TAB row.  (An event is in one row's kernel list.)
# in: unified.tsv unified_rows.tsv collected_intervals.tsv synthetic_ops.tsv
# out: kernel_map.tsv
# when: comparison=1 roofline=1 cpu_ops=1 gpu_events=1
kernel_map() {
	st awkt '
	FILENAME == ugf { if (FNR > 1) pos[$1] = FNR - 1; next }
	FILENAME == urgf {
		if (FNR == 1) { for (i = 1; i <= NF; i++) { if ($i == "UID") uc = i; if ($i == "gseq") gc = i }; next }
		gs[$uc] = $gc; next
	}
	FILENAME == civf { if ($1 in gs) print $6, pos[gs[$1]]; next }
	($1 in gs) { print $8, pos[gs[$1]] }' ugf=unified.tsv urgf=unified_rows.tsv civf=collected_intervals.tsv \
	    unified.tsv unified_rows.tsv collected_intervals.tsv synthetic_ops.tsv |
	st tl_sort -t "$TAB" -k1,1n >kernel_map.tsv; ok
}
