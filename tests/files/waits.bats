#!/usr/bin/env bats
# A wait is not the program's time (issue 46): under policy block a
# thread's hook may wait for the reader, and the device writes a W record
# (Kwait) after the record that waited, its first word the ticks waited.
# report, graph, replay, info and merge on recordings made by
# build/bench/mkrec (no device: exact ticks, a tick a ns) from
# tests/fixtures/traces/waits.trace (waitsf, helper.bash; its .src says
# the times): every time on the program's clock, each thread's ticks
# less its waits so far.  dump's are in dump.bats.
# shellcheck disable=SC2154 # stderr: set by run --separate-stderr
load helper

MKREC=$ROOT/build/bench/mkrec

# w, and wo: the same records without the waits
fixtures() {
	cd "$BATS_TEST_TMPDIR" || return 1
	waitsf
	grep -v '^W ' "$ROOT/tests/fixtures/traces/waits.trace" | "$MKREC" -o wo
	cp w.syms wo.syms
}

@test "report W: the waits taken out of the calls that held them and their callers, self times too; how much on a last line" {
	fixtures
	run devtrace report w
	assert_success
	# main 1000..2000 less 300 + 100 waited: 600, self 600 - 100 - 200; parse 100 and 450
	assert_output - <<-'OUT'
	FUNCTION    CALLS  TOTAL  SELF  MIN  AVG  MAX
	main            1    600   300  600  600  600
	parse           2    550   550  100  275  450
	render          1    200   200  200  200  200
	probe:step      1      -     -    -    -    -
	# times in ns
	# waited 400 ns in 2 tracer waits, taken out of the times
	OUT
	run devtrace report --threads w
	assert_success
	assert_output - <<-'OUT'
	TID  FUNCTION    CALLS  TOTAL  SELF  MIN  AVG  MAX
	100  main            1    600   300  600  600  600
	100  render          1    200   200  200  200  200
	100  parse           1    100   100  100  100  100
	100  probe:step      1      -     -    -    -    -
	200  parse           1    450   450  450  450  450
	# times in ns
	# waited 400 ns in 2 tracer waits, taken out of the times
	OUT
}

@test "report: no wait, no line; --diff: each file's waits on a line of its own, numbered" {
	fixtures
	run devtrace report wo
	assert_success
	assert_output - <<-'OUT'
	FUNCTION    CALLS  TOTAL  SELF   MIN   AVG   MAX
	main            1   1000   400  1000  1000  1000
	parse           2    850   850   400   425   450
	render          1    200   200   200   200   200
	probe:step      1      -     -     -     -     -
	# times in ns
	OUT
	run devtrace report w --diff wo
	assert_success
	assert_output - <<-'OUT'
	FUNCTION  TOTAL1  TOTAL2  DIFF       %  SELF1  SELF2  DIFF       %  CALLS1  CALLS2  DIFF      %
	main         600    1000  +400  +66.7%    300    400  +100  +33.3%       1       1    +0  +0.0%
	parse        550     850  +300  +54.5%    550    850  +300  +54.5%       2       2    +0  +0.0%
	render       200     200    +0   +0.0%    200    200    +0   +0.0%       1       1    +0  +0.0%
	# times in ns; 1: w, 2: wo
	# 1: waited 400 ns in 2 tracer waits, taken out of the times
	OUT
	run devtrace report --diff w wo
	assert_success
	assert_line --index 5 "# 2: waited 400 ns in 2 tracer waits, taken out of the times"
	assert_equal "${#lines[@]}" 6
}

@test "report W: one wait is 'a wait'; in ticks without a #hz" {
	cd "$BATS_TEST_TMPDIR"
	printf '%s\n' 'E 1000 0 a' 'W 1000 40 a 30' 'X 1000 64 a' | "$MKREC" -o one -z 0
	run devtrace report one
	assert_success
	assert_output - <<-'OUT'
	FUNCTION          CALLS  TOTAL  SELF  MIN  AVG  MAX
	0000000000001000      1     52    52   52   52   52
	# times in ticks
	# waited 48 ticks in 1 tracer wait, taken out of the times
	OUT
}

@test "graph W: each path's time on the program's clock; --callers likewise" {
	fixtures
	run devtrace graph w
	assert_success
	assert_output - <<-'OUT'
	    TOTAL TIME : FUNCTION
	           600 : (1) main
	           100 :  +-(1) parse
	           200 :  +-(1) render
	               :
	           450 : (1) parse
	# times in ns
	OUT
	run devtrace graph --callers w parse
	assert_success
	assert_output - <<-'OUT'
	backtrace #0: calls 1, time 450
	  [0] parse
	backtrace #1: calls 1, time 100
	  [0] parse
	  [1] main
	# times in ns
	OUT
}

@test "replay W: TIME and DURATION on each thread's program's clock, no line for a wait" {
	fixtures
	run devtrace replay w
	assert_success
	# thread 100 is 300 ns behind from parse's exit on, 400 from main's
	assert_output - <<-'OUT'
	    TID       TIME(ns)   DURATION  FUNCTION
	    100              0             -> main
	    100            100               -> parse
	    200            200             -> parse
	    100            200        100    <- parse
	    100            300               -> render
	    200            650        450  <- parse
	    100            400                 * probe:step 5 0 0 0
	    100            500        200    <- render
	    100            600        600  <- main
	OUT
}

@test "replay W -t MIN and -T START..END: chosen on the program's clock" {
	fixtures
	# thread 100's parse took 400 ns of which 300 waiting: not 300 ns long
	run devtrace replay -t 300ns w
	assert_success
	assert_output - <<-'OUT'
	    TID       TIME(ns)   DURATION  FUNCTION
	    100              0             -> main
	    200            200             -> parse
	    200            650        450  <- parse
	    100            600        600  <- main
	OUT
	# render is at 300..500 on its thread's clock, after thread 200's records past END in the file
	run devtrace replay -T 300ns..500ns w
	assert_success
	assert_output - <<-'OUT'
	    TID       TIME(ns)   DURATION  FUNCTION
	    100              0             -> render
	    100            100               * probe:step 5 0 0 0
	    100            200        200  <- render
	OUT
}

@test "report and replay W: what scripts/report and scripts/flow print from cat W's lines" {
	fixtures
	run devtrace cat w
	assert_line --index 4 "W $(hex $((0x401100))) $(hex 1400) $(hex 100) $(hex 300) $(hex 0) $(hex 0) $(hex 0)"
	run devtrace report w
	assert_output "$(devtrace cat w | "$ROOT/scripts/name" w.syms | "$ROOT/scripts/report" -v hz=1000000000)"
	run devtrace replay w
	assert_output "$(devtrace cat w | "$ROOT/scripts/name" w.syms | "$ROOT/scripts/flow")"
}

@test "info W: how long the program waited for the reader, after its records; none: no line" {
	fixtures
	run devtrace info w
	assert_success
	assert_line --index 10 "records   11"
	assert_line --index 11 "waited    0.000000400 s in 2 tracer waits"
	assert_line --index 12 --regexp '^lost '
	run devtrace info wo
	assert_success
	assert_line --index 11 --regexp '^lost '
	refute_line --regexp '^waited'
	printf '%s\n' 'E 1000 0 a' 'W 1000 40 a 30' 'X 1000 64 a' | "$MKREC" -o one -z 0
	run devtrace info one
	assert_success
	assert_line --index 11 "waited    48 ticks in 1 tracer wait"
}

@test "merge: a wait's ticks become ns as its host's other ticks do, so the scripts take out what was waited" {
	cd "$BATS_TEST_TMPDIR"
	# 2 ticks a ns: the call 2000..5000 is 1000..2500 ns, its wait of 1000 ticks 500 ns
	printf '#hz 2000000000\n#clock 0 5000000000\n' > h.ctl
	z=$(hex 0)
	{
		echo "E $(hex 4096) $(hex 2000) $(hex 7) $z $z $z $z"
		echo "W $(hex 4096) $(hex 4000) $(hex 7) $(hex 1000) $z $z $z"
		echo "X $(hex 4096) $(hex 5000) $(hex 7) $z $z $z $z"
	} > h.trace
	run devtrace merge h h.ctl h.trace
	assert_success
	assert_line --index 3 "W $(hex 4096) $(hex 5000002000) $(hex $((1 << 48 | 7))) $(hex 500) $z $z $z"
	devtrace merge h h.ctl h.trace > m
	run "$ROOT/scripts/durations" m
	assert_success
	assert_output "h/7 0000000000001000 0 5000001000 5000002000 1000 1000"
}
