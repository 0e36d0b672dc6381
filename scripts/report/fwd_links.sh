# See LICENSE file for copyright and license details.
# stage: fwd_links
# The forward links by forward op (fwd.tsv sorted: fwd TAB op, which
# bwd_pairs joins on), and the forward ops that some link points to,
# one a line (fwd_targets.tsv, UID order).
# in: fwd.tsv trace.facts
# out: fwd_links.tsv fwd_targets.tsv
# when: roofline=1 cpu_ops=1 gpu_events=1
fwd_links() {
	st tl_sort -t "$TAB" -k1,1n fwd.tsv >fwd_links.tsv; ok
	cut -f 1 fwd_links.tsv | st uniq >fwd_targets.tsv; ok
}
