# See LICENSE file for copyright and license details.
# sheet: ops_unique_args_kl_overlap
# TraceLens's ops_unique_args with --include_overlap_info: the
# launchers with what op_overlap found of each (kl_join: both are in
# UID order), grouped by the names of the kernels that overlap
# theirs too, as ops_unique_args groups them (unique_args), then the
# groups by total direct kernel time, ties by first UID.
# in: launchers.tsv op_overlap.tsv trace.facts
# out: ops_unique_args_kl_overlap.csv
# when: kl=1 cpu_ops=1
ops_unique_args_kl_overlap() {
	tl_rows launchers.tsv || return 0
	st kl_join 1 <launchers.tsv >launchers_kl.tsv; ok
	unique_args launchers_kl.tsv "$R/ops_unique_args_kl_overlap.csv" kl
	rm -f launchers_kl.tsv
}
