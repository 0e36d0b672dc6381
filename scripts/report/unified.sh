# See LICENSE file for copyright and license details.
# stage: unified
# The rows of TraceLens's unified_perf_summary grouped, one record per
# group, in the sheet's order (Kernel Time (µs)_sum descending, ties by
# ex_UID): unified.tsv.  Every row (collected and synthetic ops) with
# its model columns and kernels (tl-perfrows), its source op's fields,
# first kernel and op category, led by its group (tl-unified: the nine
# keys name ... Concrete Inputs), sorted as bytes so that the rows of
# a group come together in TraceLens's order (collected ops by ts,
# then the synthetic ones: ex_UID is the first), and the groups
# numbered (tl-unified -g: gseq, in the groups' byte order), so that
# no program holds a table of the groups.  The nine keys then travel
# apart, once per group (unified_keys.tsv), and join the groups'
# statistics after: most of a row's bytes, and the same in every row
# of its group.  unified_fdur: 1 when some duration is not a
# whole number (pandas keeps an all-integer column integer).
# unified.facts: unified_metrics and unified_roofline, 1 when some
# group has model metrics (GFLOPS) and roofline ones; unified_rows, the
# number of groups (a group's line can be megabytes, which the shell's
# read, a byte at a time, would take seconds to skip).  With
# --comparison, unified_rows.tsv keeps the rows (UID and group) for
# kernel_map; with --include_overlap_info, the rows and
# unified_keys.tsv (gseq and the nine keys) for
# unified_perf_summary_kl_overlap.  With --detect_recompute,
# is_recompute is a tenth key, the row's source op's (tl-unified -r),
# after the nine (rc in unified_keys.tsv), and each collected op's
# kernels have their call_stack, their launch's (tl-pick -c).
# in: recompute.tsv callstack.tsv collected_ops.tsv fwd_metrics.tsv intervals.tsv walk.tsv gpuev.tsv synthetic_kernels.tsv sole_bwd_metrics.tsv synthetic_ops.tsv first_kernels.tsv ops.tsv meta.tsv
# out: unified.tsv unified_fdur unified_rows.tsv unified.facts unified_keys.tsv
# when: roofline=1 cpu_ops=1 gpu_work=1
unified() {
	# Every row, in UID order (the synthetic UIDs come last), with its
	# metrics and kernels: src UID type name has status gf dm fb tbs
	# tfs spec params bcat kt kd rt rb pr; the synthetic ops' rows
	# apart, then sorted by source op.  (The kernels, op kt kd with a
	# header: the collected ops' subtree kernels, busy time and list,
	# straight from tl-pick through a pipe, not a work file: kd in the
	# order of the kernels' launches, TraceLens's gpu_events order, by
	# which it pairs an op's kernels across calls (tl-pick -l); the
	# synthetic ones' from their file, -K.)
	csf=
	[ "$recompute" != 1 ] && [ "$callstack" != 1 ] || csf=callstack.tsv
	st tl-pick -s -b -l ${csf:+-c "$csf"} -G gpuev.tsv -W walk.tsv -u collected_ops.tsv intervals.tsv |
	st tl-perfrows -f fwd_metrics.tsv -k /dev/stdin -s sole_bwd_metrics.tsv \
	    -y synthetic_ops.tsv -o unified_syn0.tsv -K synthetic_kernels.tsv \
	    collected_ops.tsv >unified_op_rows.tsv; ok
	# (the other rows are in source op order already: src is UID)
	: >>unified_syn0.tsv
	st tl_sort -t "$TAB" -k1,1n -k2,2n unified_syn0.tsv >unified_syn.tsv; ok
	tl_drop unified_syn0.tsv
	# The rows, each led by its group (the nine keys) and a key of cls,
	# ts, UID and rn: sorted as whole lines, each group's rows come
	# together in TraceLens's order; then numbered by group (gseq), the
	# keys apart, once per group.  (No table of the groups anywhere.)
	# (--include_call_stack: call_stack_full from the kernels' stacks,
	# which kernel_details_summary then has no more, and its names
	# flattened, for tl-unified -e's entry_point)
	ks=kstats cs=
	[ "$callstack" != 1 ] || ks=kstatsnc cs=1
	rcf= kt=27
	[ "$recompute" != 1 ] || rcf=recompute.tsv kt=28
	# (-w, -R: each row's tail after its key, the kernel lists, goes to
	# unified_tails.tsv, and sort sorts the groups, keys and the tails'
	# offsets, which stay within its buffer)
	st tl-unified -d . -k first_kernels.tsv -o unified_fdur ${rcf:+-r "$rcf"} \
	    -w unified_tails.tsv -y unified_syn.tsv unified_op_rows.tsv |
	st hsort -t "$TAB" |
	if [ "$comparison" = 1 ] || [ "$kl" = 1 ]; then
		st tl-unified -g unified_keys.tsv -R unified_tails.tsv | st tee unified_rows.tsv
	else
		st tl-unified -g unified_keys.tsv -R unified_tails.tsv
	fi |
	st tl-aggregate $xflag -g gseq:n 'ex_UID=first:UID' 'operation_count=count:UID' \
	    'sum:dur' 'mean:dur' 'std:dur' 'gf=first:gf' 'dm=first:dm' 'fb=first:fb' 'spec=first:spec' 'rb=first:rb' \
	    'mean:tbs' 'std:tbs' 'mean:tfs' 'std:tfs' 'mean:kt' 'std:kt' 'sum:kt' 'median:dur' 'min:dur' 'max:dur' \
	    'median:tbs' 'min:tbs' 'max:tbs' 'median:tfs' 'min:tfs' 'max:tfs' 'rt=first:rt' \
	    'mean:pr' 'median:pr' 'std:pr' 'min:pr' 'max:pr' 'median:kt' 'min:kt' 'max:kt' \
	    "kd_kstats=$ks:kd" 'ktrunc:kd' 'params=first:params' 'has=first:has' \
	    ${cs:+'csfull=kcsfull:kd' 'csflat=kcsflat:kd'} >unified_stats.tsv; ok
	# (each group's keys after its first three columns: unified_keys.tsv's
	# groups, as Python literals, one per line of the statistics; read
	# once tl-unified -g has written the file whole)
	st awkt -v gk=unified_keys.tsv -v ff=unified.facts '
	{
		if ((getline l <gk) <= 0) { print "tl-report: unified: a group without its keys" >"/dev/stderr"; exit 1 }
		i = index(l, "\t")
		if (NR > 1 && substr(l, 1, i - 1) != $1) { print "tl-report: unified: the keys of another group" >"/dev/stderr"; exit 1 }
		n = 0
		for (k = 1; k <= 3; k++) n += index(substr($0, n + 1), "\t")
		print substr($0, 1, n) substr(l, i + 1) "\t" substr($0, n + 1)
		# (gf and rb, before the keys)
		if (NR > 1 && $7 != "") hm = 1
		if (NR > 1 && $11 != "") hr = 1
	}
	END { printf "unified_metrics=%d\nunified_roofline=%d\nunified_rows=%d\n", hm, hr, NR - 1 >ff }' unified_stats.tsv |
	st hsort -t "$TAB" -k$kt,${kt}gr -k2,2n >unified.tsv; ok
	tl_drop_later unified_op_rows.tsv unified_syn.tsv unified_stats.tsv unified_tails.tsv
	[ "$kl" = 1 ] || tl_drop unified_keys.tsv
}
