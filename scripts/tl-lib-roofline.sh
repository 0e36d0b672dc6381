# tl-lib-roofline.sh: the perf-model sheets of tl-report (GEMM, SDPA_fwd,
# SDPA_bwd, CONV_fwd, CONV_bwd, UnaryElementwise, BinaryElementwise,
# Normalization, Reduce_fwd, Reduce_bwd ...), made from the tree stage's
# files with tl-roofline(1), sort and tl-aggregate(1).  Sourced by
# tl-report, which calls tl_roofline_stage TREEDIR REPORTDIR; the
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

# rl_ivkind KIND KEYS: the intervals of $rl_T/intervals.tsv of kind KIND
# (s: subtree, d: direct) of the ops listed in KEYS (op TAB tag, sorted by
# op numerically; an op may have several tags), as tag ts dur name stream
# gpu records without header.  A merge join: memory is one op's tags.
rl_ivkind() {
	awk -F '\t' -v OFS='\t' -v keys="$2" -v kind="$1" '
	function more(   l, f) {
		if ((getline l <keys) <= 0) { kop = -1; return 0 }
		split(l, f, "\t"); kop = f[1] + 0; ktag = f[2]; return 1
	}
	BEGIN { if (!more()) exit; op = -1 }
	NR == 1 || $2 != kind { next }
	{
		o = $1 + 0
		if (o != op) {
			op = o; nt = 0
			while (kop >= 0 && kop < o) more()
			while (kop == o) { tag[++nt] = ktag; if (!more()) break }
			if (kop < 0 && nt == 0) exit
		}
		for (i = 1; i <= nt; i++) print tag[i], $3, $4, $6, $7, $5
	}' "$rl_T/intervals.tsv"
}

# rl_kinfo: tag ts dur name stream gpu records on stdin (any order) ->
# tag kt kd, one per tag: the busy time and kernel list (ts order).
rl_kinfo() {
	{ printf 'tag\tts\tdur\tname\tstream\tgpu\n'
	  $SORT -t "$TAB" -k1,1n -k2,2n -k6,6n; } |
	tl-aggregate -g tag:n 'kt=union:ts,dur' 'kd=list:name,dur,stream'
}

# rl_model OPS KINFO [--bwd]: the op records of OPS (UID order) with
# their process and thread names, kernel time and kernel list (KINFO,
# tag order; ops without one get time 0 and no kernels), through
# tl-roofline.  Writes the ok rows as pre-aggregation records.
rl_model() {
	rl_o=$1 rl_k=$2 rl_kind=${3:-}
	st awkx '
	FILENAME == meta { if (FNR > 1) m[$1 SUBSEP $2 SUBSEP $3] = $4; next }
	FNR == 1 {
		header()
		print "UID", "name", "process_name", "process_label", "thread_name",
		    "Input Dims", "Input type", "Input Strides", "Concrete Inputs",
		    "Kernel Time (µs)", "kernel_names"
		getline kl <kin
		next
	}
	{
		u = $col["UID"] + 0
		while (kh == 0 || ku < u) {
			if ((getline kl <kin) <= 0) { ku = 1e300; kh = 1; break }
			split(kl, k, "\t"); ku = k[1] + 0; kh = 1
		}
		pid = $col["pid"]; tid = $col["tid"]
		pn = (pid SUBSEP 0 SUBSEP "process_name") in m ? m[pid, 0, "process_name"] : "Unknown"
		pl = (pid SUBSEP 0 SUBSEP "process_labels") in m ? m[pid, 0, "process_labels"] : "Unknown"
		tn = (pid SUBSEP tid SUBSEP "thread_name") in m ? m[pid, tid, "thread_name"] : "Unknown"
		print $col["UID"], $col["name"], pn, pl, tn, $col["Input Dims"], $col["Input type"],
		    $col["Input Strides"], $col["Concrete Inputs"], (ku == u ? k[2] : 0), (ku == u ? k[3] : "")
	}' meta="$rl_T/meta.tsv" kin="$rl_k" "$rl_T/meta.tsv" "$rl_o" |
	st tl-roofline $rl_arch ${rl_kind:+--bwd} | st tee "$rl_w/full${rl_kind:-F}.tsv" |
	st awkx '
	NR == 1 {
		header()
		printf "kind\tsheet\tname\tparams\tUID\tgf\tdm\tfb\ttbs\ttfs\tpn\tpl\ttn\tspec"
		if (arch) printf "\trt\trb\tpr"
		print "\tkd\tdims\ttypes\tstrides\tconc\tkt"
		next
	}
	$col["model_status"] == "ok" {
		o = kind "\t" $col["sheet"] "\t" $col["name"] "\t" $col["params"] "\t" $col["UID"]
		o = o "\t" $col["GFLOPS"] "\t" $col["Data Moved (MB)"] "\t" $col["FLOPS/Byte"]
		o = o "\t" $col["TB/s"] "\t" $col["TFLOPS/s"] "\t" $col["process_name"]
		o = o "\t" $col["process_label"] "\t" $col["thread_name"] "\t" $col["Compute Spec"]
		if (arch) o = o "\t" $col["Roofline Time (µs)"] "\t" $col["Roofline Bound"] "\t" $col["Pct Roofline"]
		o = o "\t" $col["kernel_names"] "\t" $col["Input Dims"] "\t" $col["Input type"]
		o = o "\t" $col["Input Strides"] "\t" $col["Concrete Inputs"] "\t" $col["Kernel Time (µs)"]
		print o
	}' kind="${rl_kind:-F}" arch="$rl_arch"
}

tl_roofline_stage() {
	rl_T=$1 rl_R=$2
	rl_w=$(mktemp -d "${TMPDIR:-/tmp}/rl.XXXXXX") || return 1
	rl_arch=
	[ -n "${TL_GPU_ARCH:-}" ] && rl_arch="--gpu-arch=$TL_GPU_ARCH"

	# The ops that have a perf model (UID order) and their kernels.
	st tl-roofline -m "$rl_T/ops.tsv" >"$rl_w/m.tsv"; ok
	st awk -F '\t' 'NR > 1 { print $1 "\t" $1 }' "$rl_w/m.tsv" >"$rl_w/mk.tsv"; ok
	rl_ivkind s "$rl_w/mk.tsv" | st rl_kinfo >"$rl_w/mki.tsv"; ok
	rl_model "$rl_w/m.tsv" "$rl_w/mki.tsv" >"$rl_w/pre.tsv"; ok

	# Backward: the bwd events of each modelled op that has its own,
	# with those of its modelled descendants' (TraceLens's
	# get_subtree_bwd_events): X TAB b pairs, sorted by b.
	rl_c=$(awk -F '\t' '{ for (i = 1; i <= NF; i++) c[$i] = i
	    print c["UID"] "," c["cat"] "," c["parent"] "," c["fwd"]; exit }' "$rl_T/ops.tsv")
	cut -f "$rl_c" "$rl_T/ops.tsv" |
	st awk -F '\t' -v OFS='\t' '
	FILENAME == mf { if (FNR > 1) M[$1]; next }
	FNR == 1 { next }
	{
		# UID cat parent fwd (cut keeps the file order of these columns)
		if ($2 != "cuda_runtime" && $2 != "cuda_driver" && $3 != "") par[$1] = $3
		if ($4 != "") { nb++; bb[nb] = $1; bf[nb] = $4; own[$4] }
	}
	END {
		for (i = 1; i <= nb; i++)
			for (a = bf[i]; a != ""; a = (a in par) ? par[a] : "")
				if ((a in M) && (a in own)) print bb[i], a
	}' mf="$rl_w/m.tsv" "$rl_w/m.tsv" - |
	st $SORT -t "$TAB" -k1,1n -k2,2n >"$rl_w/bk.tsv"; ok
	if [ -s "$rl_w/bk.tsv" ]; then
		rl_ivkind s "$rl_w/bk.tsv" | st rl_kinfo >"$rl_w/bki.tsv"; ok
		# The modelled ops with their own bwd events, UID order.
		# (GEMM, the elementwise and norm sheets have no bwd table)
		st awkx 'FILENAME == bk { own[$2]; next }
		FNR == 1 { header(); print; next }
		($1 in own) && $col["sheet"] !~ /^(GEMM|UnaryElementwise|BinaryElementwise|Normalization)$/' \
		    bk="$rl_w/bk.tsv" "$rl_w/bk.tsv" "$rl_w/m.tsv" >"$rl_w/mb.tsv"; ok
		rl_model "$rl_w/mb.tsv" "$rl_w/bki.tsv" B | sed 1d >>"$rl_w/pre.tsv"; ok
	fi

	# Group by (table, name, params): TraceLens groups on str() of each
	# param, which the params literal determines.
	if [ "$rl_arch" ]; then
		rl_ra="rt_first=first:rt rb_first=first:rb pr_mean=mean:pr pr_median=median:pr pr_std=std:pr pr_min=min:pr pr_max=max:pr"
	else
		rl_ra=
	fi
	st hsort -s -t "$TAB" -k1,4 <"$rl_w/pre.tsv" |
	st tl-aggregate -g kind,sheet,name,params 'UID_first=first:UID' \
	    'gf=first:gf' 'dm=first:dm' 'fb=first:fb' \
	    'mean:tbs' 'median:tbs' 'std:tbs' 'min:tbs' 'max:tbs' \
	    'mean:tfs' 'median:tfs' 'std:tfs' 'min:tfs' 'max:tfs' \
	    'first:pn' 'first:pl' 'first:tn' 'first:spec' $rl_ra \
	    'kstats:kd' 'ktrunc:kd' 'first:dims' 'first:types' 'first:strides' 'first:conc' \
	    'mean:kt' 'median:kt' 'std:kt' 'min:kt' 'max:kt' 'sum:kt' 'count:UID' |
	st hsort -t "$TAB" -k5,5n >"$rl_w/agg.tsv"; ok

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
	{ print $5 >f }' "$rl_w/rows.tsv"; ok
	rl_unified
	rm -rf "$rl_w"
	return 0
}

# rl_unified: unified_perf_summary (TraceLens's collect_unified_perf_events
# and summarize_df_unified_perf_table), after the perf sheets (it reuses
# their model runs: $rl_w/fullF.tsv, fullB.tsv, mki.tsv).
# Memory: the host tree's cpu_ops are held in awk for the walk (a
# tree-walk mode of tl-tree would make this one subtree at a time).
rl_unified() {
	# Ops with a communication kernel below them (never collected as leaves).
	st awk -F '\t' 'NR > 1 && $2 == "s" && tolower($6) ~ /nccl|rccl|cross_device_reduce/ && !($1 in s) { s[$1]; print $1 }' \
	    "$rl_T/intervals.tsv" >"$rl_w/nc.tsv"; ok
	# Fwd ops whose bwd metrics TraceLens computes (and a bwd category).
	: >"$rl_w/sbok.tsv"
	[ -f "$rl_w/fullB.tsv" ] && { st awkx 'NR == 1 { header(); next }
	$col["model_status"] == "ok" && $col["op category"] != "" { print $col["UID"] }' \
	    "$rl_w/fullB.tsv" >"$rl_w/sbok.tsv"; ok; }
	# The tree the walk needs: host events with GPU work below them
	# (the others are never visited): UID cat name parent ngpu fwd cpu_root.
	rl_c=$(awk -F '\t' '{ for (i = 1; i <= NF; i++) c[$i] = i
	    print c["UID"] "," c["cat"] "," c["name"] "," c["parent"] "," c["ngpu"] "," c["fwd"] "," c["cpu_root"]; exit }' "$rl_T/ops.tsv")
	cut -f "$rl_c" "$rl_T/ops.tsv" | st awk -F '\t' 'NR > 1 && $5 > 0' >"$rl_w/tree.tsv"; ok
	# The walk: collected ops: UID type fwd
	# (type P: own model, S: sole bwd op of a modelled fwd op, O: other).
	st awkx '
	FILENAME == mf { if (FNR == 1) { for (i = 1; i <= NF; i++) if ($i == "name") nc = i } else PMN[$nc]; next }
	FILENAME == sbf { BOK[$1]; next }
	FILENAME == ncf { NC[$1]; next }
	{
		u = $1; c = $2; p = $4
		if (c == "cuda_runtime") { if (p != "") RK[p] = 1; next }
		if (c != "cpu_op") next
		nm[u] = $3; ng[u] = $5 + 0
		if (p != "") { par[u] = p; kids[p] = kids[p] " " u }
		if ($6 != "") fw[u] = $6
		if ($7 == 1) root[++nroot] = u
	}
	# the children of u in ch[1..n] (a fresh array per call frame)
	function kidsof(u, ch) { return (u in kids) ? split(kids[u], ch, " ") : 0 }
	# a cpu_op strictly below u has a model and GPU work
	function desc(u) { return u in SD }
	function count(w, main,   i, v, n, ch, nc) {
		n = 0; nc = kidsof(w, ch)
		for (i = 1; i <= nc; i++) {
			v = ch[i]
			if (ng[v] > 0 && (main == "" || nm[v] == main)) n++
			n += count(v, main)
		}
		return n
	}
	function sole(u,   p, i, w, f, main, k) {
		p = (u in par) ? par[u] : ""; w = ""
		for (i = 0; i < 5 && p != "" && (p in nm); i++) {
			if (p in fw) { w = p; break }
			p = (p in par) ? par[p] : ""
		}
		if (w == "") return ""
		f = fw[w]
		if (!(f in nm) || !(nm[f] in PMN) || !(f in BOK)) return ""
		main = ""; k = index(nm[w], ": ")
		if (k) main = substr(nm[w], k + 2)
		if (!((w, main) in SC)) SC[w, main] = count(w, main)
		return SC[w, main] == 1 ? f : ""
	}
	function walk(u,   i, f, v, n, pm, ch, nc) {
		if (!(ng[u] > 0)) return
		if (nm[u] in PMN) { print u, "P", ""; return }
		nc = kidsof(u, ch)
		if ((f = sole(u)) != "") {
			if (desc(u)) { for (i = 1; i <= nc; i++) walk(ch[i]); return }
			print u, "S", f; return
		}
		if (desc(u)) { for (i = 1; i <= nc; i++) walk(ch[i]); return }
		if (u in RK) {
			n = 0
			for (i = 1; i <= nc; i++) { v = ch[i]; if ((nm[v] in PMN) && ng[v] > 0) pm[++n] = v }
			if (n) { for (i = 1; i <= n; i++) walk(pm[i]); return }
			if (!(u in NC)) print u, "O", ""
			return
		}
		for (i = 1; i <= nc; i++) walk(ch[i])
	}
	END {
		for (u in ng)
			if (nm[u] in PMN)
				for (a = (u in par) ? par[u] : ""; a != "" && !(a in SD); a = (a in par) ? par[a] : "")
					SD[a] = 1
		for (i = 1; i <= nroot; i++) walk(root[i])
	}' mf="$rl_w/m.tsv" sbf="$rl_w/sbok.tsv" ncf="$rl_w/nc.tsv" \
	    "$rl_w/m.tsv" "$rl_w/sbok.tsv" "$rl_w/nc.tsv" "$rl_w/tree.tsv" >"$rl_w/col.tsv"; ok
	# GPU events under a collected op.
	st awk -F '\t' '{ print $1 "\t" $1 }' "$rl_w/col.tsv" | st $SORT -t "$TAB" -k1,1n >"$rl_w/ck.tsv"; ok
	rl_ivkind s "$rl_w/ck.tsv" >"$rl_w/civ.tsv"
	st awk -F '\t' '{ print $6 }' "$rl_w/civ.tsv" | st $SORT -n -u >"$rl_w/cov.tsv"; ok
	# Synthetic ops: each other linked, non-communication GPU event, as
	# a copy of its nearest cpu_op (or its runtime when it has none).
	rl_max=$(tail -n 1 "${w:-.}/events.tsv" 2>/dev/null | cut -f1)
	case $rl_max in ''|*[!0-9]*) rl_max=$(awk -F '\t' 'NR > 1 && $1 + 0 > m { m = $1 + 0 } END { print m + 0 }' "$rl_T/ops.tsv" "$rl_T/gpu.tsv") ;; esac
	st awkx '
	FILENAME == covf { cov[$1]; next }
	FNR == 1 { header(); next }
	$col["linked"] == 1 && !($1 in cov) && tolower($col["name"]) !~ /nccl|rccl|cross_device_reduce/ {
		if ($col["cpu_op"] != "") { nw++; wk[nw] = $0; wp[nw] = $col["cpu_op"]; wn[nw] = $col["cpu_op_name"] }
		else {
			p = $col["runtime"]
			if (!(p in og)) { og[p] = ++nog; ogp[nog] = p }
			oc[p, ++on[p]] = $0; opn[p] = $col["runtime_name"]
		}
	}
	END {
		u = max
		for (i = 1; i <= nog; i++) { p = ogp[i]; for (j = 1; j <= on[p]; j++) out(++u, p, opn[p], oc[p, j]) }
		for (i = 1; i <= nw; i++) out(++u, wp[i], wn[i], wk[i])
	}
	function out(u, p, pn, l,   f) {
		split(l, f, "\t")
		# UID src name ts dur kname stream gpu
		print u, p, pn "->" f[col["name"]] " (Synthetic Op)", f[col["ts"]], f[col["dur"]],
		    f[col["name"]], f[col["stream"]], f[col["UID"]]
	}' covf="$rl_w/cov.tsv" max="$rl_max" "$rl_w/cov.tsv" "$rl_T/gpu.tsv" >"$rl_w/syn.tsv"; ok
	# Kernel time and list of every row (collected: its subtree; synthetic:
	# its kernel), and the first direct kernel of each source op.
	{ cat "$rl_w/civ.tsv"; awk -F '\t' -v OFS='\t' '{ print $1, $4, $5, $6, $7, $8 }' "$rl_w/syn.tsv"; } |
	    st rl_kinfo >"$rl_w/cki.tsv"; ok
	{ cat "$rl_w/ck.tsv"; awk -F '\t' -v OFS='\t' '{ print $2, $2 }' "$rl_w/syn.tsv"; } |
	    st $SORT -t "$TAB" -k1,1n -u >"$rl_w/sk.tsv"; ok
	rl_ivkind d "$rl_w/sk.tsv" | st $SORT -t "$TAB" -k1,1n -k2,2n -k6,6n | st awk -F '\t' '$1 != p { p = $1; print $1 "\t" $4 }' >"$rl_w/k1.tsv"; ok
	# One row per op: seq UID src type fwd name (synthetic names replace).
	st awk -F '\t' -v OFS='\t' 'FILENAME == sf { print ++n, $1, $2, "Y", "", $3; next }
	{ print ++n, $1, $1, $2, $3, "" }' sf="$rl_w/syn.tsv" "$rl_w/col.tsv" "$rl_w/syn.tsv" |
	st $SORT -t "$TAB" -k3,3n >"$rl_w/rows0.tsv"; ok
	# Join the source op fields (ops.tsv, UID order), metrics and kernels.
	st awkx '
	FILENAME == meta { if (FNR > 1) m[$1 SUBSEP $2 SUBSEP $3] = $4; next }
	FILENAME == fF || FILENAME == fB {
		if (FNR == 1) { for (i = 1; i <= NF; i++) hc[FILENAME, $i] = i; next }
		u = $hc[FILENAME, "UID"]
		st = $hc[FILENAME, "model_status"]
		v = st
		split("GFLOPS|Data Moved (MB)|FLOPS/Byte|TB/s|TFLOPS/s|Compute Spec|params|op category|Kernel Time (µs)", nn, "|")
		for (i = 1; i <= 9; i++) v = v "\t" $hc[FILENAME, nn[i]]
		if (arch) v = v "\t" $hc[FILENAME, "Roofline Time (µs)"] "\t" $hc[FILENAME, "Roofline Bound"] "\t" $hc[FILENAME, "Pct Roofline"]
		if (FILENAME == fF) MF[u] = v; else MB[u] = v
		next
	}
	FILENAME == kif { if (FNR > 1) { KT[$1] = $2; KD[$1] = $3 } next }
	FILENAME == k1f { K1[$1] = $2; next }
	FILENAME == rf { nr++; R[nr] = $0; RS3[nr] = $3 + 0; next }
	FNR == 1 {
		header(); r = 1
		print "cls", "ts", "UID", "name", "k1", "process_name", "process_label", "thread_name",
		    "Input Dims", "Input type", "Input Strides", "Concrete Inputs", "dur",
		    "has", "status", "gf", "dm", "fb", "tbs", "tfs", "spec", "params", "bcat", "kt", "kd", "rt", "rb", "pr"
		next
	}
	{
		# (no field splitting for the ops not wanted: most of them)
		u = substr($0, 1, index($0, "\t") - 1) + 0
		if (r > nr || RS3[r] > u) next
		split($0, F, "\t")
		while (r <= nr && RS3[r] <= u) {
			if (RS3[r] == u) { split(R[r], f, "\t"); row(f) }
			r++
		}
	}
	function row(f,   pid, tid, pn, pl, tn, name, t, v, x, n, has, o, kt, i) {
		pid = F[col["pid"]]; tid = F[col["tid"]]
		pn = (pid SUBSEP 0 SUBSEP "process_name") in m ? m[pid, 0, "process_name"] : "Unknown"
		pl = (pid SUBSEP 0 SUBSEP "process_labels") in m ? m[pid, 0, "process_labels"] : "Unknown"
		tn = (pid SUBSEP tid SUBSEP "thread_name") in m ? m[pid, tid, "thread_name"] : "Unknown"
		t = f[4]; name = t == "Y" ? f[6] : F[col["name"]]
		n = 0; has = "False"; kt = (f[2] in KT) ? KT[f[2]] : ""
		for (i = 1; i <= 13; i++) x[i] = ""
		if (t == "P") {
			has = "True"
			n = split(MF[f[2]], x, "\t")
			if (x[1] == "undefined") return
			if (x[1] == "ok") kt = x[10]
			else { for (i = 2; i <= 13; i++) x[i] = "" }
		} else if (t == "S") {
			has = "True"
			n = split(MB[f[5]], x, "\t")
			kt = x[10]
		}
		o = (t == "Y" ? "1\t0" : "0\t" F[col["ts"]]) "\t" f[2] "\t" name "\t" ((f[3] in K1) ? K1[f[3]] : "") "\t" pn "\t" pl "\t" tn
		o = o "\t" F[col["Input Dims"]] "\t" F[col["Input type"]] "\t" F[col["Input Strides"]] "\t" F[col["Concrete Inputs"]] "\t" F[col["dur"]]
		o = o "\t" has "\t" x[1]
		for (i = 2; i <= 8; i++) o = o "\t" x[i]
		o = o "\t" (t == "S" ? x[9] : "") "\t" kt "\t" ((f[2] in KD) ? KD[f[2]] : "")
		o = o "\t" x[11] "\t" x[12] "\t" x[13]
		print o
	}' meta="$rl_T/meta.tsv" fF="$rl_w/fullF.tsv" fB="$rl_w/fullB.tsv" kif="$rl_w/cki.tsv" k1f="$rl_w/k1.tsv" \
	    rf="$rl_w/rows0.tsv" arch="$rl_arch" \
	    "$rl_T/meta.tsv" "$rl_w/fullF.tsv" $( [ -f "$rl_w/fullB.tsv" ] && echo "$rl_w/fullB.tsv") \
	    "$rl_w/cki.tsv" "$rl_w/k1.tsv" "$rl_w/rows0.tsv" "$rl_T/ops.tsv" |
	st awk -F '\t' -v OFS='\t' '{ print (NR == 1 ? "rn" : NR - 1), $0 }' >"$rl_w/uw.tsv"; ok
	# TraceLens's op category of each row (by name and first kernel).
	cut -f 1,5,6 "$rl_w/uw.tsv" | st tl-aggregate -g rn:n 'op category=opcat:name,k1' |
	    st cut -f 2 >"$rl_w/ucat.tsv"; ok
	st paste "$rl_w/uw.tsv" "$rl_w/ucat.tsv" >"$rl_w/urows.tsv"; ok
	[ "$(wc -l <"$rl_w/urows.tsv")" -gt 1 ] || return 0
	# pandas keeps an all-integer duration column integer.
	rl_fdur=$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "dur") c = i; next }
	    $c ~ /[.eE]/ { f = 1; exit } END { print f + 0 }' "$rl_w/urows.tsv")
	# Group on the nine keys; in a group, rows in TraceLens's order
	# (collected ops by ts, then the synthetic ones): ex_UID is the first.
	st awkx 'NR == 1 { header(); print "gseq", $0; next }
	{
		if ($col["bcat"] != "") $col["op category"] = $col["bcat"]
		if ($col["spec"] == "" && $col["status"] != "ok") $col["spec"] = "\001"
		k = $col["name"] "\t" $col["op category"] "\t" $col["process_name"] "\t" $col["process_label"] "\t" $col["thread_name"] "\t" $col["Input Dims"] "\t" $col["Input type"] "\t" $col["Input Strides"] "\t" $col["Concrete Inputs"]
		if (!(k in g)) g[k] = ++n
		print g[k], $0
	}' "$rl_w/urows.tsv" |
	st hsort -t "$TAB" -k1,1n -k3,3n -k4,4n -k5,5n |
	st tl-aggregate -g gseq:n 'ex_UID=first:UID' 'operation_count=count:UID' 'name=first:name' 'cat=first:op category' \
	    'pn=first:process_name' 'pl=first:process_label' 'tn=first:thread_name' \
	    'd=pylit:Input Dims' 't=pylit:Input type' 's=pylit:Input Strides' 'c=pylit:Concrete Inputs' \
	    'sum:dur' 'mean:dur' 'std:dur' 'gf=first:gf' 'dm=first:dm' 'fb=first:fb' 'spec=first:spec' 'rb=first:rb' \
	    'mean:tbs' 'std:tbs' 'mean:tfs' 'std:tfs' 'mean:kt' 'std:kt' 'sum:kt' 'median:dur' 'min:dur' 'max:dur' \
	    'median:tbs' 'min:tbs' 'max:tbs' 'median:tfs' 'min:tfs' 'max:tfs' 'rt=first:rt' \
	    'mean:pr' 'median:pr' 'std:pr' 'min:pr' 'max:pr' 'median:kt' 'min:kt' 'max:kt' \
	    'kstats:kd' 'ktrunc:kd' 'params=first:params' 'has=first:has' |
	st hsort -t "$TAB" -k27,27gr -k2,2n >"$rl_w/ug.tsv"; ok
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
}
