# See LICENSE file for copyright and license details.
# sheet: ops_unique_args
# TraceLens's ops summary by unique arguments: the launchers grouped by
# name, category, process and thread names and the four inputs (grouped
# by a hash of the nine keys, then tkey: sort compares a short key as
# bytes, not nine long fields that are mostly equal), each group's
# statistics and kernel details, the groups by total direct kernel time
# (ties by first UID).  With --include-first-occurrence-time, after
# operation_count each group's least ts less the least of all groups
# (TraceLens's first_occurrence_time), numbers of the dtype pandas gives
# the launchers' ts (int64 when each is a whole number in the trace).
# With --group-by-num-kernels, num_kernels (the number of a launcher's
# direct kernels) is a key too, the column after Concrete Inputs; with
# --detect_recompute, is_recompute, the column after those.
# in: launchers.tsv trace.facts
# out: ops_unique_args.csv
# when: cpu_ops=1
ops_unique_args() {
	tl_rows launchers.tsv || return 0
	set --
	tsmin=
	if [ "$fot" = 1 ]; then
		st tl-aggregate 'm=min:ts' 'k=dtype:ts' <launchers.tsv >fot.tsv; ok
		{ read -r _ && IFS=$TAB read -r tsmin k; } <fot.tsv
		f=f
		[ "$k" != int64 ] || f=i
		set -- "first_occurrence_time=$f:fot - \$tsmin"
	fi
	keys='name,op category,process_name,process_label,thread_name,Input Dims,Input type,Input Strides,Concrete Inputs'
	# (-k: the fields of total_direct_kernel_time_sum and ex_UID)
	nk= sum=25 uid=27
	[ "$gbnk" != 1 ] || { keys=$keys,num_kernels nk=t:num_kernels sum=26 uid=28; }
	rc=
	[ "$recompute" != 1 ] ||
		{ keys=$keys,is_recompute rc=t:is_recompute sum=$((sum + 1)) uid=$((uid + 1)); }
	st tl-aggregate -g "$keys" -K tkey <launchers.tsv |
	st hsort -t "$TAB" -k1,1 |
	st tl-aggregate $xflag -H -g "$keys" \
	    'd=pylit:Input Dims' 't=pylit:Input type' 's=pylit:Input Strides' 'c=pylit:Concrete Inputs' \
	    'operation_count=count:UID' \
	    'total_direct_kernel_time_mean=mean:direct' 'total_subtree_kernel_time_mean=mean:subtree' \
	    'total_direct_kernel_time_median=median:direct' 'total_subtree_kernel_time_median=median:subtree' \
	    'total_direct_kernel_time_std=std:direct' 'total_subtree_kernel_time_std=std:subtree' \
	    'total_direct_kernel_time_min=min:direct' 'total_subtree_kernel_time_min=min:subtree' \
	    'total_direct_kernel_time_max=max:direct' 'total_subtree_kernel_time_max=max:subtree' \
	    'total_direct_kernel_time_sum=sum:direct' 'total_subtree_kernel_time_sum=sum:subtree' \
	    'ex_UID=first:UID' 'kernel_details_summary=kstats:kd' 'trunc_kernel_details=ktrunc:kd' \
	    ${tsmin:+'fot=min:ts'} |
	st hsort -t "$TAB" -k$sum,${sum}gr -k$uid,${uid}n |
	st tl-sheet -v "tsmin=$tsmin" 't:name' 't:op category' 't:process_name' 't:process_label' 't:thread_name' \
	    'Input Dims=t:d' 'Input type=t:t' 'Input Strides=t:s' 'Concrete Inputs=t:c' \
	    $nk $rc 't:operation_count' "$@" \
	    'f:total_direct_kernel_time_mean' 'f:total_subtree_kernel_time_mean' \
	    'f:total_direct_kernel_time_median' 'f:total_subtree_kernel_time_median' \
	    'f:total_direct_kernel_time_std' 'f:total_subtree_kernel_time_std' \
	    "$ifmt:total_direct_kernel_time_min" "$ifmt:total_subtree_kernel_time_min" \
	    "$ifmt:total_direct_kernel_time_max" "$ifmt:total_subtree_kernel_time_max" \
	    "$ifmt:total_direct_kernel_time_sum" "$ifmt:total_subtree_kernel_time_sum" \
	    't:ex_UID' 't:kernel_details_summary' 't:trunc_kernel_details' \
	    'Percentage (%)=pct:total_direct_kernel_time_sum' \
	    'Cumulative Percentage (%)=cum:total_direct_kernel_time_sum' \
	    >"$R/ops_unique_args.csv"; ok
}
