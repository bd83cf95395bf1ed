# timeline.awk: read scripts/durations lines (tid function depth start
# end inclusive exclusive, in ticks) and write the gnuplot input of a
# call timeline: one box per call, x = time, callees stacked above their
# callers, one band of rows per thread.
#
# Readable at any size: calls narrower than MINT ticks are left out (by
# default one pixel, which cannot be seen anyway, so a band at most
# holds as many boxes as the plot has pixels); the ten functions with
# the most time get their own colours and key entries, the others
# pale colours picked by a hash of the name; names are written on the
# boxes wide enough to hold them, at most MAXLAB of them.  Calls the
# trace cut (unfinished, or begun before it: "-" in start or end) are
# drawn faded to the trace's end or from its start.
BEGIN {
	timeinit()
	NKEY = 10
	MAXLAB = 300
	split("4e79a7 f28e2b e15759 76b7b2 59a14f edc948 b07aa1 ff9da7 9c755f 8cd17d", KEYC, " ")
	NPALE = split("c6d4e1 f5d5b8 e8c0c1 c9e3e1 c4dfc0 f3e7b6 dccbe0 d9cec5", PALE, " ")
	CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.@$"
}
NF == 7 && $1 !~ /^#/ {
	n++
	TD[n] = $1; FN[n] = $2; DP[n] = $3; S[n] = $4; E[n] = $5
	if ($4 != "-") span($4)
	if ($5 != "-") span($5)
}
function span(v) {
	v += 0
	if (!have || v < LO) LO = v
	if (!have || v > HI) HI = v
	have = 1
}
function hash(s,   i, h) {
	h = 0
	for (i = 1; i <= length(s); i++) h = (h * 31 + index(CHARS, substr(s, i, 1))) % 65521
	return h
}
function q(s) { gsub(/"/, "\\\"", s); return "\"" s "\"" }
END {
	if (DIED) exit 2
	if (!n) die("no calls in the trace")
	total = HI - LO
	if (total <= 0) total = 1
	plotpx = W - 130
	if (MINT == "") MINT = total / plotpx
	pxper = plotpx / total

	# keep the calls wide enough; lay out threads and depths
	for (i = 1; i <= n; i++) {
		s = S[i] == "-" ? LO : S[i] + 0
		e = E[i] == "-" ? HI : E[i] + 0
		if (e - s < MINT) continue
		K[++kept] = i
		X1[i] = s; X2[i] = e
		t = TD[i]
		if (!(t in MIND)) { LANE[++NL] = t; MIND[t] = MAXD[t] = DP[i] }
		if (DP[i] < MIND[t]) MIND[t] = DP[i]
		if (DP[i] > MAXD[t]) MAXD[t] = DP[i]
		if (!(FN[i] in TIME)) FNS[++NF_] = FN[i]
		TIME[FN[i]] += e - s
	}
	if (!kept) die("no call is " MINT " ticks long or more (-m)")

	# lanes by tid, the lowest on top; within a lane depth grows upwards
	for (j = 2; j <= NL; j++)
		for (m = j; m > 1 && LANE[m - 1] + 0 > LANE[m] + 0; m--) {
			t = LANE[m]; LANE[m] = LANE[m - 1]; LANE[m - 1] = t
		}
	y = 0
	for (j = NL; j >= 1; j--) {
		t = LANE[j]
		OFF[t] = y
		ytics = ytics (ytics == "" ? "" : ", ") q("tid " t) " " y + 0.5
		y += MAXD[t] - MIND[t] + 1
		if (j > 1) {
			printf "set arrow from graph 0, first %.10g to graph 1, first %.10g nohead lc rgb \"#aaaaaa\" dt 2\n", y + 0.3, y + 0.3
			y += 0.6
		}
	}
	ytop = y

	# colours: the NKEY functions with the most time, by rank
	for (r = 1; r <= NKEY && r <= NF_; r++) {
		best = ""
		for (m = 1; m <= NF_; m++) {
			f = FNS[m]
			if (f in RANK) continue
			if (best == "" || TIME[f] > TIME[best] || (TIME[f] == TIME[best] && f < best)) best = f
		}
		RANK[best] = r
		KEYN[r] = best
	}
	nkey = r - 1
	for (m = 1; m <= NF_; m++) {
		f = FNS[m]
		COL[f] = f in RANK ? KEYC[RANK[f]] : PALE[hash(f) % NPALE + 1]
	}

	# time axis
	div = 1
	if (UNIT == "ns") {
		ns = total * SCALE
		# microseconds at least: a short trace's axis reads 0.5 us, not 500 ns
		if (ns < 1e7) { div = 1e3; u = "us" }
		else if (ns < 1e10) { div = 1e6; u = "ms" }
		else { div = 1e9; u = "s" }
		xlabel = "time since the first record (" u ")"
	} else xlabel = "ticks since the first record"
	xs = SCALE / div

	hidden = n - kept
	print "set title " q(TITLE " (" n " calls" (hidden ? "; " hidden " under " sprintf("%.0f", MINT) " ticks not drawn" : "") ")") " noenhanced"
	print "set xlabel " q(xlabel)
	printf "set xrange [0:%.10g]\n", total * xs
	printf "set yrange [0:%.10g]\n", ytop
	print "set ytics (" ytics ")"

	# boxes, finished and cut, and their labels
	print "$bars << EOD"
	for (k = 1; k <= kept; k++) { i = K[k]; if (S[i] != "-" && E[i] != "-") box(i) }
	print "EOD"
	print "$open << EOD"
	for (k = 1; k <= kept; k++) { i = K[k]; if (S[i] == "-" || E[i] == "-") { box(i); nopen++ } }
	print "EOD"
	print "$labels << EOD"
	for (k = 1; k <= kept && nlab < MAXLAB; k++) {
		i = K[k]
		if ((X2[i] - X1[i]) * pxper < 6 * length(FN[i]) + 8) continue
		printf "%.10g %.10g %s\n", (X1[i] - LO) * xs, ybase(i) + 0.5, q(FN[i])
		nlab++
	}
	print "EOD"

	# plot what there is: gnuplot warns about empty data blocks
	plot = "$bars using (($1+$2)/2):(($3+$4)/2):1:2:3:4:5 with boxxyerror lc rgb variable notitle"
	if (nopen) plot = plot ", $open using (($1+$2)/2):(($3+$4)/2):1:2:3:4:5 with boxxyerror fs transparent solid 0.35 noborder lc rgb variable notitle"
	if (nlab) plot = plot ", $labels using 1:2:3 with labels left offset char 0.3,0 font \",8\" noenhanced notitle"
	for (r = 1; r <= nkey; r++)
		plot = plot ", keyentry with boxes fc rgb \"#" KEYC[r] "\" title " q(KEYN[r])
	if (NF_ > nkey) plot = plot ", keyentry with boxes fc rgb \"#" PALE[1] "\" title \"other functions\""
	if (nopen) plot = plot ", keyentry with boxes fs transparent solid 0.35 fc rgb \"#888888\" title \"cut by the trace\""
	print "plot " plot
}
function ybase(i) { return OFF[TD[i]] + DP[i] - MIND[TD[i]] }
function box(i,   y) {
	y = ybase(i)
	printf "%.10g %.10g %.10g %.10g %.0f\n", (X1[i] - LO) * xs, (X2[i] - LO) * xs, y + 0.05, y + 0.95, hexval(COL[FN[i]])
}
