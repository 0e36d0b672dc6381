#!/bin/sh
# tl-ranks: TraceLens's multi-rank collective report from the traces of
# the ranks of one job.  Each rank's work (its collective kernels, and
# with --reports its tl-report) is one job of GNU parallel, here or on
# machines that share the file system; the small per-rank record files
# are then merged with sort and tl-coll, one collective at a time.
# See tl-ranks(1).
set -u
LC_ALL=C; export LC_ALL
prog=tl-ranks
case $0 in */*) bindir=${0%/*} ;; *) bindir=. ;; esac
bindir=$(cd "$bindir" && pwd)
PATH=$bindir:$PATH; export PATH
. "$bindir/tl-lib.sh"
TAB=$(printf '\t')
NL='
'

usage() {
	cat <<EOF
usage: tl-ranks [-j N] [--sshlogin LOGIN] [--sshloginfile FILE] [--reports]
                [--gpus-per-node N] [--agg-metrics M ...] [--all2allv-heatmap]
                [--no-detailed-analysis] [--no-strict-metadata-check] [--force]
                (--trace-dir DIR | --trace-pattern PAT |
                 --trace-glob GLOB [--rank-regex RE]) --world-size N
                --output-csvs-dir OUT_DIR
       tl-ranks [options] OUT_DIR TRACE ...
       tl-ranks --job RANK WORK_DIR TRACE [--reports]
       tl-ranks [options] --from WORK_DIR [--world-size N] OUT_DIR
EOF
	exit "$1"
}

# ---- errors and the temporary directories (the shared library's part) ----
die() { echo "$prog: $*" >&2; exit 1; }
usedie() { echo "$prog: $*" >&2; usage 2 >&2; }
# stage: the report being built beside OUT_DIR; work: the ranks' record
# files, beside it too, where the jobs of other machines see them.
stage= work= ownwork= old=
cleanup() {
	[ -z "$stage" ] || rm -rf "$stage"
	[ -n "$ownwork" ] && [ -n "$work" ] && rm -rf "$work"
	[ -n "$old" ] && [ -d "$old" ] && rm -rf "$old"
}
traps() {
	trap cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
}
# publish: OUT_DIR appears complete or not at all.
publish() {
	if [ -e "$out" ]; then
		old=$stage.old
		mv "$out" "$old" || die "cannot move the old $out away"
	fi
	mv "$stage" "$out" || { [ -n "$old" ] && mv "$old" "$out"; die "cannot rename into $out"; }
	stage=
}
# outdir: OUT_DIR may be made (or, with --force, replaced); $parent, the
# folder it will be in, from /.
outdir() {
	case $out in */) out=${out%/} ;; esac
	if [ -e "$out" ] || [ -L "$out" ]; then
		[ "$force" = 1 ] || die "$out: exists (use --force to replace it)"
		[ -d "$out" ] || die "$out: exists and is not a directory"
	fi
	parent=$(dirname "$out")
	[ -d "$parent" ] || die "$parent: no such directory"
	parent=$(cd "$parent" && pwd)
}
# abspath PATH: PATH from /, for the jobs of other machines.
abspath() {
	case $1 in
	/*) printf '%s\n' "$1" ;;
	./*) printf '%s\n' "$PWD/${1#./}" ;;
	*) printf '%s\n' "$PWD/$1" ;;
	esac
}

# ---- options (TraceLens's snake_case names are aliases) ----
jobs= ssh= reports=0 gpn= metrics= heat=0 detail=1 strict=1 force=0
tdir= tpat= tglob= rregex='rank[\[\-_/]?(?P<rank>\d+)' world= out= from= xlsx=
jobmode=0 jrank= jwork= jtrace= batch=
needarg() { [ $# -ge 2 ] || usedie "option $1 needs a value"; }
isint() { case $1 in ''|*[!0-9]*) usedie "$2: not a whole number: $1" ;; esac; }
# addssh OPT VALUE: GNU parallel's own option, passed on (quoted).
addssh() { ssh="$ssh $1 '$(printf '%s' "$2" | sed "s/'/'\\\\''/g")'"; }
parseopts() {
	while [ $# -gt 0 ]; do
		o=$1
		case $o in --*=*) v=${o#*=}; o=${o%%=*}; shift; set -- "$o" "$v" "$@" ;; esac
		# (a process only for an option with an underscore: a job
		# of a thousand ranks parses a thousand command lines)
		case $1 in --*_*) o=$(printf '%s' "$1" | tr _ -) ;; *) o=$1 ;; esac
		case $o in
		--help|-h) usage 0 ;;
		--version) echo "tl-ranks @VERSION@"; exit 0 ;;
		-j|--jobs|--max-workers) needarg "$@"; isint "$2" "$1"; jobs=$2; shift ;;
		-j*) jobs=${1#-j}; isint "$jobs" -j ;;
		--sshlogin|--sshloginfile) needarg "$@"; addssh "$o" "$2"; shift ;;
		--reports) reports=1 ;;
		--gpus-per-node) needarg "$@"; isint "$2" "$1"; gpn=$2; shift
			[ "$gpn" -gt 0 ] || usedie "--gpus-per-node must be a positive integer, got $gpn" ;;
		--agg-metrics)
			# TraceLens's nargs="+": the words up to the next option
			needarg "$@"; shift
			while [ $# -gt 0 ]; do
				case $1 in -*) break ;; esac
				metrics="$metrics $(printf '%s' "$1" | tr , ' ')"
				shift
			done
			continue ;;
		--all2allv-heatmap) heat=1 ;;
		--detailed-analysis) detail=1 ;;
		--no-detailed-analysis) detail=0 ;;
		--no-strict-metadata-check) strict=0 ;;
		--use-multiprocessing) ;;	# every rank is a job of its own anyway
		--force) force=1 ;;
		--trace-dir) needarg "$@"; tdir=$2; shift ;;
		--trace-pattern) needarg "$@"; tpat=$2; shift ;;
		--trace-glob) needarg "$@"; tglob=$2; shift ;;
		--rank-regex) needarg "$@"; rregex=$2; shift ;;
		--world-size) needarg "$@"; isint "$2" "$1"; world=$2; shift
			[ "$world" -gt 0 ] || usedie "--world-size must be positive" ;;
		--output-csvs-dir) needarg "$@"; out=$2; shift ;;
		--output-xlsx-path) needarg "$@"; xlsx=$2; shift ;;
		--from) needarg "$@"; from=$2; shift ;;
		--job) [ $# -ge 4 ] || usedie "--job needs RANK WORK_DIR TRACE"
			jobmode=1 jrank=$2 jwork=$3 jtrace=$4; shift 3 ;;
		--batch)	# runjobs's: LIST FIRST COUNT WORK_DIR
			[ $# -ge 5 ] || usedie "--batch needs LIST FIRST COUNT WORK_DIR"
			jobmode=2 batch=$2 jrank=$3 jtrace=$4 jwork=$5; shift 4 ;;
		--) shift; break ;;
		-?*) usedie "unknown option: $1" ;;
		*) break ;;
		esac
		shift
	done
	# the operands, a line each
	for _a in "$@"; do
		case $_a in *"$NL"*) die "a path holds a newline: not supported" ;; esac
	done
	args=$(for _a in "$@"; do printf '%s\n' "$_a"; done)
	nargs=$#
}

# ---- the traces: rank<TAB>path lines into $1 ----
# A missing rank is an error that names it, as TraceLens's strict check.
listtraces() {
	_l=$1
	: >"$_l" || return 1
	if [ -n "$tdir" ] || [ -n "$tpat" ]; then
		_r=0
		while [ "$_r" -lt "$world" ]; do
			if [ -n "$tdir" ]; then _t=$tdir/rank${_r}_trace.json
			else _t=$(printf '%s\n' "$tpat" | sed "s/\\*/$_r/"); fi
			[ -f "$_t" ] || die "$_t: rank $_r: no such trace (expected trace file not found)"
			printf '%s\t%s\n' "$_r" "$(abspath "$_t")" >>"$_l"
			_r=$((_r + 1))
		done
	elif [ -n "$tglob" ]; then
		globtraces >"$_l" || exit 1
	else
		_r=0
		printf '%s\n' "$traces" | while IFS= read -r _t; do
			[ -f "$_t" ] || die "$_t: rank $_r: no such trace"
			printf '%s\t%s\n' "$_r" "$(abspath "$_t")"
			_r=$((_r + 1))
		done >>"$_l" || exit 1
	fi
	case $(cut -f2 "$_l") in *"$TAB"*) die "a trace path holds a tab" ;; esac
}

# --trace-glob: TraceLens's recursive glob and its rank regex (Python
# syntax, which perl reads; perl comes with GNU parallel): the first
# path in sorted order for each rank, every rank below the world size.
globtraces() {
	perl -e '
	use strict; use warnings; use File::Find;
	my ($glob, $re, $world) = @ARGV;
	$re =~ s/\(\?P</(?</g;
	my $rx = eval { qr/$re/ } or do { print STDERR "tl-ranks: --rank-regex: $@"; exit 2 };
	# the glob as a regex: ** any directories, * and ? within one name,
	# no name starting with a dot unless the pattern says so
	my @parts = split m{/}, $glob, -1;
	my $root = ($glob =~ m{^/}) ? "/" : ".";
	my @fixed;
	while (@parts > 1 && $parts[0] !~ /[*?[]/) { push @fixed, shift @parts; }
	my $base = join("/", @fixed); $base = $root if $base eq "" && $root eq "/";
	$base = "." if $base eq "";
	my $r = "";
	for my $i (0 .. $#parts) {
		my $p = $parts[$i];
		if ($p eq "**") { $r .= "(?:[^/.][^/]*/)*"; next; }
		my $x = "";
		my $lead = ($p !~ /^\./);
		for (my $j = 0; $j < length $p; $j++) {
			my $c = substr($p, $j, 1);
			if ($c eq "*") { $x .= ($j == 0 && $lead) ? "(?:[^/.][^/]*)?" : "[^/]*"; }
			elsif ($c eq "?") { $x .= ($j == 0 && $lead) ? "[^/.]" : "[^/]"; }
			elsif ($c eq "[") {
				my $k = index($p, "]", $j + 2);
				if ($k < 0) { $x .= "\\["; next; }
				my $set = substr($p, $j + 1, $k - $j - 1);
				$set =~ s/^!/^/; $set =~ s/\\/\\\\/g;
				$x .= "[$set]"; $j = $k;
			}
			else { $x .= quotemeta $c; }
		}
		$r .= $x . ($i < $#parts ? "/" : "");
	}
	my $prefix = @fixed ? join("/", @fixed) . "/" : "";
	my $full = qr/^\Q$prefix\E$r$/;
	my @m;
	if (-d $base) {
		find({ no_chdir => 1, wanted => sub {
			my $f = $File::Find::name; $f =~ s{^\./}{} if $base eq ".";
			push @m, $f if $f =~ $full;
		} }, $base);
	}
	@m = sort @m;
	if (!@m) { print STDERR "tl-ranks: $glob: no files match --trace_glob\n"; exit 1; }
	my %by;
	for my $f (@m) {
		(my $bn = $f) =~ s{.*/}{};
		my @g = ($bn =~ $rx); my %n = %+;
		unless (@g) { @g = ($f =~ $rx); %n = %+; }
		next unless @g;
		my $v = defined $n{rank} ? $n{rank} : $g[0];
		next unless defined $v && $v =~ /^\s*[+-]?\d+\s*$/;
		$by{int($v)} //= $f;
	}
	if (!%by) { print STDERR "tl-ranks: --trace_glob matched ", scalar(@m), " file(s), but none matched --rank_regex $ARGV[1]\n"; exit 1; }
	my @miss = grep { !exists $by{$_} } 0 .. $world - 1;
	if (@miss) { print STDERR "tl-ranks: $glob: missing rank", (@miss > 1 ? "s " : " "), join(", ", @miss), " (the rank set must be complete, 0 to ", $world - 1, ")\n"; exit 1; }
	for my $k (0 .. $world - 1) {
		my $f = $by{$k}; $f = "$ENV{PWD}/$f" unless $f =~ m{^/};
		print "$k\t$f\n";
	}' "$tglob" "$rregex" "$world"
}

# ---- one rank's job: what GNU parallel, srun or a loop runs ----
# WORK_DIR/RANK/: coll, its collective records sorted by process group
# and index; facts, what the merge must know first; meta, the rank and
# its trace's GPUs and distributedInfo (tl-meta).  The folder is made
# aside and renamed into place whole.  With --reports,
# WORK_DIR/ranks/rankRANK/ holds its tl-report.  Errors and warnings go
# to standard error and to WORK_DIR/RANK.err.
rankjob() {
	r=$1 work=$2 trace=$3
	isint "$r" --job
	[ -d "$work" ] || die "$work: no such directory"
	jt=$work/.$r.tmp
	rm -rf "$jt" "$work/$r" "$work/$r.err"
	mkdir "$jt" || die "cannot write in $work"
	trap 'rm -rf "$jt"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
	(
		tl-meta "$trace" >"$jt/meta.t" || exit 1
		# (the marks: sh has no pipefail)
		{ tl_parse -c kernel -f 'UID,name,ts,dur,args' -- "$trace" || : >"$jt/fail"; } |
		{ tl-coll -r "$r" -F "$jt/facts" || : >"$jt/fail"; } |
		{ TMPDIR=$jt tl_sort -t "$TAB" -k1,1 -k2,2 || : >"$jt/fail"; } |
		{ tl-coll -n || : >"$jt/fail"; } >"$jt/coll"
		[ -e "$jt/fail" ] && exit 1
		# rank, devices, rank and world size of distributedInfo
		{ read -r _ && IFS= read -r m && printf '%s\t%s\n' "$r" "${m#*"$TAB"}"; } \
		    <"$jt/meta.t" >"$jt/meta" || exit 1
		rm "$jt/meta.t"
		if [ "$reports" = 1 ]; then
			mkdir -p "$work/ranks" || exit 1
			tl-report --force "$trace" "$work/ranks/rank$r" || exit 1
		fi
		mv "$jt" "$work/$r" || exit 1
	) 2>"$work/$r.err"
	st=$?
	if [ -s "$work/$r.err" ]; then
		cat "$work/$r.err" >&2
	else
		rm -f "$work/$r.err"
	fi
	exit "$st"
}

# batchjob LIST FIRST COUNT WORK_DIR: the ranks of lines FIRST+1 to
# FIRST+COUNT of LIST (rank<TAB>trace), one after another, each a job
# of its own: GNU parallel costs a process or two a job, as much as a
# small rank's own work.
batchjob() {
	isint "$2" --batch
	isint "$3" --batch
	sed -n "$(($2 + 1)),$(($2 + $3))p" "$1" | while IFS="$TAB" read -r _r _t; do
		( rankjob "$_r" "$4" "$_t" ) || exit 1
	done
	exit
}

# ---- all the ranks' jobs, on GNU parallel ----
# Ranks go in batches of world/256 (at least one) a job: many jobs
# still, for GNU parallel to spread over the machines.
runjobs() {
	_list=$1
	command -v parallel >/dev/null 2>&1 ||
		die "GNU parallel is not installed (Debian: apt-get install parallel)"
	_ropt=
	[ "$reports" = 1 ] && _ropt=--reports
	# the jobs' messages wait in WORK_DIR/RANK.err: a failure shows the
	# lowest failed rank's, not the echoes of the jobs stopped after it
	_per=$((world / 256))
	[ "$_per" -ge 1 ] || _per=1
	awk -v n="$world" -v p="$_per" 'BEGIN {
		for (s = 0; s < n; s += p) print s "\t" (s + p > n ? n - s : p) }' \
		>"$work/batches" || exit 1
	eval "parallel --halt now,fail=1 ${jobs:+-j $jobs} $ssh --colsep '\t' -q \
		\"\$bindir/tl-ranks\" $_ropt --batch \"\$_list\" {1} {2} \"\$work\" \
		:::: \"\$work/batches\"" >/dev/null 2>"$work/parallel.err"
	_st=$?
	if [ "$_st" != 0 ]; then
		_r=0
		while [ "$_r" -lt "$world" ]; do
			if [ -s "$work/$_r.err" ] && [ ! -d "$work/$_r" ]; then
				cat "$work/$_r.err" >&2
				exit 1
			fi
			_r=$((_r + 1))
		done
		sed 's/^/tl-ranks: /' "$work/parallel.err" | grep -v '^tl-ranks: *$' >&2
		die "the jobs failed (GNU parallel: exit $_st)"
	fi
	# the warnings of the jobs, in rank order
	_r=0
	while [ "$_r" -lt "$world" ]; do
		[ -e "$work/$_r.err" ] && cat "$work/$_r.err" >&2
		_r=$((_r + 1))
	done
	return 0
}

# ---- the cross-rank stage: the sheets into $stage ----
# hsort ARGS: sort the body of stdin, the header line first.
hsort() {
	IFS= read -r _hl || return 0
	printf '%s\n' "$_hl"
	tl_sort "$@"
}
F=
# st CMD...: one stage of a pipeline; a failure leaves a mark.
st() { "$@" && return 0; : >"$F"; return 1; }
ok() { [ -e "$F" ] && exit 1; return 0; }
class() { awk -F '\t' -v c="$1" '$1 == c { print $2 }' "$W/classes.tsv"; }

mergestage() {
	W=$(mktemp -d "${TMPDIR:-/tmp}/tl-ranks.XXXXXX") || die "cannot make a temporary directory"
	trap 'cleanup; rm -rf "$W"' EXIT
	TMPDIR=$W; export TMPDIR
	F=$W/failed
	# every rank's files (a few processes, not a few per rank)
	_miss=$(ls "$work" | awk -v n="$world" '/^[0-9]+$/ { have[$0 + 0] = 1 }
	    END { for (r = 0; r < n; r++) if (!(r in have)) { print r; exit } }')
	[ -z "$_miss" ] ||
		die "${from:-$work}: rank $_miss: no records (its job did not run, or failed)"
	awk -v n="$world" -v w="$work" 'BEGIN { for (r = 0; r < n; r++) print w "/" r }' >"$W/dirs"
	sed 's|$|/coll|' "$W/dirs" | tr '\n' '\0' >"$W/files0" &&
		sed 's|$|/facts|' "$W/dirs" | tr '\n' '\0' | xargs -0 cat >"$W/facts" &&
		sed 's|$|/meta|' "$W/dirs" | tr '\n' '\0' | xargs -0 cat >"$W/meta" ||
		die "${from:-$work}: cannot read the ranks' records"
	awk -F '\t' '{ n += $2 } END { exit n > 0 }' "$W/facts" &&
		die "no collective kernels (nccl, rccl, cross_device_reduce) in any rank's trace"
	# GPUs per node: the option, else rank 0's deviceProperties
	gsrc=option
	if [ -z "$gpn" ]; then
		gpn=$(awk -F '\t' '$1 == 0 && $2 > 0 { print $2 }' "$W/meta")
		gsrc=deviceProperties
		[ -n "$gpn" ] || gsrc=none
	fi
	_g=
	[ -n "$gpn" ] && _g="-g $gpn"
	_s=
	[ "$strict" = 0 ] && _s=-S
	_h=
	[ "$heat" = 1 ] && [ "$world" -le 1024 ] && _h=-H
	R=$stage
	{ tl_sort -m -t "$TAB" -k1,1 -k2,2n -k3,3n --files0-from="$W/files0" || : >"$F"; } |
		st tl-coll -m -F "$W/facts" -W "$world" $_g $_h $_s -o "$W"; ok

	# nccl_long: the ranks in order, each in trace order
	st hsort -t "$TAB" -k1,1n -k2,2n <"$W/long.tsv" >"$W/long.sorted"; ok
	if [ "$detail" = 1 ]; then
		st tl-coll -c 4 <"$W/long.sorted" >"$R/nccl_long.csv"; ok
	fi
	_n=
	[ "$detail" = 1 ] || _n=-N
	# nccl_implicit_sync and straggler_summary
	st hsort -t "$TAB" -k1,1 <"$W/isync.tsv" >"$W/isync.sorted"; ok
	st tl-coll -i "$W/isync.sorted" -W "$world" -t "$W/long.sorted" $_g $_n -o "$W"; ok
	[ -f "$W/nccl_implicit_sync.csv" ] && mv "$W/nccl_implicit_sync.csv" "$R/"
	[ -f "$W/straggler_summary.csv" ] && mv "$W/straggler_summary.csv" "$R/"
	# nccl_all2allv
	st hsort -t "$TAB" -k1,1 <"$W/a2a.tsv" >"$W/a2a.sorted"; ok
	st tl-coll -a "$W/a2a.sorted" -W "$world" $_n -o "$W"; ok
	[ -f "$W/nccl_all2allv.csv" ] && mv "$W/nccl_all2allv.csv" "$R/"
	summaries
	if [ -n "$_h" ]; then
		st hsort -t "$TAB" -k1,1n -k2,2n <"$W/heat.tsv" | st tl-coll -p >"$W/heat.csv"; ok
		[ -s "$W/heat.csv" ] && mv "$W/heat.csv" "$R/nccl_all2allv_heatmap.csv"
	fi
	health
}

# The summary sheets: tl-aggregate over the rows of each, grouped as
# pandas groups them (the key byte-sortable, the rows in their order),
# then in pandas' order of the sheet's sort column.  A sum over an int64
# column (ts, dur and what comes of them alone) is an integer.
summaries() {
	_dint=$(class dur) _tint=$(class ts)
	# nccl_summary_long: the statistics TraceLens asks for there
	_node=
	if [ -n "$gpn" ] && awk -F '\t' 'NR > 1 && $4 == 0 { f = 1; exit } END { exit !f }' "$W/long.tsv"; then
		_node=1		# (pandas adds no column to an empty table)
	fi
	set -- -g '#skey'
	for _c in rank 'Process Group Name' 'Process Group Ranks' 'Collective name' \
	    'Group size' dtype 'In msg nelems' 'Out msg nelems' 'In split size' \
	    'Out split size' stream; do
		set -- "$@" "$_c=first:$_c"
	done
	set -- "$@" 'In msg size (MB)_first=first:In msg size (MB)' \
	    'Out msg size (MB)_first=first:Out msg size (MB)' 'dur_sum=sum:dur' \
	    'dur_mean=mean:dur' 'dur_std=std:dur' 'dur_min=min:dur' 'dur_max=max:dur' \
	    'operation_count=count:collective_id'
	[ -n "$_node" ] && set -- "$@" 'node_id=first:node_id' 'node_span=first:node_span'
	_i=,
	[ "$_dint" = int ] && _i=dur_sum
	st awk -F '\t' 'NR == 1 || $4 == 0' "$W/long.tsv" |
		st hsort -s -t "$TAB" -k3,3 | st tl-aggregate "$@" |
		st tl-coll -s dur_sum -I "$_i" -c 1 >"$R/nccl_summary_long.csv"; ok

	# nccl_summary_implicit_sync: the --agg_metrics statistics
	if [ "$(sed -n '$=' "$W/isum.tsv")" -le 1 ]; then
		echo >"$R/nccl_summary_implicit_sync.csv"	# an empty table
	else
		set -- -g skey
		for _c in 'Collective name' dtype 'In msg nelems' 'Process Group Name' \
		    'Group size' 'Full msg size (MB)'; do
			set -- "$@" "$_c=first:$_c"
		done
		_i=,
		while IFS= read -r _m; do
			for _a in $metrics; do
				set -- "$@" "${_m}_$_a=$_a:$_m"
			done
			case $_m in
			comm_latency) [ "$_dint" = int ] && _i="$_i,${_m}_sum" ;;
			'skew in start time') [ "$_tint" = int ] && _i="$_i,${_m}_sum" ;;
			'skew in end time') [ "$_tint" = int ] && [ "$_dint" = int ] &&
				_i="$_i,${_m}_sum" ;;
			esac
		done <"$W/isum.cols"
		set -- "$@" 'count=count' 'Total comm latency (ms)=npsum:comm_latency'
		st hsort -s -t "$TAB" -k1,1 <"$W/isum.tsv" | st tl-aggregate "$@" |
			st tl-coll -s 'Total comm latency (ms)' -D 'Total comm latency (ms)' \
			    -I "$_i" -c 1 >"$R/nccl_summary_implicit_sync.csv"; ok
	fi

	# nccl_summary_all2allv, when there are all_to_allv collectives
	[ "$(sed -n '$=' "$W/a2a.tsv")" -gt 1 ] || return 0
	case " $metrics " in *" sum "*)
		die "--agg_metrics sum: TraceLens fails on all_to_allv collectives (its wall_time sum comes twice); leave sum out" ;;
	esac
	# (rows with a None key are not in it)
	[ "$(sed -n '$=' "$W/a2asum.tsv")" -gt 1 ] || return 0
	set -- -g skey 'Process Group Name=first:Process Group Name' 'dtype=first:dtype'
	for _c in 'total data communicated (MB)' 'wall_time (us)'; do
		for _a in $metrics; do
			set -- "$@" "${_c}_$_a=$_a:$_c"
		done
	done
	set -- "$@" 'Total wall_time (us)=sum:wall_time (us)'
	for _a in $metrics; do
		set -- "$@" "throughput (GB/s)_$_a=$_a:throughput (GB/s)"
	done
	for _c in size_imbalance 'max_rank_dur (us)' 'skew in start time' 'skew in end time'; do
		set -- "$@" "${_c}_mean=mean:$_c" "${_c}_max=max:$_c"
	done
	set -- "$@" 'count=count:collective_id' \
	    'Process Group Ranks=first:Process Group Ranks' \
	    'Collective name=first:Collective name' 'Group size=first:Group size' \
	    'Total wall_time (ms)=sum:wall_time (us)'
	[ -n "$gpn" ] && set -- "$@" 'node_span=first:node_span'
	_i=,
	[ "$_dint" = int ] && [ "$_tint" = int ] &&
		_i='Total wall_time (us),wall_time (us)_sum'
	st hsort -s -t "$TAB" -k1,1 <"$W/a2asum.tsv" | st tl-aggregate "$@" |
		st tl-coll -s 'Total wall_time (ms)' -D 'Total wall_time (ms)' \
		    -I "$_i" -c 1 >"$R/nccl_summary_all2allv.csv"; ok
}
# aggop NAME: NAME if tl-aggregate computes pandas' aggregation NAME.
aggop() {
	case $1 in
	mean|median|min|max|std|sum|count|first|last) printf '%s\n' "$1" ;;
	esac
}

# The health sheet: what TraceLens goes past without a word.
health() {
	{
		printf 'fact\tcount\n'
		printf 'ranks\t%s\n' "$world"
		awk -F '\t' '$2 == 0 { n++ } END { printf "ranks_without_collectives\t%d\n", n }' "$W/facts"
		awk -F '\t' -v w="$world" '
		$4 != "" && $4 != w { ws++ }
		$3 != "" && $3 != $1 { rk++ }
		END {
			printf "traces_world_size_mismatch\t%d\n", ws
			printf "traces_rank_mismatch\t%d\n", rk
		}' "$W/meta"
		printf 'gpus_per_node\t%s\n' "${gpn:-none}"
		printf 'gpus_per_node_from\t%s\n' "$gsrc"
		cat "$W/health.tsv"
	} >"$W/health.all" || exit 1
	st tl-coll -c 0 <"$W/health.all" >"$R/health.csv"; ok
	awk -F '\t' '
	$1 ~ /^(ranks_without_collectives|traces_world_size_mismatch|traces_rank_mismatch|collectives_missing_ranks|metadata_mismatches|heatmap_events_skipped)$/ && $2 + 0 > 0 {
		msg = msg sep $2 " " $1; sep = ", "
	}
	END { if (msg != "") print "tl-ranks: health: " msg >"/dev/stderr" }' "$W/health.all"
}

# rank_gpu_timeline (--reports): each rank's gpu_timeline side by side,
# one row a rank, then the spread of each time across the ranks.
ranktimeline() {
	_r=0
	while [ "$_r" -lt "$world" ]; do
		printf '%s\t%s\n' "$_r" "$stage/ranks/rank$_r/gpu_timeline.csv"
		_r=$((_r + 1))
	done | awk -F '\t' "$TL_AWKLIB"'
	BEGIN {
		nk = split("busy_time idle_time computation_time exposed_comm_time exposed_memcpy_time total_time", k, " ")
		printf "rank"
		for (i = 1; i <= nk; i++) printf ",%s (ms)", k[i]
		printf "\n"
	}
	{
		delete v
		f = $2
		while ((getline line <f) > 0)
			if (split(line, c, ",") >= 2 && c[1] != "type") v[c[1]] = c[2]
		close(f)
		printf "%s", $1
		for (i = 1; i <= nk; i++) {
			printf ",%s", (k[i] in v) ? v[k[i]] : ""
			if (k[i] in v) {
				x = v[k[i]] + 0
				if (!(i in n) || x < lo[i]) lo[i] = x
				if (!(i in n) || x > hi[i]) hi[i] = x
				s[i] += x; n[i]++
			}
		}
		printf "\n"
	}
	END {
		split("min max mean spread", row, " ")
		for (j = 1; j <= 4; j++) {
			printf "%s", row[j]
			for (i = 1; i <= nk; i++) {
				if (!(i in n)) { printf ","; continue }
				x = j == 1 ? lo[i] : j == 2 ? hi[i] : j == 3 ? s[i] / n[i] : hi[i] - lo[i]
				printf ",%s", pyrepr(x)
			}
			printf "\n"
		}
	}' >"$stage/rank_gpu_timeline.csv"
}

# ---- main ----
parseopts "$@"
if [ "$jobmode" != 0 ]; then
	[ "$nargs" = 0 ] || usage 2 >&2
	[ "$jobmode" = 1 ] && rankjob "$jrank" "$jwork" "$jtrace"
	batchjob "$batch" "$jrank" "$jtrace" "$jwork"
fi
[ -z "$xlsx" ] || usedie "--output_xlsx_path: workbooks are not built into tl-ranks yet; use --output_csvs_dir"
for _m in $metrics; do
	[ -n "$(aggop "$_m")" ] || usedie "--agg_metrics: $_m: not one of mean median min max std sum count first last"
done
metrics=${metrics:-mean median min max}
_src=0
for _x in "$tdir" "$tpat" "$tglob" "$from"; do [ -n "$_x" ] && _src=$((_src + 1)); done
[ "$_src" -le 1 ] || usedie "give one of --trace_dir, --trace_pattern, --trace_glob and --from"
# the operands: OUT_DIR unless --output_csvs_dir, then the traces
traces=$args
if [ -z "$out" ]; then
	[ "$nargs" -ge 1 ] || usage 2 >&2
	out=$(printf '%s\n' "$args" | sed -n 1p)
	traces=$(printf '%s\n' "$args" | sed 1d)
	nargs=$((nargs - 1))
fi
if [ "$_src" = 1 ]; then
	[ "$nargs" = 0 ] || usedie "traces given twice: by an option and as operands"
	[ -n "$from" ] || [ -n "$world" ] || usedie "--world_size is required"
elif [ "$nargs" -ge 1 ]; then
	[ -z "$world" ] || [ "$world" = "$nargs" ] ||
		usedie "--world_size $world, but $nargs traces"
	world=$nargs
else
	usage 2 >&2
fi
case $tpat in *'*'*'*'*) usedie "--trace_pattern must hold exactly one '*'" ;; *'*'*) ;;
	?*) usedie "--trace_pattern must hold exactly one '*'" ;; esac
[ -z "$jobs" ] || [ "$jobs" -gt 0 ] || usedie "-j must be positive"
outdir

traps
stage=$(mktemp -d "$parent/.tl-ranks.XXXXXX" 2>/dev/null) || die "cannot make a temporary directory in $parent"
if [ -n "$from" ]; then
	[ -d "$from" ] || die "$from: no such directory"
	work=$(cd "$from" && pwd)
	if [ -z "$world" ]; then
		world=$(ls "$work" | grep -c '^[0-9][0-9]*$')
		[ "$world" -gt 0 ] || die "$from: no ranks' records (RANK/)"
	fi
else
	work=$(mktemp -d "$parent/.tl-ranks-work.XXXXXX" 2>/dev/null) || die "cannot make a temporary directory in $parent"
	ownwork=1
	listtraces "$work/list"
	runjobs "$work/list"
fi
mergestage
if [ "$reports" = 1 ]; then
	[ -d "$work/ranks" ] || die "$work: no per-rank reports (run the jobs with --reports)"
	mv "$work/ranks" "$stage/ranks" || die "cannot move the reports into place"
	ranktimeline || die "rank_gpu_timeline failed"
fi
publish
exit 0
