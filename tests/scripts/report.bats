#!/usr/bin/env bats
# scripts/report: the per-function table.
load helper

@test "report: calls, total, self, min, avg, max; sorted by total" {
	golden simple.report pipe '"$S/name" "$F/simple.syms" "$F/simple.trace" | "$S/report"'
}

@test "report: in ns with the frequency from tracectl" {
	golden simple.report.ns pipe '"$S/name" "$F/simple.syms" "$F/simple.trace" | "$S/report" -v ctl="$F/tracectl"'
}

@test "report: a recursive function's total counts its outermost calls" {
	golden recursion.report pipe '"$S/name" "$F/recursion.syms" "$F/recursion.trace" | "$S/report"'
}

@test "report: threads of two processes" {
	golden threads.report pipe '"$S/name" "$F/threads.syms" "$F/threads.trace" | "$S/report"'
}

@test "report: unfinished calls and exits without entry are counted apart" {
	golden unfinished.report pipe '"$S/name" "$F/unfinished.syms" "$F/unfinished.trace" | "$S/report"'
	golden midcall.report pipe '"$S/name" "$F/midcall.syms" "$F/midcall.trace" | "$S/report"'
}

@test "report: probes' hits are rows of their own after the functions, without times" {
	golden probes.report pipe '"$S/name" "$F/probes.syms" "$F/probes.trace" | "$S/report"'
}

@test "report: empty input gives empty output" {
	golden empty "$S/report" "$F/empty.trace"
}
