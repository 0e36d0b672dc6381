# tl-lib-xlsx.sh: workbooks at the edges of tl-report and tl-compare,
# through tl-xlsx(1).  Source it after tl-lib.sh.  Reports stay CSV
# directories inside the pipelines: a workbook is unpacked into one at
# the start, and written from one at the end.
# POSIX sh; every function prints one-line errors and returns non-zero
# on failure.

# tl_xlsx_isbook REPORT: is REPORT a workbook?  As for TraceLens, any
# report that is not a directory is read as one.
tl_xlsx_isbook() {
	[ ! -d "$1" ] && [ -e "$1" ]
}

# tl_xlsx_default TRACE: the workbook TraceLens writes for TRACE when
# no output is named: TRACE up to its last ".json", then
# "_perf_report.xlsx" (x.json.gz -> x_perf_report.xlsx).
tl_xlsx_default() {
	case $1 in
	*.json*) printf '%s_perf_report.xlsx\n' "${1%.json*}" ;;
	*) printf '%s_perf_report.xlsx\n' "$1" ;;
	esac
}

# tl_xlsx_unpack BOOK DIR: every sheet of BOOK into the new directory
# DIR, one CSV file each, as pandas' read_excel reads the sheet.
tl_xlsx_unpack() {
	"$(tl_prog tl-xlsx)" -d "$2" "$1"
}

# tl_xlsx_report_order DIR: the CSV files of report DIR, in the order of
# TraceLens's workbook (generate_perf_report_pytorch's sheets), then
# the others (tl's own, such as health) in byte order.
tl_xlsx_report_order() {
	_xo_c='GEMM SDPA CONV InferenceAttention BinaryElementwise GroupedGEMM MoE_comm SSM RoPE CrossEntropy UnaryElementwise MoE_fused MoE_unfused MoE_aux RMSNorm elementwise GroupQuant FusedRoPE CustomCollective mHC Normalization Reduce'
	_xo_l='gpu_timeline ops_summary_by_category ops_summary ops_unique_args ops_unique_args_kl_overlap unified_perf_summary diff_stats unified_perf_summary_kl_overlap'
	for _xo_s in $_xo_c; do
		case $_xo_s in
		GEMM | UnaryElementwise | BinaryElementwise | Normalization)
			_xo_l="$_xo_l $_xo_s ${_xo_s}_kl_overlap" ;;
		*)	_xo_l="$_xo_l ${_xo_s}_fwd ${_xo_s}_bwd ${_xo_s}_fwd_kl_overlap ${_xo_s}_bwd_kl_overlap" ;;
		esac
	done
	_xo_l="$_xo_l kernel_summary short_kernel_histogram short_kernels_summary coll_analysis"
	for _xo_s in $_xo_l; do
		[ -f "$1/$_xo_s.csv" ] && printf '%s\n' "$1/$_xo_s.csv"
	done
	(cd "$1" && LC_ALL=C ls) | while IFS= read -r _xo_f; do
		case $_xo_f in *.csv) ;; *) continue ;; esac
		case " $_xo_l " in *" ${_xo_f%.csv} "*) continue ;; esac
		printf '%s\n' "$1/$_xo_f"
	done
}

# tl_xlsx_write BOOK HIDDEN TEXT FILE...: the workbook BOOK from the
# CSV files, one sheet each, in order; HIDDEN names the columns to hide
# and TEXT those written as text (tl-xlsx(1) -H and -T: files, or empty
# for none).  BOOK appears complete or not at all, replacing what was
# there.
tl_xlsx_write() {
	_xw_b=$1 _xw_h=$2 _xw_t=$3
	shift 3
	set -- -o "$_xw_b" "$@"
	[ -z "$_xw_t" ] || set -- -T "$_xw_t" "$@"
	[ -z "$_xw_h" ] || set -- -H "$_xw_h" "$@"
	"$(tl_prog tl-xlsx)" -f "$@"
}

# tl_xlsx_report DIR BOOK: the workbook of report DIR, its sheets in
# TraceLens's order.  TraceLens's perf sheets hold their param: columns
# as text ('16', '0.0', 'None'), and coll_analysis its Process Group
# Name (the trace's string): so do they here, so that pandas reads them
# back as it reads TraceLens's.
tl_xlsx_report() {
	_xr_l=$(tl_xlsx_report_order "$1") || return 1
	_xr_t=$(mktemp "${TMPDIR:-/tmp}/tl-xlsx.XXXXXX") || return 1
	printf '*\tparam: *\ncoll_analysis\tProcess Group Name\n' >"$_xr_t"
	_xr_ifs=$IFS
	IFS='
'
	set -f
	# shellcheck disable=SC2086
	set -- "$2" '' "$_xr_t" $_xr_l
	set +f
	IFS=$_xr_ifs
	tl_xlsx_write "$@"
	_xr_st=$?
	rm -f "$_xr_t"
	return "$_xr_st"
}

# tl_xlsx_compare_hidden FILE: the columns TraceLens's comparison hides
# (compare_perf_reports_pytorch): in the ops splits, names ending in
# kernel_names, median, std, min, max or ex_UID; in the roofline
# splits, kernel_names_first, UID, median, std, min, max and the four
# Input/Concrete ..._first.
tl_xlsx_compare_hidden() {
	{
		for _xh_s in ops_all ops_unique_args unified_perf_summary; do
			for _xh_k in intersect only_baseline only_variant; do
				for _xh_c in kernel_names median std min max ex_UID; do
					printf '%s_%s_*\t*%s\n' "$_xh_s" "$_xh_k" "$_xh_c"
				done
			done
		done
		for _xh_s in GEMM SDPA_fwd SDPA_bwd CONV_fwd CONV_bwd un_eltwise bin_eltwise; do
			for _xh_k in intersect only_baseline only_variant; do
				for _xh_c in kernel_names_first UID median std min max \
				    'Input type_first' 'Input Dims_first' \
				    'Input Strides_first' 'Concrete Inputs_first'; do
					printf '%s_%s_*\t*%s\n' "$_xh_s" "$_xh_k" "$_xh_c"
				done
			done
		done
	} >"$1"
}
