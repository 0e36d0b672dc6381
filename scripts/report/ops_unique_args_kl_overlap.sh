# See LICENSE file for copyright and license details.
# sheet: ops_unique_args_kl_overlap
# TraceLens's ops_unique_args with --include_overlap_info: the
# launchers with what op_overlap found of each (a merge join: both are
# in UID order), grouped by the names of the kernels that overlap
# theirs too, as ops_unique_args groups them (unique_args), then the
# groups by total direct kernel time, ties by first UID.
# in: launchers.tsv op_overlap.tsv trace.facts
# out: ops_unique_args_kl_overlap.csv
# when: kl=1 cpu_ops=1
ops_unique_args_kl_overlap() {
	tl_rows launchers.tsv || return 0
	st awkt 'function next_() {
		if ((getline l <"op_overlap.tsv") > 0) { split(l, v, "\t"); k = v[1] + 0 }
		else eof = 1
	}
	NR == 1 { next_(); next_(); print $0, "okn", "okd", "opct"; next }
	{
		while (!eof && k < $1 + 0) next_()
		if (!eof && k == $1 + 0) print $0, v[2], v[3], v[4]
		else print $0, "", "[]", ""
	}' launchers.tsv >launchers_kl.tsv; ok
	unique_args launchers_kl.tsv "$R/ops_unique_args_kl_overlap.csv" kl
	rm -f launchers_kl.tsv
}
