# folded.awk: folded stacks, the input of flamegraph.pl, inferno and
# speedscope: one line per distinct call stack, "f1;f2;...;fn VALUE",
# outermost first.  VALUE is the self (exclusive) time of fn's calls
# on that stack (ticks, or ns with a frequency), or with CALLS=1 the
# number of those calls.  Only finished calls count (a call cut by the
# trace has no known self time); with THREADS=1 each stack starts with
# its thread, "tid N".  Pairing as in scripts/durations (lib.awk).  A
# probe's hit (P) has no time: with CALLS=1 it counts as a frame of its
# own on the stack where it fired, "f1;...;fn;probe:name HITS"; without,
# it is left out.
BEGIN { timeinit() }
$1 == "E" && NF == 8 {
	t = $4
	i = callenter(t, $2, progtick(t)) - BASE[t]
	STK[t, i] = (i > 0 ? STK[t, i - 1] : THREADS ? "tid " tidname(t) : "") (i > 0 || THREADS ? ";" : "") frame($2)
	next
}
$1 == "P" && NF == 8 {
	if (!CALLS) next
	t = $4
	callnew(t)
	s = NS[t] > 0 ? STK[t, NS[t] - 1] ";" : THREADS ? "tid " tidname(t) ";" : ""
	add(s frame($2), 1)
	next
}
$1 == "X" && NF == 8 {
	t = $4
	k = callfind(t, $2)
	if (k < 0) { callorphan(t); next }
	while (NS[t] > k + 1) callpop(t, "")
	callpop(t, progtick(t))
	add(STK[t, NS[t]], CALLS ? 1 : C_EXCL)
}
function add(s, v) {
	if (!(s in V)) { V[s] = 0; KEYS[++NK] = s }
	V[s] += v
}
# frame: a function name as one frame: ";" separates frames (names
# have no blanks: they are one field of a record)
function frame(f) { gsub(/;/, "_", f); return f }
END {
	if (DIED) exit 2
	cmd = "sort"
	for (n = 1; n <= NK; n++) printf "%s %s\n", KEYS[n], CALLS ? V[KEYS[n]] : fmtt(V[KEYS[n]]) | cmd
	close(cmd)
}
