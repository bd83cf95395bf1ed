# traceevents.awk: the calls of a trace in the Trace Event Format of
# Chrome and Perfetto (a JSON object with a traceEvents array): one
# complete event ("ph":"X") per call, in microseconds since the trace's
# first record; the trace as one process (records carry thread ids
# only), named FILES, each thread named "tid N"; a merged stream (devtrace
# merge) as one process per host, pid N and the name of its "#host N NAME".  Calls the trace cut
# carry args {"cut":"no entry"} or {"cut":"no exit"}: an exit without
# entry runs from the trace's start, a call with no exit to the exit of
# the call that returned past it, or to the trace's end.  Pairing as in scripts/durations (lib.awk).
# With SIGS, a signature file, the args of a typed call hold its
# arguments and "return", as strings (exact beyond 2^53).  A probe's hit
# (P) is an instant event ("ph":"i", thread scope, "cat":"probe") whose
# args hold its four values arg0..arg3, as signed decimal strings.
BEGIN {
	timeinit()
	if (SIGS != "") siginit(SIGS)
	if (UNIT != "ns") die("no frequency to turn ticks into time: give -v hz=N or -v ctl=TRACECTL")
	US = SCALE / 1e3	# microseconds per tick
	for (i = 1; i < 32; i++) CTRL = CTRL sprintf("%c", i)
	printf "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"hz\":%s},\"traceEvents\":[\n", jnum(hz)
}
$1 == "E" && NF == 8 { tick = seen($4); callenter($4, $2, tick); FA[$4, NS[$4] - 1] = jargs($2); next }
$1 == "P" && NF == 8 {
	tick = seen($4)
	split(probevals(), PV, " ")
	ev(sprintf("{\"name\":%s,\"cat\":\"probe\",\"ph\":\"i\",\"s\":\"t\",\"ts\":%.4f,\"pid\":%s,\"tid\":%s,\"args\":{\"arg0\":\"%s\",\"arg1\":\"%s\",\"arg2\":\"%s\",\"arg3\":\"%s\"}}",
		jstr($2), (tick - LO) * US, pid($4), tidlocal($4), PV[1], PV[2], PV[3], PV[4]))
	next
}
$1 == "X" && NF == 8 {
	t = $4
	tick = seen(t)
	k = callfind(t, $2)
	if (k < 0) { callorphan(t); ORPH[++NO] = t SUBSEP $2 SUBSEP tick; next }
	# calls the X passes (a longjmp) ended by the time their caller did
	while (NS[t] > k + 1) { callpop(t, ""); call(t, C_FN, C_START, tick, frameargs(t, "", "no exit"), C_DEPTH) }
	callpop(t, tick)
	call(t, C_FN, C_START, C_END, frameargs(t, $5, ""), C_DEPTH)
}
# jargs: the typed arguments of this entry of fn as JSON members, "" if untyped
function jargs(fn,   n, i, s) {
	s = ""
	n = sigargs(fn, $5, $6, $7, $8)
	for (i = 1; i <= n; i++) s = s (i > 1 ? "," : "") jstr(SA_NAME[i]) ":" jstr(SA_VAL[i])
	return s
}
# frameargs: the args members of the call just popped from t: its
# arguments, its return value rv ("": none), why the trace cut it
function frameargs(t, rv, why,   s, v) {
	s = FA[t, NS[t]]
	delete FA[t, NS[t]]
	if (rv != "" && (v = sigretval(C_FN, rv)) != "") s = s (s == "" ? "" : ",") "\"return\":" jstr(v)
	if (why != "") s = s (s == "" ? "" : ",") "\"cut\":\"" why "\""
	return s
}
# seen: the tick of this record, relative to the first; a new thread named
function seen(t,   v) {
	v = progtick(t)
	if (!HAVE || v < LO) LO = v
	if (!HAVE || v > HI) HI = v
	HAVE = 1
	if (!(t in TNAME)) {
		TNAME[t] = 1
		process(tidhost(t))
		ev("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":" pid(t) ",\"tid\":" tidlocal(t) ",\"args\":{\"name\":" jstr("tid " tidlocal(t)) "}}")
	}
	return v
}
# process: the process of host h named, once: FILES in one host's trace
# (h 0, pid 1), the host's name in a merged one (pid h)
function process(h) {
	if (h in PNAMED) return
	PNAMED[h] = 1
	ev("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" (h ? h : 1) ",\"tid\":0,\"args\":{\"name\":" jstr(h ? (h in HOSTNAME ? HOSTNAME[h] : "host " h) : FILES) "}}")
}
function pid(t,   h) { return (h = tidhost(t)) ? h : 1 }
function cut(t) { CUT[++NC] = t SUBSEP C_FN SUBSEP C_START SUBSEP C_DEPTH SUBSEP frameargs(t, "", "no exit") }
# call: one X event of a call of depth d (in its thread t), from tick s
# to tick e.  Times to 0.1 ns, so that two records' ticks stay apart at
# any counter up to 5 GHz; the end is rounded as the start is and the
# duration taken between them, so that rounding never makes a call
# overlap the next.  Calls that end on the same tick (a tail call's
# returns; calls a longjmp passed) end 0.1 ps apart, callers last:
# a viewer that orders equal ends by their starts (speedscope) would
# close the caller first and nest every call after it wrongly.  a: the
# members of its args, "" for none.
function call(t, fn, s, e, a, d,   ts, te, k) {
	k = d != "" && (t in LASTE) && e == LASTE[t] && d == LASTD[t] - 1 ? LASTK[t] + 1 : 0
	LASTE[t] = e; LASTD[t] = d; LASTK[t] = k
	ts = sprintf("%.4f", (s - LO) * US)
	te = sprintf("%.4f", (e - LO) * US)
	if (k) te = sprintf("%.7f", te + k * 1e-7)
	ev(sprintf("{\"name\":%s,\"cat\":\"call\",\"ph\":\"X\",\"ts\":%s,\"dur\":" (k ? "%.7f" : "%.4f") ",\"pid\":%s,\"tid\":%s%s}",
		jstr(fn), ts, te - ts, pid(t), tidlocal(t), a == "" ? "" : ",\"args\":{" a "}"))
}
function ev(s) { printf "%s%s", NEV++ ? ",\n" : "", s }
END {
	if (DIED) exit 2
	if (!NEV) process(0)	# no record: the trace is still a process
	# the trace's bounds are known now: calls it cut run to them
	for (n = 1; n <= NTHR; n++)
		for (t = THR[n]; NS[t] > 0; ) { callpop(t, ""); cut(t) }
	for (i = 1; i <= NC; i++) { split(CUT[i], f, SUBSEP); call(f[1], f[2], f[3], HI, f[5], f[4]) }
	for (i = 1; i <= NO; i++) { split(ORPH[i], f, SUBSEP); call(f[1], f[2], LO, f[3], "\"cut\":\"no entry\"", "") }
	print "\n]}"
}
# JSON: a string with its specials escaped; a number as JSON writes it
function jstr(s,   r, i, c) {
	if (s !~ /["\\\001-\037]/) return "\"" s "\""
	r = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\"" || c == "\\") r = r "\\" c
		else if (c < " ") r = r sprintf("\\u%04x", index(CTRL, c))
		else r = r c
	}
	return "\"" r "\""
}
function jnum(v) { return v ~ /^[0-9]+$/ ? v : sprintf("%.17g", v) }
