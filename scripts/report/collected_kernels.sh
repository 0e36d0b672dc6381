# See LICENSE file for copyright and license details.
# stage: collected_kernels
# Each collected op's subtree kernels, busy time and list (tl-pick -s
# -b): op kt kd, with a header.
# in: collected_keys.tsv intervals.tsv gpuev.tsv
# out: collected_kernels.tsv
# when: roofline=1 cpu_ops=1 gpu_events=1
collected_kernels() {
	st tl-pick -s -b -l -G gpuev.tsv -k collected_keys.tsv intervals.tsv \
	    >collected_kernels.tsv; ok
}
