#!/usr/bin/env bats
# export.bats: the device's files served over 9P by an existing server,
# Debian's diod, on 127.0.0.1 only, and read back with its client diodcat
# (this machine's kernel has no 9P client).  As root (diod's users).
load helper

# diod serving the device directory on a free port of 127.0.0.1: P
diodstart() {
	local p
	for p in $(shuf -i 20000-60000 -n 8); do
		diod -f -n -N -l "127.0.0.1:$p" -e "$D" -c /dev/null -L "$BATS_TEST_TMPDIR/diod.log" &
		BGPIDS="$BGPIDS $!"
		P=$p
		if waitfor diodcat -t 1 -s "127.0.0.1:$P" -a "$D" tracectl; then
			return 0
		fi
	done
	return 1
}

waitfor() {
	local i
	for i in $(seq 50); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}

rcat() {
	timeout 10 diodcat -s "127.0.0.1:$P" -a "$D" "$@"
}

setup() {
	[ "$(id -u)" = 0 ] || skip "needs root (diod serves as its users)"
	export DEVTRACE_DIR=$BATS_TEST_TMPDIR/dev
	D=$DEVTRACE_DIR
	BGPIDS=
}

@test "diod serves tracectl: the same state as a local read" {
	start
	ctl trace 401000 402000 new x
	diodstart
	rcat tracectl > "$BATS_TEST_TMPDIR/remote"
	# #clock is read anew at every read: both reads' made fixed, as state() does
	run sed 's/^#hz [0-9]*$/#hz HZ/; s/^#clock [0-9]* [0-9]*$/#clock TICKS NS/' "$BATS_TEST_TMPDIR/remote"
	assert_output "$(state)"
}

@test "diod serves trace: its reads at an offset take the next records, exactly, once" {
	start
	ctl trace 401000 402000 new x
	ctl trace x on
	ctl start
	for i in 1 2 3; do ctl testtracein 401200 $i 2 3 4; done
	diodstart
	run rcat trace
	assert_success
	assert_equal "${#lines[@]}" 3
	for i in 0 1 2; do
		assert_regex "${lines[$i]}" "^E 0000000000401200 [0-9a-f]{16} [0-9a-f]{16} $(hex $((i + 1))) $(hex 2) $(hex 3) $(hex 4)\$"
	done
	run counter read
	assert_output 3
	run counter queued
	assert_output 0
	run rcat trace
	assert_success
	assert_output ""
}

@test "diod serves tracepipe: a remote reader waits for the next record" {
	start
	ctl trace 401000 402000 new x
	ctl trace x on
	ctl start
	diodstart
	timeout 5 diodcat -s "127.0.0.1:$P" -a "$D" tracepipe > "$BATS_TEST_TMPDIR/pipe" 2>&1 &
	pid=$!
	BGPIDS="$BGPIDS $pid"
	sleep 0.5
	# it waits: still reading, nothing read yet
	run kill -0 "$pid"
	assert_success
	run wc -c < "$BATS_TEST_TMPDIR/pipe"
	assert_output 0
	ctl testtracein 401200 7 8 9 a
	run waitfor grep -q . "$BATS_TEST_TMPDIR/pipe"
	assert_success
	run cat "$BATS_TEST_TMPDIR/pipe"
	assert_regex "$output" "^E 0000000000401200 [0-9a-f]{16} [0-9a-f]{16} $(hex 7) $(hex 8) $(hex 9) $(hex 10)\$"
}
