# See LICENSE file for copyright and license details.
#
# tl-lib.sh: what the tl scripts share.  Sourcing it defines functions
# and nothing else; a script then calls tl_init first:
#
#	. "$(cd -- "$(dirname -- "$0")" && pwd)/tl-lib.sh"
#	tl_init tl-report 4M
#
# What is here, once for every script:
#   options   tl_opt, tl_arg: GNU long options, --opt=value, and
#             TraceLens's snake_case spellings as aliases
#   errors    die (exit 1, bad data), usage_die (exit 2, bad usage),
#             note (a notice; stderr that cannot be written is no error)
#   settings  TL_SORT_MEM checked before anything runs
#   places    tl_workdir (work files and sort's spills, in TMPDIR),
#             tl_outdir (the output built beside OUT_DIR), tl_publish
#             (renamed into place, atomically, even against other runs),
#             tl_owndir (a directory of the caller's removed at exit)
#   workbooks not here: tl-lib-book.sh, which the scripts that read or
#             write them source after this file
#   signals   exit 130, 143 and 129 on INT, TERM and HUP; the process
#             groups started with tl_spawn stopped, then the
#             directories removed, on any exit
#   progress  tl_progress, tl_step, tl_progress_stop: one line on a
#             terminal, the share of the traces read and the stages
#             running
#   stages    st and ok (a failure anywhere in a pipeline is caught),
#             tl_sort, hsort, tl_tree_stage, tl_stage (one stage of
#             tl-report's engine: see tl-internals(7))
#
# POSIX sh; the errors are one line, "prog: what".

# ---- errors ----

# note MSG...: one line on stderr; a stderr that cannot be written
# loses the line, not the result.
note() {
	# (the progress line, if any, cleared first: the note takes its place)
	[ -z "${_tl_painter:-}" ] || printf '\r\033[K' >&2 2>/dev/null
	printf '%s: %s\n' "${prog:-tl}" "$*" >&2 2>/dev/null || :
}
# die MSG...: bad data or a failure (exit 1).
die() {
	note "$@"
	exit 1
}
# usage_die MSG...: bad usage (exit 2): the message, then the script's
# usage(), which prints its synopsis and exits with the status given.
usage_die() {
	note "$@"
	usage 2 >&2
}

# ---- start ----

# tl_init PROG [SORTMEM]: the script's name, C locale, the directory
# of the tl programs first in PATH, the signal traps, and the settings
# checked: TL_SORT_MEM (default SORTMEM, else 4M) must be a size sort
# takes, or nothing would run (a sort that refuses its -S would leave
# its writer waiting on a fifo).
tl_init() {
	prog=$1
	# A standard descriptor that is closed (2>&-) would be the first
	# file we open, and our messages or a program's output would go
	# into it: /dev/null takes its place (the lines are lost, not the
	# run).  (The test dups it, and says nothing: true, not the special
	# built-in :, whose failed redirection would end the shell.)
	{ true; } 2>/dev/null 3<&0 || exec </dev/null
	{ true; } 2>/dev/null 3>&1 || exec >/dev/null
	{ true; } 3>&2 || exec 2>/dev/null
	LC_ALL=C
	export LC_ALL
	TAB='	' NL='
'
	case $0 in
	*/*) TL_BIN=${0%/*} ;;
	*) TL_BIN=. ;;
	esac
	TL_BIN=$(cd -P -- "${TL_BIN:-/}" && pwd) ||
		{ echo "$prog: cannot find the directory of $0" >&2; exit 1; }
	PATH=$TL_BIN:$PATH
	export PATH TL_BIN
	# (our own default needs no sort to try it: a process less a run)
	case ${TL_SORT_MEM:-} in
	'' | "${2:-4M}") TL_SORT_MEM=${2:-4M} ;;
	*[!0-9bKMGTkmgt%]* | [!0-9]*) false ;;
	*) sort -S "$TL_SORT_MEM" </dev/null >/dev/null 2>&1 ;;
	esac || { note "TL_SORT_MEM: not a size sort(1) takes: '$TL_SORT_MEM' (such as 4M)"; exit 2; }
	export TL_SORT_MEM
	_tl_dirs= _tl_groups= _tl_painter= _tl_spc= _tl_fifos= _tl_fifojob=
	_tl_dropper= TL_DROPQ=
	# (1: called by a TraceLens name, an existing OUT_DIR is written
	# into, not replaced: tl_outdir, tl_publish)
	TL_MERGE=0
	trap tl_cleanup EXIT
	trap 'tl_signal 130' INT
	trap 'tl_signal 143' TERM
	trap 'tl_signal 129' HUP
	# A reader of our standard error that went away (the terminal's
	# pipeline killed with us) must not kill us on a note's write,
	# before the cleanup: the write fails and the line is lost
	# (caught, not ignored, so the programs we run still die of it).
	trap : PIPE
}

# ---- options ----

# tl_opt "$@": look at the next argument.  Returns 1 at the first
# operand (and after "--", which it consumes: optn=1).  Otherwise sets
# opt to the option with TraceLens's underscores made dashes
# (--short_kernel_study is --short-kernel-study) and any "=VALUE"
# split off, and optn=1 (the number of arguments to shift).  A script:
#
#	while tl_opt "$@"; do
#		case $opt in
#		--force) force=1 ;;
#		--bins) tl_arg "$@"; bins=$optarg ;;
#		*) tl_badopt ;;
#		esac
#		shift "$optn"
#	done
#	shift "$optn"
tl_opt() {
	optn=0 _tl_inline= _tl_hasinline=0
	[ $# -gt 0 ] || return 1
	case $1 in
	--) optn=1; return 1 ;;
	--*=*) opt=${1%%=*} _tl_inline=${1#*=} _tl_hasinline=1 ;;
	-?*) opt=$1 ;;
	*) return 1 ;;
	esac
	# (TraceLens's underscores: --a_b_c is --a-b-c)
	while :; do
		case $opt in
		--*_*) opt=${opt%%_*}-${opt#*_} ;;
		*) break ;;
		esac
	done
	optn=1
	return 0
}
# tl_arg [int|sint|posint] "$@": the option takes a value: optarg, from
# "--opt=VALUE" or the next argument (then optn=2); a whole number
# (sint: perhaps negative; posint: above 0) when asked.  (The kind comes first: after "$@" it
# would be taken for the value of an option given last without one.)
tl_arg() {
	_ta_kind=
	case $1 in int | sint | posint) _ta_kind=$1; shift ;; esac
	if [ "$_tl_hasinline" = 1 ]; then
		optarg=$_tl_inline
	else
		[ $# -ge 2 ] || usage_die "option $opt needs a value"
		optarg=$2
		optn=2
	fi
	case $_ta_kind in
	int | sint | posint) tl_num "$_ta_kind" ;;
	esac
}
# tl_num int|sint|posint: optarg is a whole number (sint: perhaps
# negative, as TraceLens's argparse type=int takes it; posint: above 0),
# made plain decimal as int() reads it: white space around it, a sign
# "+", leading zeros and single underscores between digits dropped
# (" 010 " and "1_0" are ten, not the shell's octal eight or an error).
tl_num() {
	_tn_s= _tn_d=$optarg
	while :; do
		case $_tn_d in
		[[:space:]]*) _tn_d=${_tn_d#?} ;;
		*[[:space:]]) _tn_d=${_tn_d%?} ;;
		*) break ;;
		esac
	done
	case $1:$_tn_d in
	*:+* | sint:-*) _tn_s=${_tn_d%"${_tn_d#?}"} _tn_d=${_tn_d#?} ;;
	esac
	case $_tn_d in
	'' | _* | *_ | *__* | *[!0-9_]*) usage_die "$opt: not a whole number: $optarg" ;;
	esac
	while :; do
		case $_tn_d in
		*_*) _tn_d=${_tn_d%%_*}${_tn_d#*_} ;;
		*) break ;;
		esac
	done
	while :; do
		case $_tn_d in
		0?*) _tn_d=${_tn_d#0} ;;
		*) break ;;
		esac
	done
	[ "$_tn_s" = - ] && [ "$_tn_d" != 0 ] || _tn_s=
	optarg=$_tn_s$_tn_d
	[ "$1" != posint ] || [ "$optarg" != 0 ] ||
		usage_die "$opt must be positive"
}
# tl_abbrev NAME...: opt (a long option) as TraceLens's argparse takes
# it: a NAME (with its --), or an unambiguous prefix of one, made that
# NAME; otherwise left as it is.  The prefix of several NAMEs returns 1,
# with them in TL_ABBREV (space-separated), for the caller's usage error.
tl_abbrev() {
	case $opt in --?*) ;; *) return 0 ;; esac
	TL_ABBREV=
	for _ta_n; do
		[ "$_ta_n" = "$opt" ] && return 0
		case $_ta_n in "$opt"*) TL_ABBREV="$TL_ABBREV $_ta_n" ;; esac
	done
	TL_ABBREV=${TL_ABBREV# }
	case $TL_ABBREV in
	'') ;;
	*' '*) return 1 ;;
	*) opt=$TL_ABBREV ;;
	esac
	return 0
}
# tl_noarg: the option takes no value ("--force=1" is an error).
tl_noarg() {
	[ "$_tl_hasinline" = 0 ] || usage_die "option $opt takes no value"
}
tl_badopt() {
	usage_die "unknown option: $opt"
}

# ---- inputs and outputs ----

# tl_quote STRING: STRING quoted for sh, as one word.
tl_quote() {
	_tq_s=$1 _tq_o=
	while :; do
		case $_tq_s in
		*\'*) _tq_o="$_tq_o${_tq_s%%\'*}'\\''" _tq_s=${_tq_s#*\'} ;;
		*) break ;;
		esac
	done
	printf "'%s%s'\n" "$_tq_o" "$_tq_s"
}

# tl_abs PATH: PATH made absolute (not resolved), so that no later
# command takes a name starting with "-" for an option.
tl_abs() {
	case $1 in
	/*) printf '%s\n' "$1" ;;
	*) printf '%s\n' "$(pwd)/$1" ;;
	esac
}
# tl_absv PATH: tl_abs into TL_ABS, without the fork of a $(...): the
# shell's PWD is what its pwd prints.
tl_absv() {
	case $1 in
	/*) TL_ABS=$1 ;;
	*) if [ -n "${PWD:-}" ]; then TL_ABS=$PWD/$1; else TL_ABS=$(pwd)/$1; fi ;;
	esac
}

# tl_input FILE [nodir]: FILE can be read as a trace: a file, a pipe
# (process substitution, /dev/stdin) or a device (with nodir, not a
# directory either).
tl_input() {
	[ -r "$1" ] && { [ -z "${2:-}" ] || [ ! -d "$1" ]; } || die "$1: cannot read"
}

# tl_bare FILE NAME: a notice when FILE, a regular file, is a bare array
# of events (the Chrome trace format allows it, and tl reads it as an
# object's traceEvents): TraceLens reads only an object, and fails on it
# (AttributeError) before writing anything.  A pipe is not read here.
# The one place of its wording: tl-report, tl-tracediff and tl-ranks
# (a notice a rank) give it.  TL_BARE_SAID=1 in the environment: the
# caller has said it (tl-ranks, of the tl-report it runs on a rank).
tl_bare() {
	[ -f "$1" ] && [ "${TL_BARE_SAID:-}" != 1 ] || return 0
	tl_top "$1"
	[ "$TL_TOP" = array ] || return 0
	_tl_baresay "$2"
}
_tl_baresay() {
	echo "$prog: $1: a bare array of events (TraceLens fails on it, wanting a traceEvents object): read as one" >&2
}
# tl_bare2 FILE1 FILE2 OUT: tl_bare FILE1 FILE1, then tl_bare FILE2
# FILE2, both asked of one tl-meta (a process less), in the background
# (off the way to the work), its answer into OUT, a work file;
# tl_bare2_say FILE1 FILE2 OUT then says it.  When it fails (it stops at
# a file it cannot read), each is asked on its own, as tl_bare asks.
tl_bare2() {
	_tl_bare2=
	[ -f "$1" ] && [ -f "$2" ] && [ "${TL_BARE_SAID:-}" != 1 ] || return 0
	tl-meta -t -- "$1" "$2" >"$3" 2>/dev/null &
	_tl_bare2=$!
}
tl_bare2_say() {
	# (three lines: the header, then a record a file, whose name
	# tl-meta escapes: a line each)
	if [ -n "${_tl_bare2:-}" ] && wait "$_tl_bare2" &&
	    { IFS= read -r _tb_1 && IFS= read -r _tb_1 &&
	      IFS= read -r _tb_2; } <"$3"; then
		[ "${_tb_1##*"$TAB"}" != array ] || _tl_baresay "$1"
		[ "${_tb_2##*"$TAB"}" != array ] || _tl_baresay "$2"
		return 0
	fi
	tl_bare "$1" "$1"
	tl_bare "$2" "$2"
}

# tl_top FILE: TL_TOP, the kind of FILE's top-level value, as tl-meta
# -t gives it (object, array, rocprofv3, or empty), in one process; the
# answer for the last FILE is kept (the callers ask twice: the kind of
# report, then the notice).
tl_top() {
	[ -z "${_tl_topf:-}" ] || [ "$1" != "$_tl_topf" ] || return 0
	TL_TOP=
	_tl_topr=$(tl-meta -t -- "$1" 2>/dev/null) && TL_TOP=${_tl_topr##*"$TAB"}
	_tl_topf=$1
}

# tl_real PATH: the directory of PATH with every symbolic link resolved,
# then its last name (a directory resolved whole).
tl_real() {
	if [ -d "$1" ]; then
		(cd -P -- "$1" && pwd)
	else
		case $1 in
		*/*) _tr_d=${1%/*} ;;
		*) _tr_d=. ;;
		esac
		_tr_d=$(cd -P -- "${_tr_d:-/}" && pwd) || return 1
		printf '%s/%s\n' "${_tr_d%/}" "${1##*/}"
	fi
}

# tl_outdir OUT FORCE INPUT...: check OUT_DIR before any work: its
# parent exists (made when missing); an existing OUT needs FORCE=1 and must be a directory;
# OUT may not be, or hold, an input (--force would delete it).  Then
# make the directory the output is built in, beside OUT (the same file
# system, for the rename): TL_STAGE.  TL_OUT is OUT, absolute.
tl_outdir() {
	tl_outcheck "$@"
	tl_outstage
}
# tl_outcheck OUT FORCE INPUT...: tl_outdir's checks (no process but
# a missing parent's mkdir -p), and TL_OUT; TL_OUTPARENT is the
# directory TL_STAGE goes in.  tl_outstage then makes TL_STAGE: a
# script may make it while its work has begun (tl-tracediff: beside
# the trees, a mktemp and two files off their way).
tl_outcheck() {
	_to_out=$1 _to_force=$2
	shift 2
	# (it was /: "/: exists (use --force to replace it)")
	[ -n "$_to_out" ] || usage_die "an empty name is no OUT_DIR"
	while :; do
		case $_to_out in
		?*/) _to_out=${_to_out%/} ;;
		*) break ;;
		esac
	done
	[ -n "$_to_out" ] || _to_out=/
	tl_absv "$_to_out"
	TL_OUT=$TL_ABS
	_to_parent=${TL_OUT%/*}
	[ -n "$_to_parent" ] || _to_parent=/
	tl_namemax "$_to_out" "${TL_OUT##*/}"
	# (TraceLens's os.makedirs makes the missing folders of an output
	# folder: they stay, as its do, if the run then fails)
	if [ ! -d "$_to_parent" ]; then
		_to_e=$(mkdir -p -- "$_to_parent" 2>&1) ||
			die "${_to_out%/*}: cannot make the folder${_to_e:+: ${_to_e##*: }}"
	fi
	if [ -e "$TL_OUT" ] || [ -L "$TL_OUT" ]; then
		[ "$_to_force" = 1 ] || [ "$TL_MERGE" = 1 ] ||
			die "$_to_out: exists (use --force to replace it)"
		[ -d "$TL_OUT" ] || die "$_to_out: exists and is not a directory"
		_to_real=$(cd -P -- "$TL_OUT" && pwd) || _to_real=$TL_OUT
		for _to_in; do
			_to_rin=$(tl_real "$_to_in") || continue
			# (written into, only an input that is the folder itself
			# would be overwritten: a report's sheets)
			case $TL_MERGE:$_to_rin in
			1:"$_to_real")
				die "$_to_out: is the input $_to_in: not written into" ;;
			1:*) ;;
			*:"$_to_real" | *:"$_to_real"/*)
				die "$_to_out: holds the input $_to_in: not replaced" ;;
			esac
		done
	fi
	TL_OUTPARENT=$_to_parent
}
tl_outstage() {
	tl_mkdtemp "$TL_OUTPARENT/.$prog.XXXXXX" ||
		die "cannot make a temporary directory in $TL_OUTPARENT${_tl_mkwhy:-}"
	TL_STAGE=$_tl_made
}

# tl_namemax NAME BASE: an output whose last name, BASE, is longer than
# a file name may be (255 bytes) is an error before any work: the
# rename at the end failed, the output made and thrown away.
tl_namemax() {
	[ "${#2}" -le 255 ] || die "$1: name too long (${#2} bytes; a file system takes 255)"
}

# tl_workdir: the work directory, in TMPDIR (default /tmp), for the
# work files and sort's spills: TL_WORK, and TMPDIR from now on.
tl_workdir() {
	tl_absv "${TMPDIR:-/tmp}"
	_tw_tmp=$TL_ABS
	tl_mkdtemp "$_tw_tmp/$prog.XXXXXX" ||
		die "cannot make a temporary directory in ${TMPDIR:-/tmp}${_tl_mkwhy:-}"
	TL_WORK=$_tl_made
	TMPDIR=$TL_WORK
	export TMPDIR TL_WORK
}

# tl_owndir DIR: DIR, made by the caller, is removed on every exit, as
# the places above are (tl-ranks's jobs: a rank's folder made aside).
tl_owndir() {
	_tl_dirs="$_tl_dirs$1$NL"
}

# tl_publish DIR: DIR (inside TL_STAGE) becomes TL_OUT, atomically:
# OUT_DIR appears complete or not at all.  An OUT_DIR in the way is
# renamed into TL_STAGE first (and goes with it); runs that publish to
# one OUT_DIR at once each rename theirs whole, never one into another.
tl_publish() {
	if [ "$TL_MERGE" = 1 ] && [ -d "$TL_OUT" ]; then
		tl_merge "$1"
		return
	fi
	_tp_n=0
	[ ! -d "$TL_OUT" ] || mv -T -- "$TL_OUT" "$TL_STAGE/old" 2>/dev/null || :
	until _tp_e=$(mv -T -- "$1" "$TL_OUT" 2>&1); do
		_tp_n=$((_tp_n + 1))
		[ "$_tp_n" -le 100 ] && [ -d "$1" ] ||
			die "cannot rename the output into $TL_OUT${_tp_e:+: ${_tp_e##*: }}"
		mv -T -- "$TL_OUT" "$TL_STAGE/old.$_tp_n" 2>/dev/null || :
	done
}

# tl_merge DIR: each file of DIR (inside TL_STAGE) moved into the
# existing folder TL_OUT by a rename, replacing the one of its name, the
# folder's other files kept: as TraceLens writes its CSV files into
# os.makedirs(exist_ok=True) (TL_MERGE, its command names).  A
# directory of DIR replaces one of its name whole (moved into TL_STAGE
# first, and gone with it).  OUT_DIR is then whole file by file, not at
# once.
tl_merge() {
	case $- in *f*) _tm_nf=1 ;; *) _tm_nf= ;; esac
	set +f
	_tm_n=0
	for _tm_f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
		[ -e "$_tm_f" ] || [ -L "$_tm_f" ] || continue
		_tm_b=${_tm_f##*/}
		if [ -d "$TL_OUT/$_tm_b" ] && [ ! -L "$TL_OUT/$_tm_b" ]; then
			_tm_n=$((_tm_n + 1))
			mv -T -- "$TL_OUT/$_tm_b" "$TL_STAGE/old.$_tm_n" 2>/dev/null || :
		fi
		_tm_e=$(mv -f -T -- "$_tm_f" "$TL_OUT/$_tm_b" 2>&1) ||
			die "cannot rename $_tm_b into $TL_OUT${_tm_e:+: ${_tm_e##*: }}"
	done
	[ -z "$_tm_nf" ] || set -f
}

# tl_nospace DIR NAME: when the file system of DIR is full, say so
# (NAME: no space left on device) and return 0: a failing program's own
# message may have gone with the space.
tl_nospace() {
	_tn_av=$(df -Pk -- "$1" 2>/dev/null | awk 'NR == 2 { print $4 }')
	case $_tn_av in
	'' | *[!0-9]*) return 1 ;;
	esac
	[ "$_tn_av" -lt 64 ] || return 1
	note "$2: no space left on device"
}

# tl_spacecheck DIR NAME: when the script fails (exit status not 0,
# not a signal), say "NAME: no space left on device" if DIR's file
# system is full: for scripts whose programs write straight into the
# output, whose own messages name only their standard output.  The
# first full one of those registered is named.
tl_spacecheck() {
	_tl_spc="$_tl_spc$1$TAB$2$NL"
}
_tl_spacesay() {
	printf '%s' "$_tl_spc" | while IFS=$TAB read -r _ts_d _ts_n; do
		tl_nospace "$_ts_d" "$_ts_n" && break
	done
	_tl_spc=
}

# ---- signals and cleanup ----

# tl_spawn CMD...: run CMD in the background in a process group of its
# own (a new session), so that tl_stop ends it and everything it
# started at once; TL_SPAWNED is its pid (and group id).  It reads the
# script's standard input.  The group
# gets no signal from the terminal: the traps pass them on.
tl_spawn() {
	# (an asynchronous command's stdin is /dev/null, before its own
	# redirections: ours comes through fd 7; a trace may be /dev/stdin)
	{ setsid "$@" <&7 & } 7<&0
	TL_SPAWNED=$!
	_tl_groups="$_tl_groups $TL_SPAWNED"
}

# tl_spawn_tty CMD...: as tl_spawn, for a program that asks the terminal
# its size (GNU parallel's --bar): its process group is made by job
# control, in the session of the terminal, which setsid would leave.
# Its standard input is /dev/null.  Only when the script has a terminal
# (tl_tty).
tl_spawn_tty() {
	set -m
	"$@" </dev/null &
	TL_SPAWNED=$!
	set +m
	_tl_groups="$_tl_groups $TL_SPAWNED"
}
# tl_tty: standard error is a terminal, the script's controlling one.
tl_tty() {
	[ -t 2 ] && { : </dev/tty; } 2>/dev/null
}

# tl_wait PID: wait for a process tl_spawn started; its status.  The
# group's other processes (ended or not) are then no longer ours.
tl_wait() {
	# (dash says "Terminated" of a job a signal ended: not ours to say)
	wait "$1" 2>/dev/null
	_tw_st=$?
	_tl_stopgroup "$1"
	return "$_tw_st"
}

# _tl_live G: has the process group G a process that is not a zombie?
# kill -0 counts zombies: a process of G that outlived its parent is
# one until the system's init reaps it, and an init that reaps late
# (or never, in a container) would hold every run a second here.
# Zombies write nothing, so they need no waiting for.  From /proc
# (field 3 of stat, after the state, is the group); without it, yes.
_tl_live() {
	[ -r /proc/self/stat ] || return 0
	awk -v g="$1" 'BEGIN {
		for (i = 1; i < ARGC; i++) {
			if ((getline l <ARGV[i]) > 0) {
				sub(/.*\) /, "", l)
				if (split(l, f, " ") >= 3 && f[3] == g && f[1] != "Z") exit 0
			}
			close(ARGV[i])
		}
		exit 1
	}' /proc/[0-9]*/stat
}

# Stop the process group G: TERM, and wait (about a second at most)
# until none of its processes is left, for they may be writing into
# the directories about to be removed; then KILL.  (G itself too: a
# signal may come before setsid has made the group.  dash's kill takes
# no "--": a negative number is the group.)
_tl_stopgroup() {
	kill -TERM "-$1" 2>/dev/null || kill -TERM "$1" 2>/dev/null || :
	# (G, our child, first: the others may outlive it)
	wait "$1" 2>/dev/null
	_tsg_n=0
	while kill -0 "-$1" 2>/dev/null && _tl_live "$1"; do
		_tsg_n=$((_tsg_n + 1))
		if [ "$_tsg_n" -gt 100 ]; then
			kill -KILL "-$1" 2>/dev/null || :
			break
		fi
		sleep 0.01
	done
	_tsg_l= _tsg_ifs=$IFS
	IFS=' '
	for _tsg_g in $_tl_groups; do
		[ "$_tsg_g" = "$1" ] || _tsg_l="$_tsg_l $_tsg_g"
	done
	IFS=$_tsg_ifs
	_tl_groups=$_tsg_l
}

# tl_mkdtemp TEMPLATE: a new directory, as mktemp -d TEMPLATE makes it,
# its name in _tl_made and on the list tl_cleanup removes.  A signal
# that comes meanwhile is acted on once the name is listed: otherwise
# its trap could run after mktemp made the directory and before the
# name was listed, and leave the directory behind.
# The directory holds .tl-owner: the host, the PID namespace and the
# PID of the script that made it.  A run killed by SIGKILL (the OOM
# killer's) removes nothing, and its work directory can hold three
# times the trace: first, the directories of TEMPLATE's kind whose
# owner is gone from this host are removed (_tl_sweep).
tl_mkdtemp() {
	_tl_sweep "$1"
	_tl_mkwhy=
	_tl_hold=1 _tl_held=
	# (tl-mkfifo, static, writes the mark: a mktemp and a readlink less)
	_tl_made=$(tl-mkfifo -o "$$" -t "$1" 2>/dev/null) || _tl_made=
	[ -z "$_tl_made" ] || _tl_dirs="$_tl_dirs$_tl_made$NL"
	_tl_hold=0
	[ -z "$_tl_held" ] || tl_signal "$_tl_held"
	[ -n "$_tl_made" ] || return 1
	# (a umask of 777 makes it 000: of no use, one line from the caller,
	# which says why with _tl_mkwhy; on a full disk it has no mark, and
	# is then never taken for a dead run's)
	if [ ! -w "$_tl_made" ] || [ ! -x "$_tl_made" ]; then
		_tl_mkwhy=" (the umask, $(umask), denies its owner)"
		return 1
	fi
}

# _tl_sweep TEMPLATE: remove the directories named as TEMPLATE makes
# them whose .tl-owner names this host and PID namespace and a process
# that is gone.  One without the mark (being made, or another user's,
# unreadable) is kept; so is one holding old or old.N, the OUT_DIR that
# a killed tl_publish was replacing (the user's data).
_tl_sweep() {
	case $- in *f*) _tw_f=1; set +f ;; *) _tw_f=0 ;; esac
	for _tw_d in "${1%XXXXXX}"*; do
		[ -f "$_tw_d/.tl-owner" ] && [ ! -L "$_tw_d" ] || continue
		# (stderr first: the directory's own run may remove it after
		# the test above, and the shell then says it cannot open the
		# mark, on the user's stderr, before a later 2>/dev/null)
		{ IFS= read -r _tw_h && IFS= read -r _tw_n &&
		    IFS= read -r _tw_p; } 2>/dev/null <"$_tw_d/.tl-owner" || continue
		case $_tw_p in '' | *[!0-9]*) continue ;; esac
		! kill -0 "$_tw_p" 2>/dev/null || continue
		# (this host and namespace, as tl-mkfifo -o writes them: asked
		# only of a mark whose process is gone, a readlink on few runs)
		if [ -z "${_tl_me:-}" ]; then
			{ IFS= read -r _tl_me </proc/sys/kernel/hostname; } 2>/dev/null &&
			    [ -n "$_tl_me" ] || _tl_me=$(uname -n 2>/dev/null || echo -)
			_tl_me="$_tl_me$NL$(readlink /proc/self/ns/pid 2>/dev/null || echo -)"
		fi
		[ "$_tw_h$NL$_tw_n" = "$_tl_me" ] || continue
		[ ! -e "$_tw_d/old" ] || continue
		for _tw_o in "$_tw_d"/old.*; do break; done
		[ ! -e "$_tw_o" ] || continue
		# (a killed run's stages may still write there: the mark goes
		# back on what could not be removed, for a later run)
		rm -rf -- "$_tw_d" 2>/dev/null || [ ! -d "$_tw_d" ] ||
			{ printf '%s\n%s\n%s\n' "$_tw_h" "$_tw_n" "$_tw_p" \
			    >"$_tw_d/.tl-owner"; } 2>/dev/null
	done
	[ "$_tw_f" = 0 ] || set -f
}

# tl_cleanup: on every exit: the groups stopped, the progress line
# cleared, the background jobs waited for, the directories removed.
tl_cleanup() {
	# (first, while $? is still the script's status)
	[ "$?" = 0 ] || [ -z "$_tl_spc" ] || _tl_spacesay
	while [ -n "${_tl_groups# }" ]; do
		_tc_g=${_tl_groups# }
		_tl_stopgroup "${_tc_g%% *}"
	done
	tl_progress_stop
	# The fifos of _tl_fifos (lines), which the job _tl_fifojob may be
	# waiting to open and the script will not open now: opened, at
	# both ends at once, and closed, they let it go on to its end; again
	# until it has ended, for a process of it may come to its open
	# after (about two seconds at most: a job left waiting holds up
	# the wait below).  (A signal may come before the job's PID is
	# kept: it is then the last one started.)
	_tc_n=0
	while [ -n "${_tl_fifos:-}" ] && [ "$_tc_n" -lt 200 ] &&
	    { read -r _tc_p _tc_c _tc_s _tc_r; } 2>/dev/null </proc/"${_tl_fifojob:-$!}"/stat &&
	    [ "$_tc_s" != Z ]; do
		_tc_ifs=$IFS
		IFS=$NL
		for _tc_f in $_tl_fifos; do
			{ : <>"$_tc_f"; } 2>/dev/null
		done
		IFS=$_tc_ifs
		_tc_n=$((_tc_n + 1))
		[ "$_tc_n" = 1 ] || sleep 0.01
	done
	# (the dropper waits on its fifo for ever: killed, its files go
	# with the work directory)
	[ -z "${_tl_dropper:-}" ] || kill "$_tl_dropper" 2>/dev/null
	wait 2>/dev/null
	# (one rm for them all, and no pipeline: processes less a run;
	# the names are lines, not patterns)
	_tc_ifs=$IFS
	case $- in *f*) _tc_f=1 ;; *) _tc_f=0; set -f ;; esac
	IFS=$NL
	set -- $_tl_dirs
	IFS=$_tc_ifs
	[ "$_tc_f" = 1 ] || set +f
	[ $# = 0 ] || rm -rf -- "$@"
	_tl_dirs=
}
tl_signal() {
	# (held while tl_mkdtemp lists what mktemp made)
	if [ "${_tl_hold:-0}" = 1 ]; then
		_tl_held=$1
		return
	fi
	trap '' INT TERM HUP
	_tl_spc=
	tl_cleanup
	exit "$1"
}

# ---- progress ----
#
# When standard error is a terminal, the outermost script shows one
# line there, redrawn as the work goes (\r, and cleared at the end):
# the share of the traces read and the stages running.  What it shows
# comes as lines of events through a fifo, TL_PROGRESS, which every
# program and script under it inherits and writes to:
#   read ID BYTES SIZE    tl-parse -P: trace ID's bytes read so far of
#                         SIZE (empty when unknown), a few times a
#                         second
#   stage NAME start|end  tl_step: a stage began or ended
# A script started under another (TL_PROGRESS set) draws nothing
# itself: its events go to the outer one's line.  The painter (awk)
# holds no work up: tl-parse never waits on a full fifo, and the fifo
# always has a reader (fd 5 of the outermost script, held open), so
# no writer blocks on opening it.

# tl_progress QUIET: start the progress line when standard error is a
# terminal and QUIET is 0 (needs TL_WORK: tl_workdir first).
tl_progress() {
	[ -z "${TL_PROGRESS:-}" ] || return 0
	[ "$1" = 0 ] && [ -t 2 ] || return 0
	mkfifo "$TL_WORK/progress" 2>/dev/null || return 0
	exec 5<>"$TL_WORK/progress"
	_tl_paint <&5 >&2 2>/dev/null &
	_tl_painter=$!
	TL_PROGRESS=$TL_WORK/progress
	export TL_PROGRESS
}

# _tl_paint: the painter: reads the events on stdin, draws the line on
# stdout at each, ends at "end".  (sh, not awk: mawk reads a pipe a
# whole buffer at a time, and would draw nothing until the end.)
_tl_paint() {
	# (the lists below are of words; the script's IFS may be a newline)
	IFS=' '
	_tp_ids= _tp_st=
	while IFS=$TAB read -r _tp_k _tp_a _tp_b _tp_c; do
		case $_tp_k in
		read)
			# (ID is PID.N; BYTES and SIZE whole numbers)
			case $_tp_a$_tp_b$_tp_c in *[!0-9.]*) continue ;; esac
			_tp_v=${_tp_a%%.*}_${_tp_a#*.}
			case " $_tp_ids " in *" $_tp_v "*) ;; *) _tp_ids="$_tp_ids $_tp_v" ;; esac
			eval "_tp_r_$_tp_v=\${_tp_b:-0} _tp_z_$_tp_v=\$_tp_c" ;;
		stage)
			case $_tp_a in '' | *[!A-Za-z0-9_]*) continue ;; esac
			case " $_tp_st " in *" $_tp_a "*) ;; *) _tp_st="$_tp_st $_tp_a" ;; esac
			eval "_tp_n=\${_tp_s_$_tp_a:-0}"
			case $_tp_b in start) _tp_n=$((_tp_n + 1)) ;; *) _tp_n=$((_tp_n - 1)) ;; esac
			eval "_tp_s_$_tp_a=\$_tp_n" ;;
		end) return 0 ;;
		*) continue ;;
		esac
		_tp_l="$prog:" _tp_r=0 _tp_z=0 _tp_u=0
		for _tp_v in $_tp_ids; do
			eval "_tp_r=\$((_tp_r + _tp_r_$_tp_v)) _tp_c=\$_tp_z_$_tp_v"
			if [ -n "$_tp_c" ]; then _tp_z=$((_tp_z + _tp_c)); else _tp_u=1; fi
		done
		if [ -n "$_tp_ids" ] && [ "$_tp_u" = 0 ] && [ "$_tp_z" -gt 0 ]; then
			_tp_l="$_tp_l $((100 * _tp_r / _tp_z))% read"
		elif [ -n "$_tp_ids" ]; then
			_tp_l="$_tp_l $((_tp_r / 1000000)).$((_tp_r / 100000 % 10)) MB read"
		fi
		_tp_s=
		for _tp_v in $_tp_st; do
			eval "_tp_n=\$_tp_s_$_tp_v"
			[ "$_tp_n" -le 0 ] || _tp_s="$_tp_s${_tp_s:+, }$_tp_v"
		done
		[ -z "$_tp_s" ] || _tp_l="$_tp_l${_tp_ids:+ |} $_tp_s"
		printf '\r%.78s\033[K' "$_tp_l"
	done
}

# tl_step NAME start|end: the stage NAME began or ended (for the
# progress line; nothing without one).
tl_step() {
	[ -z "${TL_PROGRESS:-}" ] ||
		{ printf 'stage\t%s\t%s\n' "$1" "$2" >>"$TL_PROGRESS"; } 2>/dev/null || :
}

# tl_progress_stop: the progress line drawn to its end and cleared;
# nothing from here on.
tl_progress_stop() {
	[ -n "${_tl_painter:-}" ] || return 0
	printf 'end\n' >&5 2>/dev/null
	wait "$_tl_painter" 2>/dev/null
	exec 5>&-
	printf '\r\033[K' >&2 2>/dev/null
	_tl_painter=
	unset TL_PROGRESS
}

# ---- stages ----

# st CMD...: run one command of a pipeline; a failure is noted in
# TL_FAIL (sh has no pipefail).  The failed program has said why.  A
# note that cannot be written (a full disk) stops the whole run (the
# process group TL_PGID): no failure goes unseen.
st() {
	"$@" && return 0
	_st_s=$?
	{ echo "$1: exit $_st_s" >>"$TL_FAIL"; } 2>/dev/null ||
		kill -TERM "-${TL_PGID:-$$}" 2>/dev/null
	return 1
}
# ok: end the stage (a subshell) if the command just run, or one noted
# since the stage began, failed.
ok() {
	[ $? = 0 ] && [ ! -s "$TL_FAIL" ] || exit 1
}
# tl_sort ARGS: sort(1) as every tl sort runs: bytes, TL_SORT_MEM, the
# spills in TMPDIR, one thread (on buffers this small threads only cost).
tl_sort() {
	LC_ALL=C sort --parallel=1 -S "${TL_SORT_MEM:-4M}" -T "${TMPDIR:-/tmp}" "$@"
}
# hsort ARGS: sort the body of stdin, the header line first.
hsort() {
	IFS= read -r _hs_h || return 0
	printf '%s\n' "$_hs_h"
	tl_sort "$@"
}
# tl_cat FILE...: the short FILEs on stdout, without a process.
tl_cat() {
	for _tc_f; do
		while IFS= read -r _tc_l || [ -n "$_tc_l" ]; do
			printf '%s\n' "$_tc_l"
		done <"$_tc_f"
	done
}
# tl_rows FILE: FILE has a record after its header line.
tl_rows() {
	{ IFS= read -r _tr_l && IFS= read -r _tr_l; } <"$1"
}
# tl_head N FILE: the rows pandas's head(N) keeps of FILE's (after its
# header line): N, or all but the last -N when N is negative (argparse
# lets TraceLens's --topk options be negative); for tl-sheet -n.  Past
# 18 digits (Python's int has no bound) all rows, or none.
tl_head() {
	case $1 in
	-??????????????????*) echo 0 ;;
	-*) _th_n=$(($(wc -l <"$2") - 1 + $1)); [ "$_th_n" -ge 0 ] || _th_n=0; echo "$_th_n" ;;
	??????????????????*) echo 4611686018427387904 ;;
	*) echo "$1" ;;
	esac
}
# awkt ARGS: awk on tab-separated fields.
awkt() {
	awk -F '\t' -v OFS='\t' "$@"
}

# TL_AWK_LOOKUP: awk functions for a merge join on a numeric key with
# the file lf (key TAB value lines, ascending keys): lookup(U), for
# ascending U, is the value of lf's last line whose key is U, or "\001"
# when it has none.  (A join(1) that keeps one match, by number.)
TL_AWK_LOOKUP='
function lnext_() {
	if ((getline l_ <lf) > 0) { split(l_, lv_, "\t"); lk_ = lv_[1] + 0; lr_ = lv_[2] }
	else leof_ = 1
}
function lookup(u) {
	if (!lgo_) { lgo_ = 1; lcu_ = -1; lnext_() }
	while (!leof_ && lk_ <= u) { lcu_ = lk_; lcr_ = lr_; lnext_() }
	return lcu_ == u ? lcr_ : "\001"
}
'

# tl_stage NAME [VAR=VALUE...]: run the stage NAME of tl-report's
# engine: a recipe of its Makefile (tl-internals(7)), in the work
# directory.  The run's options (./options) and the facts the stages
# wrote (./*.facts) are read; the function NAME runs, when every
# VAR=VALUE holds, with its stderr in its log (TL_LOG/NAME, printed by
# tl-report at the end; R is the report directory); a line NAME
# appended to ./stages.ended then marks it done (one file for all the
# stages: on ext4 without a journal, making a file costs up to a
# third of a millisecond).  The first stage that fails names itself in
# TL_LOG/FAILED and stops the whole run (make's process group) at once.
# (The stage's shell has only the functions its file in tl-report.d
# holds: those whose names are words of the text of the stage, or of
# one it holds (scripts/report/generate split).  A function is called
# by its name, never through a variable.)
tl_stage() {
	_ts_name=$1
	shift
	TAB='	' NL='
'
	. ./options || return 1
	for _ts_f in ./*.facts; do
		[ ! -e "$_ts_f" ] || . "$_ts_f" || return 1
	done
	R=$TL_REPORT
	TL_FAIL=$TL_LOG/$_ts_name.fail
	# (make, our parent, leads the group)
	TL_PGID=$PPID
	_ts_st=0
	for _ts_c; do
		eval "[ \"\${${_ts_c%%=*}:-}\" = '${_ts_c#*=}' ]" || _ts_st=skip
	done
	if [ "$_ts_st" = 0 ]; then
		tl_step "$_ts_name" start
		# The function runs in this shell, which make started for the
		# stage alone: a subshell would be a fork more, in each of the
		# twenty stages.  ok's exit ends this shell, and the trap
		# then does what a failure must.
		trap '_tl_stage_failed; exit 1' EXIT
		set -u
		"$_ts_name" 2>"$TL_LOG/$_ts_name"
		_ts_st=$?
		set +u
		trap - EXIT
		[ ! -s "$TL_FAIL" ] || _ts_st=1
		tl_step "$_ts_name" end
		[ -z "${TL_STAGE_TIMES:-}" ] || _tl_account "$_ts_name"
	fi
	case $_ts_st in
	0 | skip)
		printf '%s\n' "$_ts_name" >>stages.ended || return 1
		_tl_free "$_ts_name"
		return 0 ;;
	esac
	_tl_stage_failed
	return 1
}

# _tl_stage_failed: the stage _ts_name failed: the first to fail names
# itself in TL_LOG/FAILED, and the whole run stops.
_tl_stage_failed() {
	(set -C; printf '%s\n' "$_ts_name" >"$TL_LOG/FAILED") 2>/dev/null
	kill -TERM "-$TL_PGID" 2>/dev/null
}

# _tl_account STAGE: append to the file TL_STAGE_TIMES (set by who
# measures, tests/bench/stages) what STAGE cost: NAME, user and system
# seconds of its processes, the bytes they wrote to files (sort's
# spills included), the bytes they wrote anywhere (pipes included), and
# the user and system seconds of the runner's own shell (which ran the
# function itself).  This shell ran the stage alone; the kernel adds a
# child's CPU and I/O to its parent's when it is waited for.
_tl_account() {
	_ta_w=0 _ta_c=0
	while read -r _ta_k _ta_v; do
		case $_ta_k in
		wchar:) _ta_c=$_ta_v ;;
		write_bytes:) _ta_w=$_ta_v ;;
		esac
	done </proc/$$/io
	# ($(times) would be a child's, which has none)
	times >"$TL_LOG/$1.times" || return 0
	{ read -r _ta_u _ta_s && read -r _ta_k _ta_v; } <"$TL_LOG/$1.times"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$_ta_k" "$_ta_v" \
		"$_ta_w" "$_ta_c" "$_ta_u" "$_ta_s" >>"$TL_STAGE_TIMES"
}

# _tl_free STAGE: STAGE has ended: remove the files of TL_REPORT_FREE
# (lines of FILE READER...) whose readers have all ended now (or do not
# run: _tl_wanted).  Each reader checks after its own end, so the last
# one removes the file.
_tl_free() {
	_tf_rm= _tf_ifs=$IFS
	# (the stages ended: one line each, appended by their runners)
	_tf_end=$NL
	while IFS= read -r _tf_l; do
		_tf_end=$_tf_end$_tf_l$NL
	done <stages.ended
	IFS=$NL
	for _tf_l in $TL_REPORT_FREE; do
		IFS=' '
		set -- $_tf_l
		_tf_f=$1
		shift
		case " $* " in *" $_ts_name "*) ;; *) continue ;; esac
		for _tf_r; do
			case $_tf_end in
			*"$NL$_tf_r$NL"*) ;;
			*) ! _tl_wanted "$_tf_r" || continue 2 ;;
			esac
		done
		_tf_rm="$_tf_rm $_tf_f"
	done
	IFS=$_tf_ifs
	tl_drop_later $_tf_rm
}

# tl_drop FILE...: done with the work files FILE: emptied, which frees
# their pages at once (on a VM, fresh page cache costs system time: the
# next files reuse these pages) and costs no process, as rm would.  The
# work directory goes at the end.  (true, not ':': a redirection that
# fails on a special built-in ends the shell, and a file that cannot
# be emptied is no error: it goes with the rest)
tl_drop() {
	for _td_f; do
		[ ! -e "$_td_f" ] || true 2>/dev/null >"$_td_f"
	done
}
# tl_drop_later FILE...: tl_drop FILE, in a run with a dropper
# (TL_DROPQ: tl_dropper) by the dropper, beside the work: for files
# that nothing reads, tests or writes again, whatever the time they are
# emptied (the dropper may come to them after the caller's next
# steps).  Handed over by their absolute names.
tl_drop_later() {
	if [ -z "${TL_DROPQ:-}" ] || [ ! -p "$TL_DROPQ" ]; then
		tl_drop "$@"
		return
	fi
	_td_l=
	for _td_f; do
		case $_td_f in
		/*) ;;
		*) _td_f=$PWD/$_td_f ;;
		esac
		_td_l="$_td_l$_td_f
"
	done
	# (one write, shorter than PIPE_BUF: whole, among the stages'
	# others; the fifo opened for reading too, so that the open never
	# waits, even on a dropper that tl_dropper_stop has ended)
	[ -z "$_td_l" ] || printf '%s' "$_td_l" 1<>"$TL_DROPQ"
}

# tl_dropper FIFO: from now on, tl_drop_later in this run (in its stages
# and jobs too, through TL_DROPQ) hands the files to a job of this shell
# that empties them as they come, their names a line each on FIFO (in
# the work directory), on a core the work leaves idle.  Emptying a file
# frees its pages, which on a VM costs about 0.3 ms a MB of system time
# (2 ms for split's copy of the events of the 50 MB h100-qwen trace, 6
# MB; 3 ms for the unified stage's files): done by the
# stage that read the file last, that time would come before the stages
# after it start.  The job makes FIFO itself, off the way to the work
# (tl_drop_later empties the files itself until FIFO exists), and holds it
# open for reading and writing: no writer waits on its open, and it
# sees no end of file between two writers.  tl_dropper_stop and
# tl_cleanup kill it: what it has not emptied goes with the work
# directory.
tl_dropper() {
	# (it says nothing: it only saves time, and a job that comes late,
	# once the run has ended, would write after it)
	{ exec 2>/dev/null
	  tl-mkfifo "$1" || exit
	  exec <>"$1"
	  while IFS= read -r _tdj_f; do
		[ ! -e "$_tdj_f" ] || true >"$_tdj_f"
	  done; } &
	_tl_dropper=$!
	TL_DROPQ=$1
	export TL_DROPQ
}
tl_dropper_stop() {
	[ -n "${_tl_dropper:-}" ] || return 0
	# (killed, not told to end: the job may not have made its fifo
	# yet, in a run that failed at once, and would then wait on it for
	# ever, and this wait with it)
	kill "$_tl_dropper" 2>/dev/null
	wait "$_tl_dropper" 2>/dev/null
	_tl_dropper= TL_DROPQ=
}

# _tl_wanted STAGE: the run's options let STAGE run (TL_WHEN_STAGE).
_tl_wanted() {
	eval "_tw_c=\${TL_WHEN_$1:-}"
	for _tw_c in $_tw_c; do
		eval "[ \"\${${_tw_c%%=*}:-}\" = '${_tw_c#*=}' ]" || return 1
	done
	return 0
}

# tl_prog NAME: the tl program NAME (first in PATH after tl_init; the
# one beside the sourcing script otherwise).
tl_prog() {
	case $0 in
	*/*) [ ! -x "${0%/*}/$1" ] || { printf '%s\n' "${0%/*}/$1"; return; } ;;
	esac
	printf '%s\n' "$1"
}

# tl_parse ARGS: tl-parse, reporting the bytes it reads to the progress
# line, if there is one.
tl_parse() {
	# (tl_prog's choice, without the fork of a $(...))
	_tlp_bin=tl-parse
	case $0 in
	*/*) [ ! -x "${0%/*}/tl-parse" ] || _tlp_bin=${0%/*}/tl-parse ;;
	esac
	"$_tlp_bin" ${TL_PROGRESS:+-P "$TL_PROGRESS"} "$@"
}

# tl_tree_stage EVENTS OUTDIR [TRACE [NAME]]: TraceLens's tree of a trace
# (tl-tree(1)).  EVENTS is tl-parse output with the default fields;
# OUTDIR receives gpu.tsv, ops.tsv, dropped_ops.tsv, intervals.tsv, walk.tsv, gpuev.tsv,
# meta.tsv, health.tsv, comm.tsv, fwd.tsv and sel.tsv (tl(7)), and
# tree.facts: cpu_ops (some cpu_op or python_func event), last_uid (the
# first field of the events' last line) and gpu_work (some GPU event is
# a kernel or linked), a NAME TAB VALUE line each.  With TRACE, the
# stage runs tl-parse on it itself, beside the first pass, and writes
# EVENTS; a trace tl-parse cannot read makes it print tl-parse's error
# alone and return 3.  TL_TREE_OPTS may add --python, --exact-time and
# --legacy-flows.  TL_TREE_LEAN=1 (tl-tracediff) leaves out the
# python functions of a TRACE (tl-parse -C), the passes of the forward
# links and of the overlap fact, walk.tsv, and
# the files tl-tracediff does not read: intervals.tsv, meta.tsv,
# sel.tsv, comm.tsv, fwd.tsv and tree.facts, and the facts of
# health.tsv but split's (TL_TREE_TMP may then be OUTDIR itself: no
# name is in both);
# with TL_TREE_FIFOS=1, TL_TREE_TMP holds the passes' fifos, made by
# the caller (with its directories, in one tl-mkfifo: tl_treefifos).
# TL_TREE_XBUSY=-x makes the subtree busy times of intervals.tsv exact
# (tl-report --exact-time: tl-kernels -x reads them).  TL_TREE_RECOMPUTE=1
# adds recompute.tsv: the UIDs of the host events in TraceLens's
# recompute subtrees (--detect_recompute), ascending, and callstack.tsv:
# each launching runtime event's UID and call stack (tl-tree -S), by UID.  NAME is what
# tl-parse's messages call TRACE: the name the user gave a trace that
# came on a pipe, when TRACE is the work copy of it.  TL_TREE_TMP, an
# empty directory the caller made and removes, is where the passes'
# fifos and files go (no mktemp, no rm: two processes less); otherwise
# a directory of their own in TMPDIR, removed at the end.
# TL_TREE_GPU_HOOK, a command, is run (eval, in a subshell, in the
# caller's directory) as soon as gpu.tsv is whole, beside the passes
# still running: tl-report reads the GPU events there, on the core they
# leave idle; its failure is the stage's.
tl_tree_stage() {
	_tt_ev=$1 _tt_out=$2 _tt_tr=${3:-} _tt_nm=${4:-}
	if [ $# -lt 2 ] || [ $# -gt 4 ] || [ ! -d "$_tt_out" ] ||
	    { [ -z "$_tt_tr" ] && [ ! -r "$_tt_ev" ]; }; then
		echo "tl_tree_stage: usage: tl_tree_stage EVENTS OUTDIR [TRACE [NAME]]" \
			"(a readable file, an existing directory)" >&2
		return 2
	fi
	# (tl_prog's choice, without the fork of a $(...))
	_tt_bin=tl-tree
	case $0 in
	*/*) [ ! -x "${0%/*}/tl-tree" ] || _tt_bin=${0%/*}/tl-tree ;;
	esac
	_tt_own=${TL_TREE_TMP:-}
	if [ -n "$_tt_own" ]; then
		_tt_t=$_tt_own
	else
		_tt_t=$(mktemp -d "${TMPDIR:-/tmp}/tl-tree.XXXXXX") || return 1
	fi
	# A trace on a descriptor (/dev/stdin, a pipe as /dev/fd/N) comes to
	# tl-parse as its standard input, through fd 8: the passes take the
	# low descriptors for their fifos.
	_tt_in=0 _tt_rd=$_tt_tr
	case $_tt_tr in
	/dev/fd/[0-9]* | /proc/self/fd/[0-9]*)
		_tt_in=${_tt_tr##*/}
		case $_tt_in in
		*[!0-9]*) _tt_in=0 ;;
		*) _tt_rd=/dev/stdin ;;
		esac ;;
	esac
	if [ -n "$_tt_tr" ]; then
		# the passes' errors wait: when the trace is bad, they are
		# only the echoes of tl-parse's
		(eval "exec 8<&$_tt_in" &&
		    _tl_tree_run "$_tt_bin" "$_tt_t" "$_tt_ev" "$_tt_out" ${TL_TREE_OPTS:-}) 2>"$_tt_t/err"
		_tt_st=$?
		if [ -e "$_tt_t/fail.parse" ]; then
			cat "$_tt_t/parse.err" >&2
			rm -f "$_tt_ev"
			_tt_st=3
		elif [ -s "$_tt_t/parse.err" ] || [ -s "$_tt_t/err" ]; then
			cat "$_tt_t/parse.err" "$_tt_t/err" >&2
		fi
	else
		_tl_tree_run "$_tt_bin" "$_tt_t" "$_tt_ev" "$_tt_out" ${TL_TREE_OPTS:-}
		_tt_st=$?
	fi
	# (the caller's directory: its two files that grow with the trace
	# emptied, their pages freed)
	if [ -n "$_tt_own" ]; then
		tl_drop_later "$_tt_t/l" "$_tt_t/rg" "$_tt_t/k" "$_tt_t/cs"
	else
		rm -rf "$_tt_t"
	fi
	[ "$_tt_st" = 0 ] && return 0
	# no half-made tree: what the passes wrote goes too
	rm -f "$_tt_out/ops.tsv" "$_tt_out/gpu.tsv" "$_tt_out/intervals.tsv" \
		"$_tt_out/walk.tsv" \
		"$_tt_out/dropped_ops.tsv" \
		"$_tt_out/gpuev.tsv" \
		"$_tt_out/comm.tsv" "$_tt_out/fwd.tsv" "$_tt_out/sel.tsv" \
		"$_tt_out/meta.tsv" "$_tt_out/health.tsv" "$_tt_out/recompute.tsv" \
		"$_tt_out/callstack.tsv" "$_tt_out/tree.facts"
	[ "$_tt_st" = 3 ] && return 3
	return 1
}

# tl_treefifos PROG DIR lean|all ARGS...: PROG (tl-mkfifo) ARGS, then
# the paths in DIR of the fifos of tl_tree_stage's passes: those of the
# lean passes (TL_TREE_LEAN=1: t0, t, g0, g, n, w0 and x0), or all of
# them (and q, o and w).  For a caller that makes them with its own
# directories (TL_TREE_FIFOS=1), and for the stage.
tl_treefifos() {
	_tf_p=$1 _tf_d=$2 _tf_k=$3
	shift 3
	set -- "$@" "$_tf_d/t0" "$_tf_d/t" "$_tf_d/g0" "$_tf_d/g" "$_tf_d/n" \
	    "$_tf_d/w0" "$_tf_d/x0"
	[ "$_tf_k" = lean ] || set -- "$@" "$_tf_d/q" "$_tf_d/o" "$_tf_d/w"
	"$_tf_p" "$@"
}

# The passes of tl_tree_stage; $5... are tl-tree options; fd 8 is
# what tl-parse reads as its standard input (an asynchronous list's
# own is /dev/null; the trace may be on a descriptor).  They all run
# at once, joined by pipes and fifos, so no sorted data touches the disk
# but what sort spills: sort is the barrier between passes.  Every fifo
# is opened by a shell redirection, at both ends, before its program
# runs, so that a program that fails early (a sort that refuses its
# options) still closes its end and nothing waits for ever: the writer
# then dies of a broken pipe.  A failure leaves a mark file (sh has no
# pipefail).
_tl_tree_run() {
	_tt_b=$1 _tt_t=$2 _tt_ev=$3 _tt_out=$4
	shift 4
	# (TL_TREE_RECOMPUTE=1: host's UIDs in recompute subtrees, as they
	# come, thread by thread; recompute.tsv sorted)
	_tt_k=
	[ "${TL_TREE_RECOMPUTE:-}" != 1 ] || _tt_k=$_tt_t/k
	# sort reads l after its standard input, when split has written it,
	# but wants it to exist from the start; and rg, host's ranges, after
	# link's launch records
	: >"$_tt_t/l" && : >"$_tt_t/rg" || return 1
	_tt_p1= _tt_p2= _tt_q=$_tt_t/q _tt_o=$_tt_t/o _tt_w=$_tt_t/w _tt_xc=
	# (the files only tl-report reads: see lean below)
	_tt_iv=$_tt_out/intervals.tsv _tt_mt=$_tt_out/meta.tsv
	_tt_sl=$_tt_out/sel.tsv _tt_cm=$_tt_out/comm.tsv _tt_fw=$_tt_out/fwd.tsv
	_tt_hf=$_tt_t/hf _tt_gf=$_tt_t/gf _tt_lf=$_tt_t/lf _tt_gw=$_tt_t/gw
	# (the fifos in one tl-mkfifo, beside tl-tree, without the subshell
	# of a cd: coreutils' mkfifo loads libselinux; with TL_TREE_FIFOS=1
	# the caller made them in TL_TREE_TMP, with its own directories)
	_tt_mk=${_tt_b%tl-tree}tl-mkfifo _tt_made=0
	[ "${TL_TREE_FIFOS:-}" != 1 ] || [ -z "$_tt_own" ] || _tt_made=1
	if [ "${TL_TREE_LEAN:-}" = 1 ]; then
		[ "$_tt_made" = 1 ] ||
			tl_treefifos "$_tt_mk" "$_tt_t" lean || return 1
		# (tl-tracediff's trees: no forward links, no overlap fact, five
		# processes less: split's q and o records go to /dev/null,
		# opened as such, no link to it made; w is empty, the overlap
		# fact none.  Nor the files it does not read: intervals.tsv and
		# meta.tsv go to /dev/null, sel.tsv, comm.tsv, fwd.tsv and
		# tree.facts are not made, and health.tsv has split's facts
		# alone (flows_legacy_followed among them): a file made costs
		# more than its writing here, 0.5 ms of system time in a busy
		# /tmp)
		_tt_q=/dev/null _tt_o=/dev/null _tt_w=/dev/null
		_tt_iv=/dev/null _tt_mt=/dev/null _tt_sl= _tt_cm= _tt_fw=
		_tt_hf= _tt_gf= _tt_lf= _tt_gw=
		# (nor the python functions, TraceDiff's trees have none: most
		# of a trace's events, which tl-parse leaves out, and split
		# never reads; its events_out_of_time_order then counts the
		# others alone)
		_tt_xc=python_function
	else
		[ "$_tt_made" = 1 ] ||
			tl_treefifos "$_tt_mk" "$_tt_t" all || return 1
	fi
	# The main line, forked first (tl-parse, then split, are on the
	# critical path; the passes after them wait for their data anyway):
	# host stacks, links (with a trace, split reads tl-parse's records as
	# they come, and keeps the copy that the later passes read); beside
	# it the subtrees: link's launch records and host's ranges (rg, read
	# once link has ended) by pre-order number, walked.  Link and walk
	# write x0, one after the other (walk reads nothing before link has
	# ended), through the one descriptor their group opened: a second
	# open of a fifo whose reader has gone would wait for ever.  That
	# open waits for intervals' sort, started just after: tl-parse, the
	# pipeline's first element, is outside the group and starts at once;
	# its records come to split on fd 8 (an asynchronous list's standard
	# input is /dev/null).
	_tt_wo=$_tt_out/walk.tsv
	[ "${TL_TREE_LEAN:-}" != 1 ] || _tt_wo=
	# (set here: a pipeline's elements are subshells)
	_tt_eo=
	[ -z "$_tt_tr" ] || _tt_eo=-e
	if [ -n "$_tt_tr" ]; then
		{ tl_parse -K -T ${_tt_nm:+-N "$_tt_nm"} ${_tt_xc:+-C "$_tt_xc"} -- "$_tt_rd" \
			<&8 8<&- 2>"$_tt_t/parse.err" ||
			: >"$_tt_t/fail.parse"; }
	else
		# (split reads the events file, named)
		:
	fi | {
	{ "$_tt_b" -m split "$@" ${_tt_k:+-k} -d "$_tt_t" -q /dev/fd/3 -O /dev/fd/4 -M "$_tt_mt" \
		${_tt_sl:+-s "$_tt_sl"} -G "$_tt_out/gpuev.tsv" $_tt_eo "$_tt_ev" \
		<&8 8<&- 3>"$_tt_q" 4>"$_tt_o" || : >"$_tt_t/fail.split"; } |
		{ tl_sort || : >"$_tt_t/fail.sort-h"; } |
		{ "$_tt_b" -m host "$@" -t /dev/fd/3 ${_tt_hf:+-f "$_tt_hf"} ${_tt_k:+-K "$_tt_k"} \
			${_tt_k:+-S "$_tt_t/cs"} \
			-r "$_tt_t/rg" 3>"$_tt_t/t0" || : >"$_tt_t/fail.host"; } |
		{ tl_sort - "$_tt_t/l" || : >"$_tt_t/fail.sort-l"; } |
		{ "$_tt_b" -m link "$@" -g /dev/fd/3 ${_tt_lf:+-f "$_tt_lf"} \
			-r /dev/fd/4 3>"$_tt_t/g0" 4>"$_tt_t/w0" ||
			: >"$_tt_t/fail.link"; } 8<&- &
	{ tl_sort - "$_tt_t/rg" <"$_tt_t/w0" || : >"$_tt_t/fail.sort-w"; } |
		{ "$_tt_b" -m walk "$@" ${TL_TREE_XBUSY:+-x} -e "$_tt_ev" \
			-G "$_tt_out/gpuev.tsv" ${_tt_wo:+-o "$_tt_wo"} ||
			: >"$_tt_t/fail.walk"; } 8<&- &
	wait
	} 8<&0 >"$_tt_t/x0" &
	_tt_p5=$!
	if [ "${TL_TREE_LEAN:-}" != 1 ]; then
		# sequence numbers to forward links, GPU streams to overlaps
		# (split writes q and o on the descriptors the shell opened for
		# it: a sort that fails makes its writes fail, and it ends)
		{ tl_sort <"$_tt_t/q" || : >"$_tt_t/fail.sort-q"; } |
			{ "$_tt_b" -m fwd "$@" || : >"$_tt_t/fail.fwd"; } |
			{ tl_sort || : >"$_tt_t/fail.sort-w"; } >"$_tt_t/w" &
		_tt_p1=$!
		{ tl_sort <"$_tt_t/o" || : >"$_tt_t/fail.sort-o"; } |
			{ "$_tt_b" -m overlap || : >"$_tt_t/fail.overlap"; } >"$_tt_t/ov" &
		_tt_p2=$!
	fi
	# tree records and launched events, sorted by UID for merge
	{ tl_sort <"$_tt_t/t0" || : >"$_tt_t/fail.sort-t"; } >"$_tt_t/t" &
	_tt_p3=$!
	# gpu.tsv, made as soon as link has ended (it needs no counts):
	# what merge has left to do after intervals is shorter; the other
	# launched events' records go on to merge
	# (then TL_TREE_GPU_HOOK, a reader of gpu.tsv, in the time the
	# later passes leave a core idle)
	{ { tl_sort <"$_tt_t/g0" || : >"$_tt_t/fail.sort-g"; } |
		{ "$_tt_b" -m gpu -d "$_tt_out" -e "$_tt_ev" \
			-G "$_tt_out/gpuev.tsv" ${_tt_gf:+-f "$_tt_gf"} \
			${_tt_gw:+-o "$_tt_gw"} ||
			: >"$_tt_t/fail.gpu"; } >"$_tt_t/g"
	  [ -z "${TL_TREE_GPU_HOOK:-}" ] || [ -e "$_tt_t/fail.gpu" ] ||
		(eval "$TL_TREE_GPU_HOOK") </dev/null >/dev/null ||
		: >"$_tt_t/fail.gpuhook"; } &
	_tt_p4=$!
	# link's interval records and walk's subtree records by op:
	# intervals.tsv, the counts for merge
	{ tl_sort <"$_tt_t/x0" || : >"$_tt_t/fail.sort-x"; } |
		{ "$_tt_b" -m intervals -e "$_tt_ev" -G "$_tt_out/gpuev.tsv" \
			-o "$_tt_iv" ${_tt_cm:+-c "$_tt_cm"} ||
			: >"$_tt_t/fail.intervals"; } \
		>"$_tt_t/n" &
	_tt_p7=$!
	"$_tt_b" -m merge -N -d "$_tt_out" -t /dev/fd/5 -n /dev/fd/4 \
		-w /dev/fd/6 -g /dev/fd/7 ${_tt_fw:+-a "$_tt_fw"} "$_tt_ev" \
		4<"$_tt_t/n" 5<"$_tt_t/t" 6<"$_tt_w" 7<"$_tt_t/g" ||
		: >"$_tt_t/fail.merge"
	# only our own jobs: the caller may have others running
	wait $_tt_p1 $_tt_p2 "$_tt_p3" "$_tt_p4" "$_tt_p5" "$_tt_p7"
	for _tt_f in "$_tt_t"/fail.*; do
		[ -e "$_tt_f" ] && return 1
	done
	if [ -n "$_tt_k" ]; then
		tl_sort -n "$_tt_k" >"$_tt_out/recompute.tsv" || return 1
		tl_sort -t "	" -k1,1n "$_tt_t/cs" >"$_tt_out/callstack.tsv" || return 1
	fi
	# (lean: no overlap fact, no tree.facts)
	[ "${TL_TREE_LEAN:-}" = 1 ] && _tt_ov= || _tt_ov=$_tt_t/ov
	{
		printf 'fact\tcount\n'
		tl_cat ${_tt_hf:+"$_tt_hf"} ${_tt_gf:+"$_tt_gf"} ${_tt_ov:+"$_tt_ov"} \
		    "$_tt_t/facts" ${_tt_lf:+"$_tt_lf"}
	} >"$_tt_out/health.tsv" || return 1
	[ "${TL_TREE_LEAN:-}" = 1 ] ||
		tl_cat "$_tt_t/tree.facts" "$_tt_t/gw" >"$_tt_out/tree.facts" || return 1
}
