# See LICENSE file for copyright and license details.
# stage: short_kernels
# --short-kernel-study: every kernel, in UID order, for the two
# short-kernel sheets: pcat pcpu name stream dur UID dims strides
# concrete, with a header (and no more when the trace has no kernels:
# the sheets are still written).  kernel_parents.tsv is sorted by UID
# unless it is in UID order already (kparents_uid).
# in: kernel_parents.tsv kernel_parents.facts
# out: short_kernels.tsv
# when: short=1
short_kernels() {
	printf 'pcat\tpcpu\tname\tstream\tdur\tUID\tdims\tstrides\tconcrete\n' >short_kernels.tsv
	[ -f kernel_parents.tsv ] || return 0
	if [ "${kparents_uid:-0}" = 1 ]; then
		st cut -f 2- kernel_parents.tsv >>short_kernels.tsv; ok
	else
		st tl_sort -t "$TAB" -k1,1n kernel_parents.tsv | st cut -f 2- >>short_kernels.tsv; ok
	fi
}
