# distplot.awk: the values of one field as gnuplot input: their
# cumulative distribution (KIND=cdf: x = value, y = how many values are
# at most x, as the original paper's I/O-size figure), or their
# power-of-two histogram (KIND=hist, the buckets of scripts/histogram).
BEGIN {
	if (!fieldsel(FIELD)) die("unknown field: " FIELD)
	BLUE = "#4e79a7"
}
fieldhere() {
	v = $F_COL
	if (KIND == "hist") {
		if ((k = bucket(v, uns)) == "") next
		C[k]++
		if (!N++) lo = hi = k
		if (k < lo) lo = k
		if (k > hi) hi = k
		next
	}
	if ((x = numval(v, uns)) == "") next
	if (LOGX && x <= 0) { skipped++; next }
	# the key as text: mawk's own subscripts of numbers beyond 2^31
	# keep 6 digits (CONVFMT), making different values one
	x = sprintf("%.17g", x)
	if (!(x in V)) VS[++NV] = x
	V[x]++
	N++
}
function q(s) { gsub(/"/, "\\\"", s); return "\"" s "\"" }
# short: 4096 -> 4K, as axis labels
function short(k,   e, s, u) {
	if (k == 0) return "0"
	e = (k > 0 ? k : -k) - 1
	s = k < 0 ? "-" : ""
	u = substr(" KMGTPE", int(e / 10) + 1, 1)
	return s 2 ^ (e % 10) (u == " " ? "" : u)
}
END {
	if (DIED) exit 2
	if (!N) die("no values of " FIELD " in the input")
	t = TITLE " (" N " values" (skipped ? "; " skipped " at or below 0 not drawn" : "") ")"
	print "set title " q(t) " noenhanced"
	if (KIND == "hist") {
		if (lo > -64) lo--
		if (hi < 64) hi++
		print "set xlabel " q(FIELD " (power-of-two buckets, lowest value of each)") " noenhanced"
		print "set ylabel \"count\""
		print "set boxwidth 0.8"
		print "set yrange [0:*]"
		if (hi - lo > 16) print "set xtics rotate by 45 right"
		# at most about 20 labels; whole counts on y
		step = int((hi - lo) / 20) + 1
		for (k = lo; k <= hi; k++) if (C[k] > max) max = C[k]
		if (max < 10) print "set ytics 1"
		print "$b << EOD"
		for (k = lo; k <= hi; k++)
			printf "%d %.0f %s\n", k - lo, C[k], q((k - lo) % step ? "" : short(k))
		print "EOD"
		print "plot $b using 1:2:xtic(3) with boxes lc rgb \"" BLUE "\""
		exit
	}
	print "set xlabel " q(FIELD) " noenhanced"
	print "set ylabel \"values at most x\""
	print "set y2label \"percent\""
	printf "set yrange [0:%.0f]\nset y2range [0:100]\nset y2tics 10\n", N
	if (LOGX) print "set logscale x 2"
	print "$v << EOD"
	for (i = 1; i <= NV; i++) printf "%s %.0f\n", VS[i], V[VS[i]]
	print "EOD"
	print "plot $v using 1:2 smooth cumulative with steps lw 2 lc rgb \"" BLUE "\""
}
