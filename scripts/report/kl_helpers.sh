# See LICENSE file for copyright and license details.
# helpers: what the *_kl_overlap sheets share.

# kl_join COL [FILE]: the records on stdin (a header, then sorted by
# the UID in field COL, as numbers) with FILE's three fields after (by
# default op_overlap.tsv's, okn okd opct): a merge join by UID (FILE is
# in UID order, with a header), the fields of no launcher's (empty, [],
# empty: TraceLens's None) where it has none.
kl_join() {
	awkt -v col="$1" -v f="${2:-op_overlap.tsv}" 'function next_() {
		if ((getline l <f) > 0) { split(l, v, "\t"); k = v[1] + 0 }
		else eof = 1
	}
	NR == 1 { next_(); next_(); print $0, "okn", "okd", "opct"; next }
	{
		while (!eof && k < $col + 0) next_()
		if (!eof && k == $col + 0) print $0, v[2], v[3], v[4]
		else print $0, "", "[]", ""
	}'
}
