# durations.awk: one line per call, as it ends:
#	tid function depth start end inclusive exclusive
# with "-" for what the trace does not tell (see the stack rules in lib.awk).
BEGIN { timeinit() }
$1 == "E" && NF == 8 { callenter($4, $2, progtick($4)); next }
$1 == "X" && NF == 8 {
	t = $4
	k = callfind(t, $2)
	if (k < 0) { put(t, $2, callorphan(t), "", progtick(t), "", ""); next }
	while (NS[t] > k + 1) { callpop(t, ""); popped(t) }
	callpop(t, progtick(t))
	popped(t)
}
END {
	if (DIED) exit 2
	for (n = 1; n <= NTHR; n++)
		for (t = THR[n]; NS[t] > 0; ) { callpop(t, ""); popped(t) }
}
function popped(t) { put(t, C_FN, C_DEPTH, C_START, C_END, C_INCL, C_EXCL) }
function put(t, fn, d, s, e, i, x) {
	print tidname(t), fn, d, tickabs(s), tickabs(e), fmtt(i), fmtt(x)
}
