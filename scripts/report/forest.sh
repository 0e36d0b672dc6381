# See LICENSE file for copyright and license details.
# stage: forest
# The host ops grouped by tree (tl-tree -m forest, sorted by KEY, the
# tree's root and the op's UID in hex, so that sort compares bytes):
#	KEY UID cat name parent ngpu fwd cpu_root own nc mod
# own: some op's forward link points here (fwd_targets.tsv); nc: a
# communication kernel is below (comm.tsv); mod: the op has a perf model
# (modelled_keys.tsv).  forest_fwd_keys.tsv: fwd op TAB KEY of the ops
# with a forward link, in UID order.  Memory: sort's buffer; the flags
# are merge joins against UID-sorted lists.
# in: ops.tsv fwd_targets.tsv comm.tsv modelled_keys.tsv
# out: forest.tsv forest_fwd_keys.tsv
# when: roofline=1 cpu_ops=1 gpu_events=1
forest() {
	st tl-tree -m forest -a fwd_targets.tsv -c comm.tsv -k modelled_keys.tsv \
	    -w forest_fwd_keys.tsv ops.tsv |
	st tl_sort -t "$TAB" -k1,1 >forest.tsv; ok
}
