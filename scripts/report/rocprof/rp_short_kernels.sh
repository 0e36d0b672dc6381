# See LICENSE file for copyright and license details.
# stage: rp_short_kernels
# The dispatches shorter than --short-kernel-threshold-us, for the two
# short-kernel sheets: short.tsv (UID name dur, trace order, header)
# and short_v.tsv (v: the duration the histogram counts).  TraceLens
# compares the threshold with nanoseconds and counts nanoseconds; with
# --exact-time, microseconds.
# in: k.tsv
# out: short.tsv short_v.tsv
# when: short=1
rp_short_kernels() {
	if [ -n "$xflag" ]; then th=$((thresh * 1000)) v='dur / 1000'; else th=$thresh v=dur; fi
	st awkt -v th="$th" 'NR == 1 || $3 + 0 < th + 0 { print $1, $2, $3 }' k.tsv >short.tsv; ok
	st tl-calc v="$v" <short.tsv >short_v.tsv; ok
}
