#!/usr/bin/env bats
# The device used as the paper uses it: echo into tracectl, cat the files.
load helper

# the file has n lines (counted again at every try of waitfor)
nlines() {
	[ "$(wc -l < "$1")" -eq "$2" ]
}

@test "the paper's session: cat tracectl, trace new, on, start, inject, cat tracectl, cat trace, stop" {
	start
	run state
	assert_output - <<-'END'
	logsize 65536
	policy ring
	watch 0
	stop
	#hits 0
	#read 0
	#queued 0
	#lost 0
	#dropped 0
	#filtered 0
	#reentered 0
	#deep 0
	#predfaults 0
	#badprogs 0
	#corrupt 0
	#ringless 0
	#hz HZ
	#clock TICKS NS
	END
	echo trace 119f61 11aac8 new rtc > "$D/tracectl"
	echo trace rtc on > "$D/tracectl"
	echo start > "$D/tracectl"
	echo testtracein 119f61 1 2 3 4 > "$D/tracectl"
	echo testtracein 11a000 a b c d > "$D/tracectl"
	echo testtracein 11aac7 ffffffffffffffff 0 0 0 > "$D/tracectl"
	echo testtracein 11aac8 9 9 9 9 > "$D/tracectl"	# past the range: not traced
	run state
	assert_output - <<-'END'
	logsize 65536
	policy ring
	trace 0000000000119f61 000000000011aac8 new rtc
	trace rtc on
	watch 0
	start
	#hits 3
	#read 0
	#queued 3
	#lost 0
	#dropped 0
	#filtered 0
	#reentered 0
	#deep 0
	#predfaults 0
	#badprogs 0
	#corrupt 0
	#ringless 0
	#hz HZ
	#clock TICKS NS
	END
	me=$BASHPID
	pid=$(hex $me)
	cat "$D/trace" > "$BATS_TEST_TMPDIR/rec"
	# the ticks differ from run to run: they must only grow
	run awk 'NR > 1 && $3 "" <= last "" { print "ticks went back: " $0 } { last = $3; $3 = "T"; print }' "$BATS_TEST_TMPDIR/rec"
	assert_output - <<-END
	E 0000000000119f61 T $pid 0000000000000001 0000000000000002 0000000000000003 0000000000000004
	E 000000000011a000 T $pid 000000000000000a 000000000000000b 000000000000000c 000000000000000d
	E 000000000011aac7 T $pid ffffffffffffffff 0000000000000000 0000000000000000 0000000000000000
	END
	wellformed "$BATS_TEST_TMPDIR/rec"
	# the records were consumed: the queue is empty and a read ends at once
	run cat "$D/trace"
	assert_success
	assert_output ""
	[ "$(counter read)" = 3 ]
	[ "$(counter queued)" = 0 ]
	echo stop > "$D/tracectl"
	run grep -c -x -e start -e stop "$D/tracectl"
	assert_output 1
	run grep -x stop "$D/tracectl"
	assert_success
}

@test "a refused command makes the write fail and leaves its reason as the last line of tracectl" {
	start
	ctl trace 1000 2000 new t
	state > "$BATS_TEST_TMPDIR/before"
	run bash -c 'echo bogus > "$DEVTRACE_DIR/tracectl"'
	assert_failure 1
	assert_output --partial "write error: Invalid argument"
	run state
	assert_line --index 0 "logsize 65536"
	[ "${lines[-1]}" = "#error bogus: unknown command" ]
	# nothing else changed
	diff <(grep -v '^#' "$BATS_TEST_TMPDIR/before") <(state | grep -v '^#')
	# the errno says what kind of refusal it was (never ENOENT: tracectl is there)
	run bash -c 'echo trace nosuch on > "$DEVTRACE_DIR/tracectl"'
	assert_failure
	assert_output --partial "write error: Invalid argument"
	run bash -c 'echo trace 1800 2800 new u > "$DEVTRACE_DIR/tracectl"'
	assert_failure
	assert_output --partial "File exists"
	run tail -n 1 "$D/tracectl"
	assert_output --regexp '^#error trace: .+'
	# the next good command clears it
	ctl start
	run grep '^#error' "$D/tracectl"
	assert_failure
}

@test "devtrace ctl prints the device's reason for a refusal and exits 1" {
	start
	run devtrace ctl trace 2000 1000 new backwards
	assert_failure 1
	assert_output --regexp '^devtrace ctl: trace 2000 1000 new backwards: trace: .+'
	why=${output#devtrace ctl: trace 2000 1000 new backwards: }
	run tail -n 1 "$D/tracectl"
	assert_output "#error $why"
	run devtrace ctl trace 1000 2000 new t
	assert_success
	assert_output ""
	run grep -x 'trace 0000000000001000 0000000000002000 new t' "$D/tracectl"
	assert_success
	# with no arguments it reads the commands from standard input
	printf 'trace t on\nstart\n' | devtrace ctl
	run grep -x -e 'trace t on' -e start "$D/tracectl"
	assert_success
	[ "${#lines[@]}" -eq 2 ]
}

@test "one write of several lines; what tracectl reads rebuilds the state on a new server" {
	start
	printf 'trace 1000 2000 new a\ntrace 3000 4000 new b\ntrace a on\nwatch 77\nwatch 78\nstart\n' > "$D/tracectl"
	cat "$D/tracectl" > "$BATS_TEST_TMPDIR/saved"
	run grep -v '^#' "$BATS_TEST_TMPDIR/saved"
	assert_output - <<-'END'
	logsize 65536
	policy ring
	trace 0000000000001000 0000000000002000 new a
	trace a on
	trace 0000000000003000 0000000000004000 new b
	watch 0
	watch 77
	watch 78
	start
	END
	devtrace stop
	start
	cat "$BATS_TEST_TMPDIR/saved" > "$D/tracectl"
	diff <(grep -v '^#' "$BATS_TEST_TMPDIR/saved") <(grep -v '^#' "$D/tracectl")
}

@test "tracepipe waits for records, and a signal or the server's stop ends the wait" {
	start
	ctl trace 1000 2000 new t
	ctl trace t on
	ctl start
	cat "$D/tracepipe" > "$BATS_TEST_TMPDIR/out" 3>&- &
	c=$!
	BGPIDS="$c"
	waitfor grep -qx "#reader $c" "$D/tracectl"
	sleep 0.1
	[ ! -s "$BATS_TEST_TMPDIR/out" ]
	ctl testtracein 1500 1 2 3 4
	waitfor test -s "$BATS_TEST_TMPDIR/out"
	ctl testtracein 1600 5 6 7 8
	waitfor nlines "$BATS_TEST_TMPDIR/out" 2
	wellformed "$BATS_TEST_TMPDIR/out"
	kill -TERM $c
	waitfor bash -c "! kill -0 $c 2>/dev/null"
	# closing it takes the reader off the list
	waitfor bash -c "! grep -q '^#reader' '$D/tracectl'"
	# a stop ends a waiting reader with end of file
	cat "$D/tracepipe" > /dev/null 3>&- &
	c=$!
	BGPIDS="$c"
	waitfor grep -qx "#reader $c" "$D/tracectl"
	devtrace stop
	waitfor bash -c "! kill -0 $c 2>/dev/null"
}

@test "devtrace ctl, state and cat work on the shared memory; cat registers as a reader" {
	start
	devtrace ctl trace 1000 2000 new t
	devtrace ctl trace t on
	devtrace ctl start
	devtrace ctl testtracein 1234 1 2 3 4
	run devtrace state
	assert_line "#queued 1"
	diff <(devtrace state | grep -v '^#') <(grep -v '^#' "$D/tracectl")
	run devtrace cat
	assert_success
	assert_output --regexp '^E 0000000000001234 [0-9a-f]{16} [0-9a-f]{16} 0000000000000001 0000000000000002 0000000000000003 0000000000000004$'
	run devtrace state
	assert_line "#queued 0"
	assert_line "#read 1"
	devtrace cat -f > "$BATS_TEST_TMPDIR/out" 3>&- &
	c=$!
	# shellcheck disable=SC2034 # read by teardown in helper.bash
	BGPIDS="$c"
	waitfor grep -qx "#reader $c" "$D/tracectl"
	# the reader's own injections are not traced: these come from the shell
	ctl testtracein 1500 5 6 7 8
	waitfor test -s "$BATS_TEST_TMPDIR/out"
	wellformed "$BATS_TEST_TMPDIR/out"
	kill -TERM $c
	wait $c || true
	run grep '^#reader' "$D/tracectl"
	assert_failure
}

@test "syms is there and empty while no traced process has attached" {
	start
	run cat "$D/syms"
	assert_success
	assert_output ""
	run ls "$D"
	assert_output - <<-'END'
	aggraw
	aggs
	clone
	syms
	trace
	tracectl
	tracepipe
	END
}
