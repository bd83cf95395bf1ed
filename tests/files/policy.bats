#!/usr/bin/env bats
# The buffer policies end to end: a program built with bin/devtrace-cc,
# its every call traced through a small ring; what each policy keeps and
# counts, block with a live reader (nothing lost) and with a stopped one
# (the program still finishes, the loss counted exactly).
load helper

setup_file() {
	[ -e "$ROOT/lib/libdevtrace.so" ] || return 0
	"$ROOT/bin/devtrace-cc" -O0 -g -o "$BATS_FILE_TMPDIR/fl_loop" "$BATS_TEST_DIRNAME/fl_loop.c"
	"$ROOT/bin/devtrace-cc" -O0 -g -pthread -o "$BATS_FILE_TMPDIR/fl_threads" "$BATS_TEST_DIRNAME/fl_threads.c"
}

# every fl_work of the program traced, stopped, with the lines given first
tracing() {
	start
	local l
	for l in "$@"; do ctl "$l"; done
	ctl trace fl_work new w
	ctl trace w on
	ctl start
}

# the reader has written N E and X lines (checked again at every try of waitfor)
lines() {
	[ "$(grep -c '^[EX]' "$BATS_TEST_TMPDIR/out")" -ge "$1" ]
}

# the reader has drained the ring, and its file holds every record it read
drained() {
	[ "$(counter queued)" = 0 ] && [ "$(wc -l < "$BATS_TEST_TMPDIR/out")" -eq "$(counter read)" ]
}

# the calls of fl_loop ID in a record file, in order: "first last count bad"
# (an E with arg1 i, then its X returning ID * 1000 + i, for i counting up by one)
calls() {
	awk -v id="$1" '
		$1 == "E" { i = strtonum("0x" $6); if (n && i != last + 1) bad++; if (!n) first = i; last = i; n++; open = 1
			if (strtonum("0x" $5) != id) bad++ }
		$1 == "X" { if (!open || strtonum("0x" $5) != id * 1000 + last) bad++; open = 0 }
		END { print first + 0, last + 0, n + 0, bad + 0 }' "$2"
}

@test "policy ring keeps the newest records, fill the oldest; each counts the rest" {
	needlib
	tracing "size 4"
	run devtrace run "$X/fl_loop" 1 100 - 0
	assert_output "1 104950"
	run grep -x "policy ring" "$D/tracectl"
	assert_success
	cat "$D/trace" > "$BATS_TEST_TMPDIR/ring"
	# 16 records of 200: calls 92 to 99
	run calls 1 "$BATS_TEST_TMPDIR/ring"
	assert_output "92 99 8 0"
	run counter hits
	assert_output 200
	run counter lost
	assert_output 184
	run counter dropped
	assert_output 0
	ctl policy fill
	run devtrace run "$X/fl_loop" 2 100 - 0
	assert_output "2 204950"
	cat "$D/trace" > "$BATS_TEST_TMPDIR/fill"
	run calls 2 "$BATS_TEST_TMPDIR/fill"
	assert_output "0 7 8 0"
	run counter hits
	assert_output 400
	run counter read
	assert_output 32
	run counter lost
	assert_output 184
	run counter dropped
	assert_output 184
}

@test "policy block with a live reader: every call of the program saved, none lost" {
	needlib
	tracing "size 10" "policy block 10000"
	cat "$D/tracepipe" > "$BATS_TEST_TMPDIR/out" 3>&- &
	c=$!
	# shellcheck disable=SC2034 # read by teardown in helper.bash
	BGPIDS=$c
	waitfor grep -qx "#reader $c" "$D/tracectl"
	# 40,000 records through a ring of 1024
	run devtrace run "$X/fl_loop" 3 20000 - 0
	assert_output "3 259990000"
	waitfor lines 40000
	kill -TERM $c
	waitfor gone $c
	wellformed "$BATS_TEST_TMPDIR/out"
	run calls 3 "$BATS_TEST_TMPDIR/out"
	assert_output "0 19999 20000 0"
	run grep -c '^[EX]' "$BATS_TEST_TMPDIR/out"
	assert_output 40000
	# the writer waited for the reader: each wait a mark, a record of its own
	w=$(marks "$BATS_TEST_TMPDIR/out")
	run counter hits
	assert_output $((40000 + w))
	run counter read
	assert_output $((40000 + w))
	run counter lost
	assert_output 0
	run counter dropped
	assert_output 0
}

@test "policy block with a stopped reader: the program finishes within its bound, the loss counted exactly" {
	needlib
	tracing "size 4" "policy block 200"
	cat "$D/tracepipe" > "$BATS_TEST_TMPDIR/out" 3>&- &
	c=$!
	# shellcheck disable=SC2034 # read by teardown in helper.bash
	BGPIDS=$c
	waitfor grep -qx "#reader $c" "$D/tracectl"
	kill -STOP $c
	# without the bound's end, 4,000 records at 200 ms each: over 13 minutes
	SECONDS=0
	run timeout 30 devtrace run "$X/fl_loop" 4 2000 - 0
	assert_success
	assert_output "4 9999000"
	took=$SECONDS
	[ "$took" -lt 20 ]
	run counter hits
	assert_output 4000
	run counter lost
	assert_output 0
	dropped=$(counter dropped)
	[ "$dropped" -gt 0 ]
	# the reader goes on: what it reads and what was dropped are every record
	kill -CONT $c
	waitfor drained
	kill -TERM $c
	waitfor gone $c
	wellformed "$BATS_TEST_TMPDIR/out"
	run counter dropped
	assert_output "$dropped"
	run wc -l < "$BATS_TEST_TMPDIR/out"
	assert_output "$((4000 - dropped))"
	run counter read
	assert_output "$((4000 - dropped))"
	# the oldest were kept: the first call, whole and in order
	run calls 4 "$BATS_TEST_TMPDIR/out"
	assert_output --regexp '^0 [0-9]+ [0-9]+ 0$'
}

# fl_threads 4 5000 (4 writers with a ring each, 40,000 records), read
# live through tracepipe under the lines given; the reader stops once
# it has drained the rings; "sum"
livethreads() {
	tracing "$@"
	cat "$D/tracepipe" > "$BATS_TEST_TMPDIR/out" 3>&- &
	c=$!
	# shellcheck disable=SC2034 # read by teardown in helper.bash
	BGPIDS=$c
	waitfor grep -qx "#reader $c" "$D/tracectl"
	devtrace run "$X/fl_threads" 4 5000
	waitfor drained
	kill -TERM $c
	waitfor gone $c
}

# the calls of each thread in the file, one line a thread: "count bad" (bad: an E whose arg1 is not one past the last)
threadcalls() {
	awk '$1 == "E" { t = $4; i = strtonum("0x" $6); if (t in n && i != last[t] + 1) bad[t]++; last[t] = i; n[t]++ }
		END { for (t in n) print n[t], bad[t] + 0 }' "$1" | sort
}

# every record of the run is saved or counted: hits 40000 = read + lost + dropped, read = the lines saved;
# under block each wait for the reader is a mark (W), a record more
balanced() {
	w=$(marks "$BATS_TEST_TMPDIR/out")
	run counter hits
	assert_output $((40000 + w))
	run counter queued
	assert_output 0
	assert_equal $(($(counter read) + $(counter lost) + $(counter dropped))) $((40000 + w))
	run wc -l < "$BATS_TEST_TMPDIR/out"
	assert_output "$(counter read)"
	wellformed "$BATS_TEST_TMPDIR/out"
}

@test "four threads, each its own ring, read live under ring: every record saved or counted lost, exactly" {
	needlib
	run livethreads
	assert_success
	assert_output 30049990000
	balanced
	run counter dropped
	assert_output 0
	# a ring each, given back at their end
	run grep -c '^#ring [0-9]* tid 0 hits ' "$D/tracectl"
	assert_output 4
	run grep -c '^#ring ' "$D/tracectl"
	assert_output 4
}

@test "four threads, each its own ring, read live under fill: every record saved or counted dropped, exactly" {
	needlib
	run livethreads "policy fill"
	assert_success
	assert_output 30049990000
	balanced
	run counter lost
	assert_output 0
}

@test "four threads, each its own ring, read live under block: all 40,000 saved, in each thread's order" {
	needlib
	run livethreads "policy block 10000"
	assert_success
	assert_output 30049990000
	balanced
	run grep -c '^[EX]' "$BATS_TEST_TMPDIR/out"
	assert_output 40000
	run counter read
	assert_output $((40000 + $(marks "$BATS_TEST_TMPDIR/out")))
	run threadcalls "$BATS_TEST_TMPDIR/out"
	assert_output - <<-'END'
	5000 0
	5000 0
	5000 0
	5000 0
	END
}

@test "more threads than rings: the rest write the shared ring, nothing is lost unseen" {
	needlib
	# 64M: 16 rings of the default size
	start -M 64M
	ctl policy block 10000
	ctl trace fl_work new w
	ctl trace w on
	ctl start
	cat "$D/tracepipe" > "$BATS_TEST_TMPDIR/out" 3>&- &
	c=$!
	# shellcheck disable=SC2034 # read by teardown in helper.bash
	BGPIDS=$c
	waitfor grep -qx "#reader $c" "$D/tracectl"
	# 24 threads, 16 rings
	run devtrace run "$X/fl_threads" 24 500
	assert_output 138002994000
	waitfor drained
	kill -TERM $c
	waitfor gone $c
	run counter hits
	assert_output 24000
	run counter read
	assert_output 24000
	run wc -l < "$BATS_TEST_TMPDIR/out"
	assert_output 24000
	run grep -c '^#ring ' "$D/tracectl"
	assert_output 16
	# only the 24 call fl_work: 8 found every ring taken
	run counter ringless
	assert_output 8
	run threadcalls "$BATS_TEST_TMPDIR/out"
	assert_output "$(for _ in $(seq 24); do echo "500 0"; done)"
}

@test "rings sized to the machine: 64 threads, each a ring of its own, none ringless" {
	needlib
	tracing "policy block 10000"
	cat "$D/tracepipe" > "$BATS_TEST_TMPDIR/out" 3>&- &
	c=$!
	# shellcheck disable=SC2034 # read by teardown in helper.bash
	BGPIDS=$c
	waitfor grep -qx "#reader $c" "$D/tracectl"
	run devtrace run "$X/fl_threads" 64 100
	assert_success
	waitfor drained
	run counter ringless
	assert_output 0
	run counter read
	assert_output 12800
	run threadcalls "$BATS_TEST_TMPDIR/out"
	assert_output "$(for _ in $(seq 64); do echo "100 0"; done)"
}

@test "cat trace after 64 threads: every ring in each read, the records in time order" {
	needlib
	tracing
	run devtrace run "$X/fl_threads" 64 100
	assert_success
	run counter queued
	assert_output 12800
	# FUSE asks a few pages a read: each read merges all 64 rings, so the order holds across reads
	cat "$D/trace" > "$BATS_TEST_TMPDIR/out"
	run wc -l < "$BATS_TEST_TMPDIR/out"
	assert_output 12800
	run awk '{ t = strtonum("0x" $3) } NR > 1 && t < last { bad++ } { last = t } END { print bad + 0 }' "$BATS_TEST_TMPDIR/out"
	assert_output 0
	run threadcalls "$BATS_TEST_TMPDIR/out"
	assert_output "$(for _ in $(seq 64); do echo "100 0"; done)"
}
