#!/bin/sh
# See LICENSE file for copyright and license details.
#
# tl-tracediff: TraceLens's TraceDiff (compare two traces by the shape of
# their call trees) from two PyTorch profiler traces, made by composing
# tl-parse, tl-tree, sort, tl-diff, tl-lca and tl-sheet.  See
# tl-tracediff(1).
set -u
case $0 in */*) . "${0%/*}/tl-lib.sh" ;; *) . tl-lib.sh ;; esac
tl_init tl-tracediff 4M
# TraceDiff's trees have no python functions; nothing here reads the
# forward links or the overlap fact (tl_tree_stage's lean passes)
TL_TREE_OPTS= TL_TREE_LEAN=1
export TL_TREE_OPTS TL_TREE_LEAN

usage() {
	cat <<EOF
usage: tl-tracediff [--prune-non-gpu] [--force] [--quiet] [--legacy-flows]
                    TRACE1 TRACE2 OUT_DIR
       tl-tracediff --records [--legacy-flows] TRACE1 TRACE2 DIR
EOF
	exit "$1"
}

prune= force=0 records=0 quiet=0
while tl_opt "$@"; do
	case $opt in
	--help | -h) tl_noarg; usage 0 ;;
	--version) tl_noarg; echo "tl-tracediff @VERSION@"; exit 0 ;;
	--prune-non-gpu) tl_noarg; prune=-p ;;
	--force) tl_noarg; force=1 ;;
	--quiet) tl_noarg; quiet=1 ;;
	--records) tl_noarg; records=1 ;;
	# (only what TraceLens reads: tl-tree(1))
	--legacy-flows) tl_noarg; TL_TREE_OPTS=--legacy-flows ;;
	--tracelens-compat) tl_noarg; TL_TREE_OPTS= ;;
	*) tl_badopt ;;
	esac
	shift "$optn"
done
shift "$optn"
[ $# -eq 3 ] || usage_die "need TRACE1 TRACE2 OUT_DIR"
t1=$1 t2=$2 out=$3
[ "$t1" != - ] || t1=./-
[ "$t2" != - ] || t2=./-
tl_input "$t1" nodir
tl_input "$t2" nodir
while :; do
	case $out in
	?*/) out=${out%/} ;;
	*) break ;;
	esac
done
if [ "$records" = 1 ]; then
	# (tl-report --comparison: the records go into DIR, which exists)
	[ -d "$out" ] || die "$out: not a directory"
	[ ! -e "$out/diff_stats.csv" ] && [ ! -e "$out/lca_totals.tsv" ] ||
		die "$out already holds diff_stats.csv or lca_totals.tsv"
else
	if [ -e "$out" ]; then
		[ -d "$out" ] || die "$out exists and is not a directory"
		[ "$force" = 1 ] || [ -z "$(ls -A -- "$out")" ] ||
			die "$out exists and is not empty (use --force to replace it)"
		force=1
	fi
	# (the directory the output is made in, beside OUT_DIR, is made
	# beside the trees: see trees)
	tl_outcheck "$out" "$force" "$t1" "$t2"
fi
tmpdir=${TMPDIR:-/tmp}
tl_workdir
tmp=$TL_WORK
tl_dropper "$tmp/drop"
# (whether a trace is a bare array: asked beside the trees, said after
# them; tl-report --comparison, which asks for the records, has said it)
[ "$records" = 1 ] || tl_bare2 "$t1" "$t2" "$tmp/top"
tl_progress "$quiet"

# a full disk named, the output's first (the programs say "<stdout>";
# TL_STAGE, on its file system, is made later)
[ "$records" = 1 ] || tl_spacecheck "$TL_OUTPARENT" "$out"
tl_spacecheck "$tmp" "TMPDIR ($tmpdir)"
# (each tree's directory, also its passes' own one, TL_TREE_TMP: the
# lean passes' files have names of their own; made with the passes'
# fifos (TL_TREE_FIFOS) by one tl-mkfifo in the tree's job, the two
# side by side: a file made in a busy /tmp costs 0.5 ms of system time;
# removed with the rest)
TL_TREE_FIFOS=1
export TL_TREE_FIFOS

# ---- trees ----
# The tree stage of each trace (it runs tl-parse beside its first
# pass) into $tmp/N, then its node records (nodes), both traces at
# once, each in a process group of its own (a signal ends them at
# once): the trace whose tree is done first makes its node records
# while the other's tree is still being built.
#
# The node records of trace N (tl(7)): grouped by top-level tree in
# TraceLens's root order, each tree ranked by its first cpu_root op in
# (ts, UID) order; trees with no cpu_root op are left out
# (tl-nodes(1)).  Four processes: tl-nodes keys the records of ops.tsv
# and gpu.tsv by tree, the cpu_root ops by (ts, UID) too; sorted as
# bytes, each tree comes together, its first cpu_root op first, and
# tl-nodes -r ranks the tree's records; sorted again, the trees come
# in rank order.  (st: a failure inside the pipeline is noted in
# TL_FAIL; sh has no pipefail.)  Exit 4: the node records failed.
_tree='. "$TL_BIN/tl-lib.sh" && TL_TREE_TMP=$1 &&
	tl_treefifos tl-mkfifo "$1" lean -d "$1" &&
	tl_tree_stage "$1/ev.tsv" "$1" "$2" || exit
TL_FAIL=$1/fail
{ st tl-nodes "$1/ops.tsv" "$1/gpu.tsv" | st tl_sort | st tl-nodes -r |
	hsort; } >"$1/nodes" && [ ! -s "$TL_FAIL" ] || exit 4
tl_drop_later "$1/ops.tsv" "$1/gpu.tsv"'
tl_step trees start
tl_spawn sh -c "$_tree" tree "$tmp/1" "$t1"
p1=$TL_SPAWNED
tl_spawn sh -c "$_tree" tree "$tmp/2" "$t2"
p2=$TL_SPAWNED
# (meanwhile, the directory the output is made in, R: the records go
# into DIR at the end, the output is made beside OUT_DIR; and, unless
# --records, the fifos of the summary job: see summary below)
if [ "$records" = 1 ]; then
	R=$tmp/out
else
	tl_outstage
	R=$TL_STAGE/out
fi
set --
[ "$records" = 1 ] || set -- "$tmp/f1" "$tmp/f2" "$tmp/f3" "$tmp/f4" "$tmp/f5"
tl-mkfifo -d "$R" "$@" & pff=$!
tl_wait "$p1"; s1=$?
tl_wait "$p2"; s2=$?
tl_step trees end
[ "$records" = 1 ] || tl_bare2_say "$t1" "$t2" "$tmp/top"
# the failing program has said why
case "$s1 $s2" in
"0 0") ;;
"4 0" | "0 4" | "4 4") die "cannot group the trees by root" ;;
*) exit 1 ;;
esac
for n in 1 2; do
	tl_drop_later "$tmp/$n/ev.tsv" "$tmp/$n/intervals.tsv" "$tmp/$n/gpuev.tsv" \
	    "$tmp/$n/dropped_ops.tsv"
done
# the older flows TraceLens does not follow, left or (--legacy-flows)
# followed: tl-report's health line (a short file: read by the shell,
# no process); with --records, trace2's alone, tl-report --comparison
# having said trace1's
for n in 1 2; do
	[ "$records$n" != 11 ] || continue
	eval "_tn=\$t$n"
	while IFS="$TAB" read -r _hf _hn; do
		case $_hf in
		flows_legacy_followed | flows_legacy_ignored)
			[ "$_hn" = 0 ] || echo "$prog: $_tn: health: $_hn $_hf" >&2 ;;
		esac
	done <"$tmp/$n/health.tsv"
done
# TraceLens's TraceDiff refuses these too (ValueError: no cpu_root_nodes)
tl_rows "$tmp/1/nodes" || die "$t1: no CPU ops: nothing to compare"
tl_rows "$tmp/2/nodes" || die "$t2: no CPU ops: nothing to compare"

# summary: the unique-args summary, renamed (f4, its header twice: see
# csv), and the records of cpu_op_map.json (f5); a job started before
# the merge, its two inputs on fifos, sorting them as they come: the
# rows with the summary's keys first (tl-lca -k's sum0: f1) and tl-lca
# -l's cpu_op names of each LCA (f2); its outputs read by the script's
# csv and tl-json.
#
# The rename map, from the cpu_op names of each LCA with names on both
# sides, in bounded memory: no table of the names.  Such an LCA is
# skipped when all its names were in an earlier one, so each name needs
# only the index of its first LCA (and its module parents, root: see
# the rows pass).  Sorted by name, the LCAs (numbered by their first
# row) first, each name's record gets whether it was seen before its
# LCA; sorted by LCA again, one LCA at a time, the names paired as
# TraceLens pairs them: each rename numbered (the last one of a name
# wins), sorted by name (the whole line as bytes: a name then a TAB,
# the summary's order): on a pipe, read as the summary's rows come by
# cpu_op.  (Both sorts are of whole lines, not of key fields, a fourth
# of the work: a name's lines still come together, by LCA, though
# another name may come between two whose one begins the other; that
# order of the names changes nothing, and the LCA, side and place are
# numbers of fixed width, one line each.)
#
# The summary (tl-lca finds the columns by name: they stay as sorted;
# the columns before the sum, cpu_op first (tl-lca -c), compared as
# tl-lca compares them: joined by TABs; then the row's number, in the
# order the rows came (-k's row): a sort of whole lines, a fourth of
# the work of sort -s -t TAB -k1,12, the same order, as the last of
# those columns, nn_module_parent, is root in every row), so by cpu_op,
# merged with the renames by name as it is written (tl-lca -r: the last
# of each name, no table of the names), each row's new name appended
# (the header's 15 fields kept); then in TraceLens's order (sum
# descending, then every column as a string: the name appended, a
# function of the cpu_op, changes no order), each row numbered, its
# cpu_op renamed and its module parents without spaces.  (That order
# is sort -t TAB -k15,15gr -k1,14's; a sort of whole lines gives it, a
# fifth of the work: tl-lca -s puts a key of the sum, descending, first,
# and the 14th column is a number, so no byte below TAB follows where
# the key's columns end.  st: a failure
# is noted in TL_FAIL: rfail for the rename map, sfail for the summary
# and its renaming, nfail for what follows.)
#
# Beside it, from mp (each row's renamed cpu_op, row, source, kernel
# and module parents) as it comes (f3), the records of cpu_op_map.json:
# per renamed cpu_op, numbered by its first row (its rows by name, then
# by row, give it; no table of the names), per source, its kernels and
# module parents, sorted, with their header (jfail).  (Its first sort
# is of whole lines: a name's rows still come together, by row, all
# that its numbering needs.)
summary() {
	{ TL_FAIL=$tmp/jfail
	  { st tl_sort | st awk -F'\t' -v OFS='\t' '
	    BEGIN { print "pos", "cpu_op", "source", "kind", "value" }
	    {
		n = $1 ""
		if (NR == 1 || n != pn) { pos = $2; pn = n }
		print pos, $1, $3, "kernels", $4
		print pos, $1, $3, "nn_module_parents", $5
	    }' | st hsort -u; } <"$tmp/f3" >"$tmp/f5"
	} &
	_sm_p=$!
	{ TL_FAIL=$tmp/rfail
	  { st tl_sort | st awk -F'\t' -v OFS='\t' '
	$1 "" != cur { cur = $1 ""; first = $2 }
	{ print $2, $3, $4, $1, ($2 != first) }' |
	  st tl_sort | st awk -F'\t' -v OFS='\t' '
	function clean(n,   k, a) { k = split(n, a, "::"); return a[k] }
	function has(big, small) { return small == "" || index(big, small) > 0 }
	# (the first 20 characters, as Python slices a str: code points,
	# UTF-8 continuation bytes not counted)
	function pre20(s,   i, n, c) {
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if ((c < "\200" || c >= "\300") && ++n > 20)
				return substr(s, 1, i - 1)
		}
		return s
	}
	# (the last test: both names have one module parent, the same:
	# root, always here)
	function common(n1, n2,   c1, c2) {
		c1 = clean(n1); c2 = clean(n2)
		if (c1 == c2) return c1
		if (has(c2, c1)) return c1
		if (has(c1, c2)) return c2
		if (pre20(c1) == pre20(c2)) return c1 "/" c2
		return "root"
	}
	# (each rename numbered: the last one of a name wins)
	function rename(n, c) { printf "%s\t%012d\t%s\n", n, ++seq, c }
	function group(   i, j, m1) {
		if (all) return
		if (n1 == n2) {
			for (i = 1; i <= n1; i++) if (a1[i] != a2[i]) {
				c = common(a1[i], a2[i])
				rename(a2[i], c); rename(a1[i], c)
			}
			return
		}
		# drop the names on both sides, then pair the rest greedily
		m1 = 0
		for (i = 1; i <= n1; i++) {
			for (j = 1; j <= n2; j++) if (a2[j] != "\002" && a1[i] == a2[j]) break
			if (j <= n2) a2[j] = "\002"; else b1[++m1] = a1[i]
		}
		for (i = 1; i <= m1; i++)
			for (j = 1; j <= n2; j++) {
				if (a2[j] == "\002") continue
				c = common(b1[i], a2[j])
				rename(b1[i], c); rename(a2[j], c); a2[j] = "\002"; break
			}
	}
	$1 "" != g {
		if (NR > 1) group()
		g = $1 ""; n1 = n2 = 0; all = 1
		delete a1; delete a2; delete b1
	}
	{
		if ($2 == 1) a1[++n1] = $4; else a2[++n2] = $4
		if (!$5) all = 0
	}
	END { if (NR > 0) group() }' |
	  st tl_sort; } <"$tmp/f2"
	} |
	{ TL_FAIL=$tmp/sfail
	  st hsort <"$tmp/f1" 3<&- |
	  st tl-lca -m summary -s -c -r /dev/fd/3 |
	  { TL_FAIL=$tmp/nfail
	    st hsort 3<&- |
	    awk -F'\t' -v OFS='\t' -v mp=/dev/fd/6 '
	    NR == 1 { printf "" >mp; print; print; next }
	    {
		$4 = $17
		gsub(/ /, "", $14)
		print $4, sprintf("%012d", NR - 1), $6, $2, $14 >mp
		l = $2
		for (i = 3; i <= 16; i++) l = l "\t" $i
		print l
	    }' 3<&- 6>"$tmp/f3" >"$tmp/f4"; }
	} 3<&0
	_sm_s=$?
	wait $_sm_p
	return $_sm_s
}

wait $pff || die "cannot make the work directories"
M=$tmp/merged S=$tmp/stats
tl_step merge start
# The merge job: the diff_stats rows of the merged tree, as they come; unless
# --records, the merge, its rows, its text (tl-lca -t), the cpu_op
# names of each LCA that the rename map pairs (-l: ln) and the rows
# with the summary's key columns first, cpu_op_name before name, the
# header's too (-k: sum0, on fd 4: f1) at once, the merged tree on a
# pipe; with --records it is kept (M), for the LCA totals, made beside
# the rows.  (st: a failure is noted in TL_FAIL.)
TL_FAIL=$tmp/mfail
if [ "$records" = 1 ]; then
	tl-diff "$tmp/1/nodes" "$tmp/2/nodes" >"$M" || exit 1
	tl_drop_later "$tmp/1/nodes" "$tmp/2/nodes"
	tl-lca -m totals "$M" >"$R/lca_totals.tsv" & ptot=$!
else
	# (a signal before the job and the rows pass open the fifos:
	# tl_cleanup opens them, or they would wait on them for ever)
	_tl_fifos="$tmp/f1$NL$tmp/f2$NL$tmp/f3$NL$tmp/f4$NL$tmp/f5"
fi

# One pass over the rows (tl-lca's) as they come, keeping a copy (S),
# for what follows:
# - identical traces (TraceLens: trace1 rows equal trace2 rows, source
#   aside) keep only the trace1 rows, without the source column: the
#   number of rows and of bytes of each side; when both are equal (no
#   file written otherwise), the rows of each side, without it, into s1
#   and s2, compared;
# - pandas writes a column of numbers as floats when one of them is not
#   a whole number (or is missing): which of kernel_time, busy_time and
#   lowest_common_ancestor_id are all whole (wholecols);
# - unless --records: each row's (cpu_op, kernel), by source (c1, c2:
#   the pairs of the summary, which groups on both, for
#   cpu_op_map_traceN.json).
# The module parents of every row are root (tl-lca(1): TraceDiff's
# trees have no python functions), so every cpu_op has the one module
# parent root, on each side: the rename map takes that as given, and a
# row with another is refused here.
# (in the background, its result line in r: tl-diff starts before the
# summary job, which then starts beside it; the processes that write to
# the job's fifos wait for it there)
_rows='
	{ print >all }
	NR == 1 {
		for (i = 1; i <= NF; i++) if ($i == "kernel_time" || $i == "busy_time" ||
		    $i == "lowest_common_ancestor_id") { c[i] = $i; w[i] = 1 }
		if ($15 != "nn_module_parent") {
			printf "%s: diff_stats rows: column 15 is not nn_module_parent\n", prog >"/dev/stderr"
			exit 1
		}
		if (full) { printf "" >cm1; printf "" >cm2 }
	}
	NR == 1 { next }
	$15 != "root" {
		printf "%s: diff_stats rows: line %d: nn_module_parent is not root\n", prog, NR >"/dev/stderr"
		exit 1
	}
	{
		for (i in c) if ($i !~ /^-?[0-9]+$/) w[i] = 0
		if (full) {
			if ($4 == "trace1") print $2 "\t" $1 >cm1
			else if ($4 == "trace2") print $2 "\t" $1 >cm2
		}
		if ($4 == "trace1") { n1++; b1 += length($0) } else { n2++; b2 += length($0) }
	}
	END {
		printf "%d %d %d %d ", NR - 1, n1, n2, b1 == b2
		for (i in c) if (w[i]) printf "%s,", c[i]
		print ""
	}'
# (tl-diff forked first, and as few forks deep as can be: the jobs
# started after it wait for its rows; the names of the LCAs go to the
# rename map, on f2: see summary)
if [ "$records" = 1 ]; then
	{ st tl-lca "$M" | awk -F'\t' -v OFS='\t' -v full=0 -v cm1= -v cm2= \
		-v all="$S" -v prog="$prog" "$_rows"; } >"$tmp/r" &
else
	{ st tl-diff "$tmp/1/nodes" "$tmp/2/nodes" |
		st tl-lca -t "$R/merged_tree_output.txt" -l /dev/fd/5 \
		    -k /dev/fd/4 $prune 5>"$tmp/f2" 4>"$tmp/f1" |
		awk -F'\t' -v OFS='\t' -v full=1 -v cm1="$tmp/c1" -v cm2="$tmp/c2" \
		    -v all="$S" -v prog="$prog" "$_rows"; } >"$tmp/r" &
fi
_pm=$!
if [ "$records" = 0 ]; then
	summary 2>"$tmp/serr" &
	psum=$! _tl_fifojob=$!
fi
wait $_pm
_s=$?
_r=
[ ! -s "$tmp/r" ] || IFS= read -r _r <"$tmp/r"
# (a program before the rows pass that failed has said why)
[ ! -s "$TL_FAIL" ] || exit 1
[ $_s = 0 ] || die "cannot read the rows"
if [ "$records" = 0 ]; then
	tl_drop_later "$tmp/1/nodes" "$tmp/2/nodes"
fi
set -- $_r
nrows=$1 wholecols=${5:-}
ident=0
if [ "$2" -gt 0 ] && [ "$2" = "$3" ] && [ "$4" = 1 ]; then
	awk -F'\t' -v OFS='\t' -v a="$tmp/s1" -v b="$tmp/s2" '
	NR == 1 { printf "" >a; printf "" >b; next }
	{ f = $4 == "trace1" ? a : b; $4 = ""; print >f }' "$S" ||
		die "cannot read the rows"
	cmp -s "$tmp/s1" "$tmp/s2" && ident=1
	tl_drop "$tmp/s1" "$tmp/s2"
fi

# csv FILE: the records of FILE (tl-lca's) as pandas writes them: with
# ident, the trace2 rows and the column named source left out; the
# columns kernel_time, busy_time and lowest_common_ancestor_id written
# as floats (55.0) unless wholecols lists them; a column named #row
# (the renamed summary's row numbers) left out.
csv() {
	if [ "$1" = - ]; then
		IFS= read -r _cv_h
	else
		IFS= read -r _cv_h <"$1"
	fi
	_cv_f=$1
	set --
	_cv_ifs=$IFS
	IFS=$TAB
	for _cv_n in $_cv_h; do
		_cv_t=t
		case $_cv_n in
		'#row') continue ;;
		source) [ "$ident" = 1 ] && continue ;;
		kernel_time | kernel_time_sum | busy_time | lowest_common_ancestor_id)
			case ,$wholecols in
			*",${_cv_n%_sum},"*) ;;
			*) _cv_t=f ;;
			esac ;;
		esac
		set -- "$@" "$_cv_n=$_cv_t:$_cv_n"
	done
	IFS=$_cv_ifs
	if [ "$ident" = 1 ]; then
		awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "source") s = i }
		    NR == 1 || !s || $s != "trace2"' "$_cv_f" | tl-sheet "$@"
	elif [ "$_cv_f" = - ]; then
		tl-sheet "$@"
	else
		tl-sheet "$@" <"$_cv_f"
	fi
}

pcsv=
if [ "$nrows" -gt 0 ] && [ "$records" = 0 ]; then
	{ csv "$S" >"$R/diff_stats.csv" ||
		{ note "cannot write diff_stats.csv"; exit 1; }; } & pcsv=$!
elif [ "$nrows" -gt 0 ]; then
	csv "$S" >"$R/diff_stats.csv" || die "cannot write diff_stats.csv"
fi
# ---- for tl-report --comparison: the diff_stats sheet and the LCA totals ----
if [ "$records" = 1 ]; then
	# (the totals, made beside the rows, complete first)
	wait $ptot || exit 1
	tl_drop_later "$M"
	# The LCA ids as diff_stats.csv writes them: a perf report joins
	# their str() (55.0 when the column is float: some row has no LCA).
	case ,$wholecols in
	*,lowest_common_ancestor_id,*) ;;
	*)	awk -F'\t' -v OFS='\t' 'NR > 1 { $2 = $2 ".0" } { print }' \
		    "$R/lca_totals.tsv" >"$tmp/totals" &&
		    mv "$tmp/totals" "$R/lca_totals.tsv" || die "cannot write lca_totals.tsv" ;;
	esac
	mv -- "$R"/* "$out/" || die "cannot write into $out"
	tl_step merge end
	tl_dropper_stop
	exit 0
fi
if [ "$nrows" -gt 0 ]; then
	# cpu_op_map_traceN.json: from the summary before renaming, its
	# {cpu_op: [kernels]} (tl-json: json.dump(indent=2)): the pairs of
	# the rows of trace N (cN), those of the summary
	for n in 1 2; do
		{ printf 'cpu_op\tkernel\n'
		  tl_sort -u "$tmp/c$n"; } | tl-json -k 1 >"$R/cpu_op_map_trace$n.json" ||
			{ note "cannot write cpu_op_map_trace$n.json"; exit 1; }
	done & pmaps=$!

	# The renamed summary's sheet (from f4, its header twice: one for
	# csv, one for tl-sheet) and cpu_op_map.json: per renamed cpu_op
	# (in summary order), per source (trace1 alone for identical
	# traces, without the level), its sorted kernels and module parents
	# (tl-json, the position left out; from f5), read as the summary job
	# writes them
	csv - <"$tmp/f4" >"$R/diff_stats_unique_args_summary.csv" & psheet=$!
	{ if [ "$ident" = 1 ]; then
		awk -F'\t' -v OFS='\t' 'NR == 1 || $3 == "trace1" { print $1, $2, $4, $5 }' |
		    tl-json -s 1 -k 2
	  else
		tl-json -s 1 -k 3
	  fi <"$tmp/f5" >"$R/cpu_op_map.json" ||
		{ note "cannot write cpu_op_map.json"; exit 1; }; } & pmap=$!

	# the summary job, started before the merge
	wait $psum
	_s=$?
	_tl_fifos=
	[ ! -s "$tmp/serr" ] || tl_cat "$tmp/serr" >&2
	[ ! -s "$tmp/sfail" ] || die "cannot sort the summary"
	[ ! -s "$tmp/rfail" ] || { note "cannot build the rename map"; exit 1; }
	[ ! -s "$tmp/nfail" ] && [ $_s = 0 ] || die "cannot rename"
	[ ! -s "$tmp/jfail" ] || { note "cannot write cpu_op_map.json"; exit 1; }
	tl_drop "$tmp/serr"

	# (the jobs beside it waited for first: a full disk fails them all,
	# and the message of the last to fail comes last)
	wait $psheet
	_s=$?
	wait $pmap || exit 1
	wait $pmaps || exit 1
	[ $_s = 0 ] || die "cannot write diff_stats_unique_args_summary.csv"
	tl_drop_later "$tmp/c1" "$tmp/c2"
else
	# TraceLens stops here (it finds no GPU events); the maps are empty
	for f in cpu_op_map_trace1 cpu_op_map_trace2 cpu_op_map; do
		printf '{}' >"$R/$f.json" || die "cannot write $f.json"
	done
fi
for _p in $pcsv; do
	wait "$_p" || exit 1
done
tl_drop_later "$S"
tl_step merge end
tl_dropper_stop
tl_progress_stop
tl_publish "$R"
exit 0
