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
	st awkt '
	FILENAME == meta { if (FNR > 1) META[$1, $2, $3] = $4; next }
	FNR == 1 {
		for (i = 1; i <= NF; i++) col[$i] = i
		print "kind", "UID", "name", "process_name", "process_label", "thread_name",
		    "Input Dims", "Input type", "Input Strides", "Concrete Inputs",
		    "Kernel Time (µs)", "kernel_names", "annotation", "num_kernels"
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
		print kind, $col["UID"], $col["name"], name(pid, 0, "process_name"),
		    name(pid, 0, "process_labels"), name(pid, tid, "thread_name"),
		    $col["Input Dims"], $col["Input type"], $col["Input Strides"],
		    $col["Concrete Inputs"], (ku == u ? k[2] : 0), (ku == u ? k[3] : ""),
		    (au == u ? substr(al, 14) : ""), (ku == u ? k[4] : 0)
	}
	# the name K of process (tid 0) or thread TID of PID, as TraceLens
	# writes it: Unknown if none
	function name(pid, tid, k) { return ((pid, tid, k) in META) ? META[pid, tid, k] : "Unknown" }
	' kind="$3" meta=meta.tsv kin="$2" an=annotations.tsv meta.tsv "$1" |
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
