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
	intervals | cut -f1-4
}

# intervals: each op's interval records, as op kind ts gpu cat ref, by
# op, kind, ts, launch and GPU UID: its direct kernels (kind d), and the
# events below it (kind s and n), which the walk's r record of the op
# gives as a byte range of walk.tsv (read here without tl-pick, as a
# check of it)
intervals() {
	LC_ALL=C awk -F '\t' -v OFS='\t' '
	FILENAME == W {
		if (FNR == 1) { off = length($0) + 1; next }
		start[FNR] = off; line[FNR] = $0; n = FNR
		off += length($0) + 1
		next
	}
	FNR == 1 { next }
	$2 == "d" { print $1, "d", $3, $10, $5, $8, $9; next }
	$2 == "r" {
		for (i = 2; i <= n; i++)
			if (start[i] >= $9 && start[i] < $9 + $11) {
				split(line[i], f, "\t")
				print $1, f[1], f[2], f[8], f[4], f[6], f[7]
			}
	}' W="$T/o/walk.tsv" "$T/o/walk.tsv" "$T/o/intervals.tsv" |
	LC_ALL=C sort -t '	' -k1,1n -k2,2 -k3,3g -k4,4n -k5,5n | cut -f1-3,5-
}

# health: the facts that are not zero
health() {
	echo "== health"
	sed 1d "$T/o/health.tsv" | grep -v '	0$'
}
