# See LICENSE file for copyright and license details.
# stage: comparison_rows
# --comparison: what the seven comparison columns of unified_perf_summary
# hold for each row with an LCA: the LCAs of the trace1 GPU events in
# its kernel list (lca_totals.tsv joined with kernel_map.tsv on the GPU
# event), each once, by id, as TraceLens's enrich_perf_report_dict_inplace
# gathers them: their ids and names joined by "; " (an empty name left
# out), their busy times on each side and their number with trace2 GPU
# events, added up one after another.  comparison_rows.tsv: row lca_id
# lca_name t1 t2 n2, by row (zero-padded), with a header.
# in: comparison/lca_totals.tsv kernel_map.tsv
# out: comparison_rows.tsv
# when: comparison=1 roofline=1 cpu_ops=1 gpu_work=1
comparison_rows() {
	# trace1 GPU event (zero-padded: one byte key), then the totals record
	st awkt 'NR > 1 { printf "%012d\t%s\n", $1, $0 }' comparison/lca_totals.tsv |
	st tl_sort -s -t "$TAB" -k1,1 |
	# joined with kernel_map.tsv (by event, numeric order): row, LCA id
	# (padded, then as diff_stats writes it), name, busy times, trace2
	# has rows
	st awkt -v lf=kernel_map.tsv "$TL_AWK_LOOKUP"'
	{
		if ((r = lookup($1 + 0)) != "\001")
			printf "%012d\t%012d\t%s\t%s\t%s\t%s\t%s\n", r, $3, $3, $4, $5, $6, $7
	}' |
	# each LCA once per row; rows in order, a row's LCAs by id
	{ printf 'row\tkey\tlca_id\tlca_name\tt1\tt2\thas2\n'; st tl_sort -u -t "$TAB" -k1,2; } |
	st tl-aggregate -g row 'lca_id=join:lca_id' 'lca_name=join:lca_name' \
	    't1=add:t1' 't2=add:t2' 'n2=add:has2' >comparison_rows.tsv; ok
}
