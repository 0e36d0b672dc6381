# make bench, part: traces shaped like real ones.  The conformance
# traces (../shared/conformance) replicated by tl-gentrace -r to sizes
# from 50 MB, gzipped, to 450 MB of plain JSON, and measured: tl-parse's
# MB/s, tl-report against TraceLens's report on each (and tl-report's
# time over tl-parse's), tl-report on a 5 MB one (its fixed costs, and
# those over each trace's tl-parse time: the floor of that ratio),
# tl-tracediff against TraceLens's TraceDiff on
# the real timesformer pair and on a replicated pair.  Sourced by
# tests/bench/bench, whose W, TL, PY, top, run, run1 and row it uses.
#
# TL_BENCH_REAL_TRACES	the conformance reports replicated
#			(default: h100-qwen mi300-timesformer)
# TL_BENCH_REAL_SIZES	their sizes in JSON bytes, .gz for a gzipped
#			trace (default: 50M.gz 450M)
# TL_BENCH_SMALL_TRACE	the conformance report replicated to 5 MB (default:
#			h100-bert-small)
# TL_BENCH_REAL_DIFF	the size of each trace of the replicated TraceDiff
#			pair (default: 450M; 0: none)
# The traces are made once, in $TL_BENCH_DIR.

conf=$top/../shared/conformance
rtraces=${TL_BENCH_REAL_TRACES:-h100-qwen mi300-timesformer}
rsizes=${TL_BENCH_REAL_SIZES:-50M.gz 450M}
rdiff=${TL_BENCH_REAL_DIFF:-450M}

# realtrace NAME SIZE[.gz]: the path of conformance trace NAME
# replicated to SIZE (made once), gzipped for a .gz size.
realtrace() {
	case $2 in
	*.gz) _rs=${2%.gz} _rz=-z _rf=$W/real-$1-${2%.gz}.json.gz ;;
	*) _rs=$2 _rz= _rf=$W/real-$1-$2.json ;;
	esac
	[ -s "$_rf" ] || tl-gentrace -r "$conf/reports/$1/trace.json.gz" \
	    -S "$_rs" $_rz -o "$_rf" || return 1
	echo "$_rf"
}

# mb BYTES: in MB, one decimal.
mb() {
	awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'
}

# ratio A B: A / B with two decimals.
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a != "nan" && b != "nan") printf "%.2f", a / b; else printf "nan" }'
}

havetl=0
[ -d "$TL/TraceLens" ] && $PY -c 'import pandas' 2>/dev/null && havetl=1

# creates: the cost of making a file in TMPDIR, where a report makes
# some 150 (work files, fifos, logs), in microseconds a file: 200 fifos
# made by one tl-mkfifo, timed; printed before the reports and each
# TraceDiff.  It varies from run to run more than anything tl does: on
# an ext4 without a journal, a file made soon after others were removed
# in its block group waits for a scan of their inodes (10 us a file on
# a quiet file system, up to 750 seen on the project's VM).  So the
# fifos stay until the bench ends ($W/atend): removed here, they would
# make every file of the runs measured next wait for a scan of 200
# inodes more.
creates() {
	_cd=$(mktemp -d "${TMPDIR:-/tmp}/tl-creates.XXXXXX") || return 0
	printf '%s\n' "$_cd" >>"$W/atend"
	set --
	_ci=0
	while [ "$_ci" -lt 200 ]; do
		set -- "$@" "$_cd/f$_ci"
		_ci=$((_ci + 1))
	done
	_c0=$(date +%s%N)
	tl-mkfifo "$@" || return 0
	_c1=$(date +%s%N)
	echo "  (making a file in TMPDIR: $(( (_c1 - _c0) / 200000 )) us; a report makes about 150)"
}

if [ ! -d "$conf/reports" ]; then
	echo
	echo "real-shaped traces: no $conf/reports: skipped"
else
	echo
	echo "real-shaped traces (conformance traces replicated by tl-gentrace -r):"
	creates
	parses=
	[ "$havetl" = 1 ] ||
		echo "  TraceLens: no checkout at $TL (set TL_TRACELENS) or no pandas: tl alone"
	for name in $rtraces; do
		[ -f "$conf/reports/$name/trace.json.gz" ] || {
			echo "  $name: no such conformance trace: skipped"
			continue
		}
		for size in $rsizes; do
			f=$(realtrace "$name" "$size") || exit 1
			case $f in
			*.gz) bytes=$(gzip -dc "$f" | wc -c) ;;
			*) bytes=$(wc -c <"$f") ;;
			esac
			echo
			echo "$name, $size ($(mb "$bytes") MB of JSON, $(mb "$(wc -c <"$f")") MB on disk):"
			run tl-parse "tl-parse '$f' >/dev/null"; ps_=$SECS pk=$KB
			row "tl-parse" "$ps_" "$pk" "$bytes"
			run tl-report "tl-report '$f' '$W/rrep'" "rm -rf '$W/rrep'"
			rs=$SECS rk=$KB
			row "tl-report" "$rs" "$rk" "$bytes"
			echo "    tl-report / tl-parse time: $(ratio "$rs" "$ps_") (target <= 2.5)"
			parses="$parses $name,$size:$ps_"
			if [ "$havetl" = 1 ]; then
				run1 TraceLens "cd '$W' && PYTHONPATH='$TL' $PY -m TraceLens.Reporting.generate_perf_report_pytorch --profile_json_path '$f' --output_csvs_dir '$W/rtlens' --enable_kernel_summary" "rm -rf '$W/rtlens'"
				row "TraceLens" "$SECS" "$KB" "$bytes"
				row "tl-report vs TraceLens" "$rs" "$rk" "$bytes" "$SECS" "$KB"
				echo "    (target: >= 20x time)"
			fi
			rm -rf "$W/rrep" "$W/rtlens"
		done
	done
	# a small trace: what is left is the fixed costs (processes, work
	# files, sorts of almost nothing)
	name=${TL_BENCH_SMALL_TRACE:-h100-bert-small}
	if [ -f "$conf/reports/$name/trace.json.gz" ]; then
		f=$(realtrace "$name" 5M) || exit 1
		bytes=$(wc -c <"$f")
		echo
		echo "$name, 5M ($(mb "$bytes") MB of JSON): tl-report's fixed costs"
		run tl-report "tl-report '$f' '$W/rrep'" "rm -rf '$W/rrep'"
		row "tl-report" "$SECS" "$KB" "$bytes"
		echo "    (target: < 0.2 s)"
		# (the floor of the ratios above: these costs alone, over
		# each trace's tl-parse time)
		for _pp in $parses; do
			_pn=${_pp%%:*}
			echo "    fixed costs / tl-parse time of ${_pn%%,*} ${_pn#*,}: $(ratio "$SECS" "${_pp#*:}")"
		done
		rm -rf "$W/rrep"
	fi
fi

# diffpair A B WHAT: tl-tracediff against TraceDiff on traces A and B.
diffpair() {
	bytes=$(($(wc -c <"$1") + $(wc -c <"$2")))
	echo
	echo "TraceDiff of $3 ($(mb "$bytes") MB on disk):"
	creates
	run tl-tracediff "tl-tracediff '$1' '$2' '$W/rdiff'" "rm -rf '$W/rdiff'"
	ds=$SECS dk=$KB
	row "tl-tracediff" "$ds" "$dk" "$bytes"
	if [ "$havetl" = 1 ]; then
		rm -rf "$W/rtdiff"
		run1 TraceDiff "cd '$W' && PYTHONPATH='$TL' $PY -c '
import sys
from TraceLens import TreePerfAnalyzer
from TraceLens.TraceDiff import TraceDiff
t1 = TreePerfAnalyzer.from_file(sys.argv[1]).tree
t2 = TreePerfAnalyzer.from_file(sys.argv[2]).tree
td = TraceDiff(t1, t2)
td.generate_tracediff_report()
td.print_tracediff_report_files(sys.argv[3], prune_non_gpu=False)
' '$1' '$2' '$W/rtdiff'"
		row "TraceLens TraceDiff" "$SECS" "$KB" "$bytes"
		row "tl-tracediff vs TraceDiff" "$ds" "$dk" "$bytes" "$SECS" "$KB"
		echo "    (target: >= 15x time)"
	fi
	rm -rf "$W/rdiff" "$W/rtdiff"
}

pair=$conf/tracediff/timesformer-mi300-h100
if [ -f "$pair/ARGS" ] && command -v tl-tracediff >/dev/null 2>&1; then
	a=$pair/$(sed -n 's/^trace1: //p' "$pair/ARGS")
	b=$pair/$(sed -n 's/^trace2: //p' "$pair/ARGS")
	diffpair "$a" "$b" "the real timesformer pair (MI300 against H100)"
	if [ "$rdiff" != 0 ]; then
		a=$(realtrace mi300-timesformer "$rdiff") || exit 1
		b=$(realtrace h100-timesformer "$rdiff") || exit 1
		diffpair "$a" "$b" "the timesformer pair replicated to $rdiff each"
	fi
fi
