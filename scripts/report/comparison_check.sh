# See LICENSE file for copyright and license details.
# stage: comparison_check
# Whether there is a comparison: TraceLens makes none for a trace
# without CPU ops (a notice); otherwise a failed comparison fails the
# report with its own message (tl-parse's or tl-tracediff's, naming
# the trace), and a good one passes on its notices.
# in: trace.facts comparison.err comparison.failed
# out:
# when: comparison=1
comparison_check() {
	if [ "$cpu_ops" = 0 ]; then
		echo "$prog: $trace_name: no CPU ops: no comparison (TraceLens makes none)" >&2
		return 0
	fi
	if [ -e comparison.failed ]; then
		if [ -s comparison.err ]; then
			cat comparison.err >&2
		else
			echo "$prog: $cmp: the comparison failed" >&2
		fi
		return 1
	fi
	cat comparison.err >&2
}
