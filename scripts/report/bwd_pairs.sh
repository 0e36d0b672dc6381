# See LICENSE file for copyright and license details.
# stage: bwd_pairs
# bwd_pairs.tsv: b TAB X for each op b whose forward op is X or below X,
# where X has a model and a backward op of its own (TraceLens's
# get_subtree_bwd_events), sorted by b, X.  One tree in memory at a time.
# in: forest.tsv fwd_links.tsv fwd_targets.tsv
# out: bwd_pairs.tsv
# when: roofline=1 cpu_ops=1 gpu_events=1
bwd_pairs() {
	: >bwd_pairs.tsv
	[ -s fwd_targets.tsv ] || return 0
	# X below which (or at which) each fwd target lies: x TAB X, by x
	st tl-tree -m pairs forest.tsv | st tl_sort -t "$TAB" -k1,1n >fwd_below.tsv; ok
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
	rm -f fwd_below.tsv
}
