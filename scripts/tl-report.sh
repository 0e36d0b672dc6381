#!/bin/sh
# tl-report: TraceLens's perf report (one CSV per sheet) from a PyTorch
# profiler trace, made by composing tl-parse, sort, tl-tree and
# tl-aggregate (and tl-tracediff for --comparison); from a rocprofv3
# trace, TraceLens's rocprof report (tl-lib-rocprof.sh).  See tl-report(1).
set -u
LC_ALL=C; export LC_ALL
prog=tl-report
bindir=$(cd "$(dirname "$0")" && pwd)
PATH=$bindir:$PATH; export PATH
TL_TREE_OPTS=${TL_TREE_OPTS:-}
. "$bindir/tl-lib.sh"
# The perf-model sheets and unified_perf_summary (tl-roofline(1)).
[ -r "$bindir/tl-lib-roofline.sh" ] && . "$bindir/tl-lib-roofline.sh"
TAB=$(printf '\t')

usage() {
	cat <<EOF
usage: tl-report [--force] [--exact-time] [--short-kernel-study]
                 [--short-kernel-threshold-us N] [--short-kernel-histogram-bins N]
                 [--topk-short-kernels N] [--micro-idle-thresh-us N]
                 [--include-unlinked-kernels] [--no-coll-analysis]
                 [--no-kernel-summary] [--gpu-arch NAME|FILE]
                 [--kernel-details] [--topk-kernels N]
                 [--comparison TRACE2] TRACE OUT_DIR
EOF
	exit "$1"
}

# (after the background jobs: the cleanup must not pull files from under them)
die() { stopcmp; wait 2>/dev/null; echo "$prog: $*" >&2; exit 1; }
# stopcmp: end the --comparison job early (it is not reaped yet, so its
# pid is still ours); it waits for its own stages.  A job killed before
# it could trap the signal makes wait say "Terminated": after stopcmp,
# wait 2>/dev/null.
cmppid= cmpcheck=
stopcmp() { [ -z "$cmppid" ] || kill -TERM "$cmppid" 2>/dev/null; cmppid=; }
usedie() { echo "$prog: $*" >&2; usage 2 >&2; }

# ---- options (TraceLens's snake_case names are aliases) ----
force=0 xflag= short=0 thresh=10 bins=100 topk= micro= unlinked=0 coll=1 ksum=1
kdetails=0 ktopk=
trace= out= cmp=
needarg() { [ $# -ge 2 ] || usedie "option $1 needs a value"; }
isint() { case $1 in ''|*[!0-9]*) usedie "$2: not a whole number: $1" ;; esac; }
while [ $# -gt 0 ]; do
	o=$1 v=
	case $o in --*=*) v=${o#*=}; o=${o%%=*}; shift; set -- "$o" "$v" "$@" ;; esac
	o=$(printf '%s' "$1" | tr _ -)
	case $o in
	--help|-h) usage 0 ;;
	--version) echo "tl-report @VERSION@"; exit 0 ;;
	--force) force=1 ;;
	--exact-time) xflag=-x ;;
	--short-kernel-study) short=1 ;;
	--short-kernel-threshold-us) needarg "$@"; isint "$2" "$1"; thresh=$2; shift ;;
	--short-kernel-histogram-bins) needarg "$@"; isint "$2" "$1"; bins=$2; shift
		[ "$bins" -ge 1 ] || usedie "$1 must be positive" ;;
	--topk-short-kernels) needarg "$@"; isint "$2" "$1"; topk=$2; shift ;;
	--micro-idle-thresh-us) needarg "$@"; isint "$2" "$1"; micro=$2; shift ;;
	--include-unlinked-kernels) unlinked=1 ;;
	--no-coll-analysis|--disable-coll-analysis) coll=0 ;;
	--enable-kernel-summary) ksum=1 ;;
	--no-kernel-summary|--disable-kernel-summary) ksum=0 ;;
	--kernel-details) kdetails=1 ;;
	--topk-kernels) needarg "$@"; isint "$2" "$1"; ktopk=$2; shift ;;
	--profile-json-path) needarg "$@"; trace=$2; shift ;;
	--output-csvs-dir) needarg "$@"; out=$2; shift ;;
	--gpu-arch|--gpu-arch-json-path|--gpu-arch-platform)
		needarg "$@"; TL_GPU_ARCH=$2; export TL_GPU_ARCH; shift ;;
	--topk-ops|--topk-roofline-ops) needarg "$@"; shift ;;	# no-ops in TraceLens too
	--comparison|--comparison-json-path) needarg "$@"; cmp=$2; shift ;;
	--) shift; break ;;
	-?*) usedie "unknown option: $1" ;;
	*) break ;;
	esac
	shift
done
[ -z "$trace" ] && [ $# -gt 0 ] && { trace=$1; shift; }
[ -z "$out" ] && [ $# -gt 0 ] && { out=$1; shift; }
[ $# -eq 0 ] && [ -n "$trace" ] && [ -n "$out" ] || usage 2 >&2
[ -r "$trace" ] || die "$trace: cannot read"
[ -z "$cmp" ] || { [ -r "$cmp" ] && [ -f "$cmp" ]; } || die "$cmp: cannot read"
case $out in */) out=${out%/} ;; esac
if [ -e "$out" ] || [ -L "$out" ]; then
	[ "$force" = 1 ] || die "$out: exists (use --force to replace it)"
	[ -d "$out" ] || die "$out: exists and is not a directory"
fi

# ---- temporary directories, removed on any exit ----
# The report is built beside OUT_DIR, to be renamed into place; the work
# files and sort's spills go to a directory in TMPDIR.
parent=$(dirname "$out")
[ -d "$parent" ] || die "$parent: no such directory"
tmpdir=${TMPDIR:-/tmp}
case $tmpdir in /*) ;; *) tmpdir=$(pwd)/$tmpdir ;; esac
tmp= w= old=
cleanup() {
	stopcmp
	# background stages still write into $tmp and $w: let them end first
	wait 2>/dev/null
	[ -z "$tmp" ] || rm -rf "$tmp"
	[ -z "$w" ] || rm -rf "$w"
	[ -n "$old" ] && [ -d "$old" ] && rm -rf "$old"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
tmp=$(mktemp -d "$parent/.tl-report.XXXXXX" 2>/dev/null) || die "cannot make a temporary directory in $parent"
w=$(mktemp -d "$tmpdir/tl-report.XXXXXX" 2>/dev/null) || die "cannot make a temporary directory in $tmpdir"
R=$tmp/report
mkdir "$R" || die "cannot write in $tmp"
TMPDIR=$w; export TMPDIR
F=$w/failed
# (one thread: sort's threads only cost, on buffers this small)
SORT="sort --parallel=1 -S ${TL_SORT_MEM:-4M} -T $w"

# st CMD...: run one stage of a pipeline; a failure is noted in $F.
st() {
	"$@" && return 0
	echo "$1: exit $?" >>"$F"
	return 1
}
# ok: every stage since the last check succeeded.
# The failed program has said why, in one line: add none of our own.
ok() {
	[ -s "$F" ] && { stopcmp; wait 2>/dev/null; exit 1; }
	# (once the kind of trace is known: see section 1)
	[ -n "$cmpcheck" ] && [ -n "$cmp" ] && [ -e "$w/cmp.failed" ] && cmpfailed
	return 0
}
# bgok: ok for a background job, which leaves the dying to the caller.
bgok() { [ ! -s "$F" ]; }
# hsort ARGS: sort the body of stdin, the header line first.
hsort() {
	IFS= read -r h || return 0
	printf '%s\n' "$h"
	$SORT "$@"
}

# Functions every awk program below can use (tl-lib.sh).
AWKLIB=$TL_AWKLIB
# awkx PROGRAM ARGS...: awk with tab-separated fields and AWKLIB.
awkx() {
	p=$1; shift
	awk -F '\t' -v OFS='\t' "$AWKLIB$p" "$@"
}

# publish: OUT_DIR appears complete or not at all.
publish() {
	rm -rf "$w"
	if [ -e "$out" ]; then
		old=$tmp.old
		mv "$out" "$old" || die "cannot move the old $out away"
	fi
	mv "$R" "$out" || { [ -n "$old" ] && mv "$old" "$out"; die "cannot rename into $out"; }
	exit 0
}

# ---- a rocprofv3 trace: TraceLens's rocprof report ----
# Told by content: tl-parse's default header for such a trace has the
# field process (a trace it cannot read goes on, to fail below).
if tl-parse -- "$trace" 2>/dev/null | head -n 1 | grep -q "${TAB}process${TAB}"; then
	[ -z "$cmp" ] || die "$trace: --comparison needs PyTorch traces, not rocprofv3"
	. "$bindir/tl-lib-rocprof.sh"
	rp_report "$trace" || { ok; die "rocprof report failed"; }
	publish
fi

# ---- 0. --comparison: TraceDiff's records, beside the whole report ----
# tl-tracediff --records writes diff_stats.csv and lca_totals.tsv into
# $w/cmp (section 6b joins them in).  A failure leaves $w/cmp.failed,
# which ok() sees at its next check.  A TERM (stopcmp) is passed on to
# tl-tracediff, whose own cleanup waits for its stages.
cmpjob() {
	# ($! is tl-tracediff once it runs; the trap runs between commands)
	trap 'p=${!:-}; [ -z "$p" ] || kill -TERM "$p" 2>/dev/null; wait 2>/dev/null; exit 143' TERM
	tl-tracediff --records "$trace" "$cmp" "$w/cmp" 2>"$w/cmp.err" &
	wait "$!" 2>/dev/null && exit 0
	: >"$w/cmp.failed"
	exit 1
}
# cmpfailed: the comparison failed; its one line (tl-parse's or
# tl-tracediff's, naming the trace) is the error.
cmpfailed() {
	stopcmp
	wait 2>/dev/null
	if [ -s "$w/cmp.err" ]; then cat "$w/cmp.err" >&2
	else echo "$prog: $cmp: the comparison failed" >&2; fi
	exit 1
}
# comparison_columns: the seven columns, into unified_perf_summary.csv.
comparison_columns() {
	# trace1 GPU event (zero-padded: one byte key), then the totals record
	st awkx 'NR > 1 { printf "%012d\t%s\n", $1, $0 }' "$w/cmp/lca_totals.tsv" |
	st $SORT -s -t "$TAB" -k1,1 |
	# joined with KMAP (by event, numeric order): row, LCA id (padded,
	# then as diff_stats writes it), name, busy times, trace2 has rows.
	# (An event is in one row's kernel list; were it in two, the last
	# KMAP line would win.)
	st awkx '
	function knext() {
		if ((getline kl <kmap) > 0) { split(kl, kf, "\t"); nu = kf[1] + 0; nr = kf[2] }
		else keof = 1
	}
	NR == 1 { cu = -1; knext() }
	{
		u = $1 + 0
		while (!keof && nu <= u) { cu = nu; cr = nr; knext() }
		if (cu == u) printf "%012d\t%012d\t%s\t%s\t%s\t%s\t%s\n", cr, $3, $3, $4, $5, $6, $7
	}' kmap="$w/kmap.tsv" |
	# each LCA once per row; rows in order, a row's LCAs by id
	st $SORT -u -t "$TAB" -k1,2 |
	# per row: ids and names ("; "), summed busy times, LCAs with trace2 rows
	st awkx '
	function flush() { if (r != "") print r + 0, ids, names, pyrepr(t1), pyrepr(t2), pyrepr(n2) }
	$1 != r { flush(); r = $1; ids = names = ""; t1 = t2 = n2 = 0 }
	{
		ids = ids (ids == "" ? "" : "; ") $3
		# TraceLens leaves out an empty name (None)
		if ($4 != "") names = names (names == "" ? "" : "; ") $4
		t1 += $5; t2 += $6; n2 += $7
	}
	END { flush() }' >"$w/cmprows.tsv"; ok
	# TraceLens adds no columns when no row has an LCA
	[ -s "$w/cmprows.tsv" ] || return 0
	# The CSV, one record at a time (a quoted cell may hold a newline):
	# the new cells go after the first K cells, K the one named
	# Kernel Time (µs)_sum.
	st awkx '
	function quotes(s) { return gsub(/"/, "", s) }
	# cells(line, upto): f[1..] the first upto cells (as written); returns their length
	function cells(line, upto,   n, p, i, c, cur, len) {
		n = split(line, p, ","); c = 0; len = 0; i = 0
		while (i < n && c < upto) {
			cur = p[++i]
			while (quotes(cur) % 2 && i < n) cur = cur "," p[++i]
			f[++c] = cur; len += length(cur) + (c > 1)
		}
		nf = c
		return len
	}
	function rnext() {
		if ((getline rl <rows) > 0) { split(rl, rv, "\t"); rn = rv[1] + 0 } else rn = -1
	}
	{
		rec = rec (inrec ? "\n" : "") $0; q += quotes($0)
		if (q % 2) { inrec = 1; next }
		line = rec; rec = ""; q = 0; inrec = 0
	}
	!hdr {
		hdr = 1; cells(line, 1e9)
		for (K = 1; K <= nf && f[K] != "Kernel Time (µs)_sum"; K++) ;
		if (K > nf) { print "tl-report: unified_perf_summary has no Kernel Time (µs)_sum column" >"/dev/stderr"; exit 1 }
		len = cells(line, K)
		print substr(line, 1, len) ",speedup (trace2/trace1),delta_us (trace2 - trace1),lca_count_trace2,lca_id,lca_name,lca_total_kernel_time_trace1_us,lca_total_kernel_time_trace2_us" substr(line, len + 1)
		rnext()
		next
	}
	{
		r++; len = cells(line, K); kt = f[K]
		while (rn != -1 && rn < r) rnext()
		if (rn == r) {
			t1 = rv[4] + 0; t2 = rv[5] + 0
			add = (t1 != 0 ? pyrepr(t2 / t1) : "") "," (kt == "" ? "" : pyrepr(t2 - kt)) "," rv[6] "," \
			    cell(rv[2]) "," cell(rv[3]) "," rv[4] "," rv[5]
		} else
			add = ",,,,,,"
		print substr(line, 1, len) "," add substr(line, len + 1)
	}' rows="$w/cmprows.tsv" "$R/unified_perf_summary.csv" >"$w/unified.csv"; ok
	mv "$w/unified.csv" "$R/unified_perf_summary.csv" || die "cannot write unified_perf_summary.csv"
}
if [ -n "$cmp" ]; then
	mkdir "$w/cmp" || die "cannot write in $w"
	cmpjob &
	cmppid=$!
fi

# ---- 1. events and the call tree ----
# (tl-parse runs inside the tree stage, beside its first pass; it
# writes events.tsv.)  In a subshell: a signal to this shell then waits
# for the stage to end (the shell runs its trap after a foreground
# job), never landing while the stage starts the jobs that open its
# fifos, which would wait for their other ends for ever.
T=$w/tree
mkdir "$T" || die "cannot write in $w"
(tl_tree_stage "$w/events.tsv" "$T" "$trace"); ts=$?
# 3: tl-parse could not read the trace, and has said why
[ "$ts" = 3 ] && { stopcmp; wait 2>/dev/null; exit 1; }
[ "$ts" = 0 ] || die "tree stage failed"
# What kind of trace: cpu_ops at all (TraceLens's GPU-only test; cat
# is tl-parse's third field).
ncpu=$(grep -a -m 1 -c -E "^[^$TAB]*$TAB[^$TAB]*$TAB(cpu_op|python_func)$TAB" "$w/events.tsv")
[ $? -le 1 ] || die "grep failed"
# What the later sections read of the events: the collectives (section
# 5) and the annotations (the tree stage's sel.tsv), and the last UID
# (the perf-model stage).  Then the events go, before the sheets write
# their files: on a machine where fresh memory costs (a VM), the page
# cache of 140 MB of events freed now is memory the next files reuse
# (sys time 2.5 s to 1.8 s for a 450 MB trace).
tail -n 1 "$w/events.tsv" | cut -f1 >"$w/lastuid" || die "cannot read the events"
# (in the background: freeing the pages takes a while, and no one waits
# for it but the cleanup)
rm -f "$w/events.tsv" &
for f in gpu ops intervals meta health sel; do
	[ -f "$T/$f.tsv" ] || die "tree stage wrote no $f.tsv"
done
gpuonly=0; [ "$ncpu" = 0 ] && gpuonly=1
if [ -n "$cmp" ] && [ "$gpuonly" = 1 ]; then
	# TraceLens makes no comparison for a trace without CPU ops
	stopcmp; cmp=
	echo "$prog: $trace: no CPU ops: no comparison (TraceLens makes none)" >&2
fi
cmpcheck=1
# (whether there are any: the files are long, and these are tests)
ngpu=$(sed -n '2{p;q;}' "$T/gpu.tsv" | wc -l)

# ---- 6. roofline sheets: tl-roofline(1), started here ----
# When tl-roofline is installed it writes unified_perf_summary and the
# perf-model sheets from the same tree files into the report directory.
# It reads only the tree files, so it runs in the background beside
# sections 2-5 (on two cores, the report takes the time of the longer
# of the two); a failure is in $F, which the next ok() sees.
rlpid=
if command -v tl-roofline >/dev/null 2>&1 && [ "$gpuonly" = 0 ] && [ "$ngpu" != 0 ] &&
    [ "${TL_REPORT_ROOFLINE:-1}" != 0 ] && type tl_roofline_stage >/dev/null 2>&1; then
	# (the comparison job is the main shell's to stop)
	(cmppid= cmpcheck=; tl_roofline_stage "$T" "$R" ${cmp:+"$w/kmap.tsv"} ||
	    { [ -s "$F" ] || echo "tl_roofline_stage: failed" >>"$F"; exit 1; }) &
	rlpid=$!
	# It is the longer of the two: the other sheets yield to it (the
	# shell's later children inherit its niceness).
	renice -n 5 -p $$ >/dev/null 2>&1 || :
fi

# ---- 5. coll_analysis: collective kernels, as TraceLens's NcclAnalyser ----
# It needs only the events: a background job beside sections 2-4.
collpid=
if [ "$coll" = 1 ] && [ "$gpuonly" = 0 ]; then
	{
		# The collective kernels (sel.tsv: the events' header, the
		# communication kernels and the annotations).
		st awkx '
		NR == 1 { header(); next }
		$col["cat"] == "kernel" && tolower($col["name"]) ~ /nccl|rccl|cross_device_reduce/ {
			c = $col["correlation"]; x = $col["External id"]
			if ((c == "" || c == "null") && (x == "" || x == "null")) next
			print $col["name"], $col["ts"], $col["dur"], $col["Process Group Name"],
			    $col["Process Group Ranks"], $col["Collective name"], $col["Group size"],
			    $col["dtype"], $col["In msg nelems"], $col["Out msg nelems"],
			    $col["In split size"], $col["Out split size"], $col["stream"]
		}' "$T/sel.tsv" >"$w/coll.tsv"; bgok || exit 1
		[ -s "$w/coll.tsv" ] || exit 0
		# name ts dur pgname pgranks coll gsize dtype innel outnel insplit outsplit stream
		st awkx '
		FNR == NR {
			if ($4 != "" && $4 != "null" && $4 != "Unknown_Group") pg = 1
			if ($13 != "" && $13 != "null") s[$13]
			next
		}
		FNR == 1 {
			ns = 0; for (k in s) ns++
			simple = !pg && ns <= 1
			b["Float"] = 4; b["Int"] = 4; b["Long"] = 8; b["BFloat16"] = 2; b["Bool"] = 1
			b["Byte"] = 1; b["Double"] = 8; b["Half"] = 2; b["Short"] = 2
			print "rank", "Process Group Name", "Process Group Ranks", "Collective name",
			    "Group size", "dtype", "In msg nelems", "Out msg nelems", "In split size",
			    "Out split size", "stream", "in_mb", "out_mb", "dur"
		}
		{
			for (i = 4; i <= 13; i++) if ($i == "null") $i = ""
			if (simple) $4 = "all"
			else if ($4 == "") $4 = "Unknown_Group"
			if ($6 == "" && tolower($1) ~ /cross_device_reduce/) $6 = "allreduce"
			im = om = ""
			if (($8 in b) && $9 != "") { im = $9 * b[$8] / 1048576; om = $10 * b[$8] / 1048576 }
			for (i = 4; i <= 13; i++) if ($i == "") next
			print 0, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, (im == "" ? "" : pyrepr(im)), (om == "" ? "" : pyrepr(om)), $3
		}' "$w/coll.tsv" "$w/coll.tsv" |
		st hsort -s -t "$TAB" -k1,1 -k2,2 -k3,3 -k4,4 -k5,5n -k6,6 -k7,7n -k8,8n -k9,9 -k10,10 -k11,11n |
		st tl-aggregate -g 'rank,Process Group Name,Process Group Ranks,Collective name,Group size:n,dtype,In msg nelems:n,Out msg nelems:n,In split size,Out split size,stream:n' \
		    'r=pylit:Process Group Ranks' 'i=pylit:In split size' 'o=pylit:Out split size' \
		    'first:in_mb' 'first:out_mb' 'sum:dur' 'mean:dur' 'std:dur' 'min:dur' 'max:dur' 'count:dur' >"$w/coll.agg"; bgok || exit 1
		if [ "$(wc -l <"$w/coll.agg")" -gt 1 ]; then
			st awkx '
			NR == 1 { print "rank,Process Group Name,Process Group Ranks,Collective name,Group size,dtype,In msg nelems,Out msg nelems,In split size,Out split size,stream,In msg size (MB)_first,Out msg size (MB)_first,dur_sum,dur_mean,dur_std,dur_min,dur_max,operation_count"; next }
			{ n++; row[n] = $0; v[n] = $17 }
			END {
				descorder(v, n, ord)
				for (r = 1; r <= n; r++) {
					split(row[ord[r]], f, "\t")
					print f[1] "," cell(f[2]) "," cell(f[12]) "," cell(f[4]) "," cell(f[5]) "," cell(f[6]) "," \
					    cell(f[7]) "," cell(f[8]) "," cell(f[13]) "," cell(f[14]) "," cell(f[11]) "," f[15] "," f[16] "," \
					    pyrepr(f[17]) "," pyrepr(f[18]) "," (f[19] == "" ? "" : pyrepr(f[19])) "," pyrepr(f[20]) "," pyrepr(f[21]) "," f[22]
				}
			}' "$w/coll.agg" >"$R/coll_analysis.csv"
		fi
	} &
	collpid=$!
fi

# ---- 2. gpu_timeline ----
# It needs only gpu.tsv: a background job (timeline &), waited for
# before the kernel sheets, which divide by its total time ($w/total).
# Its pass over gpu.tsv also writes k.tsv, for section 4: one row per
# kernel (cat kernel, linked or not), in UID order:
# cpu_op UID cpu_op_name runtime_name linked name stream dur dims strides concrete
# (the last three for the short-kernel sheets only)
timeline() {
# ts, dur and class (comp, comm, memcpy) of every GPU event counted.
st awkx '
NR == 1 { header(); next }
{ c = $col["cat"]; n = $col["name"] }
c == "kernel" {
	print $col["cpu_op"], $col["UID"], $col["cpu_op_name"], $col["runtime_name"],
	    $col["linked"], n, $col["stream"], $col["dur"],
	    (short ? $col["Input Dims"] OFS $col["Input Strides"] OFS $col["Concrete Inputs"] : OFS OFS) >kf
}
unl || $col["linked"] == 1 {
	if (c == "gpu_memcpy") k = "memcpy"
	else if (c == "kernel" && n ~ /^(MEMORY_COPY_(HOST_TO_DEVICE|DEVICE_TO_HOST|DEVICE_TO_DEVICE)|__amd_rocclr_copyBuffer(Rect)?(Aligned)?)(\.kd)?$/) k = "memcpy"
	else if (c == "kernel" && n ~ /^__amd_rocclr_fillBuffer(Aligned)?(\.kd)?$/) k = "comp"
	else if (tolower(n) ~ /nccl|rccl|cross_device_reduce/) k = "comm"
	else k = "comp"
	print $col["ts"], $col["dur"], k
}' unl="$unlinked" short="$short" kf="$w/k.tsv" "$T/gpu.tsv" | st $SORT -t "$TAB" -k1,1n >"$w/tl.body"; bgok || exit 1
# (tl-report's last read of gpu.tsv: the perf-model stage may remove it)
: >"$w/gpu.free"
if [ -s "$w/tl.body" ]; then
	if [ -n "$micro" ]; then
		idle="micro=gaps:ts,dur,<$micro macro=gaps:ts,dur,>=$micro"
	else
		idle="idle=gaps:ts,dur"
	fi
	{ printf 'ts\tdur\tclass\n'; cat "$w/tl.body"; } |
	st tl-aggregate $xflag 'comp=union:ts,dur,class=comp' \
	    'xcomm=minus:ts,dur,class=comm,comp' \
	    'xmem=minus:ts,dur,class=memcpy,comp,comm' 'busy=union:ts,dur' \
	    $idle 'total=span:ts,dur' 'comm=union:ts,dur,class=comm' \
	    'memcpy=union:ts,dur,class=memcpy' >"$w/tl.agg"; bgok || exit 1
	st awkx '
	NR == 1 { header(); next }
	{
		tot = $col["total"]
		print "type,time ms,percent"
		row("computation_time", $col["comp"])
		row("exposed_comm_time", $col["xcomm"])
		row("exposed_memcpy_time", $col["xmem"])
		row("busy_time", $col["busy"])
		if ("micro" in col) {
			row("micro_idle_time", $col["micro"])
			row("macro_idle_time", $col["macro"])
		} else
			row("idle_time", exact ? $col["idle"] : $col["total"] - $col["busy"])
		row("total_time", tot)
		row("total_comm_time", $col["comm"])
		row("total_memcpy_time", $col["memcpy"])
		printf "%.17g\n", tot >totf
	}
	function row(name, t) { print name "," pyrepr(t / 1e3) "," pyrepr(t / tot * 100) }
	' OFS=, exact="$xflag" totf="$w/total" "$w/tl.agg" >"$R/gpu_timeline.csv"
fi
}
timeline &
tlpid=$!


# ---- 4a. kernels: a background job once Lu.tsv is there ----
# (and its k1s.tsv, the launchers' first kernels)
# Each kernel with its parent op's category (kk0.tsv; kk.tsv for the
# short-kernel sheets), kernel_summary's groups (ks.tsv) and the
# kernels' total time ($w/tk), beside the ops sheets; section 4 lays
# out the sheets.  A failure is in $F.
kernels_job() {
	# Percent of kernels time divides by the sum of all kernel durations
	# as pandas takes it (numpy's pairwise sum, in trace order).
	# (k.tsv holds the durations in trace order: its field 8)
	if [ "$nk" -gt 0 ] && [ "$ksum" = 1 ]; then
		tk=$({ printf 'dur\n'; cut -f8 "$w/k.tsv"; } | st tl-aggregate 'npsum:dur' | sed 1d); bgok || return 1
		printf '%s\n' "$tk" >"$w/tk" || { echo "tk: failed" >>"$F"; return 1; }
	fi
	if [ "$nk" -gt 0 ]; then
		# The category of each kernel's cpu_op: TraceLens categorises the
		# cpu_op with its own first kernel when it is a launcher.
		{ printf 'cpu_op\tname\tk1\n'
		  # (all kernels of a cpu_op carry its name: sort -u may keep any)
		  st awkx '$1 != "" { print $1, $3 }' "$w/k.tsv" |
		  st $SORT -u -t "$TAB" -k1,1n |
		  # merged with the launchers' k1 (UID order)
		  st awkx '
		  NR == 1 { getline ll <lu }
		  {
			op = $1 + 0
			while (lhave == 0 || luid < op) {
				if ((getline ll <lu) <= 0) { luid = 1e30; break }
				luid = substr(ll, 1, index(ll, "\t") - 1) + 0; lhave = 1
			}
			k1 = ""
			if (luid == op) k1 = substr(ll, index(ll, "\t") + 1)
			print $1, $2, k1
		  }' lu="$w/k1s.tsv"; } |
		st tl-aggregate -g cpu_op:n 'cat=opcat:name,k1' >"$w/kcat.tsv"; bgok || return 1
		# kk0.tsv: UID pcat pcpu name stream dur UID dims strides concrete,
		# by cpu_op (for a merge join with kcat.tsv; sort takes an empty
		# one as 0), then UID; kk.tsv, for the short-kernel sheets: from
		# pcat on, in UID order (k.tsv's).
		st $SORT -s -t "$TAB" -k1,1n "$w/k.tsv" |
		st awkx '
		NR == 1 { getline kl <kc; ku = -1 }
		{
			if ($1 != "") {
				u = $1 + 0
				while (ku < u) {
					if ((getline kl <kc) <= 0) { ku = 1e300; kcat = ""; break }
					split(kl, kf, "\t"); ku = kf[1] + 0; kcat = kf[2]
				}
				pc = ku == u ? kcat : ""; pu = $3
			} else if ($5 == 1) {
				l = tolower(unesc($4))
				pc = (l ~ /cudagraph|graphlaunch/) ? "graph" : "runtime"
				pu = hascpu ? $4 : ""
			} else { pc = ""; pu = "" }
			print $2, pc, pu, $6, $7, $8, $2, $9, $10, $11
		}' hascpu="$hascpu" kc="$w/kcat.tsv" >"$w/kk0.tsv"; bgok || return 1
		# (read for the last time: its memory is the later files')
		rm -f "$w/k.tsv"
		if [ "$short" = 1 ]; then
			st $SORT -t "$TAB" -k1,1n "$w/kk0.tsv" | st cut -f 2- >"$w/kk.tsv"; bgok || return 1
		fi
	fi
	rm -f "$w/k1s.tsv"
	[ "$nk" -gt 0 ] && [ "$ksum" = 1 ] || return 0
	# each group's kernels in trace order (UID last), as pandas sums
	# them (grouped by a hash of the keys, then the groups in key order)
	{ printf 'UID\tpcat\tpcpu\tname\tstream\tdur\n'; cut -f1-6 "$w/kk0.tsv"; } |
	st tl-aggregate -g pcat,pcpu,name,stream -K UID:n | st hsort -t "$TAB" -k1,1 |
	st tl-aggregate -H -g pcat,pcpu,name,stream:n 'sum:dur' 'count:dur' 'mean:dur' 'min:dur' 'max:dur' |
	st hsort -s -t "$TAB" -k1,1 -k2,2 -k3,3 -k4,4n >"$w/ks.tsv"; bgok || return 1
	rm -f "$w/kk0.tsv"
}

# ---- 3. kernel launchers: one row per op that launches kernels ----
# Each op's direct kernels (busy time, count, first GPU event and name,
# list) and subtree busy time, from intervals.tsv (tl-kernels);
# joined with the op fields (ops.tsv) and the process and thread names
# (meta.tsv) onto the launchers, all in UID order, and categorised
# (TraceLens's categorize_torch_op): Lu, the launcher table, in UID
# order (tl-launchers).  Lu columns: 1 UID 2 name 3 op category
# 4 process_name 5 process_label 6 thread_name 7-10 Input Dims/type/
# Strides, Concrete Inputs 11 ts 12 direct 13 subtree 14 g1 15 kd
# 16 tkey (ts and g1 as one key that sort compares as bytes); the first
# kernel's name k1 in k1s.tsv, for section 4a.
st tl-kernels $xflag "$T/intervals.tsv" |
st tl-launchers -d "$T" -o "$w/k1s.tsv" >"$w/Lu.tsv"; ok
# (the perf-model stage may now remove intervals.tsv after its last read)
: >"$w/iv.free"
nl=$(sed -n '2{p;q;}' "$w/Lu.tsv" | wc -l)
# section 4's kernel work, beside the sheets below (once the timeline's
# pass has written k.tsv)
wait "$tlpid"; ok
tlpid=
[ -f "$w/k.tsv" ] || : >"$w/k.tsv"
nk=$(head -n 1 "$w/k.tsv" | wc -l)
hascpu=$(awk -F '\t' '$1 != "" { print 1; exit } END { print 0 }' "$w/k.tsv" | head -1)
kernels_job &
kjpid=$!
# TraceLens groups the launchers in their order (by ts, ties by first
# kernel, then UID): each sheet's stable sort ends with tkey (ts, g1),
# and takes only the columns it needs (kd is most of Lu).
if [ "$gpuonly" = 0 ] && [ "$nl" -gt 0 ]; then
	# The three sheets one after the other (subshells: a failure ends
	# only theirs): beside the kernels job and the perf-model stage,
	# more at once would only add to the peak memory, not speed.
	# ---- ops_summary_by_category ----
	(
		st cut -f3,12,16 "$w/Lu.tsv" | st hsort -s -t "$TAB" -k1,1 -k3,3 |
		st tl-aggregate -g 'op category' 'sum=sum:direct' 'Count=count:direct' >"$w/cat.tsv"; bgok || exit 1
		st awkx '
		NR == 1 { print "op category,Count,total_direct_kernel_time_ms,Percentage (%),Cumulative Percentage (%)"; next }
		{ n++; c[n] = $1; k[n] = $3; sm[n] = $2 }
		END {
			descorder(sm, n, o)
			for (i = 1; i <= n; i++) ms[i] = sm[o[i]] / 1000
			tot = pwsum(ms, 1, n)
			for (i = 1; i <= n; i++) {
				p = ms[i] / tot * 100; cum += p
				print cell(c[o[i]]) "," k[o[i]] "," pyrepr(ms[i]) "," pyrepr(p) "," pyrepr(cum)
			}
		}' "$w/cat.tsv" >"$R/ops_summary_by_category.csv"
	); ok

	# ---- ops_summary ----
	(
		st cut -f2,3,12,13,16 "$w/Lu.tsv" | st hsort -s -t "$TAB" -k1,1 -k5,5 |
		st tl-aggregate -g name 'dsum=sum:direct' 'ssum=sum:subtree' 'Count=count:direct' \
		    'Categories=set:op category' >"$w/ops.tsv"; bgok || exit 1
		st awkx '
		NR == 1 { print "name,total_direct_kernel_time_sum,total_subtree_kernel_time_sum,total_direct_kernel_time_ms,total_subtree_kernel_time_ms,Count,Categories,Percentage (%),Cumulative Percentage (%)"; next }
		{ n++; nm[n] = $1; d[n] = $2; s[n] = $3; k[n] = $4; c[n] = $5 }
		END {
			descorder(d, n, o)
			for (i = 1; i <= n; i++) ms[i] = d[o[i]] / 1000
			tot = pwsum(ms, 1, n)
			for (i = 1; i <= n; i++) {
				j = o[i]; p = ms[i] / tot * 100; cum += p
				print cell(nm[j]) "," pyrepr(d[j]) "," pyrepr(s[j]) "," pyrepr(ms[i]) "," \
				    pyrepr(s[j] / 1000) "," k[j] "," cell(c[j]) "," pyrepr(p) "," pyrepr(cum)
			}
		}' "$w/ops.tsv" >"$R/ops_summary.csv"
	); ok

	# ---- ops_unique_args ----
	# (grouped by a hash of the nine keys, then tkey: sort compares
	# a short key as bytes, not nine long fields that are mostly equal;
	# the rows are ordered by their totals after)
	ukeys='name,op category,process_name,process_label,thread_name,Input Dims,Input type,Input Strides,Concrete Inputs'
	st tl-aggregate -g "$ukeys" -K tkey <"$w/Lu.tsv" |
	st hsort -t "$TAB" -k1,1 |
	st tl-aggregate -H -g "$ukeys" \
	    'd=pylit:Input Dims' 't=pylit:Input type' 's=pylit:Input Strides' 'c=pylit:Concrete Inputs' \
	    'operation_count=count:UID' \
	    'total_direct_kernel_time_mean=mean:direct' 'total_subtree_kernel_time_mean=mean:subtree' \
	    'total_direct_kernel_time_median=median:direct' 'total_subtree_kernel_time_median=median:subtree' \
	    'total_direct_kernel_time_std=std:direct' 'total_subtree_kernel_time_std=std:subtree' \
	    'total_direct_kernel_time_min=min:direct' 'total_subtree_kernel_time_min=min:subtree' \
	    'total_direct_kernel_time_max=max:direct' 'total_subtree_kernel_time_max=max:subtree' \
	    'total_direct_kernel_time_sum=sum:direct' 'total_subtree_kernel_time_sum=sum:subtree' \
	    'ex_UID=first:UID' 'kernel_details_summary=kstats:kd' 'trunc_kernel_details=ktrunc:kd' |
	st hsort -t "$TAB" -k25,25gr -k27,27n >"$w/uniq.tsv"
	st awkx '
	NR == 1 {
		printf "name,op category,process_name,process_label,thread_name,Input Dims,Input type,Input Strides,Concrete Inputs"
		for (i = 14; i <= NF; i++) printf ",%s", $i
		print ",Percentage (%),Cumulative Percentage (%)"
		next
	}
	{ n++; row[n] = $0; v[n] = $25 + 0 }
	END {
		tot = pwsum(v, 1, n)
		for (r = 1; r <= n; r++) {
			split(row[r], f, "\t")
			o = cell(f[1]) "," cell(f[2]) "," cell(f[3]) "," cell(f[4]) "," cell(f[5])
			for (i = 10; i <= 13; i++) o = o "," cell(f[i])
			o = o "," f[14]
			for (i = 15; i <= 24; i++) o = o "," (f[i] == "" ? "" : pyrepr(f[i]))
			o = o "," pyrepr(f[25]) "," pyrepr(f[26]) "," f[27] "," cell(f[28]) "," cell(f[29])
			p = v[r] / tot * 100; cum += p
			print o "," pyrepr(p) "," pyrepr(cum)
		}
	}' "$w/uniq.tsv" >"$R/ops_unique_args.csv"; ok
fi
rm -f "$w/Lu.tsv"

# ---- 4. kernels: kernel_summary and the short-kernel sheets ----
if [ -s "$w/total" ]; then
	total_us=$(cat "$w/total")
else
	echo "$prog: $trace: no GPU events (TraceLens stops here): reporting its CPU ops only" >&2
	total_us=
fi
wait "$kjpid"; ok
# (read for the last time: their memory is the later files')
rm -f "$w/k.tsv" "$w/kk0.tsv"
if [ "$nk" -gt 0 ] && [ "$ksum" = 1 ]; then
	tk=$(cat "$w/tk")
	st awkx '
	NR == 1 {
		printf "Parent op category,%sKernel name,Kernel stream,", hascpu ? "Parent cpu_op," : ""
		print "Kernel duration (µs)_sum,Kernel duration (µs)_count,Kernel duration (µs)_mean,Kernel duration (µs)_min,Kernel duration (µs)_max,Percent of kernels time (%),Percent of total time (%)"
		next
	}
	{ n++; row[n] = $0; v[n] = $5 }
	END {
		tt = total / 1e3 * 1e3
		descorder(v, n, ord)
		for (r = 1; r <= n; r++) {
			split(row[ord[r]], f, "\t")
			o = cell(f[1]) "," (hascpu ? cell(f[2]) "," : "") cell(f[3]) "," cell(f[4])
			o = o "," pyrepr(f[5]) "," f[6] "," pyrepr(f[7]) "," pyrepr(f[8]) "," pyrepr(f[9])
			o = o "," (tk + 0 > 0 ? pyrepr(f[5] / tk * 100) : "")
			o = o "," (total != "" && tt != 0 ? pyrepr(f[5] / tt * 100) : "")
			print o
		}
	}' hascpu="$hascpu" total="$total_us" tk="$tk" "$w/ks.tsv" >"$R/kernel_summary.csv"; ok
fi
if [ "$short" = 1 ]; then
	# A trace without kernels still gets its (empty) short-kernel sheets.
	[ -f "$w/kk.tsv" ] || : >"$w/kk.tsv"
	# short_kernel_histogram: numpy.histogram of the short durations,
	# beside short_kernels_summary (when kk.tsv is there to read).
	hist() {
	st awkx '
	FNR == NR { if ($5 + 0 < th) { d = $5 + 0; if (!n || d < lo) lo = d; if (!n || d > hi) hi = d; n++ } next }
	FNR == 1 {
		print "bin_start,bin_end,count"; hdr = 1
		if (!n) exit
		if (lo == hi) { lo -= 0.5; hi += 0.5 }
		step = (hi - lo) / bins
		for (i = 0; i < bins; i++) e[i] = i * step + lo
		e[bins] = hi
		norm = bins / (hi - lo)
	}
	$5 + 0 < th {
		d = $5 + 0
		j = int((d - lo) * norm)
		if (j == bins) j--
		if (d < e[j]) j--
		if (d >= e[j + 1] && j != bins - 1) j++
		c[j]++
	}
	END {
		if (!hdr) print "bin_start,bin_end,count"
		if (n) for (i = 0; i < bins; i++) print pyrepr(e[i]) "," pyrepr(e[i + 1]) "," c[i] + 0
	}
	' th="$thresh" bins="$bins" "$w/kk.tsv" "$w/kk.tsv" >"$R/short_kernel_histogram.csv"
	}
	histpid=
	if [ -r "$w/kk.tsv" ]; then hist & histpid=$!; else hist; ok; fi
	# short_kernels_summary: grouped in first-appearance order (a
	# sequence number per group keeps it), rows with a missing key dropped.
	if [ "$gpuonly" = 1 ]; then keys='name'; else keys='pcpu,dims,strides,concrete,name'; fi
	st awkx '
	BEGIN { print "seq", "pcpu", "dims", "strides", "concrete", "name", "dur" }
	$5 + 0 < th {
		nshort++
		if (!gpuonly && ($2 == "" || $7 == "" || $8 == "" || $9 == "")) next
		k = gpuonly ? $3 : $2 "\t" $7 "\t" $8 "\t" $9 "\t" $3
		if (!(k in seq)) seq[k] = sprintf("%012d", ++ns)
		print seq[k], $2, $7, $8, $9, $3, $5
	}
	END { print nshort + 0 >nsf }' th="$thresh" gpuonly="$gpuonly" nsf="$w/nshort" "$w/kk.tsv" |
	st hsort -s -t "$TAB" -k1,1 |
	st tl-aggregate -g seq 'p=first:pcpu' 'd=pylit:dims' 's=pylit:strides' 'c=pylit:concrete' \
	    'n=first:name' 'sum:dur' 'count:dur' 'mean:dur' |
	st hsort -s -t "$TAB" -k7,7gr -k8,8n -k9,9g >"$w/short.tsv"
	[ -z "$histpid" ] || wait "$histpid"; ok
	st awkx '
	NR == 1 {
		# pandas writes an empty group-by with its two-level header
		if (n0 == 0) { print (nshort > 0 ? "Kernel duration (µs),Kernel duration (µs),Kernel duration (µs)\nsum,count,mean" : ""); exit }
		if (!gpuonly) printf "Parent cpu_op,Input dims,Input strides,Concrete Inputs,"
		print "Kernel name,Short Kernel duration (µs) sum,Short Kernel count,Short Kernel duration (µs) mean,Short Kernel duration (µs) percent of total time"
		next
	}
	topk != "" && NR - 1 > topk + 0 { exit }
	{
		o = gpuonly ? "" : cell($2) "," cell($3) "," cell($4) "," cell($5) ","
		print o cell($6) "," pyrepr($7) "," $8 "," pyrepr($9) "," pyrepr($7 / (total / 1e3 * 1e3) * 100)
	}' gpuonly="$gpuonly" topk="$topk" total="$total_us" nshort="$(cat "$w/nshort")" n0="$(($(wc -l <"$w/short.tsv") - 1))" \
	    "$w/short.tsv" >"$R/short_kernels_summary.csv"; ok
fi


# ---- 5. coll_analysis: the background job started after section 1 ----
[ -z "$collpid" ] || wait "$collpid"; ok

# ---- 6. roofline sheets: the background job started after section 1 ----
if [ -n "$rlpid" ]; then
	wait "$rlpid" || { ok; die "roofline stage failed"; }
	rlpid=
fi

# ---- 6b. --comparison: TraceDiff's columns in unified_perf_summary ----
# As TraceLens's --comparison_json_path: the diff_stats sheet, and seven
# columns after Kernel Time (µs)_sum, from the LCAs of each row's trace1
# GPU events (lca_totals.tsv joined with the roofline stage's KMAP of
# GPU event -> row).  TraceLens runs TraceDiff only when there is a
# unified_perf_summary.
if [ -n "$cmp" ]; then
	wait "$cmppid"; cs=$?; cmppid=
	[ "$cs" = 0 ] || cmpfailed
	[ -s "$w/cmp.err" ] && cat "$w/cmp.err" >&2
	if [ -f "$R/unified_perf_summary.csv" ] && [ -f "$w/cmp/diff_stats.csv" ]; then
		[ -f "$w/kmap.tsv" ] || die "roofline stage wrote no GPU event map"
		comparison_columns
		mv "$w/cmp/diff_stats.csv" "$R/diff_stats.csv" || die "cannot write diff_stats.csv"
	fi
fi

# ---- 7. health: what TraceLens absorbs silently ----
st awkx '
NR == 1 { print "fact,count"; next }
{
	print cell($1) "," cell($2)
	if ($1 ~ /^(host_events_dropped|gpu_events_unlinked|gpu_events_same_stream_overlap|gpu_events_zero_duration|events_out_of_time_order)$/ && $2 + 0 > 0) {
		msg = msg sep $2 " " $1; sep = ", "
	}
}
END { if (msg != "") print "tl-report: " tr ": health: " msg >"/dev/stderr" }
' tr="$trace" "$T/health.tsv" >"$R/health.csv"; ok

# ---- CPU-only traces: the CPU ops, so that the report says something ----
if [ "$ngpu" = 0 ]; then
	st awkx 'NR == 1 { header(); print "name", "dur"; next } $col["cat"] == "cpu_op" { print $col["name"], $col["dur"] }' "$T/ops.tsv" |
	st hsort -s -t "$TAB" -k1,1 |
	st tl-aggregate -g name 'sum:dur' 'count:dur' 'mean:dur' |
	st hsort -t "$TAB" -k2,2gr >"$w/cpu.tsv"; ok
	st awkx 'NR == 1 { print "name,cpu_time_sum_us,Count,cpu_time_mean_us"; next }
	{ print cell($1) "," pyrepr($2) "," $3 "," pyrepr($4) }' "$w/cpu.tsv" >"$R/cpu_ops_summary.csv"; ok
fi

publish
