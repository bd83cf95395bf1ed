#!/usr/bin/env bats
# scripts/flow: the indented call flow.
load helper

@test "flow: entries and exits indented by depth, durations on exits" {
	golden simple.flow pipe '"$S/name" "$F/simple.syms" "$F/simple.trace" | "$S/flow"'
}

@test "flow: recursion" {
	golden recursion.flow pipe '"$S/name" "$F/recursion.syms" "$F/recursion.trace" | "$S/flow"'
}

@test "flow: interleaved threads keep their own depth; ns with -v hz" {
	golden threads.flow pipe '"$S/name" "$F/threads.syms" "$F/threads.trace" | "$S/flow" -v hz=1000000000'
}

@test "flow: unfinished calls and a lost entry are marked" {
	golden unfinished.flow pipe '"$S/name" "$F/unfinished.syms" "$F/unfinished.trace" | "$S/flow"'
}

@test "flow: a trace starting mid-call" {
	golden midcall.flow pipe '"$S/name" "$F/midcall.syms" "$F/midcall.trace" | "$S/flow"'
}

@test "flow: a probe's hit is a line of its own at the depth of its function's calls, its four values signed" {
	golden probes.flow pipe '"$S/name" "$F/probes.syms" "$F/probes.trace" | "$S/flow"'
}

@test "flow: empty input gives empty output" {
	golden empty "$S/flow" "$F/empty.trace"
}

@test "flow: in ns with the frequency from tracectl" {
	golden simple.flow.ns pipe '"$S/name" "$F/simple.syms" "$F/simple.trace" | "$S/flow" -v ctl="$F/tracectl"'
}

@test "flow -a: calls typed from a signature file; unknown and twice-typed names untyped" {
	golden types.flow pipe '"$S/name" "$F/types.syms" "$F/types.trace" | "$S/flow" -a "$F/types.sigs"'
}

@test "flow -a: a signature file that cannot be read" {
	fails 1 "cannot read" "$S/flow" -a "$F/none.sigs" "$F/types.trace"
}

# flow -v min: tests/fixtures/traces/long.src says what each call took
longflow() {
	"$S/name" "$F/long.syms" "$F/long.trace" | "$S/flow" "$@"
}

@test "flow -v min=10us: only the calls that took 10 us, their callers and what they kept; no exit or no entry: the time known" {
	golden long.flow.min10us longflow -v hz=1000000000 -v min=10us
}

@test "flow -v min: a bare number is ns; 0.01ms is 10us; min=0 shows every call" {
	golden long.flow.min10us longflow -v hz=1000000000 -v min=10000
	golden long.flow.min10us longflow -v hz=1000000000 -v min=0.01ms
	golden long.flow longflow -v hz=1000000000 -v min=0
	golden long.flow longflow -v hz=1000000000
}

@test "flow -v min: a call of exactly MIN is shown, one ns more hides it and what it holds" {
	golden long.flow.min14us longflow -v hz=1000000000 -v min=14us
	golden long.flow.min14001 longflow -v hz=1000000000 -v min=14001
}

@test "flow -v min: ticks turned into time with the #hz of a tracectl (2 GHz)" {
	golden long.flow.min7us.ctl longflow -v ctl="$F/tracectl" -v min=7us
}

# the records after a "#hz N" line, as devtrace cat FILE gives them
hzfirst() {
	{ echo "#hz $1"; cat "$F/long.trace"; } | "$S/name" "$F/long.syms" - | "$S/flow" -v min="$2"
}

@test "flow -v min: the frequency from a #hz line before the records, as devtrace cat FILE prints it" {
	golden long.flow.min7us.ctl hzfirst 2000000000 7us
}

@test "flow -v min: refused without a frequency, or with a time it cannot read" {
	fails 2 "min needs the cycle counter's frequency to turn ticks into time: give -v hz=N or -v ctl=TRACECTL, or records with a #hz line (devtrace cat FILE)" "$S/flow" -v min=10us "$F/long.trace"
	fails 2 "bad min: 10xs (a time: a number and ns, us, ms or s; ns if none)" "$S/flow" -v hz=1000000000 -v min=10xs "$F/long.trace"
	fails 2 "bad min: -5us" "$S/flow" -v hz=1000000000 -v min=-5us "$F/long.trace"
}
