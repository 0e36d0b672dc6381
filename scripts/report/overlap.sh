# See LICENSE file for copyright and license details.
# stage: overlap
# --include_overlap_info: the GPU events each GPU event overlaps, as
# TraceLens's sweep lists them in its overlapping_uids (tl-overlap over
# gpu.tsv by ts; the launched events only, as its gpu_timeline's,
# unless --include-unlinked-kernels): overlap.tsv, which op_overlap
# and unified_perf_summary_kl_overlap read.
# in: gpu.tsv
# out: overlap.tsv
# when: kl=1 cpu_ops=1
overlap() {
	u=
	[ "$unlinked" != 1 ] || u=-u
	st hsort -t "$TAB" -k7,7g -k1,1n <gpu.tsv | st tl-overlap $u >overlap.tsv; ok
}
