# flow.awk: indented call flow, one line per record as it comes; with
# SIGS, entries show their arguments and exits their return values.  A
# probe's hit (P) is a line "* NAME V1 V2 V3 V4" at the depth of the
# calls its function would make.
#
# With min (-v min=DUR), only the calls that took at least DUR, as
# uftrace replay -t: a thread's lines wait in their frames (PEND) until
# the call is known long, at its exit or at a later record of its thread
# at least DUR after its entry, else they go with it.  A long call's
# callers are as long, so the shown frames of a thread are the bottom
# SHOWN[t] of its stack: the depth printed is the real one, and it is
# also the depth among the calls shown.  A thread's lines stay in time
# order; threads interleave in the order their calls are found long.
BEGIN { timeinit(); if (SIGS != "") siginit(SIGS); if (min != "") mininit(min) }
function mininit(s,   n, u) {
	if (s !~ /^[0-9]+(\.[0-9]+)?(ns|us|ms|s)?$/)
		die("bad min: " s " (a time: a number and ns, us, ms or s; ns if none)")
	n = s
	sub(/[a-z]+$/, "", n)
	u = substr(s, length(n) + 1)
	MINNS = n * (u == "s" ? 1e9 : u == "ms" ? 1e6 : u == "us" ? 1e3 : 1)
	MINON = MINNS > 0
}
# at the first record: the frequency is known by now (-v hz, ctl, or the input's #hz line)
function minhz() {
	MINHZ = 1
	if (UNIT != "ns") die("min needs the cycle counter's frequency to turn ticks into time: give -v hz=N or -v ctl=TRACECTL, or records with a #hz line (devtrace cat FILE)")
}
# a span of ticks is long: at least min, as the DURATION column shows it
function long(ticks) { return !MINON || fmtt(ticks) + 0 >= MINNS }
function emit(s) {
	if (!started) {
		started = 1
		printf "%7s %14s %10s  %s\n", "TID", "TIME(" UNIT ")", "DURATION", "FUNCTION"
	}
	printf "%s", s
}
function fmtline(t, tick, dur, d, arrow, fn, note) {
	# exits have a duration, "-" where their entry or exit is missing; entries and probes none
	return sprintf("%7s %14s %10s  %s%s %s%s\n", tidname(t), tick == "" ? "-" : fmtt(tick), arrow == "<-" ? fmtt(dur) : "", indent(d), arrow, fn, note)
}
function indent(d,   s, i) {
	if (d < 0) d = 0
	if (!(d in IND)) { s = ""; for (i = 0; i < d; i++) s = s "  "; IND[d] = s }
	return IND[d]
}
# a "#hz N" line before the records (devtrace cat FILE) gives ns, unless -v hz or ctl did
$1 == "#hz" && NF == 2 && hz == "" && !TB_SET { hz = $2; timeinit(); next }
# show t's frames up to i: the lines they kept, bottom first
function show(t, i,   j) {
	for (j = SHOWN[t] + 0; j <= i; j++) { emit(PEND[t, j]); delete PEND[t, j] }
	if (SHOWN[t] < i + 1) SHOWN[t] = i + 1
}
# a record of thread t at tick: the frames open that long already are long calls
function seen(t, tick,   i) {
	if (MINON && !MINHZ) minhz()
	callnew(t)
	if (!(t in FIRST)) FIRST[t] = tick
	for (i = SHOWN[t] + 0; i < NS[t] && long(tick - ST[t, i]); i++)
		show(t, i)
}
# a line inside t's top frame: printed if the frame is shown, else kept with it
function inside(t, s,   i) {
	if ((i = NS[t] - 1) < SHOWN[t]) emit(s)
	else PEND[t, i] = PEND[t, i] s
}
# pop t's top frame, ended at tick ("" never; seen() decided it): its exit line if shown, else its kept lines go
function pop(t, tick, note,   i) {
	i = NS[t] - 1
	callpop(t, tick)
	if (i < SHOWN[t]) { SHOWN[t] = i; emit(fmtline(t, tick, C_INCL, C_DEPTH, "<-", C_FN, note)) }
	delete PEND[t, i]
}
$1 == "E" && NF == 8 {
	t = $4
	tick = progtick(t)
	seen(t, tick)
	d = callenter(t, $2, tick)
	inside(t, fmtline(t, tick, "", d, "->", sigcall($2, $5, $6, $7, $8), ""))
	if (!MINON) show(t, NS[t] - 1)
	next
}
$1 == "P" && NF == 8 {
	t = $4
	tick = progtick(t)
	seen(t, tick)
	s = fmtline(t, tick, "", calldepth(t), "*", $2, " " probevals())
	if (NS[t] == 0) emit(s); else inside(t, s)
	next
}
$1 == "X" && NF == 8 {
	t = $4
	tick = progtick(t)
	k = callfind(t, $2)
	if (k < 0) {
		# no entry: known to have run since the thread's first record
		seen(t, tick)
		d = callorphan(t)
		if (long(tick - FIRST[t])) emit(fmtline(t, tick, "", d, "<-", $2, sigret($2, $5) " (no entry)"))
		next
	}
	while (NS[t] > k + 1) pop(t, "", " (no exit)")
	seen(t, tick)
	pop(t, tick, sigret($2, $5))
}
END {
	if (DIED) exit 2
	for (n = 1; n <= NTHR; n++)
		for (t = THR[n]; NS[t] > 0; ) pop(t, "", " (no exit)")
}
