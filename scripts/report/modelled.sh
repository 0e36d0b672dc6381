# See LICENSE file for copyright and license details.
# stage: modelled
# The ops that have a perf model (tl-roofline -m: ops.tsv's records of
# those ops, and dropped_ops.tsv's, UID order), and the same as keys (op TAB tag, each its own)
# for the kernel lists and the forest's mod flag; modelled_built.tsv,
# the UIDs of those whose model builds from their args alone (--built).
#
# Their annotations (annotations.tsv): UID (12 digits) TAB annotation
# for each modelled op whose name starts with
# vllm::unified_attention_with_output, UID order: TraceLens's
# apply_annotation.  The annotation is the name of the first event
# whose cat holds user_annotation (gpu_user_annotation too; any pid and
# tid), in ts order then trace order, with ann.ts <= op.ts and op.ts +
# op.dur < ann.ts + ann.dur; NA when there is none.  Times sort and
# compare as the doubles Python makes of them.  Empty, and nearly free,
# when no op has the name (most traces).  Memory: sort's buffer, and in
# the sweep the annotations still open at the current ts (the nesting
# depth).
# modelled.facts: modelled_ann, 1 when modelled_ops.tsv holds that
# name anywhere, and modelled_bwd, 1 when it holds _Backward anywhere
# (perf_fwd's ConvBias backward ops), found by the pass that writes
# the keys: no grep reads the file again.
# in: ops.tsv dropped_ops.tsv sel.tsv trace.facts
# out: modelled_ops.tsv modelled_keys.tsv modelled_built.tsv annotations.tsv modelled.facts
# when: roofline=1 cpu_ops=1 gpu_work=1
modelled() {
	if tl_rows dropped_ops.tsv; then
		# the cpu_ops out of the tree too, in UID order: TraceLens's
		# perf sheets pick ops by name among all events
		st tail -n +2 dropped_ops.tsv >dropped.body; ok
		{ IFS= read -r h <ops.tsv && printf '%s\n' "$h" &&
			tail -n +2 ops.tsv | tl_sort -m -t "$TAB" -k1,1n - dropped.body; } >ops_all.tsv ||
			return 1
		st tl-roofline -m --built modelled_built.tsv ops_all.tsv >modelled_ops.tsv; ok
		tl_drop ops_all.tsv dropped.body
	else
		st tl-roofline -m --built modelled_built.tsv ops.tsv >modelled_ops.tsv; ok
	fi
	annop=vllm::unified_attention_with_output
	st awk -F '\t' '
	NR > 1 { print $1 "\t" $1 }
	!a && index($0, op) { a = 1 }
	!b && index($0, "_Backward") { b = 1 }
	END { printf "modelled_ann=%d\nmodelled_bwd=%d\n", a, b >ff }' \
	    op="$annop" ff=modelled.facts modelled_ops.tsv >modelled_keys.tsv; ok
	. ./modelled.facts || exit 1
	: >annotations.tsv
	[ "$modelled_ann" = 1 ] || return 0
	# dkey(x): a key of the double x that sorts as x when sort compares
	# bytes: the sign class, then the exponent and the 53-bit mantissa as
	# an integer, zero-padded (complemented for negative x).  Equal
	# doubles (1752839462723407.1 and ...407.05) get equal keys.
	dkey='
	function dkey(x,   y, e) {
		if (x == 0) return "100000000000000000000"
		y = x < 0 ? -x : x; e = 0
		# (halving and doubling are exact: y ends an integer in [2^52, 2^53))
		while (y >= 9007199254740992 && e < 1100) { y /= 2; e++ }
		while (y < 4503599627370496 && e > -1074) { y *= 2; e-- }
		if (x > 0) return sprintf("2%04d%016.0f", e + 1074, y)
		return sprintf("0%04d%016.0f", 1126 - e, 9007199254740991 - y)
	}'
	# key (dkey of ts, 0 for an annotation or 1 for an op: an annotation
	# that starts with an op comes first, then the UID) type UID ts dur
	# name; an annotation without ts or dur is left out (TraceLens
	# raises KeyError on it)
	{ st awkt "$dkey"'
	  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	  index($col["name"], op) == 1 {
		printf "%s1%012.0f\to\t%s\t%s\t%s\t\n", dkey($col["ts"] + 0), $1, $1, $col["ts"], $col["dur"]
	  }' op="$annop" modelled_ops.tsv
	  # (grep first: annotations are few among the events)
	  { head -n 1 sel.tsv; grep -F user_annotation sel.tsv || [ $? -eq 1 ] || echo "grep: failed" >>"$TL_FAIL"; } |
	  st awkt "$dkey"'
	  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; c = col["cat"]; t = col["ts"]; d = col["dur"]; n = col["name"]; next }
	  index($c, "user_annotation") && $t != "" && $d != "" {
		printf "%s0%012.0f\ta\t%s\t%s\t%s\t%s\n", dkey($t + 0), $1, $1, $t, $d, $n
	  }'
	} | st tl_sort -t "$TAB" -k1,1 >ann.sorted; ok
	# The sweep: an op takes the first open annotation (ts order) that
	# ends after it.  Annotations that end by the current ts can hold no
	# later op (its ts is no less, its dur not negative): they are
	# dropped when the list doubles.  An op with a negative dur may lie
	# in a dropped one: those ops (unheard of) go to ann.neg.
	st awk -F '\t' '
	$2 == "a" {
		if (n >= lim) {
			x = $4 + 0; j = 0
			for (i = 1; i <= n; i++) if (E[i] > x) { j++; E[j] = E[i]; N[j] = N[i] }
			n = j; lim = n < 32 ? 64 : 2 * n
		}
		n++; E[n] = $4 + $5; N[n] = $6
		next
	}
	$5 + 0 < 0 { print >negf; next }
	{
		e = $4 + $5; a = "NA"
		for (i = 1; i <= n; i++) if (e < E[i]) { a = N[i]; break }
		printf "%012.0f\t%s\n", $3, a
	}' negf=ann.neg ann.sorted >ann.ops; ok
	if [ -s ann.neg ]; then
		# each such op against every annotation before it: one op at a time
		st awk -F '\t' '
		{
			split($0, o, "\t"); e = o[4] + o[5]; a = "NA"
			while ((getline l <af) > 0) {
				split(l, f, "\t")
				if ((f[1] "") > (o[1] "")) break
				if (f[2] == "a" && f[4] + 0 <= o[4] + 0 && e < f[4] + f[5]) { a = f[6]; break }
			}
			close(af)
			printf "%012.0f\t%s\n", o[3], a
		}' af=ann.sorted ann.neg >>ann.ops; ok
	fi
	st tl_sort -t "$TAB" -k1,1 ann.ops >annotations.tsv; ok
	tl_drop ann.sorted ann.ops ann.neg
}
