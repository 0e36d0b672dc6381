#!/bin/sh
# See LICENSE file for copyright and license details.
#
# tl-summary: what changed between the reports of a comparison, at a
# glance, as Markdown on standard output; with --plots, SVG charts
# drawn by gnuplot; with --max-regression, a gate for CI (exit 3).
# See tl-summary(1).  The pipeline:
#
#   tl-join -p kernel_summary.csv | sort -k2,2     kernels grouped
#   tl-join -p -k lowest_common_ancestor_id diff_stats.csv | sort -k1,1
#                                                  subtrees grouped
#   tl-rank                                        the tables, the gates
#   gnuplot                                        the charts
#
# Memory: sort(1) holds at most TL_SORT_MEM; tl-rank a table's N rows
# and one group.  The Markdown comes out once the charts are in place.
set -u
set -f
LC_ALL=C
export LC_ALL
prog=tl-summary
bindir=$(cd "$(dirname "$0")" && pwd)
PATH=$bindir:$PATH
export PATH
tab=$(printf '\t')
# (tl-rank's options are joined with US, not TAB: TAB is white space to
# IFS, and an empty value between two would vanish)
us=$(printf '\037')

usage() {
	if [ "$1" = 0 ]; then exec 2>&1; fi
	cat >&2 <<EOF
usage: tl-summary [-n rows] [-w width] [--plots dir] [--max-regression gate]...
                  comparison_dir [tracediff_dir]
EOF
	exit "$1"
}
die() { echo "$prog: $*" >&2; exit 1; }
usedie() { echo "$prog: $*" >&2; usage 2; }

# ---- options ----
rank= plots=
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage 0 ;;
	--version) echo "tl-summary @VERSION@"; exit 0 ;;
	-n | -w)
		[ $# -ge 2 ] || usedie "$1 needs a value"
		rank="$rank$1$us$2$us"
		shift ;;
	-n?* | -w?*) rank="$rank$1$us" ;;
	--plots)
		[ $# -ge 2 ] || usedie "--plots needs a directory"
		plots=$2
		shift ;;
	--plots=*) plots=${1#*=} ;;
	--max-regression)
		[ $# -ge 2 ] && [ -n "$2" ] || usedie "--max-regression needs a gate"
		rank="$rank-g$us$2$us"
		shift ;;
	--max-regression=*)
		[ -n "${1#*=}" ] || usedie "--max-regression needs a gate"
		rank="$rank-g$us${1#*=}$us" ;;
	--) shift; break ;;
	-?*) usedie "unknown option: $1" ;;
	*) break ;;
	esac
	shift
done
[ $# -ge 1 ] && [ $# -le 2 ] || usage 2
cmp=$1 td=${2:-}
[ -d "$cmp" ] || die "$cmp: not a directory"
if [ -n "$td" ]; then
	[ -d "$td" ] || die "$td: not a directory"
	[ -f "$td/merged_tree_output.txt" ] ||
		die "$td: not a tl-tracediff directory (no merged_tree_output.txt)"
fi
if [ -n "$plots" ]; then
	command -v gnuplot >/dev/null 2>&1 ||
		die "--plots needs gnuplot; run: apt-get install gnuplot-nox"
fi

# (the traps first: a signal's trap runs once the assignment that
# holds mktemp is done, and finds the name)
work= pub=
trap 'rm -rf ${work:+"$work"} ${pub:+"$pub"}' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
work=$(mktemp -d "${TMPDIR:-/tmp}/tl-summary.XXXXXX" 2>/dev/null) ||
	die "cannot make a temporary directory in ${TMPDIR:-/tmp}"
# (a umask of 777 made it 000: "cannot create .../p" from a line of
# this script)
[ -w "$work" ] && [ -x "$work" ] ||
	die "cannot make a temporary directory in ${TMPDIR:-/tmp} (the umask, $(umask), denies its owner)"
# (a closed standard error must not kill us on die's write, before the
# EXIT trap: caught, so that the programs we run still die of it)
trap : PIPE

# group FILE KEYFIELD OUT [tl-join -p options]: the sheet as records,
# the header first, the rows sorted stably by the key field's bytes.
group() {
	_f=$1 _k=$2 _o=$3
	shift 3
	tl-join -p "$@" "$_f" >"$work/p" || exit 1
	{
		IFS= read -r _h && printf '%s\n' "$_h" &&
		sort -s -t "$tab" -k"$_k,$_k" -S "${TL_SORT_MEM:-64M}" -T "$work"
	} <"$work/p" >"$_o" || die "$_f: sort failed"
	rm -f "$work/p"
}

# ---- the grouped streams, then the tables ----
IFS=$us
set -- $rank
unset IFS
if [ -s "$cmp/kernel_summary.csv" ]; then
	group "$cmp/kernel_summary.csv" 2 "$work/k.tsv"
	set -- "$@" -k "$work/k.tsv"
fi
if [ -n "$td" ]; then
	: >"$work/l.tsv"
	if [ -s "$td/diff_stats.csv" ]; then
		group "$td/diff_stats.csv" 1 "$work/l.tsv" -k lowest_common_ancestor_id
	fi
	set -- "$@" -l "$work/l.tsv"
fi
if [ -n "$plots" ]; then
	mkdir "$work/data" || exit 1
	# the links as Markdown reads them: a space or a parenthesis would
	# end them, and a % starts an escape
	link=$(printf '%s\n' "${plots%/}" |
	    sed 's/%/%25/g; s/ /%20/g; s/(/%28/g; s/)/%29/g') || exit 1
	set -- "$@" -p "$work/data" -L "$link"
fi
tl-rank "$@" -- "$cmp" >"$work/summary.md"
st=$?
case $st in 0 | 3) ;; *) exit "$st" ;; esac

# ---- the charts: gnuplot in the data's directory, names fixed ----
# bars NAME TITLE XLABEL: the rows of NAME.tsv (a header, then per row
# a label and a change per variant) as horizontal bars from zero, the
# first row on top: regressions red, improvements green, or with more
# than one variant a colour each.
bars() {
	[ -s "$1.tsv" ] || return 0
	_n=$(($(sed -n '$=' "$1.tsv") - 1))
	_v=$(awk -F "$tab" '{ print NF - 1; exit }' "$1.tsv")
	gnuplot <<EOF || die "gnuplot failed on $1.svg"
set terminal svg size 800,$((_n * 26 + 110)) dynamic noenhanced font "sans,11"
set output "$1.svg"
set datafile separator "\t"
set title "$2"
set xlabel "$3"
set style fill solid 0.85 border -1
set yrange [-$_n + 0.5 : 0.5]
set ytics nomirror scale 0
set grid xtics
set offsets graph 0.05, graph 0.05, 0, 0
set arrow from first 0, graph 0 to first 0, graph 1 nohead
set key outside bottom center horizontal autotitle columnheader
nv = $_v
bw = 0.8 / nv
y(i) = -\$0 + 0.4 - (i - 0.5) * bw
array pal[6] = [0x1f77b4, 0xff7f0e, 0x9467bd, 0x8c564b, 0x17becf, 0x7f7f7f]
if (nv == 1) {
    plot "$1.tsv" using (0):(-\$0):ytic(1) with dots notitle, \\
        "" using (\$2 / 2):(y(1)):(abs(\$2) / 2):(bw / 2):(\$2 > 0 ? 0xd62728 : 0x2ca02c) \\
        with boxxyerror lc rgb variable notitle
} else {
    plot "$1.tsv" using (0):(-\$0):ytic(1) with dots notitle, \\
        for [i = 1:nv] "" using (column(i + 1) / 2):(y(i)):(abs(column(i + 1)) / 2):(bw / 2) \\
        with boxxyerror lc rgb pal[(i - 1) % 6 + 1] title columnhead(i + 1)
}
EOF
}
if [ -n "$plots" ]; then
	cd "$work/data" || exit 1
	if [ -s timeline.tsv ]; then
		_p=$(awk -F "$tab" '{ print NF; exit }' timeline.tsv)
		gnuplot <<EOF || die "gnuplot failed on timeline.svg"
set terminal svg size 640,420 dynamic noenhanced font "sans,11"
set output "timeline.svg"
set datafile separator "\t"
set title "GPU timeline"
set ylabel "time (ms)"
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.6
set key outside right top autotitle columnheader
set yrange [0:*]
# the parts' colours, the last one (idle time) grey
array pal[$_p - 1]
pal[1] = 0x1f77b4
if ($_p > 3) { pal[2] = 0xff7f0e; pal[3] = 0x9467bd }
pal[$_p - 1] = 0xbbbbbb
plot for [i = 2:$_p] "timeline.tsv" using i:xtic(1) lc rgb pal[i - 1]
EOF
	fi
	bars ops "Top ops by change in kernel time" "change (ms)"
	bars categories "Op categories by change in kernel time" "change (ms)"
	cd - >/dev/null || exit 1
	# each chart appears whole: written beside it, then renamed
	# (one line of ours for each failure, not the tool's too; a name
	# starting with "-" is no option of theirs)
	pd=$plots
	case $pd in -*) pd=./$pd ;; esac
	mkdir -p -- "$pd" 2>/dev/null || die "$plots: cannot make the directory"
	pub=$(mktemp -d "$pd/.tl-summary.XXXXXX" 2>/dev/null) ||
		die "$plots: cannot write there"
	for f in timeline ops categories; do
		[ ! -f "$work/data/$f.svg" ] ||
			cp "$work/data/$f.svg" "$pub/" 2>/dev/null ||
			die "$plots: cannot write there"
	done
	for f in timeline ops categories; do
		[ ! -f "$pub/$f.svg" ] ||
			mv -f "$pub/$f.svg" "$pd/" 2>/dev/null ||
			die "$plots: cannot write there"
	done
fi
cat "$work/summary.md" 2>"$work/cat.err"
cs=$?
# (a reader that went away, | head -1, is no error: as for the tl
# programs, which exit 0 on it; the gates' verdict stands.  A failed
# write is ours to say, in one line.)
if [ "$cs" != 0 ] && [ "$cs" != 141 ]; then
	IFS= read -r why <"$work/cat.err" || :
	die "<stdout>: ${why#cat: }"
fi
exit "$st"
