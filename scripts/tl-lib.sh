# tl-lib.sh: shell functions the tl scripts share.  Source it:
#	. "$(dirname "$0")/tl-lib.sh"
# POSIX sh; every function prints one-line errors and returns non-zero
# on failure.  Sorts run with LC_ALL=C, bounded by TL_SORT_MEM (default
# 4M: many small runs sort no slower than a few large ones, and a
# buffer this small is already full on a 100 MB trace, so that the
# peak memory of a report does not grow with the trace) and spilling
# to ${TMPDIR:-/tmp}.

# The tl program NAME: the one beside the sourcing script, else from PATH.
tl_prog() {
	if [ -x "$(dirname "$0")/$1" ]; then
		printf '%s\n' "$(dirname "$0")/$1"
	else
		printf '%s\n' "$1"
	fi
}

tl_parse() {
	"$(tl_prog tl-parse)" "$@"
}

# (one thread: sort's threads only cost, on buffers this small)
tl_sort() {
	LC_ALL=C sort --parallel=1 -S "${TL_SORT_MEM:-4M}" -T "${TMPDIR:-/tmp}" "$@"
}

# tl_tree_stage EVENTS OUTDIR [TRACE]: TraceLens's tree of a trace
# (tl-tree(1)).  EVENTS is tl-parse output with the default fields;
# OUTDIR receives gpu.tsv, ops.tsv, intervals.tsv, gpuev.tsv, meta.tsv,
# health.tsv, comm.tsv, fwd.tsv and sel.tsv (tl(7)).  With TRACE, the stage runs tl-parse on it
# itself, beside the first pass, and writes EVENTS; a trace tl-parse
# cannot read makes it print tl-parse's error alone and return 3.
# TL_TREE_OPTS may add --python and --exact-time.
tl_tree_stage() {
	_tt_ev=$1 _tt_out=$2 _tt_tr=${3:-}
	if [ $# -lt 2 ] || [ $# -gt 3 ] || [ ! -d "$_tt_out" ] ||
	    { [ -z "$_tt_tr" ] && [ ! -r "$_tt_ev" ]; }; then
		echo "tl_tree_stage: usage: tl_tree_stage EVENTS OUTDIR [TRACE]" \
			"(a readable file, an existing directory)" >&2
		return 2
	fi
	_tt_bin=$(tl_prog tl-tree)
	_tt_t=$(mktemp -d "${TMPDIR:-/tmp}/tl-tree.XXXXXX") || return 1
	if [ -n "$_tt_tr" ]; then
		# the passes' errors wait: when the trace is bad, they are
		# only the echoes of tl-parse's
		_tl_tree_run "$_tt_bin" "$_tt_t" "$_tt_ev" "$_tt_out" ${TL_TREE_OPTS:-} 2>"$_tt_t/err"
		_tt_st=$?
		if [ -e "$_tt_t/fail.parse" ]; then
			cat "$_tt_t/parse.err" >&2
			rm -f "$_tt_ev"
			_tt_st=3
		else
			cat "$_tt_t/parse.err" "$_tt_t/err" >&2
		fi
	else
		_tl_tree_run "$_tt_bin" "$_tt_t" "$_tt_ev" "$_tt_out" ${TL_TREE_OPTS:-}
		_tt_st=$?
	fi
	if [ "$_tt_st" = 0 ]; then
		rm -rf "$_tt_t"
		return 0
	fi
	rm -rf "$_tt_t"
	# no half-made tree: what the passes wrote goes too
	rm -f "$_tt_out/ops.tsv" "$_tt_out/gpu.tsv" "$_tt_out/intervals.tsv" \
		"$_tt_out/gpuev.tsv" \
		"$_tt_out/comm.tsv" "$_tt_out/fwd.tsv" "$_tt_out/sel.tsv" \
		"$_tt_out/meta.tsv" "$_tt_out/health.tsv"
	[ "$_tt_st" = 3 ] && return 3
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
	# the main line: host stacks, links, intervals (with a trace, split
	# reads tl-parse's records as they come, and keeps the copy that
	# the later passes read)
	{ if [ -n "$_tt_tr" ]; then
		{ tl_parse -- "$_tt_tr" 2>"$_tt_t/parse.err" || : >"$_tt_t/fail.parse"; } |
		"$_tt_b" -m split "$@" -d "$_tt_t" -s "$_tt_out/sel.tsv" -e "$_tt_ev" \
			-G "$_tt_out/gpuev.tsv"
	  else
		"$_tt_b" -m split "$@" -d "$_tt_t" -s "$_tt_out/sel.tsv" \
			-G "$_tt_out/gpuev.tsv" "$_tt_ev"
	  fi 3>"$_tt_t/q" 4>"$_tt_t/o" || : >"$_tt_t/fail.split"; } |
		{ tl_sort || : >"$_tt_t/fail.sort-h"; } |
		{ "$_tt_b" -m host "$@" -t /dev/fd/3 -f "$_tt_t/hf" \
			3>"$_tt_t/t0" || : >"$_tt_t/fail.host"; } |
		{ tl_sort - "$_tt_t/l" || : >"$_tt_t/fail.sort-l"; } |
		{ "$_tt_b" -m link "$@" -g /dev/fd/3 -f "$_tt_t/lf" \
			3>"$_tt_t/g0" || : >"$_tt_t/fail.link"; } |
		{ tl_sort || : >"$_tt_t/fail.sort-x"; } |
		{ "$_tt_b" -m intervals -e "$_tt_ev" -G "$_tt_out/gpuev.tsv" \
			-o "$_tt_out/intervals.tsv" \
			-c "$_tt_out/comm.tsv" || : >"$_tt_t/fail.intervals"; } \
		>"$_tt_t/n" &
	_tt_p5=$!
	"$_tt_b" -m merge -d "$_tt_out" -t /dev/fd/5 -n /dev/fd/4 \
		-w /dev/fd/6 -g /dev/fd/7 -a "$_tt_out/fwd.tsv" -f "$_tt_t/mf" \
		-G "$_tt_out/gpuev.tsv" "$_tt_ev" \
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

# Awk functions the scripts share: Python's repr(float), the tl(7)
# unescaping, pandas' CSV cells, numpy's pairwise sum and sort order.
# Prepend to an awk program: awk "$TL_AWKLIB"'...'.
TL_AWKLIB='
function rep(c, n,   s) { s = ""; while (n-- > 0) s = s c; return s }
# Python repr(float): the shortest digits that read back the same.
function pyrepr(x,   s, p, neg, i, m, e, d, n, o) {
	if (x != x) return "nan"
	if (x == 0) return "0.0"
	if (x > 1.7976931348623157e308) return "inf"
	if (x < -1.7976931348623157e308) return "-inf"
	for (p = 0; p < 17; p++) { s = sprintf("%." p "e", x); if (s + 0 == x) break }
	neg = substr(s, 1, 1) == "-"
	if (neg) s = substr(s, 2)
	i = index(s, "e"); m = substr(s, 1, i - 1); e = substr(s, i + 1) + 0
	d = m; gsub(/\./, "", d); sub(/0+$/, "", d); if (d == "") d = "0"
	n = length(d)
	if (e >= -4 && e < 16) {
		if (e < 0) o = "0." rep("0", -e - 1) d
		else if (n > e + 1) o = substr(d, 1, e + 1) "." substr(d, e + 2)
		else o = d rep("0", e + 1 - n) ".0"
	} else {
		o = substr(d, 1, 1)
		if (n > 1) o = o "." substr(d, 2)
		o = o "e" (e < 0 ? "-" : "+") sprintf("%02d", e < 0 ? -e : e)
	}
	return (neg ? "-" : "") o
}
# Undo the tl(7) field escapes.
function unesc(s,   o, i, c, n) {
	if (index(s, "\\") == 0) return s
	o = ""; n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (c == "\\" && i < n) {
			c = substr(s, ++i, 1)
			if (c == "t") c = "\t"; else if (c == "n") c = "\n"
			else if (c == "r") c = "\r"; else if (c == "0") c = ""
		}
		o = o c
	}
	return o
}
# A CSV cell as pandas writes it (QUOTE_MINIMAL).
function csv(s) {
	if (s ~ /[,"\r\n]/) { gsub(/"/, "\"\"", s); return "\"" s "\"" }
	return s
}
function cell(s) { return csv(unesc(s)) }
# numpy pairwise summation of v[lo..lo+n-1].
function pwsum(v, lo, n,   r0, r1, r2, r3, r4, r5, r6, r7, i, res, n2) {
	if (n < 8) { res = 0; for (i = 0; i < n; i++) res += v[lo + i]; return res }
	if (n <= 128) {
		r0 = v[lo]; r1 = v[lo+1]; r2 = v[lo+2]; r3 = v[lo+3]
		r4 = v[lo+4]; r5 = v[lo+5]; r6 = v[lo+6]; r7 = v[lo+7]
		for (i = 8; i < n - (n % 8); i += 8) {
			r0 += v[lo+i]; r1 += v[lo+i+1]; r2 += v[lo+i+2]; r3 += v[lo+i+3]
			r4 += v[lo+i+4]; r5 += v[lo+i+5]; r6 += v[lo+i+6]; r7 += v[lo+i+7]
		}
		res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
		for (; i < n; i++) res += v[lo + i]
		return res
	}
	n2 = int(n / 2); n2 -= n2 % 8
	return pwsum(v, lo, n2) + pwsum(v, lo + n2, n - n2)
}
# numpy argsort(kind="quicksort") of v[t[0..num)], in place on t.
function aqsort(v, t, num,   pl, pr, sp, st, pm, pi, pj, pk, vp, x, vi) {
	pl = 0; pr = num - 1; sp = 0
	for (;;) {
		while (pr - pl > 15) {
			pm = pl + int((pr - pl) / 2)
			if (v[t[pm]] < v[t[pl]]) { x = t[pm]; t[pm] = t[pl]; t[pl] = x }
			if (v[t[pr]] < v[t[pm]]) { x = t[pr]; t[pr] = t[pm]; t[pm] = x }
			if (v[t[pm]] < v[t[pl]]) { x = t[pm]; t[pm] = t[pl]; t[pl] = x }
			vp = v[t[pm]]; pi = pl; pj = pr - 1
			x = t[pm]; t[pm] = t[pj]; t[pj] = x
			for (;;) {
				do ++pi; while (v[t[pi]] < vp)
				do --pj; while (vp < v[t[pj]])
				if (pi >= pj) break
				x = t[pi]; t[pi] = t[pj]; t[pj] = x
			}
			pk = pr - 1
			x = t[pi]; t[pi] = t[pk]; t[pk] = x
			if (pi - pl < pr - pi) { st[sp++] = pi + 1; st[sp++] = pr; pr = pi - 1 }
			else { st[sp++] = pl; st[sp++] = pi - 1; pl = pi + 1 }
		}
		for (pi = pl + 1; pi <= pr; ++pi) {
			vi = t[pi]; vp = v[vi]; pj = pi; pk = pi - 1
			while (pj > pl && vp < v[t[pk]]) t[pj--] = t[pk--]
			t[pj] = vi
		}
		if (sp == 0) break
		pr = st[--sp]; pl = st[--sp]
	}
}
# The row order of pandas sort_values(ascending=False) on val[1..n]
# (nargsort: reverse, numpy quicksort, reverse), ties included.
function descorder(val, n, ord,   i, v, t) {
	for (i = 0; i < n; i++) { v[i] = val[n - i] + 0; t[i] = i }
	aqsort(v, t, n)
	for (i = 1; i <= n; i++) ord[i] = n - t[n - i]
}
# Column numbers by header name: col["name"].
function header(   i) { for (i = 1; i <= NF; i++) col[unesc($i)] = i }
# meta.tsv (pid tid name value) into META; then the name K of process
# (tid 0) or thread TID of PID, as TraceLens writes it: Unknown if none.
function metaload() { if (FNR > 1) META[$1, $2, $3] = $4 }
function metaname(pid, tid, k) { return ((pid, tid, k) in META) ? META[pid, tid, k] : "Unknown" }
'
