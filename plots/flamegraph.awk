# flamegraph.awk: read folded stacks ("f1;f2;...;fn VALUE", sorted by
# stack, as scripts/folded writes them) and write the gnuplot input of
# a flame graph: one box per frame, as wide as the values of all the
# stacks through it, callees above their callers, frames of one parent
# in the order of their names (as flamegraph.pl lays them out: x is
# not time).  x is the percent of the total value.  Names are written
# on the boxes wide enough, cut with ".." when they do not fit.  Warm
# colours picked by a hash of the name, so a function keeps its colour.
BEGIN {
	CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.@$"
	MAXLAB = 400
}
/^#/ { next }
NF >= 2 && $NF ~ /^[0-9]+(\.[0-9]*)?$/ && $NF + 0 > 0 {
	v = $NF + 0
	st = $0
	sub(/[ \t]+[^ \t]+$/, "", st)
	nf = split(st, fr, ";")
	# frames that differ from the previous stack's end where this one starts
	for (same = 0; same < nf && same < NP && PF[same + 1] == fr[same + 1]; same++) ;
	for (d = NP; d > same; d--) close_(d)
	for (d = same + 1; d <= nf; d++) { PF[d] = fr[d]; PS[d] = X }
	NP = nf
	X += v
	if (nf > MAXD) MAXD = nf
	next
}
NF { bad++ }
function close_(d) { n++; BN[n] = PF[d]; BD[n] = d; B1[n] = PS[d]; B2[n] = X }
function hash(s,   i, h) {
	h = 0
	for (i = 1; i <= length(s); i++) h = (h * 31 + index(CHARS, substr(s, i, 1))) % 65521
	return h
}
function q(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
END {
	if (DIED) exit 2
	for (d = NP; d >= 1; d--) close_(d)
	if (!n) die("no stacks with a value above 0" (bad ? " (" bad " lines are not folded stacks)" : ""))
	total = X
	pc = 100 / total
	plotpx = W - 60
	print "set title " q(TITLE " (" n " frames" (bad ? "; " bad " lines not folded stacks, left out" : "") ")") " noenhanced"
	print "set xlabel " q("share of all " (UNITS == "" ? "values" : UNITS) " (" sprintf("%.10g", total) " in all), percent")
	print "set xrange [0:100]"
	printf "set yrange [0:%d]\n", MAXD
	print "$boxes << EOD"
	for (i = 1; i <= n; i++) {
		h = hash(BN[i])
		# flamegraph.pl's "hot" palette: red 205..254, green 0..229, blue 0..54
		col = (205 + h % 50) * 65536 + int(230 * (h % 97) / 97) * 256 + int(55 * (h % 13) / 13)
		printf "%.10g %.10g %d %.10g %.0f\n", B1[i] * pc, B2[i] * pc, BD[i] - 1, BD[i] - 0.06, col
	}
	print "EOD"
	print "$labels << EOD"
	for (i = 1; i <= n && nlab < MAXLAB; i++) {
		fit = int(((B2[i] - B1[i]) / total * plotpx - 6) / 6.5)
		s = BN[i]
		if (fit < 3) continue
		if (length(s) > fit) s = substr(s, 1, fit - 2) ".."
		printf "%.10g %.10g %s\n", B1[i] * pc, BD[i] - 0.53, q(s)
		nlab++
	}
	print "EOD"
	plot = "$boxes using (($1+$2)/2):(($3+$4)/2):1:2:3:4:5 with boxxyerror lc rgb variable notitle"
	if (nlab) plot = plot ", $labels using 1:2:3 with labels left offset char 0.3,0 font \",8\" noenhanced notitle"
	print "plot " plot
}
