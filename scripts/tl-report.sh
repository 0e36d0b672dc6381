#!/bin/sh
# See LICENSE file for copyright and license details.
#
# tl-report: TraceLens's perf report (one CSV per sheet, and/or a
# workbook) from a PyTorch profiler trace, or its rocprof report from
# rocprofv3 results.  See tl-report(1).
#
# This script reads the options, prepares the places and runs the
# report's engine: the stages and sheets of scripts/report (one file
# each, a stage's functions in tl-report.d/STAGE), scheduled by the
# Makefile made from them and from scripts/report/schedule
# (tl-report.mk, and its settings for this script, tl-report.vars),
# run by GNU make in the work directory; for rocprofv3 results, those
# of scripts/report/rocprof (tl-report-rocprof.mk, .vars and .d), chosen by
# the trace's content.  How they fit: tl-internals(7).
# The workbook is written from the report's CSV files at the end
# (tl-xlsx(1)), its sheets in TraceLens's order (the schedule's book
# lines, TL_REPORT_BOOK), then tl's own.
set -u
case $0 in */*) . "${0%/*}/tl-lib.sh" ;; *) . tl-lib.sh ;; esac
case $0 in */*) . "${0%/*}/tl-lib-book.sh" ;; *) . tl-lib-book.sh ;; esac
tl_init tl-report 8M

usage() {
	cat <<EOF
usage: tl-report [--force] [--quiet] [--exact-time] [--legacy-flows]
                 [--short-kernel-study]
                 [--short-kernel-threshold-us N] [--short-kernel-histogram-bins N]
                 [--topk-short-kernels N] [--micro-idle-thresh-us N]
                 [--include-unlinked-kernels] [--no-coll-analysis]
                 [--no-kernel-summary] [--gpu-arch NAME|FILE]
                 [--kernel-details] [--topk-kernels N]
                 [--include-first-occurrence-time] [--group-by-num-kernels]
                 [--comparison TRACE2] [--output-xlsx FILE] TRACE [OUT_DIR]
EOF
	exit "$1"
}
# pseudo_ops TRACE: what in TRACE TraceLens's pseudo-op extensions
# (--enable_pseudo_ops: Trace2Tree/extensions/pseudo_ops_registry.py)
# act on, or nothing: the names they look for, by the same conditions
# (a few of them looser: any event, any case).
pseudo_ops() {
	_po=$(tl-parse -f name -- "$1" 2>/dev/null | grep -i -E \
	    '^(sglang_profiler::.*_[0-9]+|vllm::(moe_forward|rocm_aiter_fused_moe|outplace_fused_experts)|aiter::(fused_moe_|mla_decode_stage1_asm_fwd|mla_prefill_ps_asm_fwd|paged_attention_v1)|_rocm_C::paged_attention)$|matmul_ogs|fused_moe_kernel_gptq_awq|mla\.py\([0-9]+\): *mla_decode_fwd|: *mla_fp8_prefill_attn|paged_decode\.py\([0-9]+\): *sparse_attn_v4_paged_decode' |
	    sort -u)
	[ -n "$_po" ] || return 0
	_po_has() { printf '%s\n' "$_po" | grep -q -E "$@"; }
	if _po_has '^sglang_profiler::'; then
		echo "sglang_profiler:: ops"
	elif _po_has '^vllm::moe_forward$' &&
	    { _po_has '^vllm::rocm_aiter_fused_moe$' || _po_has -i matmul_ogs; }; then
		echo "vllm::moe_forward with rocm_aiter_fused_moe or matmul_ogs"
	elif _po_has '^vllm::outplace_fused_experts$' && _po_has fused_moe_kernel_gptq_awq; then
		echo "vllm::outplace_fused_experts (GPTQ/AWQ MoE)"
	elif _po_has '^aiter::fused_moe_$'; then
		echo "aiter::fused_moe_"
	elif _po_has '^aiter::mla_decode_stage1_asm_fwd$' &&
	    _po_has 'aiter/mla\.py\([0-9]+\): mla_decode_fwd'; then
		echo "aiter::mla_decode_stage1_asm_fwd (MLA decode)"
	elif _po_has '^aiter::mla_prefill_ps_asm_fwd$' &&
	    _po_has ':[[:space:]]*mla_fp8_prefill_attn([^[:alnum:]_]|$)'; then
		echo "aiter::mla_prefill_ps_asm_fwd (MLA prefill)"
	elif _po_has 'paged_decode\.py\([0-9]+\):[[:space:]]*sparse_attn_v4_paged_decode'; then
		echo "sparse_attn_v4_paged_decode (paged decode)"
	elif _po_has '^_rocm_C::paged_attention$'; then
		echo "_rocm_C::paged_attention"
	elif _po_has '^aiter::paged_attention_v1$'; then
		echo "aiter::paged_attention_v1"
	fi
}
# refuse WHY: an option of TraceLens's that tl cannot honour stops the
# run (exit 2, one line naming the option as given), rather than give
# a report that differs from TraceLens's without saying so.
refuse() {
	note "$optname: $*"
	exit 2
}

# isrocprof FILE: FILE holds rocprofv3 results, told by its first key as
# tl-parse tells it (tl_top: tl-meta -t, which reads only the first
# bytes; a trace it cannot read is taken for a PyTorch trace, whose tree
# stage then says why).
isrocprof() {
	tl_top "$1"
	[ "$TL_TOP" = rocprofv3 ]
}

# ---- options (TraceLens's snake_case names are aliases) ----
force=0 quiet=0 xflag= flows= short=0 thresh=10 bins=100 topk= micro= unlinked=0 coll=1 ksum=1
kdetails=0 ktopk= binsopt= origami=0 pypath=0 fot=0 gbnk=0 pseudo= icache= icdir= kl=0 recompute=0 callstack=0
trace= out= cmp= xlsx= arch=${TL_GPU_ARCH:-}
archopt= archname=
# Called by TraceLens's name (make install-tracelens-names), its
# defaults: no kernel_summary unless asked (its rocprof report: on),
# a workbook replaced, an --output_csvs_dir written into (TL_MERGE).
tlrp=0
case ${0##*/} in
TraceLens_generate_perf_report_rocprof) force=1 tlrp=1 TL_MERGE=1 ;;
TraceLens_*) ksum=0 force=1 TL_MERGE=1 ;;
esac
# TraceLens's option names, of its PyTorch report and of its rocprof
# report, and tl's own: the former may be cut to a unique prefix, as
# argparse allows (--output_csvs d), among the options of the report
# the input selects (its content, or TraceLens's program name).
ptnames='--profile-json-path --output-xlsx-path --output-csvs-dir
--include-unlinked-kernels --micro-idle-thresh-us --disable-coll-analysis
--enable-kernel-summary --short-kernel-study --short-kernel-threshold-us
--short-kernel-histogram-bins --topk-short-kernels --enable-pseudo-ops
--topk-ops --topk-roofline-ops --comparison-json-path --extension-file
--python-path --gpu-arch-json-path --gpu-arch-platform --group-by-num-kernels
--enable-origami --inductor-cache-dir --include-overlap-info
--detect-recompute --include-first-occurrence-time --include-call-stack --help'
rpnames='--profile-json-path --output-xlsx-path --output-csvs-dir
--short-kernel-study --short-kernel-threshold-us --short-kernel-histogram-bins
--disable-kernel-summary --kernel-details --topk-kernels --help'
tlown='--version --force --quiet --exact-time --legacy-flows --tracelens-compat
--no-coll-analysis --no-kernel-summary --gpu-arch --output-xlsx --comparison'
# the options that take a value (either report's, and tl's)
tlvalued='--profile-json-path --output-xlsx-path --output-csvs-dir
--micro-idle-thresh-us --short-kernel-threshold-us --short-kernel-histogram-bins
--topk-short-kernels --topk-ops --topk-roofline-ops --comparison-json-path
--extension-file --python-path --gpu-arch-json-path --gpu-arch-platform
--inductor-cache-dir --topk-kernels --gpu-arch --output-xlsx --comparison'
# findtrace ARG...: the trace the arguments name (--profile_json_path or
# the first operand), read before the options are: their prefixes are
# matched among both reports' (a prefix of several options that all
# take a value, or none, is skipped as they are); empty when it cannot
# tell.
findtrace() {
	_ft_t=
	while tl_opt "$@"; do
		case " $(echo $tlown) " in
		*" $opt "*) ;;
		*)	if ! tl_abbrev $tlnames; then
				case " $(echo $tlvalued) " in
				*" ${TL_ABBREV%% *} "*) _ft_v=1 ;;
				*) _ft_v=0 ;;
				esac
				for _ft_o in $TL_ABBREV; do
					case " $(echo $tlvalued) " in
					*" $_ft_o "*) [ "$_ft_v" = 1 ] || return 0 ;;
					*) [ "$_ft_v" = 0 ] || return 0 ;;
					esac
				done
				opt=${TL_ABBREV%% *}
			fi ;;
		esac
		case " $(echo $tlvalued) " in
		*" $opt "*)
			[ "$_tl_hasinline" = 1 ] || [ $# -ge 2 ] || return 0
			[ "$_tl_hasinline" = 1 ] || optn=2
			if [ "$opt" = --profile-json-path ]; then
				if [ "$_tl_hasinline" = 1 ]; then _ft_t=$_tl_inline; else _ft_t=$2; fi
			fi ;;
		esac
		shift "$optn"
	done
	shift "$optn"
	[ -n "$_ft_t" ] || [ $# -eq 0 ] || _ft_t=$1
	printf '%s\n' "$_ft_t"
}
# (both reports' names, each once: while the input is not known)
tlnames=
for n in $ptnames $rpnames; do
	case " $tlnames " in *" $n "*) ;; *) tlnames="$tlnames $n" ;; esac
done
case $tlrp:${0##*/} in
1:*) tlnames=$rpnames ;;
*:TraceLens_*) tlnames=$ptnames ;;
*)	# (a trace that is no file, a pipe, is not read twice)
	t=$(findtrace "$@")
	if [ -f "$t" ]; then
		if isrocprof "$t"; then tlnames=$rpnames; else tlnames=$ptnames; fi
	fi ;;
esac
while tl_opt "$@"; do
	optname=${1%%=*}
	# (tl's own are taken whole: --gpu-arch is no prefix here)
	case " $(echo $tlown) " in
	*" $opt "*) ;;
	*)	tl_abbrev $tlnames || usage_die "ambiguous option: $optname" \
		    "could match $(echo "$TL_ABBREV" | sed 's/ /, /g')" ;;
	esac
	case $opt in
	--help | -h) tl_noarg; usage 0 ;;
	--version) tl_noarg; echo "tl-report @VERSION@"; exit 0 ;;
	--force) tl_noarg; force=1 ;;
	--quiet) tl_noarg; quiet=1 ;;
	--exact-time) tl_noarg; xflag=-x ;;
	--legacy-flows) tl_noarg; flows=--legacy-flows ;;
	--tracelens-compat) tl_noarg; flows= ;;
	--short-kernel-study) tl_noarg; short=1 ;;
	--short-kernel-threshold-us) tl_arg sint "$@"; thresh=$optarg ;;
	--short-kernel-histogram-bins) tl_arg sint "$@"; bins=$optarg binsopt=$opt ;;
	--topk-short-kernels) tl_arg sint "$@"; topk=$optarg ;;
	--micro-idle-thresh-us) tl_arg sint "$@"; micro=$optarg ;;
	--include-unlinked-kernels) tl_noarg; unlinked=1 ;;
	--no-coll-analysis | --disable-coll-analysis) tl_noarg; coll=0 ;;
	--enable-kernel-summary) tl_noarg; ksum=1 ;;
	--no-kernel-summary | --disable-kernel-summary) tl_noarg; ksum=0 ;;
	--kernel-details) tl_noarg; kdetails=1 ;;
	--topk-kernels) tl_arg sint "$@"; ktopk=$optarg ;;
	--include-first-occurrence-time) tl_noarg; fot=1 ;;
	--group-by-num-kernels) tl_noarg; gbnk=1 ;;
	--profile-json-path) tl_arg "$@"; trace=$optarg ;;
	--output-csvs-dir) tl_arg "$@"; out=$optarg ;;
	--output-xlsx-path | --output-xlsx) tl_arg "$@"; xlsx=$optarg ;;
	--gpu-arch | --gpu-arch-json-path | --gpu-arch-platform)
		# (TraceLens's two are exclusive: its argparse group refuses both)
		case $opt:$archopt in
		--gpu-arch-json-path:--gpu-arch-platform | --gpu-arch-platform:--gpu-arch-json-path)
			usage_die "$optname: not allowed with ${archname}" ;;
		--gpu-arch-*) archopt=$opt archname=$optname ;;
		esac
		tl_arg "$@"; arch=$optarg ;;
	--topk-ops | --topk-roofline-ops) tl_arg sint "$@" ;;	# no-ops in TraceLens too (but int)
	--comparison | --comparison-json-path) tl_arg "$@"; cmp=$optarg ;;
	# TraceLens's, which tl does not do (see tl-report(1)); the three
	# that change nothing on most traces are checked below.
	--enable-origami) tl_noarg; origami=$optname ;;
	--python-path) tl_arg "$@"; pypath=$optname ;;
	--extension-file) refuse "TraceLens's Python extensions are not supported" ;;
	--enable-pseudo-ops) tl_noarg; pseudo=$optname ;;
	--inductor-cache-dir) tl_arg "$@"; icache=$optname icdir=$optarg ;;
	--include-overlap-info) tl_noarg; kl=1 ;;
	--detect-recompute) tl_noarg; recompute=$optname ;;
	--include-call-stack) tl_noarg; callstack=$optname ;;
	*) tl_badopt ;;
	esac
	shift "$optn"
done
shift "$optn"
[ -z "$trace" ] && [ $# -gt 0 ] && { trace=$1; shift; }
[ -z "$out" ] && [ $# -gt 0 ] && { out=$1; shift; }
[ $# -eq 0 ] && [ -n "$trace" ] || usage 2 >&2
# (a trace named - is that file, as TraceLens opens it, not the standard
# input, which tl-parse reads for -: /dev/stdin is that)
[ "$trace" != - ] || trace=./-
[ "$cmp" != - ] || cmp=./-
# Bins are counted only by the short-kernel study (TraceLens's numpy
# fails there on fewer than one: a usage error here).
# (A plain decimal by now: its sign tells, however many digits.)
case $short:$bins in 1:-* | 1:0) usage_die "$binsopt must be positive" ;; esac
# tl-histogram's bins are at most 2^24 (TraceLens's numpy takes more,
# memory allowing): refused here, once, before any stage runs.
[ "$short" = 0 ] || { [ ${#bins} -le 8 ] && [ "$bins" -le 16777216 ]; } ||
	usage_die "$binsopt must be at most 16777216"
# With --include_call_stack or --detect_recompute TraceLens's TraceDiff
# of a comparison walks its trees with the python functions (other
# LCAs, UIDs and nn_module_stack in diff_stats and unified_perf_summary),
# which tl's TraceDiff does not build.
for optname in "$callstack" "$recompute"; do
	[ "$optname" = 0 ] || [ -z "$cmp" ] ||
		refuse "with --comparison, TraceLens's TraceDiff of its trees with the python functions is not supported"
done
[ "$callstack" = 0 ] || callstack=1
[ "$recompute" = 0 ] || recompute=1
# TraceLens simulates GEMMs only with a GPU spec: by Origami when asked,
# by the program GEMM_SIMULATOR_PATH names (run by --python_path's
# interpreter) when that is set.  Without them these options change
# nothing in its report.
if [ -n "$arch" ]; then
	optname=$origami
	[ "$origami" = 0 ] || refuse "Origami's simulated GEMM times are not supported"
	optname=$pypath
	[ "$pypath" = 0 ] || [ -z "${GEMM_SIMULATOR_PATH:-}" ] ||
		refuse "the external GEMM simulator (GEMM_SIMULATOR_PATH) is not supported"
fi
# No output named: TraceLens's workbook, beside the trace; its rocprof
# report's name for rocprofv3's *_results.json (the kind told here as
# below, only then).
# By its rocprof report's name: the workbook only without
# --output_csvs_dir (TraceLens's rocprof report ignores
# --output_xlsx_path then), named so whatever the trace.
[ "$tlrp" = 0 ] || [ -z "$out" ] || xlsx=
[ "$tlrp" = 0 ] || [ -n "$out" ] || [ -n "$xlsx" ] || xlsx=$(tl_rpbookname "$trace")
if [ -z "$out" ] && [ -z "$xlsx" ]; then
	case $trace in
	*_results.json)
		if [ -f "$trace" ] && isrocprof "$trace"; then
			xlsx=$(tl_rpbookname "$trace")
		fi ;;
	esac
	# (a trace on /dev/stdin or /dev/fd/N has no folder of its own: its
	# workbook goes in the current one, not into /dev)
	case $trace in
	/dev/* | /proc/*) [ -n "$xlsx" ] || xlsx=$(tl_bookname "${trace##*/}") ;;
	esac
	[ -n "$xlsx" ] || xlsx=$(tl_bookname "$trace")
fi

# ---- the places: the output beside OUT_DIR, the work in TMPDIR ----
tl_input "$trace"
[ -z "$cmp" ] || tl_input "$cmp"
[ -z "$out" ] || [ -z "$xlsx" ] || tl_outpair "$out" "$xlsx"
[ -z "$out" ] || tl_outdir "$out" "$force" "$trace" ${cmp:+"$cmp"}
[ -z "$xlsx" ] || tl_outbook "$xlsx" "$force" "$trace" ${cmp:+"$cmp"}
tmpdir=${TMPDIR:-/tmp}
tl_workdir
tl_dropper "$TL_WORK/drop"
# (a workbook alone: the report's CSV files in the work directory)
[ -n "$out" ] || TL_STAGE=$TL_WORK
tl_progress "$quiet"
TL_REPORT=$TL_STAGE/report TL_LOG=$TL_WORK/log
export TL_REPORT TL_LOG

# The stages run in the work directory; those that read the traces
# from here (cwd), so that their messages name them as given.  A trace
# that two stages read (the report's and the comparison's) and that is
# not a file (a pipe) is copied first.
# So is a trace that is not a file when its kind must be told first.
trace_name=$trace
if [ ! -f "$trace" ] && [ ! -d "$trace" ]; then
	cat -- "$trace" >"$TL_WORK/trace" || die "$trace: cannot read"
	trace=$TL_WORK/trace
fi
# The kind of trace, told by content (isrocprof).
kind=
if isrocprof "$trace"; then
	kind=-rocprof
	[ -z "$cmp" ] || die "$trace_name: --comparison needs PyTorch traces, not rocprofv3 results"
fi
if [ -z "$kind" ]; then
	tl_bare "$trace" "$trace_name"
	[ -z "$cmp" ] || tl_bare "$cmp" "$cmp"
fi
# The report's folder, log/ and tree/, the tree stage's passes' own
# folder (TL_TREE_TMP: no mktemp of its own), with their fifos for a
# PyTorch trace (TL_TREE_FIFOS): one tl-mkfifo, static, a process less
# on the way to the tree stage.
set -- -d "$TL_REPORT" -d "$TL_LOG" -d "$TL_WORK/tree"
if [ -z "$kind" ]; then
	tl_treefifos tl-mkfifo "$TL_WORK/tree" all "$@" || die "cannot write in $TL_STAGE"
	TL_TREE_FIFOS=1
	export TL_TREE_FIFOS
else
	tl-mkfifo "$@" || die "cannot write in $TL_STAGE"
fi
# TraceLens's pseudo ops change only traces with the ops they look for
# (in both traces of a comparison, which is copied when not a file).
if [ -n "$pseudo" ] && [ -z "$kind" ]; then
	optname=$pseudo
	has=$trace_name why=$(pseudo_ops "$trace")
	if [ -z "$why" ] && [ -n "$cmp" ]; then
		has=$cmp
		if [ ! -f "$cmp" ]; then
			cat -- "$cmp" >"$TL_WORK/cmp" || die "$cmp: cannot read"
			cmp=$TL_WORK/cmp
		fi
		why=$(pseudo_ops "$cmp")
	fi
	[ -z "$why" ] ||
		refuse "TraceLens's pseudo ops (its MoE, MLA and paged-attention tree extensions) are not supported, and $has has $why"
fi
# TraceLens reads Inductor's cache (the folder named, when it is one)
# only for Triton ops (triton_poi_, triton_red_, triton_per_).
if [ -n "$icache" ] && [ -z "$kind" ] && [ -d "$icdir" ]; then
	optname=$icache
	why=$(tl-parse -f name -- "$trace" 2>/dev/null | grep -m 1 -E '^triton_(poi|red|per)_')
	[ -z "$why" ] ||
		refuse "Inductor's cache files are not read (tl models Triton ops from the trace's own args only), and $trace_name has Triton ops ($why)"
fi
roofline=1
[ "${TL_REPORT_ROOFLINE:-1}" != 0 ] && command -v tl-roofline >/dev/null 2>&1 || roofline=0
# (a GPU spec that is not there, or no spec, stopped the roofline stage
# at the end, the report's work thrown away: said before any)
if [ "$roofline" = 1 ] && [ -n "$arch" ]; then
	why=$(tl-roofline --check-arch --gpu-arch "$arch" 2>&1)
	st=$?
	if [ "$st" != 0 ]; then
		printf '%s\n' "$why" | sed "s/^tl-roofline: /$prog: /" | head -n 1 >&2
		exit "$st"
	fi
fi
case $arch in
*/*) arch=$(tl_abs "$arch") ;;
?*) [ ! -r "$arch" ] || arch=$(tl_abs "$arch") ;;
esac
comparison=0
[ -z "$cmp" ] || comparison=1

# The options, for every stage (tl_stage reads them).  ifmt: tl-sheet's
# format of the sums, minima and maxima of times, which pandas keeps
# int64 when the trace's times are Python's ints (n); with
# --exact-time the times are tl's exact decimals, not Python's types,
# so floats (f).
ifmt=n
[ -z "$xflag" ] || ifmt=f
q() { printf '%s=' "$1"; tl_quote "$2"; }
{
	q prog "$prog"
	q cwd "$PWD"; q trace "$trace"; q trace_name "$trace_name"; q cmp "$cmp"
	q xflag "$xflag"; q ifmt "$ifmt"; q short "$short"; q thresh "$thresh"; q bins "$bins"
	q topk "$topk"; q micro "$micro"; q unlinked "$unlinked"; q coll "$coll"
	q ksum "$ksum"; q arch "$arch"; q roofline "$roofline"; q comparison "$comparison"
	q flows "$flows"
	q kdetails "$kdetails"; q ktopk "$ktopk"; q fot "$fot"; q gbnk "$gbnk"; q kl "$kl"; q recompute "$recompute"
	q callstack "$callstack"
	q TL_TREE_OPTS "${TL_TREE_OPTS:-}${flows:+ $flows}"
} >"$TL_WORK/options" || die "cannot write in $TL_WORK"

# ---- the engine ----
# (make gives its standard input to one recipe at a time, not always
# the tree stage's: a trace on it comes to that stage as fd 9)
exec 9<&0
. "$TL_BIN/tl-report$kind.vars"
tl_spawn make -s -r -R --no-print-directory -C "$TL_WORK" -f "$TL_BIN/tl-report$kind.mk" \
    -j $((TL_REPORT_JOBS + comparison)) short="$short" ksum="$ksum" coll="$coll" \
    comparison="$comparison" roofline="$roofline" kdetails="$kdetails" kl="$kl" all 2>"$TL_LOG/make"
tl_wait "$TL_SPAWNED"
st=$?
tl_dropper_stop
tl_progress_stop
if [ "$st" != 0 ] || [ -s "$TL_LOG/FAILED" ]; then
	# A full disk first: the messages may have gone with the space.
	failed=
	[ ! -s "$TL_LOG/FAILED" ] || read -r failed <"$TL_LOG/FAILED"
	tl_nospace "$TL_WORK" "TMPDIR ($tmpdir)" && exit 1
	[ -z "$out" ] || ! tl_nospace "$TL_STAGE" "$out" || exit 1
	# Then the first stage that failed says why.
	if [ -n "$failed" ]; then
		tl_cat "$TL_LOG/$failed" >&2 2>/dev/null
		[ -s "$TL_LOG/$failed" ] || note "$failed: failed"
		exit 1
	fi
	tl_cat "$TL_LOG/make" >&2 2>/dev/null
	die "the report's engine failed (make: exit $st)"
fi
# the stages' notices, in the schedule's order
for s in $TL_REPORT_ORDER; do
	[ ! -s "$TL_LOG/$s" ] || tl_cat "$TL_LOG/$s" >&2 2>/dev/null
done

# ---- publish: OUT_DIR and the workbook appear complete or not at all ----
# (the workbook written first: when it fails, nothing is published)
if [ -n "$xlsx" ]; then
	# TraceLens's perf sheets hold their param: columns as text ('16',
	# '0.0', 'None'), and coll_analysis its Process Group Name (the
	# trace's string), and with --group_by_num_kernels the perf sheets
	# their num_kernels (a grouping key, made str() with the params; not
	# ops_unique_args's, the one ops sheet with the column), and with
	# --comparison unified_perf_summary's lca_id and lca_name ("; "
	# joins of str(): "261.0", "320.0; 497.0"): so do they here, so
	# that pandas reads them back as it reads TraceLens's.
	printf '*\tparam: *\ncoll_analysis\tProcess Group Name\n[!o]*\tnum_kernels\nunified_perf_summary*\tlca_id\nunified_perf_summary*\tlca_name\n' >"$TL_WORK/text" ||
		die "cannot write in $TL_WORK"
	tl_book_dir '' "$TL_WORK/text" "$TL_REPORT" "$TL_REPORT_BOOK"
fi
[ -z "$out" ] || tl_publish "$TL_REPORT"
[ -z "$xlsx" ] || tl_book_publish
exit 0
