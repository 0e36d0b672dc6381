# Print the columns named in want (comma-separated) of a CSV file, one
# record per line as written (a quoted cell may hold a newline).
function quotes(s) { return gsub(/"/, "", s) }
{
	rec = rec (inrec ? "\n" : "") $0; q += quotes($0)
	if (q % 2) { inrec = 1; next }
	line = rec; rec = ""; q = 0; inrec = 0
	n = split(line, p, ","); c = 0; i = 0
	while (i < n) {
		cur = p[++i]
		while (quotes(cur) % 2 && i < n) cur = cur "," p[++i]
		f[++c] = cur
	}
	if (!hdr) {
		hdr = 1; m = split(want, w, ",")
		for (j = 1; j <= c; j++) at[f[j]] = j
		for (j = 1; j <= m; j++) if (!(w[j] in at)) { print "no column " w[j]; exit 1 }
	}
	o = ""
	for (j = 1; j <= m; j++) o = o (j > 1 ? "," : "") f[at[w[j]]]
	print o
}
