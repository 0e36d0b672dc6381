# See LICENSE file for copyright and license details.
# sheet: short_kernel_histogram
# --short-kernel-study: numpy.histogram of the durations of the kernels
# shorter than --short-kernel-threshold-us, in
# --short-kernel-histogram-bins bins (tl-histogram(1)).
# in: short_kernels.tsv
# out: short_kernel_histogram.csv
# when: short=1
short_kernel_histogram() {
	st tl-histogram -b "$bins" -u "$thresh" dur short_kernels.tsv |
	st tl-sheet t:bin_start t:bin_end t:count >"$R/short_kernel_histogram.csv"; ok
}
