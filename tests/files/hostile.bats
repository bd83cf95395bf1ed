#!/usr/bin/env bats
# A traced process of the same user can write anything into the shared
# block (devshm scribble does what it could): the other traced programs
# run on unchanged, the server keeps answering within a bound, counts
# the damage in #corrupt, and stops when told.  A process that holds
# the device's lock delays each request by a bound, then gets EAGAIN.
load helper

DEVSHM=$ROOT/build/tests/hooks/devshm

setup_file() {
	buildfl loop
}

attached() {
	grep -q " fl_work " "$D/syms"
}

@test "a process scribbling on the shared block changes no traced program's output and does not stop the server" {
	needlib
	start
	ctl trace fl_work new w
	ctl trace w on
	ctl start
	devtrace run "$X/fl_loop" 3 3000 "$BATS_TEST_TMPDIR/go" 100 > "$BATS_TEST_TMPDIR/out" 3>&- &
	p=$!
	BGPIDS=$p
	waitfor attached
	"$DEVSHM" "$D" scribble 300 &
	s=$!
	BGPIDS="$p $s"
	touch "$BATS_TEST_TMPDIR/go"
	# the server answers while the block is being damaged
	for _ in 1 2 3 4 5; do
		run timeout 5 cat "$D/tracectl"
		assert_success
		run timeout 5 cat "$D/trace"
		assert_success
		sleep 0.05
	done
	wait $s
	wait $p
	# 3 * 1000 * 3000 + 0 + 1 + ... + 2999
	run cat "$BATS_TEST_TMPDIR/out"
	assert_output "3 13498500"
	run timeout 5 cat "$D/tracectl"
	assert_success
	assert_output --regexp $'\n#corrupt [1-9][0-9]*\n'
	assert_line "logsize 65536"
	run timeout 10 devtrace stop
	assert_success
}

@test "names without NUL, nwatch past its array, log, tail, error text: tracectl answers, bounded, and counts each" {
	start
	ctl trace 1000 2000 new r
	ctl watch 5
	"$DEVSHM" "$D" scribble 1
	run timeout 5 cat "$D/tracectl"
	assert_success
	assert_line "trace 0000000000001000 0000000000002000 new nnnnnnnnnnnnnnn"
	assert_line "logsize 65536"
	# log 30, tail past head, the name, nwatch, the error text: 5
	assert_line "#corrupt 5"
	# repaired: counted once
	run timeout 5 cat "$D/tracectl"
	assert_line "#corrupt 5"
	run timeout 5 devtrace state
	assert_success
	assert_line "#corrupt 5"
	run timeout 10 devtrace stop
	assert_success
}

@test "a process holding the device's lock delays a request by a bound, which then fails with EAGAIN" {
	start
	"$DEVSHM" "$D" hold 3000 &
	BGPIDS=$!
	sleep 0.3
	SECONDS=0
	run -1 timeout 5 cat "$D/tracectl"
	assert_output --partial "Resource temporarily unavailable"
	run -1 timeout 5 bash -c "echo start > '$D/tracectl'"
	assert_output --partial "Resource temporarily unavailable"
	run -1 timeout 5 devtrace state
	assert_output "devtrace state: device busy: another process holds its lock"
	[ "$SECONDS" -le 2 ]
	wait "$BGPIDS"
	run timeout 5 cat "$D/tracectl"
	assert_success
	assert_line "#corrupt 0"
	run timeout 10 devtrace stop
	assert_success
}
