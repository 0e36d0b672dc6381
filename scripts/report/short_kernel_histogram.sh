# See LICENSE file for copyright and license details.
# sheet: short_kernel_histogram
# --short-kernel-study: numpy.histogram of the durations of the kernels
# shorter than --short-kernel-threshold-us, in
# --short-kernel-histogram-bins bins.
# in: short_kernels.tsv
# out: short_kernel_histogram.csv
# when: short=1
short_kernel_histogram() {
	st awk -F '\t' "$TL_AWKLIB"'
	FNR == NR { if ($5 + 0 < th) { d = $5 + 0; if (!n || d < lo) lo = d; if (!n || d > hi) hi = d; n++ } next }
	FNR == 1 {
		print "bin_start,bin_end,count"; hdr = 1
		if (!n) exit
		if (lo == hi) { lo -= 0.5; hi += 0.5 }
		step = (hi - lo) / bins
		for (i = 0; i < bins; i++) e[i] = i * step + lo
		e[bins] = hi
		norm = bins / (hi - lo)
	}
	$5 + 0 < th {
		d = $5 + 0
		j = int((d - lo) * norm)
		if (j == bins) j--
		if (d < e[j]) j--
		if (d >= e[j + 1] && j != bins - 1) j++
		c[j]++
	}
	END {
		if (!hdr) print "bin_start,bin_end,count"
		if (n) for (i = 0; i < bins; i++) print pyrepr(e[i]) "," pyrepr(e[i + 1]) "," c[i] + 0
	}
	' th="$thresh" bins="$bins" short_kernels.tsv short_kernels.tsv >"$R/short_kernel_histogram.csv"; ok
}
