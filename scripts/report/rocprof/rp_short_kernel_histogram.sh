# See LICENSE file for copyright and license details.
# sheet: rp_short_kernel_histogram
# TraceLens's rocprof short_kernel_histogram (--short-kernel-study):
# numpy's histogram of the short dispatches' durations in
# --short-kernel-histogram-bins bins (tl-histogram(1)).
# in: short_v.tsv
# out: short_kernel_histogram.csv
# when: short=1
rp_short_kernel_histogram() {
	st tl-histogram -b "$bins" v short_v.tsv |
	st tl-sheet t:bin_start t:bin_end t:count >"$R/short_kernel_histogram.csv"; ok
}
