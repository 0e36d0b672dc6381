# part-rocprof.sh, sourced by tests/bench/bench: tl-report on rocprofv3
# results against TraceLens's rocprof report of them (its
# generate_perf_report_rocprof), time and peak memory, on a file of
# TL_BENCH_ROCPROF bytes (default 450M; 0 skips the section) that
# tl-gentrace -F rocprof makes (AMD, seed 7, cached in W).  Both write
# every sheet: --short-kernel-study --kernel-details.
RP=${TL_BENCH_ROCPROF:-450M}
if [ "$RP" != 0 ] && command -v tl-report >/dev/null 2>&1; then
	rpf=$W/rocprof-$RP-s7.json
	[ -s "$rpf" ] || tl-gentrace -F rocprof -g amd -s 7 -S "$RP" -o "$rpf" || exit 1
	rpb=$(wc -c <"$rpf")
	echo
	echo "rocprofv3 results of $RP ($((rpb / 1048576)) MB, $(tl-parse -c kernel -f UID "$rpf" | tail -n +2 | wc -l) dispatches):"
	run tl-report-rocprof "tl-report --short-kernel-study --kernel-details '$rpf' '$W/rprep'" "rm -rf '$W/rprep'"
	rps=$SECS rpk=$KB
	row "tl-report (rocprofv3)" "$rps" "$rpk" "$rpb"
	if [ -d "$TL/TraceLens" ] && $PY -c 'import pandas' 2>/dev/null; then
		run1 TraceLens-rocprof "cd '$W' && PYTHONPATH='$TL' $PY -m TraceLens.Reporting.generate_perf_report_rocprof --profile_json_path '$rpf' --output_csvs_dir '$W/rptlens' --short_kernel_study --kernel_details" "rm -rf '$W/rptlens'"
		row "TraceLens rocprof report" "$SECS" "$KB" "$rpb"
		row "tl-report vs TraceLens (rocprofv3)" "$rps" "$rpk" "$rpb" "$SECS" "$KB"
		rm -rf "$W/rptlens"
	else
		echo "  TraceLens: no checkout at $TL (set TL_TRACELENS) or no pandas: skipped"
	fi
	rm -rf "$W/rprep"
fi
