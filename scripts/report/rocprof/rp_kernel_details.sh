# See LICENSE file for copyright and license details.
# sheet: rp_kernel_details
# TraceLens's rocprof kernel_details (--kernel-details): every dispatch,
# longest first, the first --topk-kernels when given (rows of equal
# duration in TraceLens's order: sort_values, numpy's quicksort, of the
# dispatches in trace order, tl-sheet -s); its "Kernel duration (µs)" holds
# nanoseconds, or microseconds with --exact-time.  pandas writes an
# empty frame as one empty line.
# in: k.tsv
# out: kernel_details.csv
# when: kdetails=1
rp_kernel_details() {
	if ! tl_rows k.tsv; then
		echo >"$R/kernel_details.csv"
		return 0
	fi
	if [ -n "$xflag" ]; then d='f:dur/1000'; else d=t:dur; fi
	set --
	[ -z "$ktopk" ] || set -- -n "$(tl_head "$ktopk" k.tsv)"
	st tl-sheet -s dur "$@" name=t:name "Kernel duration (µs)=$d" stream=t:stream dispatch_id=t:dispatch_id \
	    grid_x=t:grid_x grid_y=t:grid_y grid_z=t:grid_z block_x=t:block_x block_y=t:block_y \
	    block_z=t:block_z agent_id=t:agent thread_id=t:tid <k.tsv >"$R/kernel_details.csv"; ok
}
