# See LICENSE file for copyright and license details.
# sheet: unified_perf_summary
# TraceLens's unified perf summary (collect_unified_perf_events and
# summarize_df_unified_perf_table): one row per group of ops, with the
# groups' duration, model and kernel statistics, by Kernel Time
# (µs)_sum.  A model or roofline column is there only when some row
# has the metric.  With --comparison, seven columns after Kernel Time
# (µs)_sum, from comparison_rows.tsv, when some row has an LCA
# (TraceLens adds none otherwise).  With --detect_recompute,
# is_recompute after Concrete Inputs (a key of the groups).
# in: unified.tsv unified_fdur unified.facts comparison_rows.tsv
# out: unified_perf_summary.csv
# when: roofline=1 cpu_ops=1 gpu_work=1
unified_perf_summary() {
	[ "${unified_rows:-0}" -gt 0 ] || return 0
	cmprows=0 cf= spec=19
	[ "$comparison" != 1 ] || ! tl_rows comparison_rows.tsv || cmprows=1 cf=comparison_rows.tsv
	# (after the tenth key, is_recompute)
	[ "$recompute" != 1 ] || spec=20
	# Each row with its comparison fields (by row number), and the empty
	# spec of a model that ran (the byte 001, which the grouping took
	# for a value, as pandas takes "") empty.
	st awkt '
	function cnext() {
		if ((getline cl <cf) > 0) { split(cl, cv, "\t"); cn = cv[1] + 0 } else cn = -1
	}
	NR == 1 {
		if (cf != "") { getline cl <cf; cnext() }
		print $0, "lca_id", "lca_name", "t1", "t1nz", "t2", "n2"
		next
	}
	{
		if ($spec == "\001") $spec = ""
		while (cn != -1 && cn < NR - 1) cnext()
		if (cn == NR - 1) print $0, cv[2], cv[3], cv[4], (cv[4] + 0 == 0 ? "" : cv[4]), cv[5], cv[6]
		else print $0, "", "", "", "", "", ""
	}' cf="$cf" spec=$spec unified.tsv |
	if [ "$callstack" = 1 ]; then
		st tl-unified -e | unified_sheet "$R/unified_perf_summary.csv"
	else
		unified_sheet "$R/unified_perf_summary.csv"
	fi
}

# unified_sheet OUT [kl]: the groups on stdin (unified.tsv's fields)
# laid out as unified_perf_summary (to OUT); the seven comparison
# columns when cmprows is 1.  With kl, as its _kl_overlap: the names
# (okn) after name, and after trunc_kernel_details the summaries of the
# details (okd_kstats, okd_ktrunc) and overlap_pct's statistics (op_mean
# ... op_max), rounded to 2 places (a std that is NaN, of one op, 0.0).
unified_sheet() {
	_us_out=$1 _us_kl=${2:-}
	hasm=$unified_metrics hasr=$unified_roofline
	# pandas keeps an all-integer duration column integer
	# (and its min and max as they are)
	read -r fdur <unified_fdur
	if [ "$fdur" = 1 ]; then d=f m=f; else d=i m=t; fi
	set -- 't:name'
	[ -z "$_us_kl" ] || set -- "$@" 'overlapping_kernel_names=t:okn'
	rc=
	[ "$recompute" != 1 ] || rc=is_recompute=t:rc
	set -- "$@" 'op category=t:cat' 'process_name=t:pn' 'process_label=t:pl' \
	    'thread_name=t:tn' 'Input Dims=t:d' 'Input type=t:t' 'Input Strides=t:s' \
	    'Concrete Inputs=t:c' $rc 't:ex_UID' 't:operation_count' "total_duration_us=$d:dur_sum" \
	    'mean_duration_us=f:dur_mean' 'std_duration_us=f:dur_std'
	[ "$hasm" = 0 ] || set -- "$@" 'GFLOPS=f:gf' 'Data Moved (MB)=f:dm' 'FLOPS/Byte=f:fb' \
	    'Compute Spec=t:spec'
	[ "$hasr" = 0 ] || set -- "$@" 'Roofline Bound=t:rb'
	[ "$hasm" = 0 ] || set -- "$@" 'TB/s_mean=f:tbs_mean' 'TB/s_std=f:tbs_std' \
	    'TFLOPS/s_mean=f:tfs_mean' 'TFLOPS/s_std=f:tfs_std'
	set -- "$@" 'Kernel Time (µs)_mean=f:kt_mean' 'Kernel Time (µs)_std=f:kt_std' \
	    "Kernel Time (µs)_sum=$ifmt:kt_sum"
	[ "$cmprows" = 0 ] || set -- "$@" 'speedup (trace2/trace1)=f:t2/t1nz' \
	    'delta_us (trace2 - trace1)=f:t2-kt_sum' 'lca_count_trace2=f:n2' 't:lca_id' \
	    't:lca_name' 'lca_total_kernel_time_trace1_us=f:t1' 'lca_total_kernel_time_trace2_us=f:t2'
	set -- "$@" 'duration_us_median=f:dur_median' "duration_us_min=$m:dur_min" \
	    "duration_us_max=$m:dur_max"
	[ "$hasm" = 0 ] || set -- "$@" 'TB/s_median=f:tbs_median' 'TB/s_min=f:tbs_min' \
	    'TB/s_max=f:tbs_max' 'TFLOPS/s_median=f:tfs_median' 'TFLOPS/s_min=f:tfs_min' \
	    'TFLOPS/s_max=f:tfs_max'
	[ "$hasr" = 0 ] || set -- "$@" 'Roofline Time (µs)_first=f:rt' 'Pct Roofline_mean=f:pr_mean' \
	    'Pct Roofline_median=f:pr_median' 'Pct Roofline_std=f:pr_std' \
	    'Pct Roofline_min=f:pr_min' 'Pct Roofline_max=f:pr_max'
	set -- "$@" 'Kernel Time (µs)_median=f:kt_median' "Kernel Time (µs)_min=$ifmt:kt_min" \
	    "Kernel Time (µs)_max=$ifmt:kt_max" 'kernel_details_summary=t:kd_kstats' \
	    'trunc_kernel_details=t:kd_ktrunc'
	[ -z "$_us_kl" ] || set -- "$@" 'overlapping_kernels_details_summary=t:okd_kstats' \
	    'trunc_overlapping_kernels_details=t:okd_ktrunc' 'overlap_pct_mean=r2:op_mean' \
	    'overlap_pct_median=r2:op_median' 'overlap_pct_std=r2:op_std' \
	    'overlap_pct_min=r2:op_min' 'overlap_pct_max=r2:op_max'
	set -- "$@" 'perf_params=t:params' 'has_perf_model=t:has'
	[ "$callstack" != 1 ] || [ -n "$_us_kl" ] ||
		set -- "$@" 'entry_point=t:entry_point' 'call_stack_full=t:csfull'
	set -- "$@" 'Percentage (%)=pct:kt_sum' 'Cumulative Percentage (%)=cum:kt_sum'
	st tl-sheet "$@" >"$_us_out"; ok
}
