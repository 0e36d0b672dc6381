# See LICENSE file for copyright and license details.
# stage: modelled
# The ops that have a perf model (tl-roofline -m: ops.tsv's records of
# those ops, UID order), and the same as keys (op TAB tag, each its own)
# for the kernel lists and the forest's mod flag.
# in: ops.tsv trace.facts
# out: modelled_ops.tsv modelled_keys.tsv
# when: roofline=1 cpu_ops=1 gpu_events=1
modelled() {
	st tl-roofline -m ops.tsv >modelled_ops.tsv; ok
	st awk -F '\t' 'NR > 1 { print $1 "\t" $1 }' modelled_ops.tsv >modelled_keys.tsv; ok
}
