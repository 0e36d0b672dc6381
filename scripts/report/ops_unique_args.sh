# See LICENSE file for copyright and license details.
# helpers: ops_unique_args, a sheet of the stage ops_sheets (ops_sheets.sh).
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
ops_unique_args() {
	unique_args launchers.tsv "$R/ops_unique_args.csv"
}

# unique_args IN OUT [kl]: the sheet of the launchers IN (launchers.tsv's
# fields) to OUT; with kl, ops_unique_args_kl_overlap's, of launchers
# with op_overlap's fields okn, okd and opct too: okn a key after name
# (the names list as str() writes it, empty for None),
# overlapping_kernels_details_summary and
# trunc_overlapping_kernels_details of okd (kstats, ktrunc: the lists
# are of one length in a group, one list of names) and overlap_pct's
# mean, median, std, min and max after trunc_kernel_details.
unique_args() {
	_ua_in=$1 _ua_out=$2 _ua_kl=${3:-}
	tl_rows "$_ua_in" || return 0
	set --
	tsmin=
	if [ "$fot" = 1 ]; then
		# (a file of IN's name: the stage of ops_unique_args_kl_overlap
		# runs this beside ops_sheets's, and a shared one was read
		# half-written: "k: parameter not set")
		st tl-aggregate 'm=min:ts' 'k=dtype:ts' <"$_ua_in" >"$_ua_in.fot"; ok
		{ read -r _ && IFS=$TAB read -r tsmin k; } <"$_ua_in.fot"
		f=f
		[ "$k" != int64 ] || f=i
		set -- "first_occurrence_time=$f:fot - \$tsmin"
	fi
	keys='op category,process_name,process_label,thread_name,Input Dims,Input type,Input Strides,Concrete Inputs'
	# (-k: the fields of total_direct_kernel_time_sum and ex_UID)
	nk= sum=25 uid=27 okn= kla= klc=
	if [ -n "$_ua_kl" ]; then
		keys=name,okn,$keys okn=overlapping_kernel_names=t:okn sum=26 uid=28
		kla='okdsum=kstats:okd okdtrunc=ktrunc:okd opctmean=mean:opct opctmedian=median:opct opctstd=std:opct opctmin=min:opct opctmax=max:opct'
		klc='overlapping_kernels_details_summary=t:okdsum trunc_overlapping_kernels_details=t:okdtrunc overlap_pct_mean=f:opctmean overlap_pct_median=f:opctmedian overlap_pct_std=f:opctstd overlap_pct_min=f:opctmin overlap_pct_max=f:opctmax'
	else
		keys=name,$keys
	fi
	[ "$gbnk" != 1 ] || { keys=$keys,num_kernels nk=t:num_kernels sum=$((sum + 1)) uid=$((uid + 1)); }
	rc=
	[ "$recompute" != 1 ] ||
		{ keys=$keys,is_recompute rc=t:is_recompute sum=$((sum + 1)) uid=$((uid + 1)); }
	# (-O, -R: the hashes and offsets sorted, the rows read again there)
	st tl-aggregate -O -g "$keys" -K tkey <"$_ua_in" |
	st hsort |
	st tl-aggregate $xflag -H -R "$_ua_in" -g "$keys" \
	    'd=pylit:Input Dims' 't=pylit:Input type' 's=pylit:Input Strides' 'c=pylit:Concrete Inputs' \
	    'operation_count=count:UID' \
	    'total_direct_kernel_time_mean=mean:direct' 'total_subtree_kernel_time_mean=mean:subtree' \
	    'total_direct_kernel_time_median=median:direct' 'total_subtree_kernel_time_median=median:subtree' \
	    'total_direct_kernel_time_std=std:direct' 'total_subtree_kernel_time_std=std:subtree' \
	    'total_direct_kernel_time_min=min:direct' 'total_subtree_kernel_time_min=min:subtree' \
	    'total_direct_kernel_time_max=max:direct' 'total_subtree_kernel_time_max=max:subtree' \
	    'total_direct_kernel_time_sum=sum:direct' 'total_subtree_kernel_time_sum=sum:subtree' \
	    'ex_UID=first:UID' 'kernel_details_summary=kstats:kd' 'trunc_kernel_details=ktrunc:kd' \
	    ${tsmin:+'fot=min:ts'} $kla |
	st hsort -t "$TAB" -k$sum,${sum}gr -k$uid,${uid}n |
	st tl-sheet -v "tsmin=$tsmin" 't:name' $okn 't:op category' 't:process_name' 't:process_label' 't:thread_name' \
	    'Input Dims=t:d' 'Input type=t:t' 'Input Strides=t:s' 'Concrete Inputs=t:c' \
	    $nk $rc 't:operation_count' "$@" \
	    'f:total_direct_kernel_time_mean' 'f:total_subtree_kernel_time_mean' \
	    'f:total_direct_kernel_time_median' 'f:total_subtree_kernel_time_median' \
	    'f:total_direct_kernel_time_std' 'f:total_subtree_kernel_time_std' \
	    "$ifmt:total_direct_kernel_time_min" "$ifmt:total_subtree_kernel_time_min" \
	    "$ifmt:total_direct_kernel_time_max" "$ifmt:total_subtree_kernel_time_max" \
	    "$ifmt:total_direct_kernel_time_sum" "$ifmt:total_subtree_kernel_time_sum" \
	    't:ex_UID' 't:kernel_details_summary' 't:trunc_kernel_details' $klc \
	    'Percentage (%)=pct:total_direct_kernel_time_sum' \
	    'Cumulative Percentage (%)=cum:total_direct_kernel_time_sum' \
	    >"$_ua_out"; ok
}
