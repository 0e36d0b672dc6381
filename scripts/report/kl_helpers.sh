# See LICENSE file for copyright and license details.
# helpers: what the *_kl_overlap sheets share.

# kl_sheet SRC DST NAMES DETAILS [DROP...]: the sheet SRC (CSV, in $R)
# as TraceLens writes it with --include_overlap_info when no kernel
# overlaps another (tl-report refuses the option otherwise): the same
# rows in the same order (its overlap key, str(None), is one group of
# each group of ops, and its sort by the group's total and least UID
# is then the sheet's own), with a column NAMES after name (None:
# empty) and after trunc_kernel_details seven: DETAILS (the statistics
# of no kernels, []), trunc_overlapping_kernels_details and
# overlap_pct's mean, median, std, min and max (NaN: empty).  The
# columns named DROP are left out.  Nothing when SRC was not written.
# The cells are copied as they are: a record is split at the commas
# outside quotes (the pieces between quotes alternate, "" included), a
# line continued while its quotes are odd (a cell with a newline).
kl_sheet() {
	[ -f "$1" ] || return 0
	_ks_src=$1 _ks_dst=$2 _ks_names=$3 _ks_det=$4
	shift 4
	st awk -v names="$_ks_names" -v det="$_ks_det" -v drop="$(printf '%s\n' "$@")" '
	function cells(rec,    n, P, i, s, j, k) {
		n = split(rec, P, "\"")
		k = 1; C[1] = ""
		for (i = 1; i <= n; i++) {
			s = P[i]
			if (i > 1) C[k] = C[k] "\""
			if (i % 2 == 1)
				while ((j = index(s, ",")) > 0) {
					C[k] = C[k] substr(s, 1, j - 1)
					C[++k] = ""
					s = substr(s, j + 1)
				}
			C[k] = C[k] s
		}
		return k
	}
	function odd(s) { return gsub(/"/, "", s) % 2 }
	{
		rec = $0
		while (odd(rec) && (getline l) > 0)
			rec = rec "\n" l
		k = cells(rec)
		if (NR == 1) {
			nd = split(drop, D, "\n")
			for (i = 1; i <= k; i++) {
				if (C[i] == "trunc_kernel_details") tk = i
				for (j = 1; j <= nd; j++) if (C[i] == D[j]) gone[i]
			}
			if (!tk) { print "no trunc_kernel_details column" >"/dev/stderr"; exit 1 }
			a = names; b = det ",trunc_overlapping_kernels_details,overlap_pct_mean," \
			    "overlap_pct_median,overlap_pct_std,overlap_pct_min,overlap_pct_max"
		} else {
			a = ""; b = "[],,,,,,"
		}
		o = C[1] "," a
		for (i = 2; i <= k; i++) {
			if (i in gone) continue
			o = o "," C[i]
			if (i == tk) o = o "," b
		}
		print o
	}' "$_ks_src" >"$_ks_dst"
}

# kl_join COL: the records on stdin (a header, then sorted by the UID in
# field COL, as numbers) with op_overlap.tsv's three fields after, okn
# okd opct: a merge join by UID (op_overlap.tsv is in UID order), the
# fields of no launcher's (empty, [], empty: TraceLens's None) where it
# has none.
kl_join() {
	awkt -v col="$1" 'function next_() {
		if ((getline l <"op_overlap.tsv") > 0) { split(l, v, "\t"); k = v[1] + 0 }
		else eof = 1
	}
	NR == 1 { next_(); next_(); print $0, "okn", "okd", "opct"; next }
	{
		while (!eof && k < $col + 0) next_()
		if (!eof && k == $col + 0) print $0, v[2], v[3], v[4]
		else print $0, "", "[]", ""
	}'
}
