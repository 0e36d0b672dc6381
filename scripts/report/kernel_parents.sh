# See LICENSE file for copyright and license details.
# stage: kernel_parents
# Each kernel with what kernel_summary groups it by: its parent op's
# category (TraceLens categorises the cpu_op with its own first kernel
# when it launches kernels), its parent cpu_op (or, for a kernel
# without one, its runtime call: TraceLens's "graph" or "runtime"
# category), as kernel_parents.tsv:
#	UID pcat pcpu name stream dur UID dims strides concrete
# in UID order when the kernels' cpu_ops ascend with their UIDs
# (kernel_parents.facts: kparents_uid=1), else by cpu_op, then UID.
# in: kernels.tsv launcher_k1.tsv kernels.facts
# out: kernel_parents.tsv kernel_parents.facts
# when: kernels=1
kernel_parents() {
	# The merge join below wants the kernels by cpu_op.  A trace's
	# kernels mostly come in the order of their launches, so that
	# kernels.tsv (UID order) already is: then neither it nor its
	# cpu_ops are sorted.  The first pass checks that order: at a cpu_op
	# below the one before, it stops and says kparents_uid=0, and both
	# passes run on the kernels sorted by cpu_op.
	kparents_cats fast
	. ./kernel_parents.facts || exit 1
	[ "$kparents_uid" = 1 ] || kparents_cats sort
	# each kernel, by cpu_op (for a merge join with kernel_cats.tsv;
	# sort takes an empty one as 0, and the pass skips it), then UID
	set -- '
	NR == 1 { getline kl <kc; ku = -1 }
	$2 == "UID" { next }
	{
		if ($1 != "") {
			u = $1 + 0
			while (ku < u) {
				if ((getline kl <kc) <= 0) { ku = 1e300; kcat = ""; break }
				split(kl, kf, "\t"); ku = kf[1] + 0; kcat = kf[2]
			}
			pc = ku == u ? kcat : ""; pu = $3
		} else if ($5 == 1) {
			l = tolower($4)
			pc = (l ~ /cudagraph|graphlaunch/) ? "graph" : "runtime"
			pu = hascpu ? $4 : ""
		} else { pc = ""; pu = "" }
		print $2, pc, pu, $6, $7, $8, $2, $9, $10, $11
	}' hascpu="$kernels_cpu_op" kc=kernel_cats.tsv
	if [ "$kparents_uid" = 1 ]; then
		st awkt "$@" kernels.tsv >kernel_parents.tsv; ok
	else
		st tl_sort -s -t "$TAB" -k1,1n kernels.tsv |
		st awkt "$@" >kernel_parents.tsv; ok
	fi
	tl_drop kernel_cats.tsv
}

# kparents_cats fast|sort: kernel_cats.tsv, the category of each
# kernel's cpu_op: the cpu_ops of the kernels (all kernels of a cpu_op
# carry its name: either pass may keep any), merged with the launchers'
# k1 (UID order).  fast takes them in kernels.tsv's order, and writes
# kernel_parents.facts: whether they ascend (else what it wrote is
# only the first ones); sort sorts them.
kparents_cats() {
	{ printf 'cpu_op\tname\tk1\n'
	  if [ "$1" = fast ]; then
		# (the join with launcher_k1.tsv in the same pass)
		st awkt "$KPARENTS_K1"'
		NR > 1 && $1 != "" {
			u = $1 + 0
			if (have && u == p) next
			if (have && u < p) { dis = 1; exit }
			have = 1; p = u
			print $1, $3, k1(u)
		}
		END { printf "kparents_uid=%d\n", !dis >ff }' ff=kernel_parents.facts \
		    lu=launcher_k1.tsv kernels.tsv
	  else
		st awkt 'NR > 1 && $1 != "" { print $1, $3 }' kernels.tsv |
		st tl_sort -u -t "$TAB" -k1,1n |
		st awkt "$KPARENTS_K1"'{ print $1, $2, k1($1 + 0) }' lu=launcher_k1.tsv
	  fi; } |
	st tl-aggregate -g cpu_op:n 'cat=opcat:name,k1' >kernel_cats.tsv; ok
}

# KPARENTS_K1: awk's k1(op): the k1 of launcher op in the file lu
# (launcher_k1.tsv: a header, then UID TAB k1 by UID), or "" when it
# has none; a merge join: calls come in ascending op.
KPARENTS_K1='
function k1(op) {
	if (!lhead) { getline ll <lu; lhead = 1 }
	while (lhave == 0 || luid < op) {
		if ((getline ll <lu) <= 0) { luid = 1e30; break }
		luid = substr(ll, 1, index(ll, "\t") - 1) + 0; lhave = 1
	}
	return luid == op ? substr(ll, index(ll, "\t") + 1) : ""
}
'
