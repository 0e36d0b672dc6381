# See LICENSE file for copyright and license details.
# helpers: what the stages of --detect_recompute share.

# rc_mark COL: the records of stdin (a header, then ascending by the
# UID in field COL, a number or a name of the header) with is_recompute
# last: True when that UID is in recompute.tsv (the tree stage's,
# ascending), else False (an empty field too), the texts pandas writes
# of the bools.  A merge join: no table of the UIDs.
rc_mark() {
	awkt -v n="$1" -v lf=recompute.tsv "$TL_AWK_LOOKUP"'
	NR == 1 {
		if (n !~ /^[0-9]+$/)
			for (i = 1; i <= NF; i++) if ($i == n) { n = i; break }
		if (n !~ /^[0-9]+$/) { print "no field " n >"/dev/stderr"; exit 1 }
		print $0, "is_recompute"
		next
	}
	{ print $0, ($n == "" || lookup($n + 0) == "\001" ? "False" : "True") }'
}
