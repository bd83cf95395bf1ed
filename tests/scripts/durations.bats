#!/usr/bin/env bats
# scripts/durations: E and X paired per thread, nesting and its breaks.
load helper

@test "durations: nested calls, inclusive and exclusive" {
	golden simple.durations pipe '"$S/name" "$F/simple.syms" "$F/simple.trace" | "$S/durations"'
}

@test "durations: pcs stay as they are when the trace is not named" {
	golden simple.durations.pc "$S/durations" "$F/simple.trace"
}

@test "durations: recursion pairs innermost first" {
	golden recursion.durations pipe '"$S/name" "$F/recursion.syms" "$F/recursion.trace" | "$S/durations"'
}

@test "durations: interleaved threads of two processes are paired apart" {
	golden threads.durations pipe '"$S/name" "$F/threads.syms" "$F/threads.trace" | "$S/durations"'
}

@test "durations: a trace starting mid-call: exits without entry go below" {
	golden midcall.durations pipe '"$S/name" "$F/midcall.syms" "$F/midcall.trace" | "$S/durations"'
}

@test "durations: unfinished calls, longjmp over frames, a lost entry" {
	golden unfinished.durations pipe '"$S/name" "$F/unfinished.syms" "$F/unfinished.trace" | "$S/durations"'
}

@test "durations: ns from -v hz and from the #hz line of tracectl agree" {
	golden simple.durations.ns "$S/durations" -v hz=2000000000 "$F/simple.trace"
	golden simple.durations.ns "$S/durations" -v "ctl=$F/tracectl" "$F/simple.trace"
}

@test "durations: empty input gives empty output" {
	golden empty "$S/durations" "$F/empty.trace"
}

@test "durations: a bad frequency is an error" {
	fails 2 "bad hz" "$S/durations" -v hz=fast "$F/simple.trace"
	fails 2 "cannot read" "$S/durations" -v ctl=/nonexistent "$F/simple.trace"
	fails 2 "no #hz line" "$S/durations" -v "ctl=$F/simple.syms" "$F/simple.trace"
}

@test "durations: every call of a large trace is paired" {
	"$BATS_TEST_DIRNAME/gentrace" 3000 3 > "$BATS_TEST_TMPDIR/t"
	for a in $AWKS; do
		AWK=$a "$S/durations" "$BATS_TEST_TMPDIR/t" > "$BATS_TEST_TMPDIR/d"
		run grep -c -- ' - ' "$BATS_TEST_TMPDIR/d"
		assert_output 0
		[ "$(wc -l < "$BATS_TEST_TMPDIR/d")" -eq "$(grep -c '^E' "$BATS_TEST_TMPDIR/t")" ]
	done
}

@test "durations: ticks beyond 2^53 stay exact (a counter near 2^60)" {
	golden huge.durations "$S/durations" "$F/huge.trace"
	golden huge.flow "$S/flow" "$F/huge.trace"
}
