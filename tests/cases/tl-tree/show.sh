# Sourced by the tl-tree cases: run the tree stage on a trace and print
# the columns a case checks.  Not a case itself (cases are folders).
# "Checked against TraceLens" in a case means: oracle/compare.sh CASE
# shows the same tree from TraceLens's own TraceToTree.
. tl-lib.sh

# tree TRACE [tl-tree options]: the stage's output folder is "$T/o"
tree() {
	_trace=$1
	shift
	tl-parse "$_trace" >"$T/ev" && mkdir -p "$T/o" &&
		TL_TREE_OPTS="$*" tl_tree_stage "$T/ev" "$T/o"
}

# show: the tree as UIDs, in the order of the files
show() {
	echo "== ops: UID name parent depth ngpu fwd cpu_root root"
	sed 1d "$T/o/ops.tsv" | cut -f1,3,8,9,16,17,18,19
	echo "== gpu: UID name linked runtime launcher cpu_op root"
	sed 1d "$T/o/gpu.tsv" | cut -f1,3,10,11,13,15,21
	echo "== intervals: op kind ts gpu"
	sed 1d "$T/o/intervals.tsv" | cut -f1,2,3,5
}

# health: the facts that are not zero
health() {
	echo "== health"
	sed 1d "$T/o/health.tsv" | grep -v '	0$'
}
