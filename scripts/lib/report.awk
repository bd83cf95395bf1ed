# report.awk: aggregate calls per function; sort by total time.  A
# probe's hits (P) are rows after the functions', most hits first: their
# CALLS, no times ("-").  Times on the program's clock (lib.awk); the
# waits taken out are told on a last line.
BEGIN { timeinit() }
$1 == "P" && NF == 8 { if (!($2 in HITS)) PROBE[++NPR] = $2; HITS[$2]++; next }
$1 == "E" && NF == 8 { callenter($4, $2, progtick($4)); next }
$1 == "X" && NF == 8 {
	t = $4
	k = callfind(t, $2)
	if (k < 0) { callorphan(t); orphans++; next }
	while (NS[t] > k + 1) { callpop(t, ""); unfinished++ }
	callpop(t, progtick(t))
	add()
}
function add(   f) {
	f = C_FN
	if (!(f in CALLS)) { FNS[++NFN] = f; MIN[f] = MAX[f] = C_INCL }
	CALLS[f]++
	SUM[f] += C_INCL
	SELF[f] += C_EXCL
	if (C_OUTER) TOT[f] += C_INCL
	if (C_INCL < MIN[f]) MIN[f] = C_INCL
	if (C_INCL > MAX[f]) MAX[f] = C_INCL
}
END {
	if (DIED) exit 2
	for (n = 1; n <= NTHR; n++)
		for (t = THR[n]; NS[t] > 0; unfinished++) callpop(t, "")
	if (NFN == 0 && NPR == 0 && !unfinished && !orphans) exit 0
	# widths first, since the rows go through sort(1)
	split("FUNCTION CALLS TOTAL SELF MIN AVG MAX", H, " ")
	for (c = 1; c <= 7; c++) W[c] = length(H[c])
	for (n = 1; n <= NFN; n++) {
		f = FNS[n]
		row(f, CALLS[f], fmtt(TOT[f]), fmtt(SELF[f]), fmtt(MIN[f]), fmtt(SUM[f] / CALLS[f]), fmtt(MAX[f]))
		for (c = 1; c <= 7; c++) if (length(R[n, c]) > W[c]) W[c] = length(R[n, c])
	}
	for (n = 1; n <= NPR; n++) {
		if (length(PROBE[n]) > W[1]) W[1] = length(PROBE[n])
		if (length(HITS[PROBE[n]]) > W[2]) W[2] = length(HITS[PROBE[n]])
	}
	fmt = "%-" W[1] "s"
	for (c = 2; c <= 7; c++) fmt = fmt "  %" W[c] "s"
	fmt = fmt "\n"
	printf fmt, H[1], H[2], H[3], H[4], H[5], H[6], H[7]
	fflush()
	cmd = "sort -k3,3nr -k1,1"
	for (n = 1; n <= NFN; n++)
		printf fmt, R[n, 1], R[n, 2], R[n, 3], R[n, 4], R[n, 5], R[n, 6], R[n, 7] | cmd
	close(cmd)
	fflush()
	cmd = "sort -k2,2nr -k1,1"
	for (n = 1; n <= NPR; n++)
		printf fmt, PROBE[n], HITS[PROBE[n]], "-", "-", "-", "-", "-" | cmd
	close(cmd)
	printf "# times in %s", UNIT
	if (unfinished || orphans)
		printf "; not counted: unfinished calls %d, exits without entry %d", unfinished, orphans
	printf "\n"
	# devtrace report's line (cmd/report.c): none, no line
	if (WAITS)
		printf "# waited %s %s in %.0f tracer wait%s, taken out of the times\n", fmtt(WAITSUM), UNIT, WAITS, WAITS == 1 ? "" : "s"
}
function row(f, a, b, c, d, e, g) {
	R[n, 1] = f; R[n, 2] = a; R[n, 3] = b; R[n, 4] = c
	R[n, 5] = d; R[n, 6] = e; R[n, 7] = g
}
