# flow.awk: indented call flow, one line per record as it comes; with
# SIGS, entries show their arguments and exits their return values.  A
# probe's hit (P) is a line "* NAME V1 V2 V3 V4" at the depth of the
# calls its function would make.
BEGIN { timeinit(); if (SIGS != "") siginit(SIGS) }
function line(t, tick, dur, d, arrow, fn, note) {
	if (!started) {
		started = 1
		FMT = "%7s %14s %10s  %s%s %s%s\n"
		printf "%7s %14s %10s  %s\n", "TID", "TIME(" UNIT ")", "DURATION", "FUNCTION"
	}
	# exits have a duration, "-" where their entry or exit is missing; entries and probes none
	printf FMT, tidname(t), tick == "" ? "-" : fmtt(tick), arrow == "<-" ? fmtt(dur) : "", indent(d), arrow, fn, note
}
function indent(d,   s, i) {
	if (d < 0) d = 0
	if (!(d in IND)) { s = ""; for (i = 0; i < d; i++) s = s "  "; IND[d] = s }
	return IND[d]
}
# a "#hz N" line before the records (devtrace cat FILE) gives ns, unless -v hz or ctl did
$1 == "#hz" && NF == 2 && hz == "" && !TB_SET { hz = $2; timeinit(); next }
$1 == "E" && NF == 8 {
	tick = tickval($3)
	line($4, tick, "", callenter($4, $2, tick), "->", sigcall($2, $5, $6, $7, $8), "")
	next
}
$1 == "P" && NF == 8 {
	line($4, tickval($3), "", calldepth($4), "*", $2, " " probevals())
	next
}
$1 == "X" && NF == 8 {
	t = $4
	tick = tickval($3)
	k = callfind(t, $2)
	if (k < 0) { line(t, tick, "", callorphan(t), "<-", $2, " (no entry)"); next }
	while (NS[t] > k + 1) { callpop(t, ""); line(t, "", "", C_DEPTH, "<-", C_FN, " (no exit)") }
	callpop(t, tick)
	line(t, tick, C_INCL, C_DEPTH, "<-", C_FN, sigret(C_FN, $5))
}
END {
	if (DIED) exit 2
	for (n = 1; n <= NTHR; n++)
		for (t = THR[n]; NS[t] > 0; ) { callpop(t, ""); line(t, "", "", C_DEPTH, "<-", C_FN, " (no exit)") }
}
