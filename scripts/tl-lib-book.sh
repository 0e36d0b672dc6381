# See LICENSE file for copyright and license details.
#
# tl-lib-book.sh: workbooks at the edges of the tl scripts that read or
# write them (tl-report, tl-compare, tl-ranks), through tl-xlsx(1).
# Sourced after tl-lib.sh, whose functions these call; defines
# functions and nothing else:
#
#	tl_isbook, tl_bookname, tl_rpbookname, tl_unpack (a workbook in),
#	tl_outpair, tl_outbook, tl_book_write, tl_book_dir,
#	tl_book_publish (a workbook out)
#
# (Apart from tl-lib.sh: tl-tracediff and the report's stages never
# read a workbook, and this is a purpose of its own.)

# Reports stay CSV directories inside the pipelines: a workbook given
# as an input is unpacked into one at the start, and a workbook asked
# for is written from one at the end, beside its final name, then
# renamed into place (tl_outbook, tl_book_write, tl_book_publish).

# tl_isbook REPORT: is REPORT a workbook?  As for TraceLens, a report
# that exists and is not a directory is read as one.
tl_isbook() {
	[ ! -d "$1" ] && [ -e "$1" ]
}

# tl_bookname TRACE: the workbook TraceLens writes for TRACE when no
# output is named: TRACE up to its last ".json", then
# "_perf_report.xlsx" (x.json.gz -> x_perf_report.xlsx).
tl_bookname() {
	case $1 in
	*.json*) printf '%s_perf_report.xlsx\n' "${1%.json*}" ;;
	*) printf '%s_perf_report.xlsx\n' "$1" ;;
	esac
}
# tl_rpbookname TRACE: the workbook TraceLens's rocprof report writes
# for TRACE, rocprofv3 results, when no output is named: TRACE with every
# "_results.json" replaced by "_perf_report.xlsx" (Python's str.replace)
# when it ends with one, as rocprofv3 names its files, otherwise as
# tl_bookname.
tl_rpbookname() {
	case $1 in
	*_results.json) ;;
	*) tl_bookname "$1"; return ;;
	esac
	_tb_r= _tb_s=$1
	while :; do
		case $_tb_s in
		*_results.json*) ;;
		*) break ;;
		esac
		_tb_r=$_tb_r${_tb_s%%_results.json*}_perf_report.xlsx
		_tb_s=${_tb_s#*_results.json}
	done
	printf '%s%s\n' "$_tb_r" "$_tb_s"
}

# tl_unpack BOOK DIR: every sheet of the workbook BOOK into the new
# directory DIR, one CSV file each, as pandas' read_excel reads it.  A
# bad workbook: tl-xlsx's one line, naming BOOK; returns 1.
tl_unpack() {
	tl-xlsx -d "$2" -- "$1"
}

# tl_outpair OUT BOOK: both outputs asked for: BOOK may not be OUT_DIR,
# nor inside it (--force replaces OUT_DIR whole).  Called before
# tl_outdir and tl_outbook make anything, for it is bad usage.
tl_outpair() {
	_tp_o=$(tl_abs "$1") _tp_b=$(tl_abs "$2")
	_tp_o=$(tl_real "${_tp_o%/}" 2>/dev/null) &&
	    _tp_b=$(tl_real "$_tp_b" 2>/dev/null) || return 0
	case $_tp_b in
	"$_tp_o") usage_die "$2: named as both the workbook and OUT_DIR" ;;
	"$_tp_o"/*) usage_die "$2: inside OUT_DIR, which is replaced whole" ;;
	esac
}

# tl_outbook BOOK FORCE INPUT...: check the workbook BOOK before any
# work, as tl_outdir checks OUT_DIR: its parent exists; an existing BOOK
# needs FORCE=1 and may not be a directory or an input.  Then make the
# directory it is written in, beside BOOK: TL_BOOKSTAGE.  TL_BOOK is
# BOOK, absolute; TL_BOOKNAME as given, for messages.
tl_outbook() {
	_tb_book=$1 _tb_force=$2
	shift 2
	case $_tb_book in
	'' | */) die "${_tb_book:-''}: not a workbook's name" ;;
	esac
	TL_BOOK=$(tl_abs "$_tb_book") TL_BOOKNAME=$_tb_book
	_tb_parent=${TL_BOOK%/*}
	[ -n "$_tb_parent" ] || _tb_parent=/
	tl_namemax "$_tb_book" "${TL_BOOK##*/}"
	[ -d "$_tb_parent" ] || die "$_tb_parent: no such directory"
	# A device or a fifo (/dev/null, a pipe), a link to one, or a link
	# in /dev or /proc (/dev/stdout) is written into, as a shell's >
	# would: renaming onto it would replace the node itself, which
	# root may do (/dev/null a workbook).  It replaces no data: no
	# FORCE needed; the workbook is made in TMPDIR.
	TL_BOOKINTO=
	if { [ -e "$TL_BOOK" ] && [ ! -f "$TL_BOOK" ] && [ ! -d "$TL_BOOK" ]; } ||
	    { [ -L "$TL_BOOK" ] && case $TL_BOOK in /dev/* | /proc/*) true ;; *) false ;; esac; }; then
		TL_BOOKINTO=1
		tl_mkdtemp "$(tl_abs "${TMPDIR:-/tmp}")/.$prog.XXXXXX" ||
			die "cannot make a temporary directory in ${TMPDIR:-/tmp}${_tl_mkwhy:-}"
		TL_BOOKSTAGE=$_tl_made
		return 0
	fi
	if [ -e "$TL_BOOK" ] || [ -L "$TL_BOOK" ]; then
		[ "$_tb_force" = 1 ] || die "$_tb_book: exists (use --force to replace it)"
		[ ! -d "$TL_BOOK" ] || die "$_tb_book: exists and is a directory"
		_tb_real=$(tl_real "$TL_BOOK") || _tb_real=$TL_BOOK
		for _tb_in; do
			[ "$(tl_real "$_tb_in" 2>/dev/null)" != "$_tb_real" ] ||
				die "$_tb_book: is the input $_tb_in: not replaced"
		done
	fi
	tl_mkdtemp "$_tb_parent/.$prog.XXXXXX" ||
		die "cannot make a temporary directory in $_tb_parent${_tl_mkwhy:-}"
	TL_BOOKSTAGE=$_tl_made
}

# tl_book_write HIDDEN TEXT FILE...: the workbook of the CSV files, one
# sheet each (named as the file, cut to 31 characters), in order, into
# TL_BOOKSTAGE; HIDDEN names the columns to hide and TEXT those written
# as text (tl-xlsx(1) -H and -T: files, or empty for none).  tl-xlsx's
# lines name the workbook as the user did; on a failure, one line (that
# the disk is full, or tl-xlsx's; not libxlsxwriter's own), and exit 1.
tl_book_write() {
	_tw_h=$1 _tw_t=$2
	shift 2
	set -- -o "$TL_BOOKSTAGE/book.xlsx" -- "$@"
	[ -z "$_tw_t" ] || set -- -T "$_tw_t" "$@"
	[ -z "$_tw_h" ] || set -- -H "$_tw_h" "$@"
	_tw_st=0
	_tw_e=$(tl-xlsx "$@" 2>&1 >/dev/null) || _tw_st=1
	if [ "$_tw_st" = 1 ]; then
		tl_nospace "$TL_BOOKSTAGE" "$TL_BOOKNAME" && exit 1
		_tw_e=$(printf '%s\n' "$_tw_e" | grep '^tl-xlsx: ')
		# a sheet's file is a work file: the workbook and the sheet
		# are named instead (a tag Excel refuses in a sheet name)
		for _tw_f; do
			case $_tw_f in *.csv | *.tsv) ;; *) continue ;; esac
			_tw_s=${_tw_f##*/}
			_tw_s=${_tw_s%.*}
			while :; do
				case $_tw_e in
				*"$_tw_f: "*)
					_tw_e=${_tw_e%%"$_tw_f: "*}"$TL_BOOKNAME: sheet $_tw_s: "${_tw_e#*"$_tw_f: "} ;;
				*) break ;;
				esac
			done
		done
	fi
	while :; do
		case $_tw_e in
		*"$TL_BOOKSTAGE/book.xlsx"*)
			_tw_e=${_tw_e%%"$TL_BOOKSTAGE/book.xlsx"*}$TL_BOOKNAME${_tw_e#*"$TL_BOOKSTAGE/book.xlsx"} ;;
		*) break ;;
		esac
	done
	[ -z "$_tw_e" ] || printf '%s\n' "$_tw_e" >&2 2>/dev/null
	[ "$_tw_st" = 0 ] || exit 1
}

# tl_book_dir HIDDEN TEXT DIR ORDER: tl_book_write of DIR's CSV files,
# those of the sheets named in ORDER (words) first, in that order, as
# TraceLens writes them, then the others (tl's own sheets).
tl_book_dir() {
	_tbd_h=$1 _tbd_t=$2 _tbd_d=$3 _tbd_o=$4
	_tbd_w=
	set --
	for _tbd_s in $_tbd_o; do
		_tbd_w="$_tbd_w $_tbd_s"
		[ ! -f "$_tbd_d/$_tbd_s.csv" ] || set -- "$@" "$_tbd_d/$_tbd_s.csv"
	done
	for _tbd_f in "$_tbd_d"/*.csv; do
		[ -f "$_tbd_f" ] || continue
		_tbd_s=${_tbd_f##*/}
		case "$_tbd_w " in *" ${_tbd_s%.csv} "*) continue ;; esac
		set -- "$@" "$_tbd_f"
	done
	[ $# -gt 0 ] || die "$TL_BOOKNAME: no sheet to write"
	tl_book_write "$_tbd_h" "$_tbd_t" "$@"
}

# tl_book_publish: the workbook tl_book_write wrote becomes TL_BOOK, by
# one rename: it appears complete or not at all (a device or a fifo,
# TL_BOOKINTO: written into, whole once the workbook is done).
tl_book_publish() {
	if [ -n "$TL_BOOKINTO" ]; then
		cat -- "$TL_BOOKSTAGE/book.xlsx" >"$TL_BOOK" 2>/dev/null ||
			die "$TL_BOOKNAME: cannot write the workbook into it"
		return 0
	fi
	mv -f -T -- "$TL_BOOKSTAGE/book.xlsx" "$TL_BOOK" 2>/dev/null ||
		die "cannot rename the workbook into $TL_BOOK"
}
