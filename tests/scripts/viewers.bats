#!/usr/bin/env bats
# scripts/traceevents, scripts/folded and plots/flamegraph: what the
# viewers people use read (Perfetto, chrome://tracing, speedscope,
# flamegraph.pl), exact on the fixtures.  tests/viewers opens them in
# speedscope itself (make check-viewers).
load helper

# events TRACE [ARGS...]: traceevents' JSON for fixture TRACE, through
# a real JSON parser, one event a line (tests/scripts/jsonevents)
events() {
	local t=$1
	shift
	"$S/traceevents" -s "$F/$t.syms" -v "ctl=$F/tracectl" "$@" "$F/$t.trace" > "$BATS_TEST_TMPDIR/$t.json" &&
		"$BATS_TEST_DIRNAME/jsonevents" "$BATS_TEST_TMPDIR/$t.json"
}

@test "traceevents: one X event per call, us from #hz, threads named" {
	golden threads.traceevents events threads
}

@test "traceevents: calls cut by the trace, to the exit past them or the trace's end" {
	golden unfinished.traceevents events unfinished
	golden midcall.traceevents events midcall
}

@test "traceevents: a probe's hit is an instant event with its values in args" {
	golden probes.traceevents events probes
}

@test "traceevents: -v hz=N gives the times; the same bytes under mawk and gawk" {
	for a in $AWKS; do
		AWK=$a "$S/traceevents" -v hz=1000000 "$F/simple.trace" > "$BATS_TEST_TMPDIR/$a.json"
	done
	cmp "$BATS_TEST_TMPDIR/mawk.json" "$BATS_TEST_TMPDIR/gawk.json"
	# 1 tick = 1 us: parse's first call, ticks 1100..1300
	run jq -c '[.traceEvents[] | select(.ph == "X")][0] | [.name, .ts, .dur]' "$BATS_TEST_TMPDIR/gawk.json"
	assert_output '["0000000000401100",100,200]'
}

@test "traceevents: names with JSON specials are escaped" {
	printf '401100 a"b\\c\001d /x\n' > "$BATS_TEST_TMPDIR/syms"
	for a in $AWKS; do
		AWK=$a "$S/traceevents" -s "$BATS_TEST_TMPDIR/syms" -v hz=1000000 "$F/simple.trace" > "$BATS_TEST_TMPDIR/$a.json"
		run jq -r '[.traceEvents[] | select(.ph == "X")][0].name' "$BATS_TEST_TMPDIR/$a.json"
		assert_output "$(printf 'a"b\\c\001d')"
	done
}

@test "traceevents: an empty trace is an empty list of calls" {
	run "$S/traceevents" -v hz=1 "$F/empty.trace"
	assert_success
	run jq -c '[.traceEvents[] | .ph]' <<< "$output"
	assert_output '["M"]'
}

@test "traceevents -a: typed calls' args by name and their return, a cut call's with its cut" {
	golden types.traceevents events types -a "$F/types.sigs"
	fails 1 "cannot read" "$S/traceevents" -a "$F/none.sigs" -v hz=1 "$F/types.trace"
}

@test "traceevents: no frequency, bad options, unreadable files are errors" {
	fails 2 "no frequency: give -v hz=N" "$S/traceevents" "$F/simple.trace"
	fails 2 "bad hz: x" "$S/traceevents" -v hz=x "$F/simple.trace"
	fails 2 "unknown option -q" "$S/traceevents" -q "$F/simple.trace"
	fails 1 "cannot read /nonexistent" "$S/traceevents" -v hz=1 /nonexistent
	run "$S/traceevents" --help
	assert_success
	assert_line --index 0 "usage: traceevents [-s SYMS|PROGRAM] [-a SIGS] -v hz=N | -v ctl=TRACECTL [TRACE...]"
}

@test "folded: self time per stack, in ticks and in ns" {
	golden simple.folded "$S/folded" -s "$F/simple.syms" "$F/simple.trace"
	golden threads.folded.ns "$S/folded" -s "$F/threads.syms" -v "ctl=$F/tracectl" "$F/threads.trace"
	golden recursion.folded "$S/folded" -s "$F/recursion.syms" "$F/recursion.trace"
}

@test "folded: -c counts calls, -t puts the thread first" {
	golden threads.folded.ct "$S/folded" -c -t -s "$F/threads.syms" "$F/threads.trace"
}

@test "folded: only finished calls; their stacks without the calls begun before the trace" {
	golden unfinished.folded "$S/folded" -s "$F/unfinished.syms" "$F/unfinished.trace"
	golden midcall.folded "$S/folded" -s "$F/midcall.syms" "$F/midcall.trace"
}

@test "folded: probes' hits are frames of their own with -c, and have no time without" {
	golden probes.folded.c "$S/folded" -c -s "$F/probes.syms" "$F/probes.trace"
	golden probes.folded.ct "$S/folded" -c -t -s "$F/probes.syms" "$F/probes.trace"
	golden probes.folded "$S/folded" -s "$F/probes.syms" "$F/probes.trace"
}

@test "folded: ; in names becomes _" {
	printf '401100 a;b /x\n' > "$BATS_TEST_TMPDIR/syms"
	run "$S/folded" -c -s "$BATS_TEST_TMPDIR/syms" "$F/simple.trace"
	assert_success
	assert_line --index 0 "0000000000401000 1"
	assert_line --index 1 "0000000000401000;0000000000401200 1"
	assert_line --index 2 "0000000000401000;0000000000401200;a_b 1"
	assert_line --index 3 "0000000000401000;a_b 2"
}

@test "folded: bad options and unreadable files are errors; --help" {
	fails 2 "unknown option -q" "$S/folded" -q "$F/simple.trace"
	fails 1 "cannot read /nonexistent" "$S/folded" /nonexistent
	run "$S/folded" --help
	assert_success
	assert_line --index 0 "usage: folded [-c] [-t] [-s SYMS|PROGRAM] [-v hz=N | -v ctl=TRACECTL] [TRACE...]"
}

@test "flamegraph: boxes as wide as the stacks through them" {
	"$S/folded" -s "$F/threads.syms" -v "ctl=$F/tracectl" "$F/threads.trace" > "$BATS_TEST_TMPDIR/f"
	for a in $AWKS; do
		AWK=$a "$P/flamegraph" -u ns "$BATS_TEST_TMPDIR/f" > "$BATS_TEST_TMPDIR/$a.gp"
	done
	cmp "$BATS_TEST_TMPDIR/mawk.gp" "$BATS_TEST_TMPDIR/gawk.gp"
	# x1 x2 (percent of 250 ns) depth: main 0..60 holds worker 38..60 holds lock 52..60
	run sed -n '/^\$boxes/,/^EOD/p' "$BATS_TEST_TMPDIR/gawk.gp"
	assert_line --index 1 --regexp '^52 60 2 '
	assert_line --index 2 --regexp '^38 60 1 '
	assert_line --index 3 --regexp '^0 60 0 '
	assert_line --index 4 --regexp '^60 78 0 '
	assert_line --index 5 --regexp '^96 100 1 '
	assert_line --index 6 --regexp '^78 100 0 '
	run grep '^set xlabel' "$BATS_TEST_TMPDIR/gawk.gp"
	assert_output 'set xlabel "share of all ns (250 in all), percent"'
}

@test "flamegraph: PNG and SVG without gnuplot errors" {
	"$S/folded" -s "$F/recursion.syms" "$F/recursion.trace" > "$BATS_TEST_TMPDIR/f"
	for ext in png svg; do
		run "$P/flamegraph" -o "$BATS_TEST_TMPDIR/f.$ext" "$BATS_TEST_TMPDIR/f"
		assert_success
		assert_output ""
	done
	run head -c 4 "$BATS_TEST_TMPDIR/f.png"
	assert_output "$(printf '\211PNG')"
	run grep -c '>fib<' "$BATS_TEST_TMPDIR/f.svg"
	assert_output 3
}

@test "flamegraph: no stacks, and bad options, are errors" {
	fails 1 "no stacks with a value above 0" "$P/flamegraph" "$F/empty.trace"
	fails 1 "2 lines are not folded stacks" "$P/flamegraph" "$F/tracectl"
	fails 2 "must end in .png or .svg" "$P/flamegraph" -o x.pdf "$F/empty.trace"
	fails 2 "bad -g 10" "$P/flamegraph" -g 10 "$F/empty.trace"
	run "$P/flamegraph" --help
	assert_success
	assert_line --index 0 "usage: flamegraph [-u UNITS] [-o OUT.png | -o OUT.svg] [-g WIDTHxHEIGHT]"
}

@test "traceevents: calls that end on one tick nest as speedscope reads them" {
	# main -> f -> g, g a tail call: f and g return on one tick; then h
	printf 'E 401000 1000 9\nE 401100 1100 9\nE 401200 1200 9\nX 401200 1300 9\nX 401100 1300 9\nE 401300 1400 9\nX 401300 1500 9\nX 401000 1600 9\n' |
		"$BATS_TEST_DIRNAME/mktrace" > "$BATS_TEST_TMPDIR/tail.trace"
	for a in $AWKS; do
		AWK=$a "$S/traceevents" -v hz=1000000000 "$BATS_TEST_TMPDIR/tail.trace" > "$BATS_TEST_TMPDIR/tail.json"
		run "$BATS_TEST_DIRNAME/jsonnesting" "$BATS_TEST_TMPDIR/tail.json"
		assert_output nested
		AWK=$a "$S/traceevents" -s "$F/unfinished.syms" -v "ctl=$F/tracectl" "$F/unfinished.trace" > "$BATS_TEST_TMPDIR/u.json"
		run "$BATS_TEST_DIRNAME/jsonnesting" "$BATS_TEST_TMPDIR/u.json"
		assert_output nested
	done
	# g ends at 0.3 us; f, its caller, on the same tick, 0.1 ps later
	run jq -c '[.traceEvents[] | select(.ph == "X") | [.ts, .dur]]' "$BATS_TEST_TMPDIR/tail.json"
	assert_output '[[0.2,0.1],[0.1,0.2000001],[0.4,0.1],[0,0.6]]'
}
