# See LICENSE file for copyright and license details.
# stage: kernel_parents
# Each kernel with what kernel_summary groups it by: its parent op's
# category (TraceLens categorises the cpu_op with its own first kernel
# when it launches kernels), its parent cpu_op (or, for a kernel
# without one, its runtime call: TraceLens's "graph" or "runtime"
# category), as kernel_parents.tsv:
#	UID pcat pcpu name stream dur UID dims strides concrete
# in UID order when the kernels' cpu_ops ascend with their UIDs
# (kernel_parents.facts: kparents_uid=1), else by cpu_op, then UID.
# in: kernels.tsv launcher_k1.tsv kernels.facts
# out: kernel_parents.tsv kernel_parents.facts
# when: kernels=1
kernel_parents() {
	# tl-kparents wants the kernels by cpu_op.  A trace's kernels mostly
	# come in the order of their launches, so that kernels.tsv (UID
	# order) already is: then it is not sorted.  The first run checks
	# that order as it goes: at a cpu_op below the one before, it stops
	# and says kparents_uid=0, and runs again on the kernels sorted by
	# cpu_op (sort takes an empty one as 0: the header stays first).
	set -- -k launcher_k1.tsv
	[ "$kernels_cpu_op" = 0 ] || set -- "$@" -r
	st tl-kparents -u kernel_parents.facts "$@" kernels.tsv >kernel_parents.tsv; ok
	. ./kernel_parents.facts || exit 1
	[ "$kparents_uid" = 1 ] && return 0
	st tl_sort -s -t "$TAB" -k1,1n kernels.tsv |
	st tl-kparents "$@" >kernel_parents.tsv; ok
}
