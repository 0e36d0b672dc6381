# make bench, part ranks (sourced by tests/bench/bench, which sets W,
# TL, PY, run, run1, row and gen): the multi-rank collective report.
#
# - a job of TL_BENCH_RANKS (32) ranks of TL_BENCH_RANKS_SIZE (100M)
#   each (tl-gentrace -s 7 -R, plain JSON as TraceLens's --trace_dir
#   wants it): tl-ranks -j (the cores) against TraceLens's multi-rank
#   report, with and without its --use_multiprocessing; time and the
#   peak of the summed resident sizes of all processes (tl-ranks's jobs
#   and TraceLens's workers alike);
# - a job of TL_BENCH_MANY (1024) small ranks (tl-gentrace -s 9 -n 1,
#   half a megabyte each): tl-ranks's time per rank and peak memory, and
#   the cross-rank stage alone (tl-ranks --from on the jobs' files).
# The rank sets are made once, in $W.  TL_BENCH_RANKS=0 or
# TL_BENCH_MANY=0 leaves a part out.

# run1s NAME CMD: SECS and KB of one run of CMD: its wall time, and the
# peak of the summed resident sizes of its processes (a Python
# reference's workers are processes of their own: GNU time would give
# the largest, not their sum).
run1s() {
	_t0=$(date +%s.%N)
	sampled "$1" "$2"
	_t1=$(date +%s.%N)
	SECS=$(echo "$_t0 $_t1" | awk '{printf "%.3f", $2 - $1}')
	sleep "${TL_BENCH_SETTLE:-30}"
}

# rankset DIR N SEED GENOPTS...: DIR/rank{0..N-1}_trace.json, made once;
# prints their total bytes.
rankset() {
	_d=$1 _n=$2 _s=$3
	shift 3
	mkdir -p "$_d" || exit 1
	_r=0
	while [ "$_r" -lt "$_n" ]; do
		[ -s "$_d/rank${_r}_trace.json" ] ||
			tl-gentrace -s "$_s" "$@" -R "$_r/$_n" -o "$_d/rank${_r}_trace.json" || exit 1
		_r=$((_r + 1))
	done
	cat "$_d"/rank*_trace.json | wc -c
}

NR=${TL_BENCH_RANKS:-32} RSIZE=${TL_BENCH_RANKS_SIZE:-100M} NMANY=${TL_BENCH_MANY:-1024}
cores=$(nproc)

if [ "$NR" -gt 1 ]; then
	RD=$W/ranks-$NR-$RSIZE
	bytes=$(rankset "$RD" "$NR" 7 -S "$RSIZE")
	echo
	echo "tl-ranks on $NR ranks of $RSIZE ($((bytes / 1048576)) MB in all), -j $cores:"
	run tl-ranks "tl-ranks -j $cores --trace_dir '$RD' --world_size $NR --output_csvs_dir '$W/rk-out'" \
	    "rm -rf '$W/rk-out'"
	ts=$SECS tk=$KB
	row "tl-ranks" "$ts" "$tk" "$bytes"
	if [ -d "$TL/TraceLens" ] && $PY -c 'import pandas' 2>/dev/null; then
		for mp in "" --use_multiprocessing; do
			rm -rf "$W/rk-tlens"
			run1s "TraceLens $mp" "cd '$W' && PYTHONPATH='$TL' $PY -m TraceLens.Reporting.generate_multi_rank_collective_report_pytorch --trace_dir '$RD' --world_size $NR --output_csvs_dir '$W/rk-tlens' $mp"
			row "TraceLens${mp:+ $mp}" "$SECS" "$KB" "$bytes"
			row "tl-ranks vs TraceLens${mp:+ $mp}" "$ts" "$tk" "$bytes" "$SECS" "$KB"
		done
		rm -rf "$W/rk-tlens"
	else
		echo "  TraceLens: no checkout at $TL (set TL_TRACELENS) or no pandas: skipped"
	fi
	rm -rf "$W/rk-out"
fi

if [ "$NMANY" -gt 1 ]; then
	MD=$W/ranks-$NMANY-small
	bytes=$(rankset "$MD" "$NMANY" 9 -n 1)
	echo
	echo "tl-ranks on $NMANY small ranks ($((bytes / 1048576)) MB in all), -j $cores:"
	run tl-ranks-many "tl-ranks -j $cores --trace_dir '$MD' --world_size $NMANY --output_csvs_dir '$W/rk-many'" \
	    "rm -rf '$W/rk-many'"
	row "tl-ranks, $NMANY ranks" "$SECS" "$KB" "$bytes"
	echo "    $(awk -v s="$SECS" -v n="$NMANY" 'BEGIN { printf "%.1f ms a rank", s * 1000 / n }')"
	# the cross-rank stage alone, on the jobs' files
	rm -rf "$W/rk-work" && mkdir "$W/rk-work" || exit 1
	_r=0
	while [ "$_r" -lt "$NMANY" ]; do
		printf '%s\t%s\n' "$_r" "$MD/rank${_r}_trace.json"
		_r=$((_r + 1))
	done | parallel -j "$cores" --colsep '\t' tl-ranks --job {1} "$W/rk-work" {2} || exit 1
	run tl-ranks-merge "tl-ranks --from '$W/rk-work' '$W/rk-many'" "rm -rf '$W/rk-many'"
	row "cross-rank stage (--from), $NMANY ranks" "$SECS" "$KB" "$(cat "$W/rk-work"/*/coll | wc -c)"
	rm -rf "$W/rk-many" "$W/rk-work"
fi
