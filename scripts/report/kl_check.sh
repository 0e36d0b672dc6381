# See LICENSE file for copyright and license details.
# stage: kl_check
# --include_overlap_info: does some GPU event overlap another, as
# TraceLens's sweep finds them (tl-overlap over gpu.tsv by ts; the
# launched events only, as its gpu_timeline's, unless
# --include-unlinked-kernels)?  unified_perf_summary_kl_overlap is
# tl-report's only where none does (kl_sheet), and the driver leaves it
# out and refuses the option where one does.  kl_refuse: the two events of the first
# list tl-overlap writes, "NAME (stream S) and NAME (stream S)", or
# nothing.  overlap.tsv: tl-overlap's lists, which op_overlap reads.
# in: gpu.tsv
# out: kl_refuse overlap.tsv
# when: kl=1 cpu_ops=1
kl_check() {
	u=
	[ "$unlinked" != 1 ] || u=-u
	st hsort -t "$TAB" -k7,7g -k1,1n <gpu.tsv | st tl-overlap $u >overlap.tsv; ok
	st awkt 'NR == 2 { print $1, $7, $8 } END { if (NR < 2) print "" }' overlap.tsv >kl_pair; ok
	IFS=$TAB read -r a s2 n2 <kl_pair
	if [ -z "$a" ]; then
		: >kl_refuse; ok
		return 0
	fi
	st awkt -v a="$a" -v s2="$s2" -v n2="$n2" '
	function st(s) { return s == "" ? "None" : s }
	NR > 1 && $1 == a {
		printf "%s (stream %s) and %s (stream %s)\n", substr($3, 1, 60), st($6),
		    substr(n2, 1, 60), st(s2)
		exit
	}' gpu.tsv >kl_refuse; ok
}
