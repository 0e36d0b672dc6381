# See LICENSE file for copyright and license details.
# stage: synthetic
# TraceLens's synthetic ops: each linked, non-communication GPU event
# that no collected op covers, as a copy of its nearest cpu_op (or of
# its runtime call when it has none), named "SOURCE->KERNEL (Synthetic
# Op)".  They are numbered after the trace's last UID: first those of
# runtimes, by runtime (in order of their first event), then the
# others, in GPU event order.  synthetic_ops.tsv: UID src name ts dur
# kname stream gpu; synthetic_kernels.tsv: each one's kernel, as op kt
# kd without a header.
# in: gpu.tsv covered_gpu.tsv trace.facts ops.tsv
# out: synthetic_ops.tsv synthetic_kernels.tsv
# when: roofline=1 cpu_ops=1 gpu_events=1
synthetic() {
	max=$last_uid
	case $max in
	'' | *[!0-9]*) max=$(awk -F '\t' 'NR > 1 && $1 + 0 > m { m = $1 + 0 } END { print m + 0 }' ops.tsv gpu.tsv) ;;
	esac
	: >synthetic_cpu.tsv
	# src name ts dur kname stream gpu (runtime ones: led by the runtime
	# and the GPU event, for the sort)
	st awkt '
	function has(f, u,   l) {
		while (!(f in eof) && (!(f in cur) || cur[f] < u))
			if ((getline l <f) > 0) cur[f] = l + 0; else eof[f] = 1
		return (f in cur) && cur[f] == u
	}
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["linked"] == 1 && !has(covf, $1 + 0) && tolower($col["name"]) !~ /nccl|rccl|cross_device_reduce/ {
		o = $col["ts"] "\t" $col["dur"] "\t" $col["name"] "\t" $col["stream"] "\t" $col["UID"]
		if ($col["cpu_op"] != "") print $col["cpu_op"], $col["cpu_op_name"], o >wf
		else print $col["runtime"], $col["UID"], $col["runtime"], $col["runtime_name"], o
	}' covf=covered_gpu.tsv wf=synthetic_cpu.tsv gpu.tsv |
	st tl_sort -t "$TAB" -k1,1n -k2,2n |
	st awkt '$1 != r { r = $1; f = $2 } { print f, $0 }' |
	st tl_sort -t "$TAB" -k1,1n -k3,3n | st cut -f 4- >synthetic_runtime.tsv; ok
	# UID src name ts dur kname stream gpu
	st awkt -v u="$max" '
	{ print ++u, $1, $2 "->" $5 " (Synthetic Op)", $3, $4, $5, $6, $7 }' \
	    synthetic_runtime.tsv synthetic_cpu.tsv >synthetic_ops.tsv; ok
	rm -f synthetic_runtime.tsv synthetic_cpu.tsv
	# (the synthetic UIDs come after the trace's: in order)
	awkt '{ print $1, $4, $5, $6, $7, $8 }' synthetic_ops.tsv |
	st perf_kinfo | sed 1d >synthetic_kernels.tsv; ok
}
