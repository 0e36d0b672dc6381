# See LICENSE file for copyright and license details.
# stage: launchers
# The kernel launchers: one row per op that launches kernels (TraceLens's
# kernel launchers), from each op's direct kernels (busy time, count,
# first GPU event and name, list) and subtree busy time (tl-kernels
# over intervals.tsv), joined with the op fields (ops.tsv) and
# the process and thread names (meta.tsv), and categorised as
# TraceLens's categorize_torch_op does (tl-launchers), in UID
# order:
#	UID name "op category" process_name process_label thread_name
#	Input Dims, Input type, Input Strides, Concrete Inputs, ts
#	direct subtree g1 kd tkey
# (tkey: ts and g1 as one key that sort compares as bytes).
# launcher_k1.tsv: UID k1, each launcher's first kernel name, the one
# thing kernel_parents reads of the launchers.  launcher_cats.tsv and
# launcher_names.tsv: what ops_summary_by_category and ops_summary
# sort (tl-launchers -c, -n), but with --detect_recompute, which puts
# is_recompute last in launchers.tsv (rc_mark), and they cut that.
# in: intervals.tsv ops.tsv meta.tsv recompute.tsv
# out: launchers.tsv launcher_k1.tsv launcher_cats.tsv launcher_names.tsv
launchers() {
	if [ "$recompute" = 1 ]; then
		st tl-kernels $xflag intervals.tsv |
		st tl-launchers -d . -o launcher_k1.tsv | st rc_mark 1 >launchers.tsv; ok
		return 0
	fi
	st tl-kernels $xflag intervals.tsv |
	st tl-launchers -d . -o launcher_k1.tsv -c launcher_cats.tsv -n launcher_names.tsv \
	    >launchers.tsv; ok
}
