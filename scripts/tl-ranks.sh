#!/bin/sh
# See LICENSE file for copyright and license details.
#
# tl-ranks: TraceLens's multi-rank collective report from the traces of
# the ranks of one job.  Each rank's work (its collective kernels, and
# with --reports its tl-report) is one job of GNU parallel, here or on
# machines that share the file system; the small per-rank record files
# are then merged with sort and tl-coll, one collective at a time.
# See tl-ranks(1).
#
# The places (tl-lib.sh): the report is built in TL_STAGE/out, beside
# OUT_DIR, and published whole; the jobs' files in TL_STAGE/work, also
# beside OUT_DIR, where the jobs of other machines see them; the merge
# works in TL_WORK, in TMPDIR.
set -u
case $0 in */*) . "${0%/*}/tl-lib.sh" ;; *) . tl-lib.sh ;; esac
case $0 in */*) . "${0%/*}/tl-lib-book.sh" ;; *) . tl-lib-book.sh ;; esac
tl_init tl-ranks 4M

usage() {
	cat <<EOF
usage: tl-ranks [-j N] [--sshlogin LOGIN] [--sshloginfile FILE] [--reports]
                [--gpus-per-node N] [--agg-metrics M ...] [--all2allv-heatmap]
                [--no-detailed-analysis] [--no-strict-metadata-check] [--force]
                [--quiet] [--legacy-flows]
                (--trace-dir DIR | --trace-pattern PAT |
                 --trace-glob GLOB [--rank-regex RE]) --world-size N
                [--output-csvs-dir OUT_DIR] [--output-xlsx-path FILE]
       tl-ranks [options] OUT_DIR TRACE ...
       tl-ranks --job RANK WORK_DIR TRACE [--reports [--legacy-flows]]
       tl-ranks [options] --from WORK_DIR [--world-size N] OUT_DIR
EOF
	exit "$1"
}

# ---- options (TraceLens's snake_case names are aliases: tl_opt) ----
jobs= ssh= reports=0 flows= gpn= metrics= heat=0 detail=1 strict=1 force=0 quiet=0
tdir= tpat= tglob= rregex='rank[\[\-_/]?(?P<rank>\d+)' world= out= from= xlsx=
jobmode=0 jrank= jwork= jtrace= batch= mwbad= usemp=0
# Called by TraceLens's name (make install-tracelens-names), its
# defaults: a workbook replaced, --output_csvs_dir written into
# (TL_MERGE), as TraceLens writes over them.
case ${0##*/} in TraceLens_*) force=1 TL_MERGE=1 ;; esac
# TraceLens's long options, which its argparse takes cut to an
# unambiguous prefix (--world 4, --output_csvs o): tl_abbrev
tlnames='--trace-dir --trace-pattern --trace-glob --world-size --rank-regex
--output-xlsx-path --output-csvs-dir --detailed-analysis --agg-metrics
--use-multiprocessing --max-workers --gpus-per-node --all2allv-heatmap --help'
while tl_opt "$@"; do
	tl_abbrev $tlnames ||
		usage_die "ambiguous option: $opt could match $TL_ABBREV"
	case $opt in
	--help | -h) usage 0 ;;
	--version) echo "tl-ranks @VERSION@"; exit 0 ;;
	-j | --jobs) tl_arg posint "$@"; jobs=$optarg ;;
	# (TraceLens's: any int, used only with --use_multiprocessing, where
	# its pool refuses one below 1)
	--max-workers)
		tl_arg sint "$@"
		case $optarg in
		-* | 0) mwbad=${1%%=*} ;;
		*) jobs=$optarg mwbad= ;;
		esac ;;
	-j*) optarg=${opt#-j} opt=-j; tl_num posint; jobs=$optarg ;;
	--sshlogin | --sshloginfile)
		# GNU parallel's own options, passed on (quoted for its eval)
		tl_arg "$@"; ssh="$ssh $opt $(tl_quote "$optarg")" ;;
	--reports) tl_noarg; reports=1 ;;
	--quiet) tl_noarg; quiet=1 ;;
	# (the per-rank reports': tl-report(1))
	--legacy-flows) tl_noarg; flows=--legacy-flows ;;
	--tracelens-compat) tl_noarg; flows= ;;
	--gpus-per-node) tl_arg posint "$@"; gpn=$optarg ;;
	--agg-metrics)
		# TraceLens's nargs="+": the words up to the next option
		tl_arg "$@"
		case $optn$optarg in
		2-*) usage_die "--agg_metrics: expected at least one metric" ;;
		esac
		# (given again, the last one's, as argparse stores it)
		metrics=" $optarg"
		if [ "$optn" = 2 ]; then
			shift 2
			while [ $# -gt 0 ]; do
				case $1 in -*) break ;; esac
				metrics="$metrics $1"
				shift
			done
			continue
		fi ;;
	--all2allv-heatmap) tl_noarg; heat=1 ;;
	--detailed-analysis) tl_noarg; detail=1 ;;
	--no-detailed-analysis) tl_noarg; detail=0 ;;
	--no-strict-metadata-check) tl_noarg; strict=0 ;;
	--use-multiprocessing) tl_noarg; usemp=1 ;;	# every rank is a job of its own anyway
	--force) tl_noarg; force=1 ;;
	--trace-dir) tl_arg "$@"; tdir=$optarg ;;
	--trace-pattern) tl_arg "$@"; tpat=$optarg ;;
	--trace-glob) tl_arg "$@"; tglob=$optarg ;;
	--rank-regex) tl_arg "$@"; rregex=$optarg ;;
	--world-size) tl_arg posint "$@"; world=$optarg ;;
	--output-csvs-dir) tl_arg "$@"; out=$optarg ;;
	--output-xlsx-path | --output-xlsx) tl_arg "$@"; xlsx=$optarg ;;
	--from) tl_arg "$@"; from=$optarg ;;
	--job)	# one rank's job: RANK WORK_DIR TRACE
		[ $# -ge 4 ] || usage_die "--job needs RANK WORK_DIR TRACE"
		jobmode=1 jrank=$2 jwork=$3 jtrace=$4 optn=4 ;;
	--batch)	# runjobs's: LIST FIRST COUNT WORK_DIR
		[ $# -ge 5 ] || usage_die "--batch needs LIST FIRST COUNT WORK_DIR"
		jobmode=2 batch=$2 jrank=$3 jtrace=$4 jwork=$5 optn=5 ;;
	*) tl_badopt ;;
	esac
	shift "$optn"
done
shift "$optn"
[ -z "$mwbad" ] || [ "$usemp" = 0 ] ||
	usage_die "$mwbad must be positive with --use_multiprocessing"

# ---- the traces: rank<TAB>path lines into $1 ----
# The traces are the operands after $1 when no option names them.  A
# missing rank is an error that names it, as TraceLens's strict check.
# Paths are made absolute (in the shell: a job of a thousand ranks
# makes no process per rank), for the jobs of other machines.
listtraces() {
	_l=$1
	shift
	if [ -n "$tglob" ]; then
		globtraces >"$_l" || exit
		return 0
	fi
	_r=0
	if [ -n "$tdir" ] || [ -n "$tpat" ]; then
		# Each rank's path made and checked in turn, as TraceLens does:
		# the first missing one stops the listing (a list of the paths
		# first, set -- "$@" each, took time quadratic in the world
		# size: a minute for --world-size 1000000 before any message).
		# A world size past the shell's numbers counts on: no host has
		# that many traces.
		_w=$world
		[ "${#_w}" -le 18 ] || _w=999999999999999999
		while [ "$_r" -lt "$_w" ]; do
			if [ -n "$tdir" ]; then
				_t=$tdir/rank${_r}_trace.json
			else
				_t=${tpat%%\**}$_r${tpat#*\*}
			fi
			listone "$_t"
			_r=$((_r + 1))
		done >"$_l" || exit 1
		return 0
	fi
	for _t; do
		listone "$_t"
		_r=$((_r + 1))
	done >"$_l" || exit 1
}
# listone PATH: the line of rank _r, whose trace is PATH, or the error.
listone() {
	_t=$1
	[ ! -d "$_t" ] || die "$_t: rank $_r: a directory, not a trace"
	[ ! -e "$_t" ] || [ -f "$_t" ] ||
		die "$_t: rank $_r: not a regular file (each rank's job reads its trace where it runs)"
	[ -f "$_t" ] || die "$_t: rank $_r: no such trace (expected trace file not found)"
	case $_t in
	*"$NL"* | *"$TAB"*) die "$_t: rank $_r: a path with a newline or tab is not supported" ;;
	/*) ;;
	./*) _t=$PWD/${_t#./} ;;
	*) _t=$PWD/$_t ;;
	esac
	printf '%s\t%s\n' "$_r" "$_t"
}

# defaultbook: TraceLens's workbook when no output is named and the
# traces come from --trace-pattern (its ranks 0 and 1) or --trace-glob
# (all its traces): nccl_analysis_report.xlsx in os.path.commonpath of
# their absolute paths, or in the folder of that path when it is a file.
defaultbook() {
	if [ -n "$tglob" ]; then
		_g=$(globtraces) || exit
		printf '%s\n' "$_g" | cut -f 2-
	else
		_i=0
		while [ "$_i" -lt "$world" ] && [ "$_i" -lt 2 ]; do
			printf '%s\n' "${tpat%%\**}$_i${tpat#*\*}"
			_i=$((_i + 1))
		done
	fi | perl -e '
	use strict; use warnings; use Cwd;
	my $cwd = getcwd();
	my @common;
	my $n = 0;
	while (my $p = <STDIN>) {
		chomp $p;
		# os.path.abspath: .. and . and repeated slashes resolved
		$p = "$cwd/$p" unless $p =~ m{^/};
		my @c;
		for my $x (split m{/}, $p) {
			next if $x eq "" || $x eq ".";
			if ($x eq "..") { pop @c; next; }
			push @c, $x;
		}
		if ($n++ == 0) { @common = @c; next; }
		my $k = 0;
		$k++ while $k < @common && $k < @c && $common[$k] eq $c[$k];
		splice @common, $k;
	}
	exit 1 unless $n;
	my $d = "/" . join("/", @common);
	if (-f $d) { $d =~ s{/[^/]*$}{}; $d = "/" if $d eq ""; }
	$d .= "/" unless $d =~ m{/$};
	print $d, "nccl_analysis_report.xlsx\n";'
}

# --trace-glob: TraceLens's recursive glob and its rank regex (Python
# syntax, which perl reads; perl comes with GNU parallel): the first
# path in sorted order for each rank, every rank below the world size.
globtraces() {
	perl -e '
	use strict; use warnings; use File::Find; use Math::BigInt;
	my ($glob, $re, $world) = @ARGV;
	$re =~ s/\(\?P</(?</g;
	# (perl says where in its own program, and marks the place with
	# <-- HERE: the message is the one line of what is wrong)
	my $rx = eval { local $SIG{__WARN__} = sub { die @_ }; qr/$re/ } or do {
		(my $e = $@) =~ s/;? marked by <-- HERE.*//s;
		$e =~ s/ in regex.*//s;
		$e =~ s/ at -e line \d+.*//s;
		print STDERR "tl-ranks: --rank-regex: $ARGV[1]: $e\n"; exit 2 };
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
	# without **, a match is as many names deep below base as the
	# glob has parts: no deeper directory is walked (the glob
	# rank*.json in a home directory reads that one directory only)
	my $deep = grep { $_ eq "**" } @parts;
	my $blen = length $base;
	my @m;
	if (-d $base) {
		find({ no_chdir => 1, wanted => sub {
			my $f = $File::Find::name;
			if (!$deep && -d $f && $f ne $base) {
				my $d = (substr($f, $blen) =~ tr{/}{});
				$d++ if $base =~ m{/$};
				$File::Find::prune = 1 if $d >= @parts;
			}
			$f =~ s{^\./}{} if $base eq ".";
			push @m, $f if $f =~ $full;
		} }, $base);
	}
	@m = sort @m;
	if (!@m) { print STDERR "tl-ranks: $glob: no files match --trace_glob\n"; exit 1; }
	my %by;
	for my $f (@m) {
		(my $bn = $f) =~ s{.*/}{};
		# a match is (1) when the regex has no group: then $#+ is 0,
		# and m.group(1) in Python an IndexError: the file is passed over
		my @g = ($bn =~ $rx); my %n = %+; my $ng = $#+;
		unless (@g) { @g = ($f =~ $rx); %n = %+; $ng = $#+; }
		next unless @g;
		my $v = defined $n{rank} && $n{rank} ne "" ? $n{rank} :
		    $ng >= 1 ? $g[0] : undef;
		next unless defined $v && $v =~ /^\s*[+-]?\d+\s*$/;
		$by{int($v)} //= $f;
	}
	if (!%by) { print STDERR "tl-ranks: --trace_glob matched ", scalar(@m), " file(s), but none matched --rank_regex $ARGV[1]\n"; exit 1; }
	# (the first ten missing, and how many: --world-size 1000000 wrote
	# a line of a million numbers; 1e20 stopped the range of perl)
	my $have = grep { $_ >= 0 && $_ < $world } keys %by;
	my $nmiss = Math::BigInt->new($world) - $have;
	if ($nmiss > 0) {
		my @miss;
		for (my $k = 0; @miss < 10 && $k < $world; $k++) {
			push @miss, $k unless exists $by{$k};
		}
		my $last = Math::BigInt->new($world) - 1;
		my $more = $nmiss > @miss ? ", ... ($nmiss missing)" : "";
		print STDERR "tl-ranks: $glob: missing rank", ($nmiss > 1 ? "s " : " "),
		    join(", ", @miss), $more, " (the rank set must be complete, 0 to $last)\n";
		exit 1;
	}
	for my $k (0 .. $world - 1) {
		my $f = $by{$k}; $f = "$ENV{PWD}/$f" unless $f =~ m{^/};
		print "$k\t$f\n";
	}' "$tglob" "$rregex" "$world"
}

# ---- one rank's job: what GNU parallel, srun or a loop runs ----
# rankjob RANK WORK_DIR TRACE ECHO: WORK_DIR/RANK/: coll, its collective
# records sorted by process group and index; facts, what the merge must
# know first; meta, the rank and its trace's GPUs and distributedInfo
# (tl-meta).  The folder is made aside and renamed into place whole.
# With --reports, WORK_DIR/ranks/rankRANK/ holds its tl-report (run in
# TMPDIR).  Errors and warnings go to WORK_DIR/RANK.err, and with ECHO=1
# to standard error too (GNU parallel's jobs leave them to runjobs).
rankjob() {
	r=$1 work=$2 trace=$3
	case $r in '' | *[!0-9]*) usage_die "--job: not a rank: $r" ;; esac
	[ -d "$work" ] || die "$work: no such directory"
	jt=$work/.$r.tmp
	rm -rf "$jt" "$work/$r" "$work/$r.err"
	mkdir "$jt" || die "cannot write in $work"
	tl_owndir "$jt"
	_tmp=${TMPDIR:-/tmp}
	(
		TMPDIR=$jt TL_FAIL=$jt/fail
		tl-meta "$trace" >"$jt/meta.t" || exit 1
		# rocprofv3 results (tl-parse reads them too, told by their
		# first key) have no collectives: not "a rank without them";
		# a bare array of events: tl-report's notice, once a rank
		tl_top "$trace"
		case $TL_TOP in
		rocprofv3)
			echo "$prog: $trace: rank $r: rocprofv3 results, not a PyTorch trace" >&2
			exit 1 ;;
		array) tl_bare "$trace" "$trace" ;;
		esac
		st tl_parse -c kernel -f 'UID,name,ts,dur,args' -- "$trace" |
			st tl-coll -r "$r" -F "$jt/facts" |
			st tl_sort -t "$TAB" -k1,1 -k2,2 |
			st tl-coll -n >"$jt/coll"; ok
		# rank, devices, rank and world size of distributedInfo
		{ read -r _ && IFS= read -r m && printf '%s\t%s\n' "$r" "${m#*"$TAB"}"; } \
		    <"$jt/meta.t" >"$jt/meta" || exit 1
		rm -f "$jt/meta.t" "$jt/fail"
		if [ "$reports" = 1 ]; then
			mkdir -p "$work/ranks" || exit 1
			TMPDIR=$_tmp TL_BARE_SAID=1 tl-report --force $flows "$trace" \
			    "$work/ranks/rank$r" || exit 1
		fi
		mv "$jt" "$work/$r" || exit 1
	) 2>"$work/$r.err"
	_js=$?
	if [ ! -s "$work/$r.err" ]; then
		rm -f "$work/$r.err"
	elif [ "$4" = 1 ]; then
		tl_cat "$work/$r.err" >&2 2>/dev/null
	fi
	return "$_js"
}

# batchjob LIST FIRST COUNT WORK_DIR: the ranks of lines FIRST+1 to
# FIRST+COUNT of LIST (rank<TAB>trace), one after another, each a job
# of its own: GNU parallel costs a process or two a job, as much as a
# small rank's own work.
batchjob() {
	for _b in "$2" "$3"; do
		case $_b in '' | *[!0-9]*) usage_die "--batch: not a whole number: $_b" ;; esac
	done
	_n=0
	while IFS="$TAB" read -r _r _t; do
		_n=$((_n + 1))
		[ "$_n" -gt "$2" ] || continue
		[ "$_n" -le $(($2 + $3)) ] || break
		rankjob "$_r" "$4" "$_t" 0 || exit 1
	done <"$1"
	exit 0
}

# ---- all the ranks' jobs, on GNU parallel ----
# Ranks go in batches of world/256 (at least one) a job: many jobs
# still, for GNU parallel to spread over the machines.  GNU parallel
# runs in a process group of its own (tl_spawn): a signal stops it and
# its jobs at once.  Its --bar shows the progress when standard error
# is a terminal (not with --quiet).
runjobs() {
	_list=$1
	command -v parallel >/dev/null 2>&1 ||
		die "GNU parallel is not installed (Debian: apt-get install parallel)"
	_ropt= _bar=
	[ "$reports" = 1 ] && _ropt="--reports $flows"
	[ "$quiet" = 0 ] && tl_tty && _bar=--bar
	# the jobs' messages wait in WORK_DIR/RANK.err: a failure shows the
	# lowest failed rank's, not the echoes of the jobs stopped after it
	_per=$((world / 256))
	[ "$_per" -ge 1 ] || _per=1
	awk -v n="$world" -v p="$_per" 'BEGIN {
		for (s = 0; s < n; s += p) print s "\t" (s + p > n ? n - s : p) }' \
		>"$work/batches" || exit 1
	_perr=$work/parallel.err _spawn=tl_spawn
	[ -z "$_bar" ] || _perr=/dev/stderr _spawn=tl_spawn_tty
	# GNU parallel's files (its jobs' output, its .par files) and the
	# local jobs' work directories, in a directory of ours: a signal
	# that stops it (as it stops its group) left them in TMPDIR
	tl_mkdtemp "$(tl_abs "${TMPDIR:-/tmp}")/tl-ranks.XXXXXX" ||
		die "cannot make a temporary directory in ${TMPDIR:-/tmp}${_tl_mkwhy:-}"
	_ptmp=$_tl_made
	eval "\$_spawn env TMPDIR=\"\$_ptmp\" parallel --halt now,fail=1 $_bar ${jobs:+-j $jobs} $ssh \
		--colsep '\t' -q \"\$TL_BIN/tl-ranks\" $_ropt --batch \"\$_list\" \
		{1} {2} \"\$work\" :::: \"\$work/batches\"" >/dev/null 2>"$_perr"
	tl_wait "$TL_SPAWNED"
	_st=$?
	if [ "$_st" != 0 ]; then
		_r=0
		while [ "$_r" -lt "$world" ]; do
			if [ -s "$work/$_r.err" ] && [ ! -d "$work/$_r" ]; then
				tl_cat "$work/$_r.err" >&2 2>/dev/null
				exit 1
			fi
			_r=$((_r + 1))
		done
		tl_nospace "$work" "$out" && exit 1
		# no job said why: GNU parallel's own first error (ssh's, a
		# login file's), without its warnings and the job's command
		# line, which names work files
		_why=
		[ ! -s "$work/parallel.err" ] || _why=$(awk '
		    /^parallel: Warning:/ || /^parallel: This job failed:/ { next }
		    /^[ \t]*$/ || index($0, "--batch ") { next }
		    { sub(/^parallel: (Error: )?/, ""); print; exit }' "$work/parallel.err")
		die "the jobs failed (GNU parallel: exit $_st)${_why:+: $_why}"
	fi
	# the warnings of the jobs, in rank order
	_r=0
	while [ "$_r" -lt "$world" ]; do
		[ ! -e "$work/$_r.err" ] || tl_cat "$work/$_r.err" >&2 2>/dev/null
		_r=$((_r + 1))
	done
	return 0
}

# ---- the cross-rank stage: the sheets into $R ----
# class NAME: the type (int or float) tl-coll found of the column NAME.
class() { awk -F '\t' -v c="$1" '$1 == c { print $2 }' "$W/classes.tsv"; }

# mergestage: the ranks' records of $work merged into the sheets, in
# the work directory W (TL_WORK, in TMPDIR).
mergestage() {
	tl_workdir
	W=$TL_WORK TL_FAIL=$TL_WORK/failed
	# every rank's files (a few processes, not a few per rank)
	_miss=$(ls "$work" | awk -v n="$world" '/^[0-9]+$/ { have[$0 + 0] = 1 }
	    END { for (r = 0; r < n; r++) if (!(r in have)) { print r; exit } }')
	# (a job that failed said why in RANK.err: its first line says it)
	if [ -n "$_miss" ]; then
		_why=
		[ ! -s "$work/$_miss.err" ] || IFS= read -r _why <"$work/$_miss.err" || :
		[ -z "$_why" ] ||
			die "${from:-$work}: rank $_miss: its job failed: $_why"
		die "${from:-$work}: rank $_miss: no records (its job did not run, or failed)"
	fi
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
	# (a node of at least the world's GPUs holds every rank, rank //
	# gpn is 0 as in TraceLens: tl-coll, which takes up to 2^20, gets
	# the world size; the health sheet says the value given)
	if [ -n "$gpn" ]; then
		if [ "${#gpn}" -gt 18 ] || [ "$gpn" -gt "$world" ]; then
			_g="-g $world"
		else
			_g="-g $gpn"
		fi
	fi
	_s=
	[ "$strict" = 0 ] && _s=-S
	_h=
	[ "$heat" = 1 ] && [ "$world" -le 1024 ] && _h=-H
	st tl_sort -m -t "$TAB" -k1,1 -k2,2n -k3,3n --files0-from="$W/files0" |
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
	# nccl_summary_long: the statistics TraceLens asks for there, over
	# the rows of a group in nccl_long's order (the ranks in order, each
	# in trace order), not the merge's: pandas' std (Welford) and sum
	# (Kahan) depend on the order of the values to the last digit
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
	st awk -F '\t' 'NR == 1 || $4 == 0' "$W/long.sorted" |
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
			# TraceLens selects each ${_m}_$_a by name: a statistic
			# given k times is k columns of that name, each of them
			# picked k times
			for _a in $metrics; do
				# (comm_latency_size: see count below)
				[ "$_m" != comm_latency ] || [ "$_a" != size ] || continue
				aggarg "$_a" "$_m"
				for _b in $metrics; do
					[ "$_b" = "$_a" ] &&
						set -- "$@" "${_m}_$_a=$_s"
				done
			done
			# (the sum and product of an int64 column are int64)
			_x=
			case $_m in
			comm_latency) [ "$_dint" = int ] && _x=1 ;;
			'skew in start time') [ "$_tint" = int ] && _x=1 ;;
			'skew in end time') [ "$_tint" = int ] && [ "$_dint" = int ] && _x=1 ;;
			esac
			[ -z "$_x" ] || _i="$_i,${_m}_sum,${_m}_prod"
		done <"$W/isum.cols"
		# TraceLens's own comm_latency size, and one more for each
		# size of --agg_metrics: each is renamed count, and TraceLens
		# picks every column of that name
		set -- "$@" 'count=count'
		for _a in $metrics; do
			[ "$_a" != size ] || set -- "$@" 'count=count'
		done
		set -- "$@" 'Total comm latency (ms)=npsum:comm_latency'
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
			aggarg "$_a" "$_c"
			set -- "$@" "${_c}_$_a=$_s"
		done
	done
	set -- "$@" 'Total wall_time (us)=sum:wall_time (us)'
	for _a in $metrics; do
		aggarg "$_a" 'throughput (GB/s)'
		set -- "$@" "throughput (GB/s)_$_a=$_s"
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
		_i='Total wall_time (us),wall_time (us)_sum,wall_time (us)_prod'
	st hsort -s -t "$TAB" -k1,1 <"$W/a2asum.tsv" | st tl-aggregate "$@" |
		st tl-coll -s 'Total wall_time (ms)' -D 'Total wall_time (ms)' \
		    -I "$_i" -c 1 >"$R/nccl_summary_all2allv.csv"; ok
}
# aggarg NAME COLUMN: _s, tl-aggregate's operation for pandas'
# aggregation NAME of COLUMN (size: the group's rows, its empty values
# too).
aggarg() {
	_s=$1:$2
	[ "$1" != size ] || _s=count
}
# aggop NAME: NAME if tl-aggregate computes pandas' aggregation NAME.
aggop() {
	case $1 in
	mean|median|min|max|std|var|sem|sum|prod|nunique|size|count|first|last) printf '%s\n' "$1" ;;
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
# one row a rank (its cells as they are), then the rows min, max, mean
# and spread (max less min) of each time across the ranks, which
# tl-aggregate computes (awk only moves cells).
ranktimeline() {
	_k='busy_time idle_time computation_time exposed_comm_time exposed_memcpy_time total_time'
	awk -F , -v n="$world" -v d="$R/ranks" -v keys="$_k" -v long="$W/tl.long" '
	BEGIN {
		nk = split(keys, k, " ")
		printf "rank"
		for (i = 1; i <= nk; i++)
			printf ",%s (ms)", k[i]
		printf "\n"
		printf "i\tv\n" >long
		for (r = 0; r < n; r++) {
			f = d "/rank" r "/gpu_timeline.csv"
			split("", v)
			while ((getline line <f) > 0)
				if (split(line, c, ",") >= 2 && c[1] != "type")
					v[c[1]] = c[2]
			close(f)
			printf "%d", r
			for (i = 1; i <= nk; i++) {
				printf ",%s", v[k[i]]
				printf "%d\t%s\n", i, v[k[i]] >long
			}
			printf "\n"
		}
	}' >"$W/tl.ranks" || return 1
	st hsort -s -t "$TAB" -k1,1n <"$W/tl.long" |
		st tl-aggregate -g i:n min:v max:v mean:v ptp:v >"$W/tl.stats"; ok
	# the statistics, a row each
	awk -F '\t' 'NR > 1 { for (j = 2; j <= 5; j++) s[j] = s[j] "," $j }
	END {
		print "min" s[2]; print "max" s[3]; print "mean" s[4]; print "spread" s[5]
	}' "$W/tl.stats" | cat "$W/tl.ranks" - >"$R/rank_gpu_timeline.csv"
}

# ---- main ----
if [ "$jobmode" = 1 ]; then
	[ $# = 0 ] || usage 2 >&2
	rankjob "$jrank" "$jwork" "$jtrace" 1
	exit
elif [ "$jobmode" = 2 ]; then
	[ $# = 0 ] || usage 2 >&2
	batchjob "$batch" "$jrank" "$jtrace" "$jwork"
fi
metrics=$(printf '%s\n' "$metrics" | tr , ' ')
for _m in $metrics; do
	[ -n "$(aggop "$_m")" ] ||
		usage_die "--agg_metrics: $_m: not one of mean median min max std var sem sum prod nunique size count first last"
done
metrics=${metrics:-mean median min max}
_src=0
for _x in "$tdir" "$tpat" "$tglob" "$from"; do [ -n "$_x" ] && _src=$((_src + 1)); done
[ "$_src" -le 1 ] || usage_die "give one of --trace_dir, --trace_pattern, --trace_glob and --from"
# No output named, the traces named by an option: TraceLens's workbook,
# nccl_analysis_report.xlsx in the traces' folder.
if [ -z "$out" ] && [ -z "$xlsx" ] && [ "$_src" = 1 ] && [ -z "$from" ] && [ $# = 0 ]; then
	if [ -n "$tdir" ]; then
		xlsx=${tdir%/}/nccl_analysis_report.xlsx
	elif [ -n "$world" ]; then
		xlsx=$(defaultbook) || exit 1
	fi
fi
# the operands: OUT_DIR unless --output_csvs_dir (or, with the traces
# named by an option, a workbook alone), then the traces
if [ -z "$out" ] && { [ -z "$xlsx" ] || [ "$_src" = 0 ]; }; then
	[ $# -ge 1 ] || usage 2 >&2
	out=$1
	shift
	# (an empty one read as none: "TL_BOOKSTAGE: parameter not set")
	[ -n "$out" ] || usage_die "an empty name is no OUT_DIR"
fi
if [ "$_src" = 1 ]; then
	[ $# = 0 ] || usage_die "traces given twice: by an option and as operands"
	[ -n "$from" ] || [ -n "$world" ] || usage_die "--world_size is required"
elif [ $# -ge 1 ]; then
	[ -z "$world" ] || [ "$world" = $# ] ||
		usage_die "--world_size $world, but $# traces"
	world=$#
else
	usage 2 >&2
fi
case $tpat in
'' | *'*'*'*'*) [ -z "$tpat" ] || usage_die "--trace_pattern must hold exactly one '*'" ;;
*'*'*) ;;
*) usage_die "--trace_pattern must hold exactly one '*'" ;;
esac

# ---- the places ----
# (an OUT_DIR that is or holds an input is refused: the traces given,
# or the folder that holds them)
# (a workbook alone: the report is made beside the workbook, where the
# jobs on other machines see it too)
[ -z "$out" ] || [ -z "$xlsx" ] || tl_outpair "$out" "$xlsx"
# (TraceLens's os.makedirs makes OUT_DIR's missing folders)
_p=$out
while :; do case $_p in */) _p=${_p%/} ;; *) break ;; esac; done
case $_p in
*/*) _p=${_p%/*}
	[ -z "$_p" ] || [ -d "$_p" ] || _e=$(mkdir -p -- "$_p" 2>&1) ||
		die "$_p: cannot make the folder${_e:+: ${_e##*: }}" ;;
esac
[ -z "$out" ] || tl_outdir "$out" "$force" ${from:+"$from"} ${tdir:+"$tdir"} \
    ${tpat:+"${tpat%/*}"} ${tglob:+"${tglob%%[*?[]*}"} "$@"
[ -z "$xlsx" ] || tl_outbook "$xlsx" "$force" "$@"
[ -n "$out" ] || TL_STAGE=$TL_BOOKSTAGE
R=$TL_STAGE/out
mkdir -- "$R" || die "cannot write in $TL_STAGE"
if [ -n "$from" ]; then
	[ -d "$from" ] || die "$from: no such directory"
	work=$(cd -- "$from" && pwd) || die "$from: cannot read"
	if [ -z "$world" ]; then
		world=$(ls -- "$work" | grep -c '^[0-9][0-9]*$')
		[ "$world" -gt 0 ] || die "$from: no ranks' records (RANK/)"
	fi
else
	work=$TL_STAGE/work
	mkdir -- "$work" || die "cannot write in $TL_STAGE"
	# (GNU parallel makes its files in TMPDIR before any job runs: a
	# TMPDIR that is not there is said as the merge would say it)
	[ -d "${TMPDIR:-/tmp}" ] && [ -w "${TMPDIR:-/tmp}" ] ||
		die "cannot make a temporary directory in ${TMPDIR:-/tmp}"
	listtraces "$work/list" "$@"
	# (a workbook that --force replaces may not be one of the traces:
	# those of --trace-dir, a pattern or a glob are known only now;
	# two processes, whatever the number of ranks)
	if [ -n "$xlsx" ] && [ -z "$TL_BOOKINTO" ] && [ -e "$TL_BOOK" ]; then
		_br=$(realpath -e -- "$TL_BOOK") || _br=$TL_BOOK
		cut -f 2- "$work/list" | tr '\n' '\0' |
		    xargs -0 realpath -e -- 2>/dev/null | grep -Fxq -- "$_br" &&
			die "$xlsx: is one of the traces: not replaced"
	fi
	runjobs "$work/list"
fi
mergestage
if [ "$reports" = 1 ]; then
	[ -d "$work/ranks" ] || die "$work: no per-rank reports (run the jobs with --reports)"
	mv -- "$work/ranks" "$R/ranks" || die "cannot move the reports into place"
	ranktimeline || die "rank_gpu_timeline failed"
fi

# ---- publish: OUT_DIR and the workbook appear complete or not at all ----
# (the workbook written first: when it fails, nothing is published; its
# sheets in TraceLens's order, then tl's own)
# The trace's Process Group Name is a string in TraceLens's frames, and
# a text cell of its workbook ("0", not the number 0): here too, so that
# pandas reads the workbook back as it reads TraceLens's.
if [ -n "$xlsx" ]; then
	printf '*\tProcess Group Name\n' >"$TL_BOOKSTAGE/text" || die "cannot write in $TL_BOOKSTAGE"
	tl_book_dir '' "$TL_BOOKSTAGE/text" "$R" "nccl_summary_implicit_sync nccl_summary_long
	    nccl_summary_all2allv nccl_all2allv_heatmap nccl_long
	    nccl_implicit_sync nccl_all2allv straggler_summary"
fi
[ -z "$out" ] || tl_publish "$R"
[ -z "$xlsx" ] || tl_book_publish
exit 0
