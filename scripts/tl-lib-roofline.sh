# tl-lib-roofline.sh: the perf-model sheets of tl-report (GEMM, SDPA_fwd,
# SDPA_bwd, CONV_fwd, CONV_bwd, UnaryElementwise, BinaryElementwise,
# Normalization, Reduce_fwd, Reduce_bwd ...), made from the tree stage's
# files with tl-roofline(1), sort and tl-aggregate(1).  Sourced by
# tl-report, which calls tl_roofline_stage TREEDIR REPORTDIR [KMAP]; the
# helpers st, ok, hsort, awkx, AWKLIB and $SORT of tl-report are in
# scope.  Environment: TL_GPU_ARCH (a GPU name or spec file, as
# tl-roofline --gpu-arch takes it) adds the roofline columns.
# All shell variables here start with rl_: tl-report's are global too.

# Awk functions of the sheet builder (appended to AWKLIB).
RL_AWK='
# JSON text (compact, as tl-parse writes it) as a Python literal with
# lists, as pandas prints a list cell: [[4, 197, 768], []], [\x27a\x27, \x27\x27].
function jpy(s,   o, i, n, c, t, e) {
	if (s == "") return ""
	o = ""; n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (c == "\"") {
			t = ""
			for (i++; i <= n; i++) {
				c = substr(s, i, 1)
				if (c == "\"") break
				if (c == "\\") {
					e = substr(s, ++i, 1)
					if (e == "n") c = "\n"; else if (e == "t") c = "\t"
					else if (e == "r") c = "\r"; else if (e == "u") { c = "\\u" substr(s, i + 1, 4); i += 4 }
					else c = e
				}
				t = t c
			}
			o = o pystr(t)
		} else if (c == ",") o = o ", "
		else if (c == ":") o = o ": "
		else if (substr(s, i, 4) == "true") { o = o "True"; i += 3 }
		else if (substr(s, i, 5) == "false") { o = o "False"; i += 4 }
		else if (substr(s, i, 4) == "null") { o = o "None"; i += 3 }
		else o = o c
	}
	return o
}
# Python repr of a string.
function pystr(t,   q) {
	q = (index(t, "\x27") && !index(t, "\"")) ? "\"" : "\x27"
	gsub(/\\/, "\\\\", t)
	if (q == "\x27") gsub(/\x27/, "\\\x27", t)
	gsub(/\n/, "\\n", t); gsub(/\t/, "\\t", t); gsub(/\r/, "\\r", t)
	return q t q
}
# Split a params dict literal {\x27M\x27: 16, ...} into pk[1..n], pv[1..n]
# (values as repr writes them); returns n.
function pdict(s, pk, pv,   n, i, L, c, d, q, st, k) {
	n = 0; L = length(s); i = 2
	while (i < L) {
		while (substr(s, i, 1) == " " || substr(s, i, 1) == ",") i++
		if (i >= L) break
		q = substr(s, i, 1); st = ++i
		while (substr(s, i, 1) != q) { if (substr(s, i, 1) == "\\") i++; i++ }
		k = substr(s, st, i - st); i++
		while (substr(s, i, 1) == ":" || substr(s, i, 1) == " ") i++
		st = i; d = 0; q = ""
		for (; i < L; i++) {
			c = substr(s, i, 1)
			if (q != "") { if (c == "\\") i++; else if (c == q) q = ""; continue }
			if (c == "\x27" || c == "\"") q = c
			else if (c == "(" || c == "[" || c == "{") d++
			else if (c == ")" || c == "]" || c == "}") d--
			else if (c == "," && d == 0) break
		}
		pk[++n] = k; pv[n] = substr(s, st, i - st)
	}
	return n
}
# The kind of a repr value: i int, f float, b bool, n None, o other.
function pkind(v) {
	if (v ~ /^-?[0-9]+$/) return "i"
	if (v ~ /^-?([0-9]+\.[0-9]*|[0-9]*\.[0-9]+)(e[-+][0-9]+)?$|^-?[0-9]+e[-+][0-9]+$|^-?inf$|^nan$/) return "f"
	if (v == "True" || v == "False") return "b"
	if (v == "None") return "n"
	return "o"
}
# str() of a repr value: strings lose their quotes.
function pystrval(v,   q, t) {
	q = substr(v, 1, 1)
	if ((q == "\x27" || q == "\"") && substr(v, length(v), 1) == q) {
		t = substr(v, 2, length(v) - 2)
		gsub(/\\\\/, "\001", t); gsub(/\\\x27/, "\x27", t); gsub(/\\n/, "\n", t)
		gsub(/\\t/, "\t", t); gsub(/\001/, "\\", t)
		return t
	}
	return v
}
'

# Awk: u is in the UID-sorted list file f (a merge join: calls come
# in ascending u).
RL_HAS='
function has(f, u,   l) {
	while (!(f in eof) && (!(f in cur) || cur[f] < u))
		if ((getline l <f) > 0) cur[f] = l + 0; else eof[f] = 1
	return (f in cur) && cur[f] == u
}
'

# Awk: the model columns unified_perf_summary takes from a tl-roofline
# line split into b (header index hc): status GFLOPS ... Kernel Time,
# and the roofline columns with a GPU spec.
RL_METRICS='
function metrics(b, hc,   v, i, nn) {
	v = b[hc["model_status"]]
	split("GFLOPS|Data Moved (MB)|FLOPS/Byte|TB/s|TFLOPS/s|Compute Spec|params|op category|Kernel Time (µs)", nn, "|")
	for (i = 1; i <= 9; i++) v = v "\t" b[hc[nn[i]]]
	if (arch) v = v "\t" b[hc["Roofline Time (µs)"]] "\t" b[hc["Roofline Bound"]] "\t" b[hc["Pct Roofline"]]
	return v
}
'

# rl_ivkind KIND KEYS [names]: the intervals of $rl_T/intervals.tsv of
# kind KIND (s: subtree, d: direct) of the ops listed in KEYS (op TAB
# tag, sorted by op numerically; an op may have several tags), as tag ts
# dur name stream gpu records without header (tl-pick(1)).  The names of s records only when asked for: they are read
# from $rl_T/gpuev.tsv.
rl_ivkind() {
	case $1 in
	s) tl-pick -s ${3:+-G "$rl_T/gpuev.tsv"} -k "$2" "$rl_T/intervals.tsv" ;;
	d) tl-pick -d -k "$2" "$rl_T/intervals.tsv" ;;
	esac
}

# rl_kinfo: tag ts dur name stream gpu records on stdin (any order) ->
# tag kt kd, one per tag: the busy time and kernel list (ts order).
rl_kinfo() {
	{ printf 'tag\tts\tdur\tname\tstream\tgpu\n'
	  $SORT -t "$TAB" -k1,1n -k2,2n -k6,6n; } |
	tl-aggregate -g tag:n 'kt=union:ts,dur' 'kd=list:name,dur,stream'
}

# The ops that TraceLens's perf report annotates (apply_annotation's
# name filter: a prefix).
RL_ANNOP=vllm::unified_attention_with_output

# Awk: dkey(x), a key of the double x that sorts as x when sort compares
# bytes: the sign class, then the exponent and the 53-bit mantissa as
# an integer, zero-padded (complemented for negative x).  Equal doubles
# (1752839462723407.1 and ...407.05) get equal keys.
RL_DKEY='
function dkey(x,   y, e) {
	if (x == 0) return "100000000000000000000"
	y = x < 0 ? -x : x; e = 0
	# (halving and doubling are exact: y ends an integer in [2^52, 2^53))
	while (y >= 9007199254740992 && e < 1100) { y /= 2; e++ }
	while (y < 4503599627370496 && e > -1074) { y *= 2; e-- }
	if (x > 0) return sprintf("2%04d%016.0f", e + 1074, y)
	return sprintf("0%04d%016.0f", 1126 - e, 9007199254740991 - y)
}
'

# rl_annot: $rl_w/ann.tsv, UID (12 digits) TAB annotation for each op
# of m.tsv whose name starts with $RL_ANNOP, UID order: TraceLens's
# apply_annotation.  The annotation is the name of the first event whose
# cat holds user_annotation (gpu_user_annotation too; any pid and tid),
# in ts order then trace order, with ann.ts <= op.ts and op.ts + op.dur
# < ann.ts + ann.dur; NA when there is none.  Times sort and compare as
# the doubles Python makes of them.  Empty, and nearly free, when no op
# has the name (most traces).  Memory: sort's buffer, and in the sweep
# the annotations still open at the current ts (the nesting depth).
rl_annot() {
	: >"$rl_w/ann.tsv"
	grep -q -F "$RL_ANNOP" "$rl_w/m.tsv" || return 0
	# (the tree stage's sel.tsv: the events' header and their annotations)
	rl_ev=$rl_T/sel.tsv
	[ -r "$rl_ev" ] || { echo "tl_roofline_stage: $rl_ev: cannot read the events" >&2; return 1; }
	# key (dkey of ts, 0 for an annotation or 1 for an op: an annotation
	# that starts with an op comes first, then the UID) type UID ts dur
	# name; an annotation without ts or dur is left out (TraceLens
	# raises KeyError on it)
	{ st awkx "$RL_DKEY"'
	  NR == 1 { header(); next }
	  index($col["name"], op) == 1 {
		printf "%s1%012.0f\to\t%s\t%s\t%s\t\n", dkey($col["ts"] + 0), $1, $1, $col["ts"], $col["dur"]
	  }' op="$RL_ANNOP" "$rl_w/m.tsv"
	  # (grep first: annotations are few among the events)
	  { head -n 1 "$rl_ev"; grep -F user_annotation "$rl_ev" || [ $? -eq 1 ] || echo "grep: failed" >>"$F"; } |
	  st awkx "$RL_DKEY"'
	  NR == 1 { header(); c = col["cat"]; t = col["ts"]; d = col["dur"]; n = col["name"]; next }
	  index($c, "user_annotation") && $t != "" && $d != "" {
		printf "%s0%012.0f\ta\t%s\t%s\t%s\t%s\n", dkey($t + 0), $1, $1, $t, $d, $n
	  }'
	} | st $SORT -t "$TAB" -k1,1 >"$rl_w/as.tsv"; ok
	# The sweep: an op takes the first open annotation (ts order) that
	# ends after it.  Annotations that end by the current ts can hold no
	# later op (its ts is no less, its dur not negative): they are
	# dropped when the list doubles.  An op with a negative dur may lie
	# in a dropped one: those ops (unheard of) go to neg.tsv.
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
	}' negf="$rl_w/neg.tsv" "$rl_w/as.tsv" >"$rl_w/ann1.tsv"; ok
	if [ -s "$rl_w/neg.tsv" ]; then
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
		}' af="$rl_w/as.tsv" "$rl_w/neg.tsv" >>"$rl_w/ann1.tsv"; ok
	fi
	st $SORT -t "$TAB" -k1,1 "$rl_w/ann1.tsv" >"$rl_w/ann.tsv"; ok
}

# rl_model OPS KINFO [B]: the op records of OPS (UID order) with their
# process and thread names, kernel time and kernel list (KINFO, tag
# order; ops without one get time 0 and no kernels) and annotation
# ($rl_w/ann.tsv; empty for ops without one), through tl-roofline
# (--bwd with B).  Writes the sheet rows (kind F or B, the input
# columns, the model columns), and the model columns of every op to
# $rl_w/metF.tsv (metB.tsv with B).
rl_model() {
	rl_o=$1 rl_k=$2 rl_kind=${3:-}
	rl_h='kind	UID	name	process_name	process_label	thread_name	Input Dims	Input type	Input Strides	Concrete Inputs	Kernel Time (µs)	kernel_names	annotation'
	st awkx '
	FILENAME == meta { metaload(); next }
	FNR == 1 {
		header()
		print hdr
		getline kl <kin
		au = -1
		next
	}
	{
		u = $col["UID"] + 0
		while (kh == 0 || ku < u) {
			if ((getline kl <kin) <= 0) { ku = 1e300; kh = 1; break }
			split(kl, k, "\t"); ku = k[1] + 0; kh = 1
		}
		while (au < u)
			if ((getline al <an) > 0) au = substr(al, 1, 12) + 0
			else au = 1e300
		pid = $col["pid"]; tid = $col["tid"]
		pn = metaname(pid, 0, "process_name"); pl = metaname(pid, 0, "process_labels")
		tn = metaname(pid, tid, "thread_name")
		print kind, $col["UID"], $col["name"], pn, pl, tn, $col["Input Dims"], $col["Input type"],
		    $col["Input Strides"], $col["Concrete Inputs"], (ku == u ? k[2] : 0), (ku == u ? k[3] : ""),
		    (au == u ? substr(al, 14) : "")
	}' hdr="$rl_h" kind="${rl_kind:-F}" meta="$rl_T/meta.tsv" kin="$rl_k" an="$rl_w/ann.tsv" \
	    "$rl_T/meta.tsv" "$rl_o" |
	# (a model with no sheet, such as Triton's, is for unified_perf_summary only)
	st tl-roofline $rl_arch ${rl_kind:+--bwd} --sheet-rows --metrics "$rl_w/met${rl_kind:-F}.tsv"
}

# rl_wstream: $rl_w/W.tsv, the host ops of ops.tsv grouped by tree
# (sorted by KEY, the tree's root and the op's UID in hex, so that sort
# compares bytes): KEY UID cat name parent ngpu fwd cpu_root own nc mod,
# where own: some op's fwd link points here; nc: a communication kernel
# is below (the tree stage's comm.tsv); mod: the op has a perf model
# (m.tsv); own from rl_links.
# Also $rl_w/fk.tsv (fwd op TAB KEY of the ops with a fwd link, in UID
# order).  The records are tl-forest -m build's (tl-forest(1)).
# Memory: sort's buffer; the flags are merge joins against UID-sorted
# lists.
rl_wstream() {
	st tl-forest -m build -a "$rl_w/own.tsv" -c "$rl_T/comm.tsv" -k "$rl_w/mk.tsv" \
	    -w "$rl_w/fk.tsv" "$rl_T/ops.tsv" |
	st $SORT -t "$TAB" -k1,1 >"$rl_w/W.tsv"; ok
}

# rl_links: what rl_wstream needs of the tree alone (a background job
# beside the model selection): $rl_w/xb.tsv and $rl_w/own.tsv.  A
# failure is in $F.
rl_links() {
	# The fwd links, fwd op TAB op, by fwd op (rl_pairs joins on it), and
	# the fwd ops: the tree stage's fwd.tsv, in UID order.
	st $SORT -t "$TAB" -k1,1n "$rl_T/fwd.tsv" >"$rl_w/xb.tsv"; bgok || return 1
	cut -f 1 "$rl_w/xb.tsv" | st uniq >"$rl_w/own.tsv"
	bgok
}

# rl_pairs: $rl_w/bk.tsv, b TAB X for each op b whose fwd op is X or
# below X, where X has a model and a bwd op of its own; sorted by b, X.
# One tree in memory at a time.
rl_pairs() {
	# X below which (or at which) each fwd target lies: x TAB X, by x
	st tl-forest -m pairs "$rl_w/W.tsv" | st $SORT -t "$TAB" -k1,1n >"$rl_w/xa.tsv"; ok
	# joined with the fwd links ($rl_w/xb.tsv) on the target: b TAB X
	st awk -F '\t' -v OFS='\t' -v xa="$rl_w/xa.tsv" '
	function more(   l) {
		if ((getline l <xa) <= 0) { kx = -1; return 0 }
		split(l, f, "\t"); kx = f[1] + 0; ka = f[2]; return 1
	}
	BEGIN { more(); x = -1 }
	{
		t = $1 + 0
		if (t != x) {
			x = t; na = 0
			while (kx >= 0 && kx < t) more()
			while (kx == t) { A[++na] = ka; if (!more()) break }
		}
		for (i = 1; i <= na; i++) print $2, A[i]
	}' "$rl_w/xb.tsv" |
	st $SORT -t "$TAB" -k1,1n -k2,2n >"$rl_w/bk.tsv"; ok
}

# rl_keep FILE CMD...: run CMD (a stage, as st runs it), its output also
# to FILE when a KMAP is wanted.  (Without one, no stage more: a cat
# would copy every byte once more.)
rl_keep() {
	_rk=$1
	shift
	if [ -n "$rl_kmap" ]; then st "$@" | st tee "$_rk"; else st "$@"; fi
}

tl_roofline_stage() {
	rl_T=$1 rl_R=$2 rl_kmap=${3:-}
	rl_w=$(mktemp -d "${TMPDIR:-/tmp}/rl.XXXXXX") || return 1
	rl_arch=
	[ -n "${TL_GPU_ARCH:-}" ] && rl_arch="--gpu-arch=$TL_GPU_ARCH"

	rl_links &
	rl_lpid=$!
	# The ops that have a perf model (UID order).
	st tl-roofline -m "$rl_T/ops.tsv" >"$rl_w/m.tsv"; ok
	rl_annot || return 1
	# The modelled ops as keys (op TAB tag, each its own), for the
	# kernel lists and for the forest's mod flag (its first field).
	st awk -F '\t' 'NR > 1 { print $1 "\t" $1 }' "$rl_w/m.tsv" >"$rl_w/mk.tsv"; ok
	# Two branches on two cores: the fwd metrics of every modelled op
	# (its kernels, then the model run), beside the tree walks below.
	{
		# (the kernels go to rl_model through a pipe, not a file)
		st tl-pick -s -b -G "$rl_T/gpuev.tsv" -k "$rl_w/mk.tsv" "$rl_T/intervals.tsv" |
		rl_model "$rl_w/m.tsv" /dev/stdin >"$rl_w/pre.tsv"
	} &
	rl_fpid=$!

	# The host ops grouped by tree, for the walks below.
	wait "$rl_lpid"; ok
	rl_wstream || { wait "$rl_fpid"; return 1; }

	# Backward: the bwd events of each modelled op that has its own,
	# with those of its modelled descendants' (TraceLens's
	# get_subtree_bwd_events): b TAB X pairs, sorted by b.
	: >"$rl_w/bk.tsv"
	[ -s "$rl_w/own.tsv" ] && { rl_pairs || return 1; }
	if [ -s "$rl_w/bk.tsv" ]; then
		st rl_ivkind s "$rl_w/bk.tsv" names | st rl_kinfo >"$rl_w/bki.tsv"; ok
		# The modelled ops with their own bwd events, UID order.
		# (GEMM, the elementwise and norm sheets have no bwd table)
		cut -f 2 "$rl_w/bk.tsv" | st $SORT -n -u >"$rl_w/bx.tsv"; ok
		st awkx "$RL_HAS"'
		NR == 1 { header(); print; next }
		has(bx, $1 + 0) && $col["sheet"] !~ /^(GEMM|UnaryElementwise|BinaryElementwise|Normalization)$/' \
		    bx="$rl_w/bx.tsv" "$rl_w/m.tsv" >"$rl_w/mb.tsv"; ok
		rl_model "$rl_w/mb.tsv" "$rl_w/bki.tsv" B | sed 1d >"$rl_w/preB.tsv"; ok
	fi
	wait "$rl_fpid"; ok
	# (the bwd rows after the fwd ones: one file for the sheets to read)
	if [ -s "$rl_w/preB.tsv" ]; then
		cat "$rl_w/preB.tsv" >>"$rl_w/pre.tsv" || { echo "cat: failed" >>"$F"; ok; }
	fi
	# (the files read for the last time go as soon as they are read: see
	# tl-report's events)
	rm -f "$rl_w/m.tsv" "$rl_w/mk.tsv" "$rl_w/bki.tsv" "$rl_w/preB.tsv"

	# Group by (table, name, params): TraceLens groups on str() of each
	# param, which the params literal determines.
	# The sheets, beside unified_perf_summary.
	{
	if [ "$rl_arch" ]; then
		set -- 'rt_first=first:Roofline Time (µs)' 'rb_first=first:Roofline Bound' \
		    'pr_mean=mean:Pct Roofline' 'pr_median=median:Pct Roofline' 'pr_std=std:Pct Roofline' \
		    'pr_min=min:Pct Roofline' 'pr_max=max:Pct Roofline'
	else
		set --
	fi
	# (grouped by a hash of the keys: the groups are ordered by UID_first after)
	st tl-aggregate -g kind,sheet,name,params -K UID:n <"$rl_w/pre.tsv" |
	st hsort -t "$TAB" -k1,1 |
	st tl-aggregate -H -g kind,sheet,name,params 'UID_first=first:UID' \
	    'gf=first:GFLOPS' 'dm=first:Data Moved (MB)' 'fb=first:FLOPS/Byte' \
	    'tbs_mean=mean:TB/s' 'tbs_median=median:TB/s' 'tbs_std=std:TB/s' 'tbs_min=min:TB/s' 'tbs_max=max:TB/s' \
	    'tfs_mean=mean:TFLOPS/s' 'tfs_median=median:TFLOPS/s' 'tfs_std=std:TFLOPS/s' \
	    'tfs_min=min:TFLOPS/s' 'tfs_max=max:TFLOPS/s' \
	    'pn_first=first:process_name' 'pl_first=first:process_label' 'tn_first=first:thread_name' \
	    'spec_first=first:Compute Spec' "$@" \
	    'kd_kstats=kstats:kernel_names' 'kd_ktrunc=ktrunc:kernel_names' \
	    'dims_first=first:Input Dims' 'types_first=first:Input type' \
	    'strides_first=first:Input Strides' 'conc_first=first:Concrete Inputs' \
	    'kt_mean=mean:Kernel Time (µs)' 'kt_median=median:Kernel Time (µs)' 'kt_std=std:Kernel Time (µs)' \
	    'kt_min=min:Kernel Time (µs)' 'kt_max=max:Kernel Time (µs)' 'kt_sum=sum:Kernel Time (µs)' \
	    'UID_count=count:UID' |
	st hsort -t "$TAB" -k5,5n >"$rl_w/agg.tsv"; ok
	rm -f "$rl_w/pre.tsv"

	# Lay the tables out as sheets (in memory: one row per group).
	st awkx "$RL_AWK"'
	NR == 1 { header(); nc = NF; next }
	{
		g++; G[g] = $0; kind = $1; sh = $2
		t = kind SUBSEP sh
		if (!(t in ntab)) { tabs[++ntabs] = t }
		tr[t, ++ntab[t]] = g
		np[g] = pdict($4, pk, pv)
		for (i = 1; i <= np[g]; i++) {
			k = pk[i]
			if (!((t, k) in seen)) { seen[t, k]; pcol[t, ++npc[t]] = k }
			P[g, k] = pv[i]; kk = pkind(pv[i])
			if (kk == "f") fl[t, k] = 1
			else if (kk == "b" || kk == "o") ob[t, k] = 1
			else if (kk == "n") nn[t, k] = 1
			else ni[t, k] = 1
		}
		name[g] = $3
	}
	END {
		split("GEMM UnaryElementwise BinaryElementwise Normalization", one, " ")
		for (i in one) single[one[i]]
		split("flash_attn::_flash_attn_varlen_backward aten::convolution_backward ConvBias_Backward ConvBiasReLU_Backward", a, " ")
		for (i in a) tobwd[a[i]]
		split("aten::convolution aten::miopen_convolution aten::cudnn_convolution ConvBias_ ConvBiasReLU_", a, " ")
		for (i in a) notbwd[a[i]]
		# bwd tables first: pandas puts their columns before those of
		# the rows moved over from the fwd table
		for (pass = 1; pass <= 2; pass++)
		for (ti = 1; ti <= ntabs; ti++) {
			t = tabs[ti]; split(t, tk, SUBSEP); kind = tk[1]; sh = tk[2]
			if ((pass == 1) != (kind == "B")) continue
			# missing keys make a column float (ints print 16.0) or nan
			for (j = 1; j <= npc[t]; j++) {
				k = pcol[t, j]; miss = 0
				for (r = 1; r <= ntab[t]; r++) if (!((tr[t, r], k) in P)) { miss = 1; break }
				# (pandas: None with numbers or gaps is NaN; all None stays None)
				flt[t, k] = !ob[t, k] && (fl[t, k] || miss || (nn[t, k] && ni[t, k]))
			}
			if (kind == "B") addcols(sh "_bwd", t)
			for (r = 1; r <= ntab[t]; r++) {
				g = tr[t, r]
				if (kind == "F") dest = (sh in single) ? sh : ((name[g] in tobwd) ? sh "_bwd" : sh "_fwd")
				else { if (name[g] in notbwd) continue; dest = sh "_bwd" }
				part = (kind == "F" && dest ~ /_bwd$/) ? 2 : 1
				addcols(dest, t)
				for (j = 1; j <= npc[t]; j++) {
					k = pcol[t, j]
					if ((g, k) in P) {
						v = P[g, k]
						if (flt[t, k] && (pkind(v) == "i" || pkind(v) == "f")) v = pyrepr(v + 0)
						else if (v == "None" && flt[t, k]) v = "nan"
						else v = pystrval(v)
					} else v = "nan"
					cellv[g, k] = v
				}
				rows[dest, ++nrow[dest]] = g; rpart[g] = part; rtab[g] = t
			}
		}
		for (d = 1; d <= ndest; d++) {
			dest = dests[d]
			if (!nrow[dest]) continue
			o = "name"
			for (j = 1; j <= dcols[dest]; j++) o = o "," csv("param: " dck[dest, j])
			o = o ",GFLOPS_first,Data Moved (MB)_first,FLOPS/Byte_first,TB/s_mean,TB/s_median,TB/s_std,TB/s_min,TB/s_max,TFLOPS/s_mean,TFLOPS/s_median,TFLOPS/s_std,TFLOPS/s_min,TFLOPS/s_max,process_name_first,process_label_first,thread_name_first,Compute Spec"
			if (arch) o = o ",Roofline Time (µs)_first,Roofline Bound_first,Pct Roofline_mean,Pct Roofline_median,Pct Roofline_std,Pct Roofline_min,Pct Roofline_max"
			o = o ",kernel_details__summarize_kernel_stats,trunc_kernel_details,Input Dims_first,Input type_first,Input Strides_first,Concrete Inputs_first,Kernel Time (µs)_mean,Kernel Time (µs)_median,Kernel Time (µs)_std,Kernel Time (µs)_min,Kernel Time (µs)_max,Kernel Time (µs)_sum,name_count,UID_first"
			print dest, 0, "", "", o
			for (r = 1; r <= nrow[dest]; r++) {
				g = rows[dest, r]; t = rtab[g]
				split(G[g], f, "\t")
				o = cell(f[3])
				for (j = 1; j <= dcols[dest]; j++) {
					k = dck[dest, j]
					o = o "," (((t, k) in seen) ? csv(cellv[g, k]) : "")
				}
				for (i = 6; i <= 8; i++) o = o "," num(f[i])
				for (i = 9; i <= 18; i++) o = o "," num(f[i])
				for (i = 19; i <= 22; i++) o = o "," cell(f[i])
				i = 23
				if (arch) { o = o "," num(f[23]) "," cell(f[24]); for (i = 25; i <= 29; i++) o = o "," num(f[i]) }
				o = o "," cell(f[i]) "," cell(f[i + 1])
				for (j = i + 2; j <= i + 5; j++) o = o "," csv(jpy(unesc(f[j])))
				for (j = i + 6; j <= i + 11; j++) o = o "," num(f[j])
				o = o "," f[i + 12] "," f[5]
				print dest, rpart[g], f[i + 11], f[5], o
			}
		}
	}
	function num(x) { return x == "" ? "" : pyrepr(x + 0) }
	# Sheet dest takes the param columns of table t (once).
	function addcols(dest, t,   j, k) {
		if (!(dest in dcols)) { dests[++ndest] = dest; dcols[dest] = 0 }
		if ((dest, t) in added) return
		added[dest, t]
		for (j = 1; j <= npc[t]; j++) {
			k = pcol[t, j]
			if (!((dest, k) in dci)) { dci[dest, k] = ++dcols[dest]; dck[dest, dcols[dest]] = k }
		}
	}
	' arch="$rl_arch" "$rl_w/agg.tsv" |
	st $SORT -t "$TAB" -k1,1 -k2,2n -k3,3gr -k4,4n >"$rl_w/rows.tsv"; ok
	st awk -F '\t' -v R="$rl_R" '
	$1 != cur { if (cur != "") close(f); cur = $1; f = R "/" $1 ".csv" }
	{ print $5 >f }' "$rl_w/rows.tsv"
	} &
	rl_spid=$!
	rl_unified
	wait "$rl_spid"; ok
	rm -rf "$rl_w"
	return 0
}

# rl_unified: unified_perf_summary (TraceLens's collect_unified_perf_events
# and summarize_df_unified_perf_table), after the perf sheets (it reuses
# their model runs: $rl_w/metF.tsv, metB.tsv).
# Memory: the walk holds one tree of W.tsv; every other step is a sort
# or a merge join of files in the same order; the last two hold one
# line per row of the sheet.
rl_unified() {
	# The ops whose fwd op has bwd metrics in TraceLens (and a bwd
	# category), and GPU work, as keys of W.tsv (sorted): the walk's
	# "sole bwd op" test, made before the walk so that it holds one
	# tree only.
	: >"$rl_w/fok.tsv"
	if [ -f "$rl_w/metB.tsv" ]; then
		# (metB.tsv has one line per line of mb.tsv)
		st awkx 'NR == 1 {
			header()
			getline l <fb; nh = split(l, h, "\t")
			for (i = 1; i <= nh; i++) bc[h[i]] = i
			next
		}
		{
			getline l <fb; split(l, m, "\t")
			if (m[bc["model_status"]] == "ok" && m[bc["op category"]] != "" &&
			    $col["cat"] == "cpu_op" && $col["ngpu"] > 0) print $col["UID"]
		}' fb="$rl_w/metB.tsv" "$rl_w/mb.tsv" >"$rl_w/elig.tsv"; ok
		# (fk.tsv: fwd op TAB KEY of the ops with a fwd link)
		st $SORT -t "$TAB" -k1,1n "$rl_w/fk.tsv" |
		st awk -F '\t' "$RL_HAS"'
		has(ef, $1 + 0) { print $2 }' ef="$rl_w/elig.tsv" |
		st $SORT >"$rl_w/fok.tsv"; ok
	fi
	# The walk, one tree at a time: collected ops: UID type fwd
	# (type P: own model, S: sole bwd op of a modelled fwd op, O: other).
	# Only host events with GPU work below them are ever visited.
	st tl-forest -m collect -s "$rl_w/fok.tsv" "$rl_w/W.tsv" >"$rl_w/col.tsv"; ok
	rm -f "$rl_w/W.tsv"
	st awk -F '\t' '{ print $1 "\t" $1 }' "$rl_w/col.tsv" | st $SORT -t "$TAB" -k1,1n >"$rl_w/ck.tsv"; ok
	# Beside the synthetic ops below, what needs only the collected
	# ops: their kernel times and lists (cki0.tsv), and the bwd metrics
	# of the S rows' fwd ops.
	{
	st tl-pick -s -b -G "$rl_T/gpuev.tsv" -k "$rl_w/ck.tsv" "$rl_T/intervals.tsv" >"$rl_w/cki0.tsv"; bgok || exit 1
	# The bwd metrics of the S rows' fwd ops: UID TAB metrics, by UID.
	: >"$rl_w/sm.tsv"
	if [ -f "$rl_w/metB.tsv" ]; then
		awk -F '\t' -v OFS='\t' '$2 == "S" { print $3, $1 }' "$rl_w/col.tsv" | st $SORT -t "$TAB" -k1,1n |
		st awkx "$RL_METRICS"'
		NR == 1 { getline l <fb; nh = split(l, h, "\t"); for (i = 1; i <= nh; i++) hc[h[i]] = i; bu = -1 }
		{
			f = $1 + 0
			while (bu < f) {
				if ((getline l <fb) <= 0) { bu = 1e300; break }
				split(l, b, "\t"); bu = b[hc["UID"]] + 0
			}
			if (bu == f) print $2, metrics(b, hc)
		}' fb="$rl_w/metB.tsv" arch="$rl_arch" | st $SORT -t "$TAB" -k1,1n >"$rl_w/sm.tsv"; bgok || exit 1
	fi
	} &
	rl_cpid=$!
	# GPU events under a collected op.
	# (kept for the KMAP only)
	rl_keep "$rl_w/civ.tsv" rl_ivkind s "$rl_w/ck.tsv" | st cut -f 6 |
	    st $SORT -n -u >"$rl_w/cov.tsv"; ok
	# Synthetic ops: each other linked, non-communication GPU event, as
	# a copy of its nearest cpu_op (or its runtime when it has none).
	# They are numbered after the trace's last UID: first those of
	# runtimes, by runtime (in order of their first event), then the
	# others, in GPU event order.
	rl_max=$(cat "${w:-.}/lastuid" 2>/dev/null)
	case $rl_max in ''|*[!0-9]*) rl_max=$(awk -F '\t' 'NR > 1 && $1 + 0 > m { m = $1 + 0 } END { print m + 0 }' "$rl_T/ops.tsv" "$rl_T/gpu.tsv") ;; esac
	: >"$rl_w/synw.tsv"
	# src name ts dur kname stream gpu (runtime ones: led by the runtime
	# and the GPU event, for the sort)
	st awkx "$RL_HAS"'
	NR == 1 { header(); next }
	$col["linked"] == 1 && !has(covf, $1 + 0) && tolower($col["name"]) !~ /nccl|rccl|cross_device_reduce/ {
		o = $col["ts"] "\t" $col["dur"] "\t" $col["name"] "\t" $col["stream"] "\t" $col["UID"]
		if ($col["cpu_op"] != "") print $col["cpu_op"], $col["cpu_op_name"], o >wf
		else print $col["runtime"], $col["UID"], $col["runtime"], $col["runtime_name"], o
	}' covf="$rl_w/cov.tsv" wf="$rl_w/synw.tsv" "$rl_T/gpu.tsv" |
	st $SORT -t "$TAB" -k1,1n -k2,2n |
	st awk -F '\t' -v OFS='\t' '$1 != r { r = $1; f = $2 } { print f, $0 }' |
	st $SORT -t "$TAB" -k1,1n -k3,3n | st cut -f 4- >"$rl_w/syno.tsv"; ok
	# The last read of gpu.tsv: it goes, when tl-report's own readers
	# are done with it (gpu.free).
	[ -n "${w:-}" ] && [ -e "$w/gpu.free" ] && rm -f "$rl_T/gpu.tsv"
	# UID src name ts dur kname stream gpu
	st awk -F '\t' -v OFS='\t' -v u="$rl_max" '
	{ print ++u, $1, $2 "->" $5 " (Synthetic Op)", $3, $4, $5, $6, $7 }' "$rl_w/syno.tsv" "$rl_w/synw.tsv" >"$rl_w/syn.tsv"; ok
	# Kernel time and list of every row (collected: its subtree; synthetic:
	# its kernel), and the first direct kernel of each source op.
	# (the synthetic UIDs come after the trace's: appended, in order)
	awk -F '\t' -v OFS='\t' '{ print $1, $4, $5, $6, $7, $8 }' "$rl_w/syn.tsv" |
	    st rl_kinfo | sed 1d >"$rl_w/syk.tsv"; ok
	{ cat "$rl_w/ck.tsv"; awk -F '\t' -v OFS='\t' '{ print $2, $2 }' "$rl_w/syn.tsv"; } |
	    st $SORT -t "$TAB" -k1,1n -u >"$rl_w/sk.tsv"; ok
	# (each op its own tag: in op order, then ts, then GPU event)
	st rl_ivkind d "$rl_w/sk.tsv" | st awk -F '\t' '$1 != p { p = $1; print $1 "\t" $4 }' >"$rl_w/k1.tsv"; ok
	wait "$rl_cpid"; ok
	# The last read of intervals.tsv: it goes, when tl-report's own
	# reader is done with it (iv.free); gpuev.tsv has no other reader.
	[ -n "${w:-}" ] && rm -f "$rl_T/gpuev.tsv"
	[ -n "${w:-}" ] && [ -e "$w/iv.free" ] && rm -f "$rl_T/intervals.tsv"
	# (cki.tsv: cki0.tsv, then the synthetic ops, whose UIDs come after)
	mv "$rl_w/cki0.tsv" "$rl_w/cki.tsv" && cat "$rl_w/syk.tsv" >>"$rl_w/cki.tsv" ||
	    { echo "cat: failed" >>"$F"; ok; }
	# Every row, in UID order (the synthetic UIDs come last), with its
	# metrics and kernels: src UID type name has status gf dm fb tbs tfs
	# spec params bcat kt kd rt rb pr (tl-perfrows); the synthetic
	# ops' rows apart, then sorted by source op.
	st $SORT -t "$TAB" -k1,1n "$rl_w/col.tsv" |
	st tl-perfrows -f "$rl_w/metF.tsv" -k "$rl_w/cki.tsv" -s "$rl_w/sm.tsv" \
	    -y "$rl_w/syn.tsv" -o "$rl_w/ry0.tsv" >"$rl_w/rx.tsv"; ok
	rm -f "$rl_w/cki.tsv" "$rl_w/metF.tsv" "$rl_w/sm.tsv" "$rl_w/syk.tsv"
	# (the other rows are in source op order already: src is UID)
	: >>"$rl_w/ry0.tsv"
	st $SORT -t "$TAB" -k1,1n -k2,2n "$rl_w/ry0.tsv" >"$rl_w/ry.tsv"; ok
	rm -f "$rl_w/ry0.tsv"
	# The source op fields (ops.tsv, meta.tsv), its first kernel and
	# TraceLens's op category, and the group of each row (the nine
	# keys, numbered in order of first appearance).  In a group, rows
	# in TraceLens's order (collected ops by ts, then the synthetic
	# ones): ex_UID is the first.  (unified's first column is a key of
	# gseq, cls, ts and UID that sort compares as bytes.)  The nine keys
	# travel apart, once per group (gk.tsv, gseq order), and join the
	# groups' statistics after: most of a row's bytes, and the same in
	# every row of its group.
	st tl-unified -d "$rl_T" -k "$rl_w/k1.tsv" -g "$rl_w/gk.tsv" -o "$rl_w/fdur" \
	    -y "$rl_w/ry.tsv" "$rl_w/rx.tsv" |
	rl_keep "$rl_w/urg.tsv" hsort -t "$TAB" -k1,1 |
	st tl-aggregate -g gseq:n 'ex_UID=first:UID' 'operation_count=count:UID' \
	    'sum:dur' 'mean:dur' 'std:dur' 'gf=first:gf' 'dm=first:dm' 'fb=first:fb' 'spec=first:spec' 'rb=first:rb' \
	    'mean:tbs' 'std:tbs' 'mean:tfs' 'std:tfs' 'mean:kt' 'std:kt' 'sum:kt' 'median:dur' 'min:dur' 'max:dur' \
	    'median:tbs' 'min:tbs' 'max:tbs' 'median:tfs' 'min:tfs' 'max:tfs' 'rt=first:rt' \
	    'mean:pr' 'median:pr' 'std:pr' 'min:pr' 'max:pr' 'median:kt' 'min:kt' 'max:kt' \
	    'kstats:kd' 'ktrunc:kd' 'params=first:params' 'has=first:has' |
	# (each group's keys after its first three columns: gk.tsv's
	# groups, as Python literals, one per line of the statistics)
	st awk -F '\t' -v OFS='\t' -v gk="$rl_w/gk.tsv" '
	{
		if ((getline l <gk) <= 0) { print "tl-report: unified: a group without its keys" >"/dev/stderr"; exit 1 }
		i = index(l, "\t")
		if (NR > 1 && substr(l, 1, i - 1) != $1) { print "tl-report: unified: the keys of another group" >"/dev/stderr"; exit 1 }
		n = 0
		for (k = 1; k <= 3; k++) n += index(substr($0, n + 1), "\t")
		print substr($0, 1, n) substr(l, i + 1) "\t" substr($0, n + 1)
	}' |
	st hsort -t "$TAB" -k27,27gr -k2,2n >"$rl_w/ug.tsv"; ok
	rm -f "$rl_w/rx.tsv" "$rl_w/ry.tsv" "$rl_w/k1.tsv" "$rl_w/gk.tsv"
	[ "$(wc -l <"$rl_w/ug.tsv")" -gt 1 ] || return 0
	# pandas keeps an all-integer duration column integer.
	rl_fdur=$(cat "$rl_w/fdur")
	st awkx '
	NR == 1 { next }
	{ n++; row[n] = $0; v[n] = $27 + 0; if ($16 != "") hasm = 1; if ($20 != "") hasr = 1 }
	END {
		# a metric column exists only when some row has the metric
		o = "name,op category,process_name,process_label,thread_name,Input Dims,Input type,Input Strides,Concrete Inputs,ex_UID,operation_count,total_duration_us,mean_duration_us,std_duration_us"
		if (hasm) o = o ",GFLOPS,Data Moved (MB),FLOPS/Byte,Compute Spec"
		if (hasr) o = o ",Roofline Bound"
		if (hasm) o = o ",TB/s_mean,TB/s_std,TFLOPS/s_mean,TFLOPS/s_std"
		o = o ",Kernel Time (µs)_mean,Kernel Time (µs)_std,Kernel Time (µs)_sum,duration_us_median,duration_us_min,duration_us_max"
		if (hasm) o = o ",TB/s_median,TB/s_min,TB/s_max,TFLOPS/s_median,TFLOPS/s_min,TFLOPS/s_max"
		if (hasr) o = o ",Roofline Time (µs)_first,Pct Roofline_mean,Pct Roofline_median,Pct Roofline_std,Pct Roofline_min,Pct Roofline_max"
		print o ",Kernel Time (µs)_median,Kernel Time (µs)_min,Kernel Time (µs)_max,kernel_details_summary,trunc_kernel_details,perf_params,has_perf_model,Percentage (%),Cumulative Percentage (%)"
		tot = pwsum(v, 1, n)
		for (r = 1; r <= n; r++) {
			split(row[r], f, "\t")
			if (f[19] == "\001") f[19] = ""
			o = cell(f[4]) "," cell(f[5]) "," cell(f[6]) "," cell(f[7]) "," cell(f[8])
			o = o "," cell(f[9]) "," cell(f[10]) "," cell(f[11]) "," cell(f[12]) "," f[2] "," f[3]
			o = o "," (fdur ? num(f[13]) : sprintf("%.0f", f[13])) "," num(f[14]) "," num(f[15])
			if (hasm) o = o "," num(f[16]) "," num(f[17]) "," num(f[18]) "," cell(f[19])
			if (hasr) o = o "," cell(f[20])
			for (i = hasm ? 21 : 25; i <= 27; i++) o = o "," num(f[i])
			o = o "," num(f[28]) "," (fdur ? num(f[29]) "," num(f[30]) : f[29] "," f[30])
			if (hasm) for (i = 31; i <= 36; i++) o = o "," num(f[i])
			if (hasr) for (i = 37; i <= 42; i++) o = o "," num(f[i])
			for (i = 43; i <= 45; i++) o = o "," num(f[i])
			o = o "," cell(f[46]) "," cell(f[47]) "," cell(f[48]) "," f[49]
			p = v[r] / tot * 100; cum += p
			print o "," pyrepr(p) "," pyrepr(cum)
		}
	}
	function num(x) { return x == "" ? "" : pyrepr(x + 0) }
	' arch="$rl_arch" fdur="$rl_fdur" "$rl_w/ug.tsv" >"$rl_R/unified_perf_summary.csv"; ok
	[ -n "$rl_kmap" ] || return 0
	# KMAP: each GPU event in a row's kernel list, and the row of
	# unified_perf_summary (1 = first data row) it went to.
	st awk -F '\t' -v OFS='\t' '
	FILENAME == ugf { if (FNR > 1) pos[$1] = FNR - 1; next }
	FILENAME == urgf { if (FNR == 1) { for (i = 1; i <= NF; i++) { if ($i == "UID") uc = i; if ($i == "gseq") gc = i }; next }
		gs[$uc] = $gc; next }
	FILENAME == civf { if ($1 in gs) print $6, pos[gs[$1]]; next }
	($1 in gs) { print $8, pos[gs[$1]] }' ugf="$rl_w/ug.tsv" urgf="$rl_w/urg.tsv" civf="$rl_w/civ.tsv" \
	    "$rl_w/ug.tsv" "$rl_w/urg.tsv" "$rl_w/civ.tsv" "$rl_w/syn.tsv" |
	st $SORT -t "$TAB" -k1,1n >"$rl_kmap"; ok
}
