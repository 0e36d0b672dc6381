# See LICENSE file for copyright and license details.
# sheet: kernel_summary
# TraceLens's kernel summary (on by default here, so that any two
# reports compare with every sheet group): the kernels grouped by
# parent op category, parent cpu_op (when some kernel has one), name
# and stream, each group's kernels summed in trace order as pandas
# sums them (grouped by a hash of the keys, then the groups in key
# order, missing keys last), in percent of all kernels' time (numpy's pairwise sum of
# every kernel's duration, in trace order) and of the GPU's total time.
# in: kernel_parents.tsv kernels.tsv kernels.facts gpu_total
# out: kernel_summary.csv
# when: kernels=1 ksum=1
kernel_summary() {
	# (through a file: a command substitution is a fork more)
	st tl-aggregate 'npsum:dur' <kernels.tsv >kernel_total; ok
	{ read -r tkh; read -r tk || tk=$tkh; } <kernel_total
	tl_drop kernel_total
	total=
	[ ! -s gpu_total ] || read -r total <gpu_total
	set -- 'Parent op category=t:pcat'
	[ "$kernels_cpu_op" = 0 ] || set -- "$@" 'Parent cpu_op=t:pcpu'
	set -- "$@" 'Kernel name=t:name' 'Kernel stream=t:stream' \
	    "Kernel duration (µs)_sum=$ifmt:dur_sum" 'Kernel duration (µs)_count=t:dur_count' \
	    'Kernel duration (µs)_mean=f:dur_mean' "Kernel duration (µs)_min=$ifmt:dur_min" \
	    "Kernel duration (µs)_max=$ifmt:dur_max" \
	    'Percent of kernels time (%)=f:dur_sum/$tk*100' \
	    'Percent of total time (%)=f:dur_sum/($total/1000*1000)*100'
	{ printf 'UID\tpcat\tpcpu\tname\tstream\tdur\n'; cut -f1-6 kernel_parents.tsv; } |
	st tl-aggregate -g pcat,pcpu,name,stream -K UID:n | st hsort -t "$TAB" -k1,1 |
	st tl-aggregate $xflag -H -g pcat,pcpu,name,stream:n 'sum:dur' 'count:dur' 'mean:dur' 'min:dur' 'max:dur' |
	# groupby(dropna=False) puts a missing category or cpu_op after
	# the others (na1, na2), and that is the order sort_values then
	# reorders: its order of equal sums depends on it.
	st awkt 'NR == 1 { print "na1", "na2", $0; next }
	    { print $1 == "", $2 == "", $0 }' |
	st hsort -s -t "$TAB" -k1,1 -k3,3 -k2,2 -k4,4 -k5,5 -k6,6n |
	st tl-sheet -s dur_sum -v "tk=$tk" -v "total=$total" "$@" >"$R/kernel_summary.csv"; ok
}
