# See LICENSE file for copyright and license details.
# helpers: the functions two or more perf-model stages share.

# perf_kinfo: tag ts dur name stream gpu records on stdin (any order)
# -> tag kt kd kn, one per tag: the busy time, kernel list (ts order)
# and number of kernels (tl-pick -b's fields).
perf_kinfo() {
	{ printf 'tag\tts\tdur\tname\tstream\tgpu\n'
	  tl_sort -t "$TAB" -k1,1n -k2,2n -k6,6n; } |
	tl-aggregate -g tag:n 'kt=union:ts,dur' 'kd=list:name,dur,stream' 'kn=count'
}

# perf_model OPS KINFO KIND METRICS [FWDARGS]: the op records of OPS (UID order)
# with their process and thread names (meta.tsv), kernel time, kernel
# list and number of kernels (KINFO, tag order; ops without one get
# time 0, no kernels and num_kernels 0)
# and annotation (annotations.tsv; empty for ops without one), through
# tl-roofline (--bwd for KIND B).  Writes the sheet rows (kind F or B,
# the input columns, the model columns), and the model columns of every
# op to METRICS.  FWDARGS, a file with records: tl-roofline's
# --fwd-args (the args of the forward ops of ConvBias_Backward ...).
perf_model() {
	# tl-roofline's options: --gpu-arch with a GPU spec, --bwd for B
	# (set here, not by command substitutions: each is a process)
	_pm_arch= _pm_bwd= _pm_fwd=
	[ -z "$arch" ] || _pm_arch=--gpu-arch=$arch
	[ "$3" != B ] || _pm_bwd=--bwd
	[ -z "${5:-}" ] || ! tl_rows "$5" || _pm_fwd=--fwd-args=$5
	# (tl-perfops: the ops joined with their names, kernels and
	# annotation)
	st tl-perfops -t "$3" -m meta.tsv -k "$2" -a annotations.tsv "$1" |
	# (a model with no sheet, such as Triton's, is for unified_perf_summary only)
	st tl-roofline ${_pm_arch:+"$_pm_arch"} $_pm_bwd ${_pm_fwd:+"$_pm_fwd"} \
	    --sheet-rows --metrics "$4"
}

# PERF_HAS: awk's has(f, u): u is in the file f of UIDs, one a line,
# ascending (a merge join: calls come in ascending u).
PERF_HAS='
function has(f, u,   l) {
	while (!(f in eof) && (!(f in cur) || cur[f] < u))
		if ((getline l <f) > 0) cur[f] = l + 0; else eof[f] = 1
	return (f in cur) && cur[f] == u
}'
