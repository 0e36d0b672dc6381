# See LICENSE file for copyright and license details.
# stage: kernel_parents
# Each kernel with what kernel_summary groups it by: its parent op's
# category (TraceLens categorises the cpu_op with its own first kernel
# when it launches kernels), its parent cpu_op (or, for a kernel
# without one, its runtime call: TraceLens's "graph" or "runtime"
# category), as kernel_parents.tsv:
#	UID pcat pcpu name stream dur UID dims strides concrete
# sorted by cpu_op (then UID).
# in: kernels.tsv launcher_k1.tsv kernels.facts
# out: kernel_parents.tsv
# when: kernels=1
kernel_parents() {
	# The category of each kernel's cpu_op: the cpu_ops of the kernels
	# (all kernels of a cpu_op carry its name: sort -u may keep any),
	# merged with the launchers' k1 (UID order).
	{ printf 'cpu_op\tname\tk1\n'
	  st awkt 'NR > 1 && $1 != "" { print $1, $3 }' kernels.tsv |
	  st tl_sort -u -t "$TAB" -k1,1n |
	  st awkt '
	  NR == 1 { getline ll <lu }
	  {
		op = $1 + 0
		while (lhave == 0 || luid < op) {
			if ((getline ll <lu) <= 0) { luid = 1e30; break }
			luid = substr(ll, 1, index(ll, "\t") - 1) + 0; lhave = 1
		}
		k1 = ""
		if (luid == op) k1 = substr(ll, index(ll, "\t") + 1)
		print $1, $2, k1
	  }' lu=launcher_k1.tsv; } |
	st tl-aggregate -g cpu_op:n 'cat=opcat:name,k1' >kernel_cats.tsv; ok
	# each kernel, by cpu_op (for a merge join with kernel_cats.tsv;
	# sort takes an empty one as 0), then UID
	st tl_sort -s -t "$TAB" -k1,1n kernels.tsv |
	st awkt '
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
	}' hascpu="$kernels_cpu_op" kc=kernel_cats.tsv >kernel_parents.tsv; ok
	tl_drop kernel_cats.tsv
}
