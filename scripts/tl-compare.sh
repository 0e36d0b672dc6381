#!/bin/sh
# See LICENSE file for copyright and license details.
#
# tl-compare: compare two or more reports (directories of one CSV per
# sheet, or workbooks) the way TraceLens_compare_perf_reports_pytorch
# does: same sheets, columns, rows and numbers, as CSV files or a
# workbook.  The first report is the baseline.  A workbook is unpacked
# into CSV files first (tl_unpack), and the comparison workbook written
# from the CSV files last (tl_book_write).  Every sheet goes through one
# pipeline:
#
#   tl-join -p SHEET.csv                 rows behind a byte-comparable key
#   LC_ALL=C sort -s -k1,1               pandas' merge order
#   tl-join -k ... -t ... -d ...         outer join, diff and pct columns
#   awk                                  split (with a #sort column)
#   tl-sheet -s                          TraceLens's descending sort
#                                        (numpy's quicksort), CSV
#
# Memory: sort(1) holds at most -S; tl-join one key group per input;
# awk one row; tl-sheet -s 12 bytes a row of a sheet.  The output directory (and workbook) is built beside
# OUT_DIR and renamed into place, so it appears complete or not at all.
set -u
set -f
case $0 in */*) . "${0%/*}/tl-lib.sh" ;; *) . tl-lib.sh ;; esac
case $0 in */*) . "${0%/*}/tl-lib-book.sh" ;; *) . tl-lib-book.sh ;; esac
tl_init tl-compare 64M
tab=$TAB nl=$NL

usage() {
	if [ "${1:-2}" = 0 ]; then exec 2>&1; fi
	cat >&2 <<EOF
usage: tl-compare [-f] [--quiet] [-j jobs] [--names tag ...] [--sheets group ...]
                  [--summary] [--tracediff] [--max-regression gate]
                  [report options] [--output_csvs_dir dir]
                  -o out_dir|out.xlsx report|book.xlsx|trace ...
EOF
	exit "${1:-2}"
}
# Once $work exists, notices wait in $work/notes and come out before
# the exit: when no sheet can be compared, one error line says why
# instead of a notice per skipped group.
work=
flushnotes() {
	if [ -n "$work" ] && [ -s "$work/notes" ]; then
		tl_cat "$work/notes" >&2 2>/dev/null
		: >"$work/notes"
	fi
}
die() { flushnotes; note "$(shown "$*")"; exit 1; }
udie() { note "$@"; exit 2; }
# shown TEXT: TEXT with the output being built named as it will be
# (the reports of traces are made inside it).
shown() {
	case ${out:+x}$1 in
	x*"$out"/*) printf '%s\n' "${1%%"$out"/*}$odir/${1#*"$out"/}" ;;
	*) printf '%s\n' "$1" ;;
	esac
}
out=
notice() {
	set -- "$(shown "$*")"
	if [ -n "$work" ]; then
		echo "$prog: $*" >>"$work/notes"
	else
		note "$@"
	fi
}
# skip LABEL WHY: a group or sheet left out; WHY names the sheet.
skipped=
skip() {
	notice "$1: skipped: $2"
	skipped=$skipped${skipped:+; }$3
}

# ---- options (TraceLens's spellings too) ----
dcol= sortcol= odir= csvdir= force=0 names= nnames=0 namesgiven=0 sheets= reports= nrep=0
# Called by TraceLens's name (make install-tracelens-names), its defaults:
# comparison.xlsx, replaced when it exists; --output_csvs_dir written
# into (TL_MERGE).
tlname=0
case ${0##*/} in TraceLens_*) tlname=1 force=1 TL_MERGE=1 ;; esac
# The traces' reports: how many at once, tl-report's options that pass
# through (one a line), and what comes after the comparison.
jobs= ropts= summary=0 tracediff=0 gates= quiet=0
# ropt OPTION [VALUE]: pass OPTION (dashes for TraceLens's underscores)
# and its VALUE to tl-report.
ropt() {
	ropts=$ropts$(printf '%s' "$1" | tr _ -)$nl
	[ $# -lt 2 ] || ropts=$ropts$2$nl
}
# negnum ARG: ARG looks like a negative number, which argparse takes
# for a value, not an option, as this parser has none that looks so.
negnum() {
	case $1 in
	-*[!0-9.]* | -*.*.* | -*. | -) return 1 ;;
	-*) return 0 ;;
	esac
	return 1
}
# TraceLens's long options, which its argparse takes cut to an
# unambiguous prefix (--nam, --output_c); tl's own are taken whole.
tcnames='--output --output-csvs-dir --names --sheets --help'
while [ $# -gt 0 ]; do
	case $1 in
	-j | --jobs)
		[ $# -ge 2 ] || usage
		jobs=$2
		shift 2 ;;
	-j?*) jobs=${1#-j}; shift ;;
	--jobs=*) jobs=${1#*=}; shift ;;
	--summary) summary=1; shift ;;
	--tracediff) tracediff=1; shift ;;
	--max-regression)
		[ $# -ge 2 ] || usage
		# (an empty gate, an unset variable's, was no gate at all)
		[ -n "$2" ] || udie "--max-regression needs a gate"
		gates=$gates$2$nl summary=1
		shift 2 ;;
	--max-regression=*)
		[ -n "${1#*=}" ] || udie "--max-regression needs a gate"
		gates=$gates${1#*=}$nl summary=1; shift ;;
	--quiet) quiet=1; shift ;;
	--exact-time | --exact_time | --include-unlinked-kernels | --include_unlinked_kernels | \
	--legacy-flows | --legacy_flows | --tracelens-compat | --tracelens_compat | \
	--short-kernel-study | --short_kernel_study | --no-kernel-summary | \
	--no-coll-analysis | --disable-coll-analysis | --disable_coll_analysis)
		ropt "$1"
		shift ;;
	--gpu-arch | --gpu_arch | --gpu-arch-json-path | --gpu_arch_json_path | \
	--gpu-arch-platform | --gpu_arch_platform | \
	--micro-idle-thresh-us | --micro_idle_thresh_us | \
	--short-kernel-threshold-us | --short_kernel_threshold_us | \
	--short-kernel-histogram-bins | --short_kernel_histogram_bins | \
	--topk-short-kernels | --topk_short_kernels)
		[ $# -ge 2 ] || udie "option $1 needs a value"
		ropt "$1" "$2"
		shift 2 ;;
	--gpu[-_]arch*=* | --micro[-_]idle[-_]thresh[-_]us=* | --short[-_]kernel[-_]*=* | \
	--topk[-_]short[-_]kernels=*)
		ropt "${1%%=*}" "${1#*=}"
		shift ;;
	-o | --output)
		[ $# -ge 2 ] || usage
		odir=$2
		shift 2 ;;
	--output=*) odir=${1#*=}; shift ;;
	# (argparse: -oFILE and -o=FILE are FILE)
	-o=*) odir=${1#-o=}; shift ;;
	-o?*) odir=${1#-o}; shift ;;
	--output_csvs_dir | --output-csvs-dir)
		[ $# -ge 2 ] || usage
		csvdir=$2
		shift 2 ;;
	--output_csvs_dir=* | --output-csvs-dir=*) csvdir=${1#*=}; shift ;;
	--names=*)
		# (argparse: --names=TAG is that one tag, the words after it
		# reports)
		case $1 in *"$nl"*) udie "invalid tag: no newline in a tag" ;; esac
		names=${1#*=}$nl nnames=1 namesgiven=1
		shift ;;
	--names)
		# argparse's nargs: every word up to the next option; given
		# again, the last ones
		shift
		names= nnames=0 namesgiven=1
		while [ $# -gt 0 ]; do
			case $1 in -?*) negnum "$1" || break ;; esac
			case $1 in *"$nl"*) udie "invalid tag: no newline in a tag" ;; esac
			names=$names$1$nl
			nnames=$((nnames + 1))
			shift
		done ;;
	--sheets=*) sheets=${1#*=}$nl; shift ;;
	--sheets)
		shift
		[ $# -gt 0 ] && case $1 in -?*) false ;; esac ||
			udie "--sheets needs at least one group"
		sheets=
		while [ $# -gt 0 ]; do
			case $1 in -?*) break ;; esac
			sheets=$sheets$1$nl
			shift
		done ;;
	-f | --force) force=1; shift ;;
	-h | --help) usage 0 ;;
	--version) echo "tl-compare @VERSION@"; exit 0 ;;
	--) shift
		# (an input named - is that file, not the standard input)
		for r; do
			[ "$r" != - ] || r=./-
			# (the list would lose it: "tl-join: 1 names for 2 inputs")
			[ -n "$r" ] || udie "an empty name is no report"
			reports=$reports$r$nl; nrep=$((nrep + 1))
		done
		break ;;
	--?*)
		# a prefix of one of TraceLens's options, made that option
		tl_opt "$@"
		tl_abbrev $tcnames ||
			udie "ambiguous option: ${1%%=*} could match $(echo "$TL_ABBREV" | sed 's/ /, /g')"
		case " $tcnames " in
		*" $opt "*) ;;
		*) udie "unknown option: $1" ;;
		esac
		_a=$opt
		[ "$_tl_hasinline" = 0 ] || _a=$opt=$_tl_inline
		# (--help=x: no other case takes it)
		[ "$_a" != "$1" ] || udie "option ${1%%=*} takes no value"
		shift
		set -- "$_a" "$@" ;;
	-?*) negnum "$1" || udie "unknown option: $1"
		reports=$reports$1$nl; nrep=$((nrep + 1)); shift ;;
	-) reports=$reports./-$nl; nrep=$((nrep + 1)); shift ;;
	'') udie "an empty name is no report" ;;
	*) reports=$reports$1$nl; nrep=$((nrep + 1)); shift ;;
	esac
done
# (the inputs are a list of lines: a name holding a newline would be
# taken for two)
[ "$(printf '%s' "$reports" | wc -l)" = "$nrep" ] ||
	udie "a report's name holds a newline: not supported (rename it)"

IFS=$nl
# -o BOOK.xlsx: a workbook, and CSV files only with --output_csvs_dir.
xlsxout=
[ -n "$odir" ] || [ "$tlname" = 0 ] || odir=comparison.xlsx
case $odir in
*.xlsx) xlsxout=$odir odir= ;;
*.xls) udie "cannot write $odir: only .xlsx workbooks" ;;
esac
if [ -n "$csvdir" ]; then
	[ -z "$odir" ] || [ "$odir" = "$csvdir" ] ||
		udie "two output directories: -o $odir and --output_csvs_dir $csvdir"
	odir=$csvdir
fi
[ -n "$odir" ] || [ -n "$xlsxout" ] || usage
[ "$summary" = 0 ] || [ -n "$odir" ] ||
	udie "--summary writes into OUT_DIR: name one (-o DIR or --output_csvs_dir DIR)"
[ "$nrep" -ge 2 ] || udie "need at least two reports"
[ "$nnames" = 0 ] && namesgiven=0	# argparse: "--names" alone is no names
[ "$namesgiven" = 0 ] || [ "$nnames" = "$nrep" ] ||
	udie "$nnames names for $nrep reports"
[ -n "$sheets" ] || sheets=all
groups='gpu_timeline, ops_summary, kernel_summary, ops_all, roofline, all'
# (an empty group, --sheets= or '', is no field of the loop below)
case $nl$sheets in *"$nl$nl"*) udie "unknown sheet group '' ($groups)" ;; esac
for s in $sheets; do
	case $s in
	gpu_timeline | ops_summary | kernel_summary | ops_all | roofline | all) ;;
	*) udie "unknown sheet group '$s' ($groups)" ;;
	esac
done
want() {
	for s in $sheets; do
		[ "$s" = "$1" ] || [ "$s" = all ] && return 0
	done
	return 1
}

# What each input is: a report (a directory), a workbook (named .xlsx,
# TraceLens's report) or a trace (any other file: tl-report's tl-parse
# tells its format by content, and says so when it is none), in $kinds,
# "r", "b" or "t" a line; given, the inputs as named.
kinds= ntrace=0 given=$reports
for r in $reports; do
	if [ -d "$r" ]; then
		kinds=${kinds}r$nl
	elif case $r in *.xlsx | *.XLSX) true ;; *) false ;; esac; then
		kinds=${kinds}b$nl
	else
		kinds=${kinds}t$nl ntrace=$((ntrace + 1))
	fi
done
[ "$tracediff" = 0 ] || [ "$ntrace" -ge 2 ] ||
	udie "--tracediff needs two traces among the inputs"
# (the summary's charts need gnuplot, as tl-summary --plots says: before
# the comparison is made, not after, when it would be thrown away)
if [ "$summary" = 1 ] && ! command -v gnuplot >/dev/null 2>&1; then
	die "--summary and --max-regression need gnuplot for the charts; run: apt-get install gnuplot-nox"
fi
# (the gates' syntax before the comparison is made, not after)
if [ -n "$gates" ]; then
	set --
	for g in $gates; do set -- "$@" -g "$g"; done
	tl-rank -c "$@" || exit 2
fi
case $jobs in
'') jobs=$(nproc 2>/dev/null) || jobs=2 ;;
*[!0-9]* | 0*) udie "-j: not a positive whole number: $jobs" ;;
esac

# Tags: --names, or TraceLens's default (basename without extension;
# a trace's without .gz too: base.json.gz is base).
if [ "$namesgiven" = 0 ]; then
	set -- $kinds
	for r in $reports; do
		while :; do case $r in ?*/) r=${r%/} ;; *) break ;; esac; done
		t=${r##*/}
		[ "$1" = r ] || case $t in ?*.gz) t=${t%.gz} ;; esac
		case $t in ?*.*) t=${t%.*} ;; esac
		names=$names$t$nl
		shift
	done
fi
for t in $names; do
	case $t in
	*/*) udie "invalid tag '$t': a tag names files" ;;
	*\\* | *"$tab"* | *"$(printf '\r')"*)
		udie "invalid tag '$t': no backslash, TAB or CR in a tag" ;;
	esac
done
# tagof I: the Ith tag.  A tag may be empty, as in TraceLens (its
# columns are then ::time ms and time ms___diff), which a for loop over
# $names would skip: loops over the tags count.
tagof() {
	printf '%s' "$names" | sed -n "$1p"
}
n=0 seen=$nl
while [ "$n" -lt "$nrep" ]; do
	n=$((n + 1))
	t=$(tagof "$n")
	case $seen in *"$nl$t$nl"*) udie "tags must be unique: use --names" ;; esac
	seen=$seen$t$nl
	# (tl-summary, tl's own, reads TAG::time ms)
	[ "$summary" = 0 ] || [ -n "$t" ] || udie "--summary needs non-empty tags: use --names"
done
set -- $kinds
n=0
for r in $reports; do
	n=$((n + 1))
	[ "$1" = r ] || [ -e "$r" ] || die "$r: no such report directory, workbook or trace"
	[ "$1" = r ] || tl_input "$r" nodir
	# (a trace's report goes to OUT_DIR/reports/TAG)
	[ "$1" != t ] || [ -n "$(tagof "$n")" ] ||
		udie "tags must be non-empty for traces: use --names"
	shift
done
base=${names%%"$nl"*}

# traces: report each trace (tl-report into OUT_DIR/reports/TAG), and
# with --tracediff make the TraceDiff of the first two traces
# (OUT_DIR/tracediff), all as jobs of one make -j $jobs, so that at most
# $jobs run at once, in a process group of their own.  The first job
# that fails stops the others at once; its messages are printed and the
# run ends with its status.  Then $reports names each trace's report in
# its place.
traces() {
	[ "$ntrace" -gt 0 ] || return 0
	mkdir "$out/reports" "$work/jobs" "$work/log" || die "cannot write in $work"
	_cwd=$(pwd)
	set -- $kinds
	_i=0 _all= _conv= _td=
	for _r in $reports; do
		_i=$((_i + 1))
		if [ "$1" = t ]; then
			_t=$(printf '%s' "$names" | sed -n "${_i}p")
			{
				printf 'cd %s || exit\nexec tl-report' "$(tl_quote "$_cwd")"
				for _o in $ropts; do printf ' %s' "$(tl_quote "$_o")"; done
				printf ' -- %s %s\n' "$(tl_quote "$_r")" \
				    "$(tl_quote "$out/reports/$_t")"
			} >"$work/jobs/$_i" || die "cannot write in $work"
			_all=$_all$_i$nl
			_td=$_td$_r$nl
			_r=$out/reports/$_t
		fi
		_conv=$_conv$_r$nl
		shift
	done
	if [ "$tracediff" = 1 ]; then
		set -- $_td
		printf 'cd %s || exit\nexec tl-tracediff -- %s %s %s\n' \
		    "$(tl_quote "$_cwd")" "$(tl_quote "$1")" "$(tl_quote "$2")" \
		    "$(tl_quote "$out/tracediff")" >"$work/jobs/td" ||
			die "cannot write in $work"
		_all=${_all}td$nl
	fi
	# one target a job; the first to fail notes itself and its status,
	# and stops make's process group (make leads it: tl_spawn)
	{
		_l=$(printf '%s' "$_all" | tr '\n' ' ')
		printf '.PHONY: all %s\nall: %s\n' "$_l" "$_l"
		for _j in $_all; do
			printf '%s:\n\t@sh jobs/%s 2>log/%s || ' "$_j" "$_j" "$_j"
			printf '{ echo "%s $$?" >>log/FAILED; kill -TERM -$$PPID; exit 1; }\n' "$_j"
		done
	} >"$work/jobs.mk" || die "cannot write in $work"
	tl_step reports start
	tl_spawn make -s -r -R --no-print-directory -C "$work" -f jobs.mk \
	    -j "$jobs" all 2>"$work/log/make"
	tl_wait "$TL_SPAWNED"
	_st=$?
	tl_step reports end
	if [ "$_st" != 0 ] || [ -s "$work/log/FAILED" ]; then
		tl_nospace "$work" "TMPDIR (${TMPDIR:-/tmp})" && exit 1
		tl_nospace "$out" "$odir" && exit 1
		if [ -s "$work/log/FAILED" ]; then
			IFS=" " read -r _j _st <"$work/log/FAILED"
			tl_progress_stop
			tl_cat "$work/log/$_j" >&2 2>/dev/null
			[ -s "$work/log/$_j" ] || note "job $_j failed"
			case $_st in 0 | 1 | 2) ;; *) _st=1 ;; esac
			exit "$_st"
		fi
		tl_cat "$work/log/make" >&2 2>/dev/null
		die "the reports failed (make: exit $_st)"
	fi
	# the reports' notices, in input order
	for _j in $_all; do
		[ ! -s "$work/log/$_j" ] || tl_cat "$work/log/$_j" >>"$work/notes"
	done
	IFS=$nl
	reports=$_conv
}
# Which tl-join: the one installed beside us, else PATH's.
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
if [ -x "$here/tl-join" ]; then join=$here/tl-join; else join=tl-join; fi

# ---- outputs: built beside OUT_DIR and the workbook, renamed at the end ----
[ -z "$odir" ] || [ -z "$xlsxout" ] || tl_outpair "$odir" "$xlsxout"
if [ -n "$odir" ]; then
	odir=${odir%/}
	[ -n "$odir" ] || odir=/
	if [ -e "$odir" ] && [ "$force" = 0 ]; then
		die "$odir exists (use --force to replace it)"
	fi
	# (an OUT_DIR that is, or holds, a report is refused: --force would
	# delete it)
	tl_outdir "$odir" 1 $reports
fi
if [ -n "$xlsxout" ] && [ -e "$xlsxout" ] && [ "$force" = 0 ]; then
	die "$xlsxout exists (use --force to replace it)"
fi
[ -z "$xlsxout" ] || tl_outbook "$xlsxout" 1 $reports
tl_workdir
work=$TL_WORK
tmp=$TL_WORK
# (a workbook alone: its CSV files in the work directory)
[ -n "$odir" ] || TL_STAGE=$TL_WORK
out=$TL_STAGE/out
mkdir "$out" || die "cannot create $out"
tl_progress "$quiet"
traces
tl_step compare start
# Workbooks into CSV directories; wbook: 1 for each report that was one.
i=0 conv= wbook= allbooks=1
set -- $kinds
for r in $reports; do
	i=$((i + 1))
	if [ "$1" != b ]; then
		wbook=${wbook}0$nl allbooks=0
	else
		tl_unpack "$r" "$work/in.$i" || exit 1
		r=$work/in.$i wbook=${wbook}1$nl
	fi
	conv=$conv$r$nl
	shift
done
reports=$conv
# bookflag N: -w for tl-join -p when report N was a workbook (pandas'
# read_excel then read it); bookjoin: the join's -w when all were, -W
# with one flag per report when some were (each report's cells are read
# as its kind, as TraceLens's load_sheet reads each).
bookflag() { [ "$(printf '%s' "$wbook" | sed -n "${1}p")" = 1 ] && echo -w; }
bookjoin=
case $wbook in
*1*) bookjoin="-W$(printf '%s' "$wbook" | tr -d '\n')" ;;
esac
[ "$allbooks" = 1 ] && bookjoin=-w
# sheetname N SHEET: report N's SHEET, as the user knows it.
sheetname() {
	case $(printf '%s' "$kinds" | sed -n "${1}p") in
	b) echo "$(printf '%s' "$given" | sed -n "${1}p") (sheet $2)" ;;
	# (a trace's report is made here, and is gone if we fail)
	t) echo "$(printf '%s' "$given" | sed -n "${1}p") (its report's $2.csv)" ;;
	*)
		shown "$(printf '%s' "$reports" | sed -n "${1}p")/$2.csv" ;;
	esac
}

# ---- helpers ----

# LC_ALL=C sort on the first field only, stable: one byte-comparable key.
keysort() {
	tl_sort -s -t "$tab" -k1,1 "$1" >"$2" || die "sort failed"
}

# havesheet SHEET: do all reports have SHEET.csv, not empty?  If not,
# say so.  Sets $files to their paths, one a line, and $origs too
# ($files may then name copies; $origs names the reports' files, or
# workbooks' sheets, in messages).
havesheet() {
	files= origs= i=0
	for r in $reports; do
		i=$((i + 1))
		o=$(sheetname "$i" "$1")
		if [ ! -f "$r/$1.csv" ]; then
			case $o in
			*" (sheet $1)") o="${o% (sheet $1)} has no sheet $1" ;;
			*" (its report's $1.csv)") o="${o% (its report*}'s report has no $1.csv" ;;
			*) o="${o%/*} has no $1.csv" ;;
			esac
			skip "$1" "$o" "$o"
			return 1
		fi
		if [ ! -s "$r/$1.csv" ]; then
			skip "$1" "$o is empty" "$o is empty"
			return 1
		fi
		files=$files$r/$1.csv$nl
		origs=$origs$o$nl
	done
}

# convert: $files as records, for the groups that read headers first;
# $files then names the copies.
convert() {
	i=0 conv=
	for f in $files; do
		i=$((i + 1))
		"$join" -p -- "$f" >"$tmp/c.$i" || exit 1
		conv=$conv$tmp/c.$i$nl
	done
	files=$conv
}

# headers FILE...: how many of these tl-join -p files have no rows, then
# the header names starting with "param:" that all of them have, in
# byte order (Python's sorted()).  With -k NAME: whether the first file
# has a field NAME (1 or 0).
headers() {
	if [ "$1" = -k ]; then field=$2; shift 2; else field=; fi
	awk -F '\t' -v n="$#" -v want="$field" '
	FNR == 1 {
		nf++
		for (i = 2; i <= NF; i++) {
			# (the names as written: no tag or report column holds
			# what tl(7) escapes)
			h = $i
			if (nf == 1 && h == want)
				found = 1
			if (h ~ /^param:/ && !((nf, h) in seen)) {
				seen[nf, h]
				c[h]++
			}
		}
	}
	FNR == 2 { rows++ }
	END {
		if (want != "") {
			print found + 0
			exit
		}
		print n - rows
		m = 0
		for (h in c)
			if (c[h] == n) {
				for (j = ++m; j > 1 && p[j - 1] > h; j--)
					p[j] = p[j - 1]
				p[j] = h
			}
		for (j = 1; j <= m; j++)
			print p[j]
	}' "$@"
}

# joinsheet LABEL: prepare and sort the sheets in $files (one per
# report, in report order) and join them into $tmp/m: keyed by $keys,
# diffing $dcols, leaving out $dropall (every report) and $dropvar (all
# but the baseline).  Returns 1, with a notice, when a sheet is empty.
joinsheet() {
	label=$1
	i=0
	for f in $files; do
		i=$((i + 1))
		# (messages name the report's file as the user knows it)
		set -- -p -n "$(printf '%s' "$origs" | sed -n "${i}p")"
		for k in $keys; do set -- "$@" -k "$k"; done
		for x in $dropall; do set -- "$@" -x "$x"; done
		[ "$i" = 1 ] || for x in $dropvar; do set -- "$@" -x "$x"; done
		"$join" "$@" $(bookflag "$i") -- "$f" >"$tmp/p" || exit 1
		if [ ! -s "$tmp/p" ]; then
			set -- "$(sheetname "$i" "$label")"
			skip "$label" "$1 is empty" "$1 is empty"
			return 1
		fi
		keysort "$tmp/p" "$tmp/s.$i"
	done
	set -- $bookjoin
	for k in $keys; do set -- "$@" -k "$k"; done
	i=0
	while [ "$i" -lt "$nrep" ]; do i=$((i + 1)); set -- "$@" -t "$(tagof "$i")"; done
	for d in $dcols; do set -- "$@" -d "$d"; done
	for f in $origs; do set -- "$@" -n "$f"; done
	i=0
	while [ "$i" -lt "$nrep" ]; do i=$((i + 1)); set -- "$@" "$tmp/s.$i"; done
	if ! "$join" "$@" >"$tmp/m" 2>"$tmp/err"; then
		cat "$tmp/err" >&2
		exit 1
	fi
	while IFS= read -r line; do
		notice "$label: ${line#tl-join: }"
	done <"$tmp/err"
	return 0
}

# lcatext: each report's lca_id and lca_name columns (unified_perf_summary
# of a --comparison report) that pandas holds as strings, made text
# cells of the workbook (tl-xlsx -T, $work/text), as TraceLens's
# comparison writes them ("261.0", not the number 261): a workbook's
# (text cells there), or a CSV file's when a value is no number ("320.0;
# 497.0": pandas' object column; when every one is, a float column).
lcatext() {
	i=0
	while [ "$i" -lt "$nrep" ]; do
		i=$((i + 1))
		# (the tag as an fnmatch pattern)
		t=$(tagof "$i" | sed 's/[][*?\\]/\\&/g')
		for c in lca_id lca_name; do
			awk -F '\t' -v c="$c" -v book="$(bookflag "$i")" '
			NR == 1 {
				for (j = 1; j <= NF; j++) if ($j == c) k = j
				if (!k) exit
				if (book != "") { f = 1; exit }
				next
			}
			$k != "" && $k !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ { f = 1; exit }
			END { exit !f }' "$tmp/s.$i" || continue
			printf '*\t%s::%s\n' "$t" "$c" >>"$work/text" || die "cannot write in $work"
		done
	done
}

# sorted OUT: $tmp/m (in pandas' merge order) as the CSV sheet OUT in
# TraceLens's order: sort_values of the baseline's $sortcol,
# descending, missing last, with numpy's quicksort (tl-sheet -s), whose
# order of ties no stable sort gives.  The column goes first as #sort,
# so that no tag has to be spelt in an expression.
sorted() {
	awk -F '\t' -v OFS='\t' -v col="$base::$sortcol" '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; print "#sort", $0; next }
	{ print (c ? $c : ""), $0 }' "$tmp/m" |
		tl-sheet -A -x '#sort' -s '{#sort}' >"$1" ||
		die "$1: write failed"
	f=${1##*/}
	printf '%s\n' "${f%.csv}" >>"$work/order"
}

# csv SKIP FILE OUT: write FILE (tl(7) records, with SKIP leading fields
# such as #key left out) as the CSV sheet OUT, every row and column.
# csv SKIP FILE -s NAME TAG: write TraceLens's three split sheets for
# variant TAG: NAME_intersect_TAG (rows where the baseline and TAG both
# have $dcol), NAME_only_baseline_TAG and NAME_only_variant_TAG, each
# with the key columns and the columns of its reports, less the columns
# left empty (tl-sheet -E), in TraceLens's order: each sorted as pandas
# sorts it, by the baseline's $sortcol (only_variant: TAG's),
# descending, missing last, with numpy's quicksort (tl-sheet -s on the
# #sort column the split adds).  FILE is in pandas' merge order.
csv() {
	if [ "$3" != -s ]; then
		if [ "$1" = 1 ]; then
			tl-sheet -A -x '#key' <"$2" >"$3" || die "$3: write failed"
		else
			tl-sheet -A <"$2" >"$3" || die "$3: write failed"
		fi
		# the sheets in TraceLens's order, for the workbook
		f=${3##*/}
		printf '%s\n' "${f%.csv}" >>"$work/order"
		return
	fi
	awk -F '\t' -v OFS='\t' -v skip="$1" -v base="$base" -v tag="$5" -v dcol="$dcol" \
	    -v scol="$sortcol" \
	    -v f1="$tmp/split.1" -v f2="$tmp/split.2" -v f3="$tmp/split.3" '
	# The tag of a diff or pct column, as re.findall("__(.+?)_(?:diff|pct)$")
	# finds it; SUBSEP when the name is not one.
	function difftag(n,   p, t) {
		while ((p = index(n, "__")) > 0) {
			t = substr(n, p + 2)
			if (t ~ /._diff$/) return substr(t, 1, length(t) - 5)
			if (t ~ /._pct$/) return substr(t, 1, length(t) - 4)
			n = substr(n, p + 1)
		}
		return SUBSEP
	}
	# TraceLens keeps a column in a split if its tag is one the split
	# is about; key columns have none.
	function kept(k, t) {
		if (t == SUBSEP) return 1
		if (k == 1) return t == base || t == tag
		if (k == 2) return t == base
		return t == tag
	}
	# Which split the row is in: 1 intersect, 2 only_baseline, 3 only_variant.
	function which(   b, v) {
		b = bi > 0 && $bi != ""
		v = ti > 0 && $ti != ""
		return b && v ? 1 : b ? 2 : v ? 3 : 0
	}
	# the row into split k: its sort value, then its kept columns
	function out(k, sv,   i, l) {
		l = sv
		for (i = 1 + skip; i <= NF; i++)
			if (keep[k, i]) l = l "\t" $i
		print l >file[k]
	}
	NR == 1 {
		file[1] = f1; file[2] = f2; file[3] = f3
		for (i = 1 + skip; i <= NF; i++) {
			n = $i
			if (n == base "::" dcol) bi = i
			if (n == tag "::" dcol) ti = i
			if (n == base "::" scol) bs = i
			if (n == tag "::" scol) ts = i
			p = index(n, "::")
			t = p > 0 ? substr(n, 1, p - 1) : difftag(n)
			for (k = 1; k <= 3; k++)
				keep[k, i] = kept(k, t)
		}
		for (k = 1; k <= 3; k++) out(k, "#sort")
		next
	}
	(k = which()) > 0 { out(k, k == 3 ? (ts ? $ts : "") : (bs ? $bs : "")) }
	END { for (k = 1; k <= 3; k++) if (close(file[k]) < 0) exit 1 }
	' "$2" || die "$4: cannot split the rows"
	# (an empty split: pandas writes one newline, as tl-sheet -E does)
	tl-sheet -A -E -x '#sort' -s '{#sort}' <"$tmp/split.1" >"$out/$4_intersect_$5.csv" &&
	tl-sheet -A -E -x '#sort' -s '{#sort}' <"$tmp/split.2" >"$out/$4_only_baseline_$5.csv" &&
	tl-sheet -A -E -x '#sort' -s '{#sort}' <"$tmp/split.3" >"$out/$4_only_variant_$5.csv" ||
		die "$4: write failed"
	printf '%s\n' "$4_intersect_$5" "$4_only_baseline_$5" "$4_only_variant_$5" >>"$work/order"
}

# splits NAME: TraceLens's three sheets per variant, from $tmp/m.
splits() {
	_sp_i=1
	while [ "$_sp_i" -lt "$nrep" ]; do
		_sp_i=$((_sp_i + 1))
		csv 0 "$tmp/m" -s "$1" "$(tagof "$_sp_i")"
	done
}

# hidden FILE: the columns TraceLens's comparison workbook hides
# (tl-xlsx(1) -H patterns): in the ops splits, names ending in
# kernel_names, median, std, min, max or ex_UID; in the roofline
# splits, kernel_names_first, UID, median, std, min, max and the four
# Input/Concrete ..._first.
hidden() {
	{
		for s in ops_all ops_unique_args unified_perf_summary; do
			for k in intersect only_baseline only_variant; do
				for c in kernel_names median std min max ex_UID; do
					printf '%s_%s_*\t*%s\n' "$s" "$k" "$c"
				done
			done
		done
		for s in GEMM SDPA_fwd SDPA_bwd CONV_fwd CONV_bwd un_eltwise bin_eltwise; do
			for k in intersect only_baseline only_variant; do
				for c in kernel_names_first UID median std min max \
				    'Input type_first' 'Input Dims_first' \
				    'Input Strides_first' 'Concrete Inputs_first'; do
					printf '%s_%s_*\t*%s\n' "$s" "$k" "$c"
				done
			done
		done
	} >"$1" || die "cannot write in $work"
}

# ---- sheet groups (TraceLens's SHEETS_COMPARE_CONFIG) ----

if want gpu_timeline && havesheet gpu_timeline; then
	keys=type dcols='time ms' dropall= dropvar=
	joinsheet gpu_timeline && csv 0 "$tmp/m" "$out/gpu_timeline.csv"
fi

if want ops_summary && havesheet ops_summary; then
	keys=name
	dcols="total_direct_kernel_time_ms${nl}Count"
	dropall=total_direct_kernel_time_sum
	dropvar='Cumulative Percentage (%)'
	sortcol=total_direct_kernel_time_ms
	if joinsheet ops_summary; then
		sorted "$out/ops_summary.csv"
	fi
fi

if want kernel_summary && havesheet kernel_summary; then
	# TraceLens picks the layout by the baseline's columns.
	"$join" -p -- "${files%%"$nl"*}" >"$tmp/c.1" || exit 1
	if [ "$(headers -k 'Kernel name' "$tmp/c.1")" = 1 ]; then
		keys='Kernel name'
		dcols="Kernel duration (µs)_sum${nl}Kernel duration (µs)_mean${nl}Kernel duration (µs)_count"
		dropall="Kernel duration (µs)_min${nl}Kernel duration (µs)_max${nl}Parent op category"
		sortcol='Kernel duration (µs)_sum'
	else	# the legacy (rocprof) layout
		keys=name
		dcols="Total Kernel Time (ms)${nl}Mean Kernel Time (µs)${nl}Count"
		dropall="Total Kernel Time (µs)${nl}Median Kernel Time (µs)${nl}Std Kernel Time (µs)${nl}Min Kernel Time (µs)${nl}Max Kernel Time (µs)${nl}Category"
		sortcol='Total Kernel Time (ms)'
	fi
	dropvar='Cumulative Percentage (%)'
	if joinsheet kernel_summary; then
		sorted "$out/kernel_summary.csv"
	fi
fi

first=${reports%%"$nl"*}
if want ops_all; then
	for sheet in ops_all ops_unique_args unified_perf_summary; do
		[ -f "$first/$sheet.csv" ] || continue
		havesheet "$sheet" || continue
		keys="name${nl}Input type${nl}Input Dims${nl}Input Strides${nl}Concrete Inputs"
		case $sheet in
		unified_perf_summary)
			dcols="Kernel Time (µs)_sum${nl}Kernel Time (µs)_mean${nl}operation_count" ;;
		*)
			dcols="total_direct_kernel_time_sum${nl}total_direct_kernel_time_mean${nl}operation_count" ;;
		esac
		dcol=${dcols%%"$nl"*}
		sortcol=$dcol
		dropall= dropvar=
		joinsheet "$sheet" || continue
		[ "$sheet" != unified_perf_summary ] || [ -z "$xlsxout" ] || lcatext
		splits "$sheet"
	done
fi

if want roofline; then
	for sheet in GEMM SDPA_fwd SDPA_bwd CONV_fwd CONV_bwd UnaryElementwise BinaryElementwise; do
		[ -f "$first/$sheet.csv" ] || continue
		havesheet "$sheet" || continue
		convert
		h=$(headers $files)
		# Keys: name, then the param: columns every report has, sorted.
		case $h in
		0 | 0"$nl"*) keys=name$nl${h#0} ;;
		*) skip "$sheet" "a report has no rows" "a report's $sheet.csv has no rows"
		   continue ;;
		esac
		dcols="Kernel Time (µs)_sum${nl}Kernel Time (µs)_mean${nl}name_count${nl}TFLOPS/s_mean${nl}TB/s_mean"
		dcol='Kernel Time (µs)_sum'
		sortcol=$dcol
		dropall=
		dropvar="GFLOPS_first${nl}Data Moved (MB)_first${nl}FLOPS/Byte_first${nl}Input type_first${nl}Input Dims_first${nl}Input Strides_first${nl}Concrete Inputs_first"
		joinsheet "$sheet" || continue
		case $sheet in
		UnaryElementwise) splits un_eltwise ;;
		BinaryElementwise) splits bin_eltwise ;;
		*) splits "$sheet" ;;
		esac
	done
fi

tl_step compare end

# ---- publish ----
# TraceLens leaves an empty directory (CSV) or raises (Excel): an
# empty comparison is an error, and no directory is made.
if ! ls -A "$out" | grep -q '\.csv$'; then
	: >"$work/notes"
	die "no sheet to compare: ${skipped:-$(shown "${given%%"$nl"*}") has none of the sheets asked for}"
fi

# ---- the summary: OUT_DIR/summary.md, its charts in OUT_DIR/charts ----
# (tl-summary in OUT_DIR, so that the Markdown links the charts as they
# lie; a failed gate, exit 3, publishes all the same)
sumst=0
if [ "$summary" = 1 ]; then
	tl_step summary start
	set -- --plots charts
	for g in $gates; do set -- "$@" --max-regression "$g"; done
	set -- "$@" -- "$out"
	[ "$tracediff" = 0 ] || set -- "$@" "$out/tracediff"
	(cd "$out" && exec tl-summary "$@") >"$out/summary.md" 2>"$work/summary.err"
	sumst=$?
	tl_step summary end
	case $sumst in
	0 | 3) ;;
	*) tl_progress_stop
	   flushnotes
	   tl_cat "$work/summary.err" >&2 2>/dev/null
	   exit 1 ;;
	esac
fi
tl_progress_stop
flushnotes
[ ! -s "$work/summary.err" ] || tl_cat "$work/summary.err" >&2 2>/dev/null
if [ -n "$xlsxout" ]; then
	hidden "$work/hidden"
	set --
	while IFS= read -r s; do set -- "$@" "$out/$s.csv"; done <"$work/order"
	text=
	[ ! -s "$work/text" ] || text=$work/text
	tl_book_write "$work/hidden" "$text" "$@"
fi
[ -z "$odir" ] || tl_publish "$out"
[ -z "$xlsxout" ] || tl_book_publish
exit "$sumst"
