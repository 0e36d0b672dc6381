# See LICENSE file for copyright and license details.
# stage: perf_fwd
# The forward model of every modelled op: its subtree kernels (busy
# time and list, tl-pick -s -b), then tl-roofline: the perf
# sheets' rows (perf_rows.tsv) and every op's model columns
# (fwd_metrics.tsv, for unified_perf_summary).
# in: modelled_ops.tsv modelled_built.tsv intervals.tsv walk.tsv gpuev.tsv meta.tsv annotations.tsv modelled.facts
# out: perf_rows.tsv fwd_metrics.tsv
# when: roofline=1 cpu_ops=1 gpu_work=1
perf_fwd() {
	perf_convfwd
	perf_fwdkeys
	# (the kernels go to perf_model through a pipe, not a file)
	st tl-pick -s -b -G gpuev.tsv -W walk.tsv $fwdkeys intervals.tsv |
	perf_model modelled_ops.tsv /dev/stdin F fwd_metrics.tsv fwd_args.tsv >perf_rows.tsv; ok
	tl_drop fwd_args.tsv fwd_keys.tsv
}

# perf_fwdkeys: fwdkeys, tl-pick's keys option: the ops whose kernels
# the models can use (-u modelled_built.tsv, or -k fwd_keys.tsv, op TAB
# op, by op).  Those whose model builds from their args alone
# (modelled_built.tsv, tl-roofline -m --built), and those whose
# model reads more than their args: an annotation (annotations.tsv) or
# its forward op's args (fwd_args.tsv).  Kernel names only ever add a
# failure (a GEMM's transpose), and the rows of the ops that fail take
# nothing of their kernels (unified_perf_summary has its own), so the
# others' kernel lists, which N nested ops make N lists of up to N
# kernels, are never made.
perf_fwdkeys() {
	# (most traces: no annotation and no forward args, and
	# modelled_built.tsv is in UID order, each op once, as tl-roofline
	# read ops.tsv: no sort, and tl-pick -u reads it as keys; tl-pick
	# checks the order)
	fwdkeys='-u modelled_built.tsv'
	[ ! -s annotations.tsv ] && ! tl_rows fwd_args.tsv && return 0
	fwdkeys='-k fwd_keys.tsv'
	# (op TAB op lines, sorted by and unique in their first field)
	st awkt 'FILENAME == fa && FNR == 1 { next } { print $1 + 0, $1 + 0 }' \
	    fa=fwd_args.tsv modelled_built.tsv annotations.tsv fwd_args.tsv |
	st tl_sort -t "$TAB" -k1,1n -u >fwd_keys.tsv; ok
}

# perf_convfwd: fwd_args.tsv (header UID Input Dims Input type Input
# Strides Concrete Inputs sheet, by UID): for each ConvBias_Backward and
# ConvBiasReLU_Backward op, the args of the op whose params TraceLens's
# model takes: the ConvBias_ (ConvBiasReLU_) op of the same Sequence
# number with the greatest UID below its own whose model builds (its
# fwd_pass_cache, filled as its CONV sheet reads the ops in trace
# order), sheet 1; with none, the greatest UID of all, sheet 0 (its
# unified_perf_summary, built after the sheets, finds that one in the
# cache; its sheet none).  Memory: sort's buffer, and the backward ops
# of one number before its first forward op.  Empty, and nearly free,
# when there is no such backward op.
perf_convfwd() {
	: >fwd_args.tsv
	[ "$modelled_bwd" = 1 ] || return 0
	# the candidate forward ops (tl-roofline records) to convfwd.tsv;
	# class seq UID of the backward ops on stdout
	st awkt '
	NR == 1 {
		for (i = 1; i <= NF; i++) col[$i] = i
		print "UID", "name", "Sequence number", "Input Dims", "Input type",
		    "Input Strides", "Concrete Inputs" >fw
		next
	}
	$col["Sequence number"] == "" { next }
	$col["name"] ~ /^ConvBias(ReLU)?_$/ {
		print $col["UID"], $col["name"], $col["Sequence number"], $col["Input Dims"],
		    $col["Input type"], $col["Input Strides"], $col["Concrete Inputs"] >fw
	}
	$col["name"] ~ /^ConvBias(ReLU)?_Backward$/ {
		print substr($col["name"], 1, length($col["name"]) - 8),
		    $col["Sequence number"], $col["UID"], 1
	}' fw=convfwd.tsv modelled_ops.tsv >convbwd.tsv; ok
	if [ -s convbwd.tsv ]; then
		# (the forward ops' own notices come with the sheet's run)
		{ st tl-roofline convfwd.tsv 2>convfwd.err |
		  st awkt 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		  $col["model_status"] == "ok" { print $2, $3, $1, 0, $4, $5, $6, $7 }'
		  cat convbwd.tsv; } |
		st tl_sort -t "$TAB" -k1,1 -k2,2 -k3,3n |
		st awkt '
		BEGIN { print "UID", "Input Dims", "Input type", "Input Strides", "Concrete Inputs", "sheet" }
		$1 != c || $2 != s { late(); c = $1; s = $2; a = ""; np = 0 }
		$4 == 0 { a = $5 "\t" $6 "\t" $7 "\t" $8; next }
		a != "" { print $3, a, 1; next }
		{ P[++np] = $3 }
		END { late() }
		# the backward ops before every forward op of their number: by
		# unified_perf_summary the cache holds the last of them
		function late(   i) { if (a != "") for (i = 1; i <= np; i++) print P[i], a, 0 }' |
		hsort -t "$TAB" -k1,1n >fwd_args.tsv || echo "sort: failed" >>"$TL_FAIL"
		[ ! -s "$TL_FAIL" ] || { cat convfwd.err >&2; exit 1; }
	fi
	tl_drop convfwd.tsv convbwd.tsv convfwd.err
}
