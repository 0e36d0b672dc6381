# See LICENSE file for copyright and license details.
# stage: kernel_map
# --comparison: each GPU event in the kernel list of a row of
# unified_perf_summary, and the row (1 = the first data row), by GPU
# event: GPU UID TAB row.  (An event is in one row's kernel list.)
# Merges of sorted files, so that memory does not grow with the rows
# or groups: each group's row (by gseq) onto unified_rows.tsv (in gseq
# order), giving each op's row (by UID; the op's last, as it was when
# this was a table); that onto each GPU event's op (by UID).
# in: unified.tsv unified_rows.tsv collected_intervals.tsv synthetic_ops.tsv
# out: kernel_map.tsv
# when: comparison=1 roofline=1 cpu_ops=1 gpu_work=1
kernel_map() {
	# gseq TAB row, by gseq
	st awkt 'NR > 1 { print $1, NR - 1 }' unified.tsv |
	st tl_sort -t "$TAB" -k1,1n >kernel_map_pos.tsv; ok
	# UID TAB row of each op, by UID (stable: an op's rows in their order)
	st awkt -v pf=kernel_map_pos.tsv '
	function pnext() {
		if ((getline pl <pf) > 0) { split(pl, pv, "\t"); ng = pv[1] + 0; nr = pv[2] }
		else peof = 1
	}
	NR == 1 {
		for (i = 1; i <= NF; i++) { if ($i == "UID") uc = i; if ($i == "gseq") gc = i }
		cg = -1; pnext(); next
	}
	{
		g = $gc + 0
		while (!peof && ng <= g) { cg = ng; cr = nr; pnext() }
		if (cg == g) print $uc, cr
	}' unified_rows.tsv |
	st tl_sort -s -t "$TAB" -k1,1n >kernel_map_rows.tsv; ok
	# each GPU event's op UID TAB GPU UID, by op; joined with the ops' rows
	st awkt 'FILENAME == civf { if ($1 ~ /^[0-9]+$/) print $1, $6; next }
	$1 ~ /^[0-9]+$/ { print $1, $8 }' civf=collected_intervals.tsv \
	    collected_intervals.tsv synthetic_ops.tsv |
	st tl_sort -t "$TAB" -k1,1n |
	st awkt -v lf=kernel_map_rows.tsv "$TL_AWK_LOOKUP"'
	{ if ((r = lookup($1 + 0)) != "\001") print $2, r }' |
	st tl_sort -t "$TAB" -k1,1n >kernel_map.tsv; ok
	tl_drop kernel_map_pos.tsv kernel_map_rows.tsv
}
