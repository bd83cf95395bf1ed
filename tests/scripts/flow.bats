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
