# See LICENSE file for copyright and license details.
# sheet: perf_sheets
# TraceLens's perf-model sheets, one per sheet category of tl-roofline's
# models: GEMM.csv, UnaryElementwise.csv, BinaryElementwise.csv and
# Normalization.csv, and the forward and backward sheets of the others:
# SDPA_fwd.csv SDPA_bwd.csv CONV_fwd.csv CONV_bwd.csv Reduce_fwd.csv
# Reduce_bwd.csv RMSNorm_fwd.csv RMSNorm_bwd.csv GroupQuant_fwd.csv
# GroupQuant_bwd.csv GroupedGEMM_fwd.csv GroupedGEMM_bwd.csv
# MoE_comm_fwd.csv MoE_comm_bwd.csv SSM_fwd.csv SSM_bwd.csv RoPE_fwd.csv
# RoPE_bwd.csv CrossEntropy_fwd.csv CrossEntropy_bwd.csv
# MoE_fused_fwd.csv MoE_fused_bwd.csv MoE_unfused_fwd.csv
# MoE_unfused_bwd.csv MoE_aux_fwd.csv MoE_aux_bwd.csv
# elementwise_fwd.csv elementwise_bwd.csv FusedRoPE_fwd.csv
# FusedRoPE_bwd.csv CustomCollective_fwd.csv CustomCollective_bwd.csv
# mHC_fwd.csv mHC_bwd.csv InferenceAttention_fwd.csv
# InferenceAttention_bwd.csv (a sheet only when some op has its model).
# The model rows grouped by (table, name, params): TraceLens groups on
# str() of each param, which the params literal determines.
# in: perf_rows.tsv perf_rows_bwd.tsv
# out: GEMM.csv UnaryElementwise.csv BinaryElementwise.csv Normalization.csv SDPA_fwd.csv SDPA_bwd.csv CONV_fwd.csv CONV_bwd.csv
# when: roofline=1 cpu_ops=1 gpu_events=1
perf_sheets() {
	if [ -n "$arch" ]; then
		set -- 'rt_first=first:Roofline Time (µs)' 'rb_first=first:Roofline Bound' \
		    'pr_mean=mean:Pct Roofline' 'pr_median=median:Pct Roofline' 'pr_std=std:Pct Roofline' \
		    'pr_min=min:Pct Roofline' 'pr_max=max:Pct Roofline'
	else
		set --
	fi
	# (grouped by a hash of the keys: the groups are ordered by UID_first after)
	# (the two files as one, one header)
	awk 'FNR > 1 || NR == 1' perf_rows.tsv perf_rows_bwd.tsv |
	st tl-aggregate -g kind,sheet,name,params -K UID:n |
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
	st hsort -t "$TAB" -k5,5n >perf_groups.tsv; ok

	# Lay the tables out as sheets (in memory: one row per group).
	st awk -F '\t' -v OFS='\t' "$TL_AWKLIB$PERF_AWK"'
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
	' arch="$(perf_archopt)" perf_groups.tsv |
	st tl_sort -t "$TAB" -k1,1 -k2,2n -k3,3gr -k4,4n >perf_sheet_rows.tsv; ok
	st awk -F '\t' -v R="$R" '
	$1 != cur { if (cur != "") close(f); cur = $1; f = R "/" $1 ".csv" }
	{ print $5 >f }' perf_sheet_rows.tsv; ok
	tl_drop perf_groups.tsv perf_sheet_rows.tsv
}

PERF_AWK='
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
