# See LICENSE file for copyright and license details.
# stage: perf_bwd
# The backward model of the modelled ops that have backward events of
# their own, with those of their modelled descendants (TraceLens's
# get_subtree_bwd_events): first bwd_pairs.tsv, b TAB X for each op b
# whose forward op is X or below X, where X has a model and a backward
# op of its own, sorted by b, X (one tree in memory at a time); then
# their kernels, and tl-roofline --bwd: the perf sheets' backward rows
# (perf_rows_bwd.tsv), their model columns
# (bwd_metrics.tsv) and the ops (bwd_modelled_ops.tsv, UID order;
# GEMM and the elementwise sheets have no backward table; the
# Normalization ops are modelled for their metrics, with no sheet rows).
# in: forest.tsv fwd_links.tsv fwd_targets.tsv modelled_ops.tsv intervals.tsv walk.tsv gpuev.tsv meta.tsv annotations.tsv
# out: perf_rows_bwd.tsv bwd_metrics.tsv bwd_modelled_ops.tsv
# when: roofline=1 cpu_ops=1 gpu_work=1
perf_bwd() {
	: >perf_rows_bwd.tsv
	[ -s fwd_targets.tsv ] || return 0
	# X below which (or at which) each fwd target lies: x TAB X, by x
	st tl-forest -m pairs forest.tsv | st tl_sort -t "$TAB" -k1,1n >fwd_below.tsv; ok
	# joined with the fwd links on the target: b TAB X
	st awkt -v xa=fwd_below.tsv '
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
	}' fwd_links.tsv |
	st tl_sort -t "$TAB" -k1,1n -k2,2n >bwd_pairs.tsv; ok
	tl_drop fwd_below.tsv
	[ -s bwd_pairs.tsv ] || return 0
	st tl-pick -s -G gpuev.tsv -W walk.tsv -k bwd_pairs.tsv intervals.tsv |
	st perf_kinfo >bwd_kernels.tsv; ok
	# (the X of the pairs, each once: by X, field 2)
	st tl_sort -t "$TAB" -k2,2n -u bwd_pairs.tsv >bwd_ops.tsv; ok
	st awkt '
	function has(f, u,   l, a) {
		while (!(f in eof) && (!(f in cur) || cur[f] < u))
			if ((getline l <f) > 0) { split(l, a, "\t"); cur[f] = a[2] + 0 } else eof[f] = 1
		return (f in cur) && cur[f] == u
	}
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; print; next }
	has(bx, $1 + 0) && $col["sheet"] !~ /^(GEMM|UnaryElementwise|BinaryElementwise)$/' \
	    bx=bwd_ops.tsv modelled_ops.tsv >bwd_modelled_ops.tsv; ok
	# Normalization has no backward rows in its sheet, but its backward
	# metrics make a sole backward op of unified_perf_summary
	perf_model bwd_modelled_ops.tsv bwd_kernels.tsv B bwd_metrics.tsv |
	st awkt 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
	    NR == 1 || $col["sheet"] != "Normalization"' >perf_rows_bwd.tsv; ok
	tl_drop bwd_pairs.tsv bwd_kernels.tsv bwd_ops.tsv
}
