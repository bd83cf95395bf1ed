#!/usr/bin/env bats
# A wait is not the program's time (issue 46): a W record (the thread
# waited for the reader under policy block, its first word the ticks
# waited) is taken out of every time the scripts compute: a record of a
# thread is at its ticks less the thread's waits so far (lib.awk's
# progtick).  tests/fixtures/traces/waits.src says each time: thread 100
# waits 300 inside parse and 100 in main's own time.
load helper

@test "waits: flow's TIME and DURATION on each thread's program's clock, no line for a wait" {
	golden waits.flow pipe '"$S/name" "$F/waits.syms" "$F/waits.trace" | "$S/flow"'
}

@test "waits: flow -v min chooses on the program's clock: parse's 400 ticks held 300 of waiting" {
	golden waits.flow.min300 pipe '"$S/name" "$F/waits.syms" "$F/waits.trace" | "$S/flow" -v hz=1000000000 -v min=300'
}

@test "waits: report's times less the waits, self times too; how much was waited on a last line" {
	golden waits.report pipe '"$S/name" "$F/waits.syms" "$F/waits.trace" | "$S/report"'
}

@test "waits: report in ns; one wait is 'a wait'; none, no line" {
	golden waits.report.ns pipe '"$S/name" "$F/waits.syms" "$F/waits.trace" | grep -v "^W render " | "$S/report" -v hz=2000000000'
	golden waits.report.none pipe '"$S/name" "$F/waits.syms" "$F/waits.trace" | grep -v "^W " | "$S/report"'
}

@test "waits: durations' start, end and times on the program's clock" {
	golden waits.durations pipe '"$S/name" "$F/waits.syms" "$F/waits.trace" | "$S/durations"'
}

@test "waits: folded's self times less the waits" {
	golden waits.folded pipe '"$S/name" "$F/waits.syms" "$F/waits.trace" | "$S/folded"'
}

@test "waits: traceevents' ts and dur on the program's clock, calls nested" {
	golden waits.traceevents pipe '"$S/name" "$F/waits.syms" "$F/waits.trace" | "$S/traceevents" -v hz=1000000000'
}

@test "waits: createplot draws the calls on the program's clock" {
	local a
	for a in $AWKS; do
		AWK=$a "$P/createplot" -s "$F/waits.syms" -m 0 "$F/waits.trace" > "$BATS_TEST_TMPDIR/w.gp"
		# boxes from, to (ticks since the first record): parse, 200's parse, render, main
		run sed -n '/^\$bars/,/^EOD/p' "$BATS_TEST_TMPDIR/w.gp"
		assert_line --index 1 --regexp '^100 200 '
		assert_line --index 2 --regexp '^200 650 '
		assert_line --index 3 --regexp '^300 500 '
		assert_line --index 4 --regexp '^0 600 '
		assert_equal "${#lines[@]}" 6
	done
}

@test "waits: name names a W's pc, its words left alone, even for a typed function; count counts no W as an entry" {
	local a
	echo 'parse s32 n:s32:1' > "$BATS_TEST_TMPDIR/sigs"
	for a in $AWKS; do
		run env AWK="$a" "$S/name" -a "$BATS_TEST_TMPDIR/sigs" "$F/waits.syms" "$F/waits.trace"
		assert_line --index 1 "E parse $(cut -d' ' -f3,4 "$F/waits.trace" | sed -n 2p) (n=1)"
		assert_line --index 3 "W parse $(cut -d' ' -f3- "$F/waits.trace" | sed -n 4p)"
		run env AWK="$a" "$S/count" -k func "$F/waits.trace"
		assert_output - <<-'OUT'
		FUNC              COUNT
		0000000000401000      1
		0000000000401100      2
		0000000000401200      1
		OUT
	done
}
