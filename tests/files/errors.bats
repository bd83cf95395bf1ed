#!/usr/bin/env bats
# Refusals as a user reads them: what a shell prints for a refused write
# to tracectl (strerror of the errno, nothing more), the state's #error
# lines, what devtrace ctl prints, and the messages that name a limit.
load helper

setup_file() {
	buildfl loop
}

# a refused line echoed into tracectl: the shell's complaint is all it prints
refused() {
	run -1 bash -c "echo '$1' > '$D/tracectl'"
	assert_output "bash: line 1: echo: write error: $2"
}

@test "a write naming no trace: the shell says Invalid argument, never No such file or directory" {
	start
	refused 'trace nosuch on' 'Invalid argument'
	run grep '^#error' "$D/tracectl"
	assert_output "#error trace: no such trace"
	refused 'agg @nosuch clear' 'Invalid argument'
	run grep '^#error' "$D/tracectl"
	assert_output "#error agg: no such aggregation"
}

@test "devtrace ctl prints the refused line and the #error text, and exits 1" {
	start
	run -1 devtrace ctl 'trace nosuch on'
	assert_output "devtrace ctl: trace nosuch on: trace: no such trace"
	run -1 devtrace ctl trace nosuch on
	assert_output "devtrace ctl: trace nosuch on: trace: no such trace"
	# from standard input the line is not known: it names standard input
	run -1 bash -c "printf 'watch 5\ntrace nosuch on\n' | devtrace ctl"
	assert_output "devtrace ctl: standard input: trace: no such trace"
}

@test "size says its range: 4 to the device's logmax, in records for logsize" {
	start
	refused 'size 21' 'Invalid argument'
	run grep '^#error' "$D/tracectl"
	assert_output "#error size: size out of range (4 to 20)"
	run -1 devtrace ctl logsize 2097152
	assert_output "devtrace ctl: logsize 2097152: logsize: size out of range (16 to 1048576)"
	devtrace stop
	# a device made smaller says its own bound
	start -m 12
	run -1 devtrace ctl size 13
	assert_output "devtrace ctl: size 13: size: size out of range (4 to 12)"
}

@test "a trace name of 20 characters: the rule and its 15" {
	start
	refused 'trace 1000 2000 new abcdefghijklmnopqrst' 'Invalid argument'
	run grep '^#error' "$D/tracectl"
	assert_output "#error trace: bad trace name (a letter or _, then letters, digits, _ - or ., 15 at most)"
	run -1 devtrace ctl trace 1000 2000 new abcdefghijklmnopqrst
	assert_output "devtrace ctl: trace 1000 2000 new abcdefghijklmnopqrst: trace: bad trace name (a letter or _, then letters, digits, _ - or ., 15 at most)"
}

@test "trigger stop after a number too large: its range, not the usage" {
	start
	ctl trace 1000 2000 new t
	refused 'trace t trigger stop after 99999999999999' 'Invalid argument'
	run grep '^#error' "$D/tracectl"
	assert_output "#error trace: after N out of range (0 to 1000000000)"
	run -0 devtrace ctl trace t trigger stop after 1000000000
	run -0 grep -c '^trace t trigger stop after 1000000000$' "$D/tracectl"
}

# A division by zero in a predicate, a constant one too, is a fault at
# the hit: the hit is dropped and counted in #predfaults, which devtrace
# run reports (devtrace(4), Predicates; NOTES, "Defined meanings where C
# has none").

@test "run -p '1/0': taken, every call faults and is dropped: the program's output, and run says why" {
	needlib
	run -0 --separate-stderr devtrace run -t fl_work -p '1/0' -- "$X/fl_loop" 1 3 - 0
	assert_output "1 3003"
	# shellcheck disable=SC2154 # set by run --separate-stderr
	assert_equal "$stderr" "devtrace run: 3 hits dropped: -p's predicate divided by zero (or the most negative number by -1) there (the session's #predfaults)"
	run -0 devtrace run -t fl_work -p '1 || 1/0' -- "$X/fl_loop" 1 3 - 0
	assert_line --index 0 "1 3003"
	assert_line --index 1 --regexp '^ +TID +TIME\(ns\) +DURATION +FUNCTION$'
	run -0 grep -c -- '-> fl_work' <<< "$output"
	assert_output 3
}

@test "a divisor that is 0 at the hit: that hit is dropped and counted in #predfaults, the state says so" {
	start
	ctl trace 1000 2000 new t
	ctl 'trace t pred /arg0 / arg1 > 0/'
	ctl trace t on
	ctl start
	ctl testtracein 1000 5 0 0 0
	ctl testtracein 1000 5 1 0 0
	ctl 'trace t pred /1/0/'
	ctl testtracein 1000 5 1 0 0
	run counter predfaults
	assert_output 2
	run counter hits
	assert_output 1
	run counter queued
	assert_output 1
	run -1 grep -c '^#error' "$D/tracectl"
	assert_output 0
}
