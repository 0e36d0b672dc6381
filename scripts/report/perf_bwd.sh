# See LICENSE file for copyright and license details.
# stage: perf_bwd
# The backward model of the modelled ops that have backward events of
# their own, with those of their modelled descendants (bwd_pairs.tsv):
# their kernels, then tl-roofline --bwd: the perf sheets' backward rows
# (perf_rows_bwd.tsv, without a header), their model columns
# (bwd_metrics.tsv) and the ops (bwd_modelled_ops.tsv, UID order;
# GEMM, the elementwise and norm sheets have no backward table).
# in: bwd_pairs.tsv modelled_ops.tsv intervals.tsv gpuev.tsv meta.tsv annotations.tsv
# out: perf_rows_bwd.tsv bwd_metrics.tsv bwd_modelled_ops.tsv
# when: roofline=1 cpu_ops=1 gpu_events=1
perf_bwd() {
	: >perf_rows_bwd.tsv
	[ -s bwd_pairs.tsv ] || return 0
	st tl-tree -m subtree -G gpuev.tsv -k bwd_pairs.tsv intervals.tsv |
	st perf_kinfo >bwd_kernels.tsv; ok
	cut -f 2 bwd_pairs.tsv | st tl_sort -n -u >bwd_ops.tsv; ok
	st awkt '
	function has(f, u,   l) {
		while (!(f in eof) && (!(f in cur) || cur[f] < u))
			if ((getline l <f) > 0) cur[f] = l + 0; else eof[f] = 1
		return (f in cur) && cur[f] == u
	}
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; print; next }
	has(bx, $1 + 0) && $col["sheet"] !~ /^(GEMM|UnaryElementwise|BinaryElementwise|Normalization)$/' \
	    bx=bwd_ops.tsv modelled_ops.tsv >bwd_modelled_ops.tsv; ok
	perf_model bwd_modelled_ops.tsv bwd_kernels.tsv B bwd_metrics.tsv | sed 1d >perf_rows_bwd.tsv; ok
	rm -f bwd_kernels.tsv bwd_ops.tsv
}
