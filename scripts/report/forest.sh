# See LICENSE file for copyright and license details.
# stage: forest
# The host ops grouped by tree (tl-forest -m build, sorted by KEY, the
# tree's root and the op's UID in hex, so that sort compares bytes):
#	KEY UID cat name parent ngpu fwd cpu_root own nc mod
# own: some op's forward link points here (fwd_targets.tsv); nc: a
# communication kernel is below (comm.tsv); mod: the op has a perf model
# (modelled_keys.tsv).  forest_fwd_keys.tsv: fwd op TAB KEY of the ops
# with a forward link, in UID order.  Memory: sort's buffer; the flags
# are merge joins against UID-sorted lists.  First, the forward links
# by forward op (fwd.tsv sorted: fwd TAB op, which perf_bwd joins on:
# fwd_links.tsv), and the forward ops that some link points to, one a
# line (fwd_targets.tsv, UID order).
# in: ops.tsv fwd.tsv comm.tsv modelled_keys.tsv
# out: forest.tsv forest_fwd_keys.tsv fwd_links.tsv fwd_targets.tsv
# when: roofline=1 cpu_ops=1 gpu_work=1
forest() {
	st tl_sort -t "$TAB" -k1,1n fwd.tsv >fwd_links.tsv; ok
	st awk -F '\t' '$1 != p { p = $1; print $1 }' fwd_links.tsv >fwd_targets.tsv; ok
	st tl-forest -m build -a fwd_targets.tsv -c comm.tsv -k modelled_keys.tsv \
	    -w forest_fwd_keys.tsv ops.tsv |
	# (KEY is 16 hex digits, unique: sorted as whole lines, without
	# finding fields, the records come as by -k1,1)
	st tl_sort >forest.tsv; ok
}
