# See LICENSE file for copyright and license details.
# sheet: short_kernels_summary
# --short-kernel-study: the kernels shorter than
# --short-kernel-threshold-us, grouped by parent cpu_op, input dims,
# strides and concrete inputs and name (by name alone in a trace
# without CPU ops), in order of first appearance (a sequence number per
# group keeps it: the number of its first line), rows with a missing key dropped, as TraceLens does;
# the first --topk-short-kernels rows by total time.
# in: short_kernels.tsv trace.facts gpu_total
# out: short_kernels_summary.csv
# when: short=1
short_kernels_summary() {
	gpuonly=0
	[ "$cpu_ops" != 0 ] || gpuonly=1
	# Each group's rows together (sorted by its keys, then line number),
	# each numbered by its group's first line (seq), then by seq: no
	# table of the groups, however many names.  A line: the keys (name
	# alone without CPU ops), its number (12 digits), the rest.
	# fl: some kernel's duration is a float text, which makes pandas'
	# column of every kernel's duration, and so the sums, float64.
	st awkt '
	NR > 1 && $5 !~ /^-?[0-9]+$/ { fl = 1 }
	NR > 1 && $5 + 0 < th {
		nshort++
		if (!gpuonly && ($2 == "" || $7 == "" || $8 == "" || $9 == "")) next
		if (gpuonly) printf "%s\t%012d\t%s\t%s\t%s\t%s\t%s\n", $3, NR, $2, $7, $8, $9, $5
		else printf "%s\t%s\t%s\t%s\t%s\t%012d\t%s\n", $2, $7, $8, $9, $3, NR, $5
	}
	END { print nshort + 0, fl + 0 >nsf }' th="$thresh" gpuonly="$gpuonly" nsf=short.n short_kernels.tsv |
	if [ "$gpuonly" = 1 ]; then
		st tl_sort -t "$TAB" -k1,1 -k2,2
	else
		st tl_sort -t "$TAB" -k1,5 -k6,6
	fi |
	st awkt '
	BEGIN { print "seq", "pcpu", "dims", "strides", "concrete", "name", "dur" }
	{
		if (gpuonly) { k = $1 ""; n = $2; r = $3 OFS $4 OFS $5 OFS $6 OFS $1 OFS $7 }
		else { k = $1 OFS $2 OFS $3 OFS $4 OFS $5; n = $6; r = k OFS $7 }
		if (NR == 1 || k != pk) { seq = n; pk = k }
		print seq, r
	}' gpuonly="$gpuonly" |
	st hsort -s -t "$TAB" -k1,1 |
	st tl-aggregate -g seq 'p=first:pcpu' 'd=pylit:dims' 's=pylit:strides' 'c=pylit:concrete' \
	    'n=first:name' 'sum:dur' 'count:dur' 'mean:dur' |
	st hsort -s -t "$TAB" -k7,7gr -k8,8n -k9,9g >short.tsv; ok
	if ! tl_rows short.tsv; then
		# pandas writes an empty group-by with its two-level header
		read -r n fl <short.n
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
	read -r n fl <short.n
	sfmt=$ifmt
	[ "$fl" = 0 ] || sfmt=f
	st tl-sheet ${topk:+-n "$(tl_head "$topk" short.tsv)"} -v "total=$total" "$@" 'Kernel name=t:n' \
	    "Short Kernel duration (µs) sum=$sfmt:dur_sum" 'Short Kernel count=t:dur_count' \
	    'Short Kernel duration (µs) mean=f:dur_mean' \
	    'Short Kernel duration (µs) percent of total time=f:dur_sum/($total/1000*1000)*100' \
	    <short.tsv >"$R/short_kernels_summary.csv"; ok
}
