# See LICENSE file for copyright and license details.
# sheet: perf_sheets
# TraceLens's perf-model sheets, one per sheet category of the models
# (common/models/table.c): GEMM, UnaryElementwise, BinaryElementwise and
# Normalization have one sheet, every other category a forward and a
# backward one (a sheet only when some op has its model).  The model
# rows (perf_fwd's and perf_bwd's) grouped by (table, name, params):
# TraceLens groups on str() of each param, which the params literal
# determines; then laid out by tl-perfsheet(1).  With
# --group-by-num-kernels, by num_kernels too (the number of the op's
# kernels), which tl-perfsheet then writes after the params; with
# --detect_recompute by is_recompute too (the op's: rc_mark), after
# those.
# in: perf_rows.tsv perf_rows_bwd.tsv recompute.tsv
# out: GEMM.csv UnaryElementwise.csv BinaryElementwise.csv Normalization.csv
# out: SDPA_fwd.csv SDPA_bwd.csv CONV_fwd.csv CONV_bwd.csv Reduce_fwd.csv Reduce_bwd.csv
# out: RMSNorm_fwd.csv RMSNorm_bwd.csv GroupQuant_fwd.csv GroupQuant_bwd.csv
# out: GroupedGEMM_fwd.csv GroupedGEMM_bwd.csv MoE_comm_fwd.csv MoE_comm_bwd.csv
# out: SSM_fwd.csv SSM_bwd.csv RoPE_fwd.csv RoPE_bwd.csv
# out: CrossEntropy_fwd.csv CrossEntropy_bwd.csv MoE_fused_fwd.csv MoE_fused_bwd.csv
# out: MoE_unfused_fwd.csv MoE_unfused_bwd.csv MoE_aux_fwd.csv MoE_aux_bwd.csv
# out: elementwise_fwd.csv elementwise_bwd.csv FusedRoPE_fwd.csv FusedRoPE_bwd.csv
# out: CustomCollective_fwd.csv CustomCollective_bwd.csv mHC_fwd.csv mHC_bwd.csv
# out: InferenceAttention_fwd.csv InferenceAttention_bwd.csv
# when: roofline=1 cpu_ops=1 gpu_work=1
perf_sheets() {
	# (the two files as one, one header; with --detect_recompute their
	# UIDs ascending as one, for rc_mark's merge.  perf_bwd leaves its
	# file empty when no op has backward events: then no awk)
	if [ "$recompute" = 1 ]; then
		awk 'FNR > 1 || NR == 1' perf_rows.tsv perf_rows_bwd.tsv |
		st hsort -t "$TAB" -k2,2n | st rc_mark UID | perf_groups >perf_groups.tsv; ok
	elif [ ! -s perf_rows_bwd.tsv ]; then
		perf_groups '' perf_rows.tsv >perf_groups.tsv; ok
	else
		awk 'FNR > 1 || NR == 1' perf_rows.tsv perf_rows_bwd.tsv | perf_groups >perf_groups.tsv; ok
	fi

	# the tables laid out as sheets (tl-perfsheet(1))
	st tl-perfsheet -d "$R" perf_groups.tsv; ok
	tl_drop perf_groups.tsv
}

# perf_groups [kl [FILE]]: the model rows on stdin (or in FILE: then
# sort sorts the hashes and the rows' offsets, and the rows are read
# again there, -O and -R) grouped, by UID_first, on stdout, as tl-perfsheet(1) reads them (with --detect_recompute, rows
# with rc_mark's is_recompute, a key); with kl, rows with kl_join's
# fields too, the names (okn) a key, their details' summaries
# (okd_kstats, okd_ktrunc) and the statistics of overlap_pct (op_mean
# ... op_max) after, for tl-perfsheet -k.
perf_groups() {
	_pg_in=${2:-}
	keys=kind,sheet,name,params u=5
	kla=
	if [ -n "${1:-}" ]; then
		keys=$keys,okn u=6
		kla='okd_kstats=kstats:okd okd_ktrunc=ktrunc:okd op_mean=mean:opct op_median=median:opct op_std=std:opct op_min=min:opct op_max=max:opct'
	fi
	[ "$gbnk" != 1 ] || keys=$keys,num_kernels u=$((u + 1))
	[ "$recompute" != 1 ] || keys=$keys,is_recompute u=$((u + 1))
	if [ -n "$arch" ]; then
		set -- 'rt_first=first:Roofline Time (µs)' 'rb_first=first:Roofline Bound' \
		    'pr_mean=mean:Pct Roofline' 'pr_median=median:Pct Roofline' 'pr_std=std:Pct Roofline' \
		    'pr_min=min:Pct Roofline' 'pr_max=max:Pct Roofline'
	else
		set --
	fi
	# (grouped by a hash of the keys: the groups are ordered by UID_first after)
	st tl-aggregate ${_pg_in:+-O} -g "$keys" -K UID:n <"${_pg_in:-/dev/stdin}" |
	st hsort |
	st tl-aggregate $xflag -H ${_pg_in:+-R "$_pg_in"} -g "$keys" 'UID_first=first:UID' \
	    'gf=first:GFLOPS' 'dm=first:Data Moved (MB)' 'fb=first:FLOPS/Byte' \
	    'tbs_mean=mean:TB/s' 'tbs_median=median:TB/s' 'tbs_std=std:TB/s' 'tbs_min=min:TB/s' 'tbs_max=max:TB/s' \
	    'tfs_mean=mean:TFLOPS/s' 'tfs_median=median:TFLOPS/s' 'tfs_std=std:TFLOPS/s' \
	    'tfs_min=min:TFLOPS/s' 'tfs_max=max:TFLOPS/s' \
	    'pn_first=first:process_name' 'pl_first=first:process_label' 'tn_first=first:thread_name' \
	    'spec_first=head:Compute Spec' "$@" \
	    'kd_kstats=kstats:kernel_names' 'kd_ktrunc=ktrunc:kernel_names' $kla \
	    'dims_first=first:Input Dims' 'types_first=first:Input type' \
	    'strides_first=first:Input Strides' 'conc_first=first:Concrete Inputs' \
	    'kt_mean=mean:Kernel Time (µs)' 'kt_median=median:Kernel Time (µs)' 'kt_std=std:Kernel Time (µs)' \
	    'kt_min=min:Kernel Time (µs)' 'kt_max=max:Kernel Time (µs)' 'kt_sum=sum:Kernel Time (µs)' \
	    'UID_count=count:UID' |
	st hsort -t "$TAB" -k$u,${u}n
}

