# See LICENSE file for copyright and license details.
# stage: op_overlap
# --include_overlap_info: what TraceLens's _compute_overlap_info sets on
# each kernel launcher (tl-opoverlap), from its direct kernels (the
# launched ones of gpu.tsv with a launcher, less the communication
# kernels, which TraceLens leaves out of a launcher's list) and the
# lists of overlap.tsv: both by kernel UID, each list after its kernel
# (k 0), which gives it its launcher; then by launcher.  Lists of
# kernels of no launcher go.  op_overlap.tsv, in launcher UID order:
#	UID overlapping_kernel_names overlapping_kernels_details overlap_pct
# in: gpu.tsv overlap.tsv
# out: op_overlap.tsv
# when: kl=1 cpu_ops=1
op_overlap() {
	{
		printf 'UID\tk\tlauncher\tts\tend\tdur\tstream\tname\n'
		st awkt 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["linked"] == 1 && $c["launcher"] != "" &&
		    tolower($c["name"]) !~ /nccl|rccl|cross_device_reduce/ {
			print $c["UID"], 0, $c["launcher"], $c["ts"], "", $c["dur"], "", ""
		}' gpu.tsv &&
		st awkt 'NR > 1 { print $1, $2, "", $4, $5, $6, $7, $8 }' overlap.tsv
	} | st hsort -t "$TAB" -k1,1n -k2,2n |
	st awkt 'NR == 1 { print "launcher", "UID", "k", "ts", "end", "dur", "stream", "name"; next }
	$2 == 0 { u = $1; l = $3; have = 1 }
	have && $1 == u { print l, $1, $2, $4, $5, $6, $7, $8 }' |
	st hsort -t "$TAB" -k1,1n -k2,2n -k3,3n |
	st tl-opoverlap >op_overlap.tsv; ok
}
