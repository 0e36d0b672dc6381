# tl-lib.sh: shell functions the tl scripts share.  Source it:
#	. "$(dirname "$0")/tl-lib.sh"
# POSIX sh; every function prints one-line errors and returns non-zero
# on failure.  Sorts run with LC_ALL=C, bounded by TL_SORT_MEM (default
# 16M: many small runs sort faster than a few large ones) and spilling
# to ${TMPDIR:-/tmp}.

# The tl program NAME: the one beside the sourcing script, else from PATH.
tl_prog() {
	if [ -x "$(dirname "$0")/$1" ]; then
		printf '%s\n' "$(dirname "$0")/$1"
	else
		printf '%s\n' "$1"
	fi
}

tl_sort() {
	LC_ALL=C sort -S "${TL_SORT_MEM:-16M}" -T "${TMPDIR:-/tmp}" "$@"
}

# tl_tree_stage EVENTS OUTDIR: TraceLens's tree of a trace (tl-tree(1)).
# EVENTS is tl-parse output with the default fields; OUTDIR receives
# gpu.tsv, ops.tsv, intervals.tsv, meta.tsv and health.tsv (tl(7)).
# TL_TREE_OPTS may add --python and --exact-time.
tl_tree_stage() {
	_tt_ev=$1 _tt_out=$2
	if [ $# -ne 2 ] || [ ! -r "$_tt_ev" ] || [ ! -d "$_tt_out" ]; then
		echo "tl_tree_stage: usage: tl_tree_stage EVENTS OUTDIR" \
			"(a readable file, an existing directory)" >&2
		return 2
	fi
	_tt_bin=$(tl_prog tl-tree)
	_tt_t=$(mktemp -d "${TMPDIR:-/tmp}/tl-tree.XXXXXX") || return 1
	if _tl_tree_run "$_tt_bin" "$_tt_t" "$_tt_ev" "$_tt_out" ${TL_TREE_OPTS:-}; then
		rm -rf "$_tt_t"
		return 0
	fi
	rm -rf "$_tt_t"
	# no half-made tree: what the passes wrote goes too
	rm -f "$_tt_out/ops.tsv" "$_tt_out/gpu.tsv" "$_tt_out/intervals.tsv" \
		"$_tt_out/meta.tsv" "$_tt_out/health.tsv"
	return 1
}

# The passes of tl_tree_stage; $5... are tl-tree options.  They all run
# at once, joined by pipes and fifos, so no sorted data touches the disk
# but what sort spills: sort is the barrier between passes.  Every fifo
# is opened by a shell redirection, before its program runs, so that a
# program that fails early still closes it and nothing waits for ever.
# A failure leaves a mark file (sh has no pipefail).
_tl_tree_run() {
	_tt_b=$1 _tt_t=$2 _tt_ev=$3 _tt_out=$4
	shift 4
	(cd "$_tt_t" && mkfifo q o t0 t g0 g w n) || return 1
	# sort reads l after its standard input, when split has written it,
	# but wants it to exist from the start
	: >"$_tt_t/l" || return 1
	# sequence numbers to forward links, GPU streams to overlaps
	{ tl_sort "$_tt_t/q" || : >"$_tt_t/fail.sort-q"; } |
		{ "$_tt_b" -m fwd "$@" || : >"$_tt_t/fail.fwd"; } |
		{ tl_sort || : >"$_tt_t/fail.sort-w"; } >"$_tt_t/w" &
	_tt_p1=$!
	{ tl_sort "$_tt_t/o" || : >"$_tt_t/fail.sort-o"; } |
		{ "$_tt_b" -m overlap || : >"$_tt_t/fail.overlap"; } >"$_tt_t/ov" &
	_tt_p2=$!
	# tree records and launched events, sorted by UID for merge
	{ tl_sort "$_tt_t/t0" || : >"$_tt_t/fail.sort-t"; } >"$_tt_t/t" &
	_tt_p3=$!
	{ tl_sort "$_tt_t/g0" || : >"$_tt_t/fail.sort-g"; } >"$_tt_t/g" &
	_tt_p4=$!
	# the main line: host stacks, links, intervals
	{ "$_tt_b" -m split "$@" -d "$_tt_t" "$_tt_ev" 3>"$_tt_t/q" \
		4>"$_tt_t/o" || : >"$_tt_t/fail.split"; } |
		{ tl_sort || : >"$_tt_t/fail.sort-h"; } |
		{ "$_tt_b" -m host "$@" -t /dev/fd/3 -f "$_tt_t/hf" \
			3>"$_tt_t/t0" || : >"$_tt_t/fail.host"; } |
		{ tl_sort - "$_tt_t/l" || : >"$_tt_t/fail.sort-l"; } |
		{ "$_tt_b" -m link "$@" -g /dev/fd/3 -f "$_tt_t/lf" \
			3>"$_tt_t/g0" || : >"$_tt_t/fail.link"; } |
		{ tl_sort || : >"$_tt_t/fail.sort-x"; } |
		{ "$_tt_b" -m intervals -e "$_tt_ev" \
			-o "$_tt_out/intervals.tsv" || : >"$_tt_t/fail.intervals"; } \
		>"$_tt_t/n" &
	_tt_p5=$!
	"$_tt_b" -m merge -d "$_tt_out" -t /dev/fd/5 -n /dev/fd/4 \
		-w /dev/fd/6 -g /dev/fd/7 -f "$_tt_t/mf" "$_tt_ev" \
		4<"$_tt_t/n" 5<"$_tt_t/t" 6<"$_tt_t/w" 7<"$_tt_t/g" ||
		: >"$_tt_t/fail.merge"
	# only our own jobs: the caller may have others running
	wait "$_tt_p1" "$_tt_p2" "$_tt_p3" "$_tt_p4" "$_tt_p5"
	for _tt_f in "$_tt_t"/fail.*; do
		[ -e "$_tt_f" ] && return 1
	done
	mv "$_tt_t/meta.tsv" "$_tt_out/meta.tsv" || return 1
	{
		printf 'fact\tcount\n'
		cat "$_tt_t/hf" "$_tt_t/mf" "$_tt_t/ov" "$_tt_t/facts" "$_tt_t/lf"
	} >"$_tt_out/health.tsv" || return 1
}
