# See LICENSE file for copyright and license details.
# sheet: short_kernels_summary
# --short-kernel-study: the kernels shorter than
# --short-kernel-threshold-us, grouped by parent cpu_op, input dims,
# strides and concrete inputs and name (by name alone in a trace
# without CPU ops), in order of first appearance (a sequence number per
# group keeps it), rows with a missing key dropped, as TraceLens does;
# the first --topk-short-kernels rows by total time.
# in: short_kernels.tsv trace.facts gpu_total
# out: short_kernels_summary.csv
# when: short=1
short_kernels_summary() {
	gpuonly=0
	[ "$cpu_ops" != 0 ] || gpuonly=1
	st awkt '
	BEGIN { print "seq", "pcpu", "dims", "strides", "concrete", "name", "dur" }
	NR > 1 && $5 + 0 < th {
		nshort++
		if (!gpuonly && ($2 == "" || $7 == "" || $8 == "" || $9 == "")) next
		k = gpuonly ? $3 : $2 "\t" $7 "\t" $8 "\t" $9 "\t" $3
		if (!(k in seq)) seq[k] = sprintf("%012d", ++ns)
		print seq[k], $2, $7, $8, $9, $3, $5
	}
	END { print nshort + 0 >nsf }' th="$thresh" gpuonly="$gpuonly" nsf=short.n short_kernels.tsv |
	st hsort -s -t "$TAB" -k1,1 |
	st tl-aggregate -g seq 'p=first:pcpu' 'd=pylit:dims' 's=pylit:strides' 'c=pylit:concrete' \
	    'n=first:name' 'sum:dur' 'count:dur' 'mean:dur' |
	st hsort -s -t "$TAB" -k7,7gr -k8,8n -k9,9g >short.tsv; ok
	if ! tl_rows short.tsv; then
		# pandas writes an empty group-by with its two-level header
		read -r n <short.n
		if [ "$n" -gt 0 ]; then
			printf '%s\n' 'Kernel duration (µs),Kernel duration (µs),Kernel duration (µs)' 'sum,count,mean'
		else
			echo
		fi >"$R/short_kernels_summary.csv"
		return
	fi
	set --
	[ "$gpuonly" = 1 ] || set -- 'Parent cpu_op=t:p' 'Input dims=t:d' 'Input strides=t:s' 'Concrete Inputs=t:c'
	total=
	[ ! -s gpu_total ] || read -r total <gpu_total
	st tl-sheet ${topk:+-n "$topk"} -v "total=$total" "$@" 'Kernel name=t:n' \
	    'Short Kernel duration (µs) sum=f:dur_sum' 'Short Kernel count=t:dur_count' \
	    'Short Kernel duration (µs) mean=f:dur_mean' \
	    'Short Kernel duration (µs) percent of total time=f:dur_sum/($total/1000*1000)*100' \
	    <short.tsv >"$R/short_kernels_summary.csv"; ok
}
