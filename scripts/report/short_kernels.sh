# See LICENSE file for copyright and license details.
# stage: short_kernels
# --short-kernel-study: every kernel, in UID order, for the two
# short-kernel sheets: pcat pcpu name stream dur UID dims strides
# concrete (empty when the trace has no kernels: the sheets are still
# written).
# in: kernel_parents.tsv
# out: short_kernels.tsv
# when: short=1
short_kernels() {
	if [ -f kernel_parents.tsv ]; then
		st tl_sort -t "$TAB" -k1,1n kernel_parents.tsv | st cut -f 2- >short_kernels.tsv; ok
	else
		: >short_kernels.tsv
	fi
}
