# See LICENSE file for copyright and license details.
# sheet: unified_perf_summary_kl_overlap
# TraceLens's unified_perf_summary with --include_overlap_info.  Each
# row's overlap info is its op's as a launcher (op_overlap) when that
# names some kernel, else that of the kernels of its subtree
# (TraceLens's gpu_events: launched ones, communication kernels too,
# in launch order; a synthetic op's one kernel, or its parent's info as
# a launcher, which it copies), by tl-opoverlap over the lists of
# overlap.tsv: unified_sub_overlap.tsv, then uid_overlap.tsv (UID okn
# okd opct, in UID order).  The rows (unified_rows.tsv, in their
# groups' order) with it, grouped by gseq and the names (stable: each
# group's rows in TraceLens's order), with the keys of their gseq
# (unified_keys.tsv); the groups by the total Kernel Time and least
# ex_UID of their gseq, then their own total and ex_UID (TraceLens's
# grouped order), laid out as unified_perf_summary (unified_sheet),
# without the comparison columns.
# in: unified_rows.tsv unified_keys.tsv unified_fdur unified.facts op_overlap.tsv
# in: overlap.tsv gpu.tsv intervals.tsv walk.tsv collected_ops.tsv synthetic_ops.tsv
# out: unified_perf_summary_kl_overlap.csv
# when: kl=1 roofline=1 cpu_ops=1 gpu_work=1
unified_perf_summary_kl_overlap() {
	[ "${unified_rows:-0}" -gt 0 ] || return 0
	# Each op's kernels (k 0: UID, ts, dur, launch) and, after each,
	# its list, by op, launch, kernel and k: the GPU events first, then
	# the ops' kernels, then the lists, by kernel, each kernel's record
	# then its list written for each op that holds it.
	{
		printf 'g\tt\tk\ta\tb\tc\td\te\n'
		st awkt 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["linked"] == 1 { print $c["UID"], 0, 0, $c["ts"], $c["dur"], $c["runtime"] }' gpu.tsv &&
		st tl-pick -s -W walk.tsv -u collected_ops.tsv intervals.tsv |
		    st awkt '{ print $6, 1, $1 }' &&
		st awkt '{ print $8, 1, $1 }' synthetic_ops.tsv &&
		st awkt 'NR > 1 { print $1, 2, $2, $4, $5, $6, $7, $8 }' overlap.tsv
	} | st hsort -t "$TAB" -k1,1n -k2,2n -k3,3n |
	st awkt 'NR == 1 { print "launcher", "rt", "UID", "k", "ts", "end", "dur", "stream", "name"; next }
	$1 != g { g = $1; n = 0; ts = ""; dur = ""; rt = "" }
	$2 == 0 { ts = $4; dur = $5; rt = $6; next }
	$2 == 1 { op[++n] = $3; print $3, rt, g, 0, ts, "", dur, "", ""; next }
	{ for (i = 1; i <= n; i++) print op[i], rt, g, $3, $4, $5, $6, $7, $8 }' |
	st hsort -t "$TAB" -k1,1n -k2,2n -k3,3n -k4,4n |
	st tl-opoverlap >unified_sub_overlap.tsv; ok
	# A synthetic op's parent's info as a launcher, by synthetic UID.
	{ printf 'UID\tS\n'; st tl_sort -t "$TAB" -k2,2n synthetic_ops.tsv | st awkt '{ print $2, $1 }'; } |
	st kl_join 1 | st awkt 'NR > 1 && $3 != "" { print $2, $3, $4, $5 }' |
	st tl_sort -t "$TAB" -k1,1n >unified_syn_overlap.tsv; ok
	# Each op's: as a launcher, as a synthetic op's parent, or its own.
	st kl_join 1 <unified_sub_overlap.tsv |
	st awkt 'function snext() {
		if ((getline l <"unified_syn_overlap.tsv") > 0) { split(l, sv, "\t"); sk = sv[1] + 0 }
		else seof = 1
	}
	NR == 1 { snext(); print "UID", "okn", "okd", "opct"; next }
	{
		while (!seof && sk < $1 + 0) snext()
		if ($5 != "") print $1, $5, $6, $7
		else if (!seof && sk == $1 + 0) print $1, sv[2], sv[3], sv[4]
		else print $1, $2, $3, $4
	}' >uid_overlap.tsv; ok
	rm -f unified_sub_overlap.tsv unified_syn_overlap.tsv
	# The rows with their op's (by UID, then back in their order), the
	# names after gseq, grouped; each group's keys after its first two
	# columns (unified_keys.tsv is by gseq); then the sort keys first:
	# the gseq's total Kernel Time and least ex_UID, the group's own.
	st awkt 'NR == 1 { print $0, "row"; next } { print $0, NR }' unified_rows.tsv |
	st hsort -t "$TAB" -k5,5n | st kl_join 5 uid_overlap.tsv |
	st awkt 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
	{
		o = $1 "\t" $(c["okn"]) "\t" $(c["row"])
		for (i = 2; i < c["row"]; i++) o = o "\t" $i
		print o, $(c["okd"]), $(c["opct"])
	}' |
	st hsort -t "$TAB" -k1,1n -k2,2 -k3,3n |
	st tl-aggregate $xflag -g gseq:n,okn 'ex_UID=first:UID' 'operation_count=count:UID' \
	    'sum:dur' 'mean:dur' 'std:dur' 'gf=first:gf' 'dm=first:dm' 'fb=first:fb' 'spec=first:spec' 'rb=first:rb' \
	    'mean:tbs' 'std:tbs' 'mean:tfs' 'std:tfs' 'mean:kt' 'std:kt' 'sum:kt' 'median:dur' 'min:dur' 'max:dur' \
	    'median:tbs' 'min:tbs' 'max:tbs' 'median:tfs' 'min:tfs' 'max:tfs' 'rt=first:rt' \
	    'mean:pr' 'median:pr' 'std:pr' 'min:pr' 'max:pr' 'median:kt' 'min:kt' 'max:kt' \
	    'kstats:kd' 'ktrunc:kd' 'params=first:params' 'has=first:has' \
	    'okd_kstats=kstats:okd' 'okd_ktrunc=ktrunc:okd' 'op_mean=mean:opct' 'op_median=median:opct' \
	    'op_std=std:opct' 'op_min=min:opct' 'op_max=max:opct' |
	st awkt -v gk=unified_keys.tsv '
	function flush(   i) {
		# (%.17g: the sum as a double, not six digits as OFMT)
		for (i = 1; i <= nb; i++) printf "%.17g\t%s\t%s\n", gt, gu, buf[i]
		nb = 0
	}
	NR == 1 {
		for (i = 1; i <= NF; i++) c[$i] = i
		getline kl <gk
		print "gt", "gu", "gseq", substr(kl, index(kl, "\t") + 1), substr($0, index($0, "\t") + 1)
		next
	}
	{
		if ($(c["spec"]) == "\001") $(c["spec"]) = ""
		# (the std of one op, NaN, is 0.0 where there is a mean)
		if ($(c["op_std"]) == "" && $(c["op_mean"]) != "") $(c["op_std"]) = 0
		if ($1 != kg) {
			flush()
			while ((getline kl <gk) > 0 && (kg = substr(kl, 1, index(kl, "\t") - 1)) != $1)
				;
			if (kg != $1) { print "tl-report: unified_perf_summary_kl_overlap: a group without its keys" >"/dev/stderr"; exit 1 }
			gt = 0; gu = $(c["ex_UID"])
		}
		gt += $(c["kt_sum"])
		if ($(c["ex_UID"]) + 0 < gu + 0) gu = $(c["ex_UID"])
		buf[++nb] = $1 "\t" substr(kl, index(kl, "\t") + 1) "\t" substr($0, index($0, "\t") + 1)
	}
	END { flush() }' |
	st awkt 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print "kt", "ex", $0; next }
	{ print $(c["kt_sum"]), $(c["ex_UID"]), $0 }' |
	st hsort -t "$TAB" -k3,3gr -k4,4n -k1,1gr -k2,2n |
	{ cmprows=0; unified_sheet "$R/unified_perf_summary_kl_overlap.csv" kl; }
	rm -f uid_overlap.tsv
}
