# make bench, workbooks (sourced by tests/bench/bench, which defines W,
# TL, PY, run, run1, row and gen):
#  - the $RBIG report as a workbook alone (tl-report --output-xlsx),
#    its time and peak memory beside the CSV report's;
#  - the comparison of two such workbooks (the $RBIG trace and an AMD
#    one of the same size), tl-compare against TraceLens's comparer on
#    the same workbooks.  TraceLens's comparer needs pandas 2, or on
#    Debian's pandas 1.5 the shim in $TL_ORACLE_SITE (default
#    ../oracle-site beside the project), put first on PYTHONPATH.
if command -v tl-xlsx >/dev/null 2>&1; then
	echo
	echo "workbooks:"
	xb=$(gen "$RBIG" 7)
	xbytes=$(wc -c <"$xb")
	run tl-report-csv "tl-report '$xb' '$W/xrep'" "rm -rf '$W/xrep'"
	xcs=$SECS xck=$KB
	row "tl-report $RBIG, CSV files" "$xcs" "$xck" "$xbytes"
	run tl-report-xlsx "tl-report --output-xlsx '$W/xbase.xlsx' '$xb'" "rm -f '$W/xbase.xlsx'"
	row "tl-report $RBIG, workbook" "$SECS" "$KB" "$xbytes" "$xcs" "$xck"
	echo "    (ratios: the CSV report's over the workbook's: the workbook's cost)"
	rm -rf "$W/xrep"
	# the candidate: an AMD trace of the same size, as a workbook
	xc=$W/trace-$RBIG-s8-amd.json
	[ -s "$xc" ] || tl-gentrace -s 8 -S "$RBIG" -g amd -o "$xc" || exit 1
	rm -f "$W/xbase.xlsx" "$W/xcand.xlsx"
	tl-report --output-xlsx "$W/xbase.xlsx" "$xb" 2>/dev/null &&
	    tl-report --output-xlsx "$W/xcand.xlsx" "$xc" 2>/dev/null || exit 1
	wbytes=$(($(wc -c <"$W/xbase.xlsx") + $(wc -c <"$W/xcand.xlsx")))
	echo "  two workbooks of $RBIG traces: $((wbytes / 1024)) KB in all"
	run tl-compare-xlsx "tl-compare '$W/xbase.xlsx' '$W/xcand.xlsx' --names base cand --sheets all -f -o '$W/xcmp.xlsx'" \
	    "rm -f '$W/xcmp.xlsx'"
	xs=$SECS xk=$KB
	row "tl-compare, two workbooks" "$xs" "$xk" "$wbytes"
	site=${TL_ORACLE_SITE:-$top/../oracle-site}
	if [ -d "$TL/TraceLens" ] && $PY -c 'import pandas, openpyxl' 2>/dev/null; then
		pp=$TL
		[ -d "$site" ] && pp=$site:$TL
		run1 TraceLens-compare "cd '$W' && PYTHONPATH='$pp' $PY -m TraceLens.Reporting.compare_perf_reports_pytorch '$W/xbase.xlsx' '$W/xcand.xlsx' --names base cand --sheets all -o '$W/xtlcmp.xlsx'" \
		    "rm -f '$W/xtlcmp.xlsx'"
		row "TraceLens comparer, same workbooks" "$SECS" "$KB" "$wbytes"
		row "tl-compare vs TraceLens" "$xs" "$xk" "$wbytes" "$SECS" "$KB"
	else
		echo "  TraceLens: no checkout at $TL (set TL_TRACELENS) or no pandas/openpyxl: skipped"
	fi
	rm -f "$W/xbase.xlsx" "$W/xcand.xlsx" "$W/xcmp.xlsx" "$W/xtlcmp.xlsx"
fi
