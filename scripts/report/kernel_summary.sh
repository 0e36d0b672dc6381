# See LICENSE file for copyright and license details.
# sheet: kernel_summary
# TraceLens's kernel summary (on by default here, so that any two
# reports compare with every sheet group): the kernels grouped by
# parent op category, parent cpu_op (when some kernel has one), name
# and stream, each group's kernels summed in trace order as pandas
# sums them (grouped by a hash of the keys, then the groups in key
# order, each key's missing values last, as groupby(dropna=False)
# orders its NaN groups: the o1..s4 columns, which tl-sheet leaves
# out), in percent of all kernels' time (numpy's pairwise sum of
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
	# (-N: kernel_parents.tsv has no header, and its first six fields
	# are all this wants: no cut.  -O, -R: sort sorts the hashes and
	# the records' offsets, and the second pass reads the records there
	# again, not kernel names through sort's spills)
	kn=UID,pcat,pcpu,name,stream,dur
	st tl-aggregate -O -N $kn -g pcat,pcpu,name,stream -K UID:n <kernel_parents.tsv |
	st hsort |
	st tl-aggregate $xflag -H -R kernel_parents.tsv -N $kn -g pcat,pcpu,name,stream:n \
	    'sum:dur' 'count:dur' 'mean:dur' 'min:dur' 'max:dur' |
	st awkt 'NR == 1 { print "o1", "o2", "o3", "o4", "s4", $0; next }
	{ print ($1 == "" ? 1 : 0 $1), ($2 == "" ? 1 : 0 $2), ($3 == "" ? 1 : 0 $3), ($4 == ""), $4, $0 }' |
	st hsort -s -t "$TAB" -k1,1 -k2,2 -k3,3 -k4,4 -k5,5n |
	st tl-sheet -s dur_sum -v "tk=$tk" -v "total=$total" "$@" >"$R/kernel_summary.csv"; ok
}
