#!/usr/bin/env bats
# faults.bats: faults on the reader's side, and the server under
# valgrind (issue 12, build item 5).  A full disk or a closed pipe ends
# the reader with an error and a status; the device and the traced
# program go on as before, and a new reader gets the records that come
# next.  As root (a small tmpfs for the full disk).
load ../files/helper

WORK=${B:-$ROOT/build}/tests/soak/sk_work

# one traced run of sk_work: one thread, 1000 calls of sk_step, each
# calling sk_mix: exactly 4000 records
traced1() {
	devtrace run -- "$WORK" 7 1 1000 0
}

# the set-up every test starts from: sk_* traced, started
setup_device() {
	[ -x "$WORK" ] || skip "needs $WORK"
	[ -e "$ROOT/lib/libdevtrace.so" ] || skip "needs lib/libdevtrace.so"
	start
	ctl 'trace sk_* new sk'
	ctl 'trace sk on'
	ctl start
	"$WORK" 7 1 1000 0 > "$BATS_TEST_TMPDIR/want"
}

# the device works as before: the counters balance, nothing is queued,
# no reader is left, and a traced run prints what it prints untraced and
# queues its 4000 records, which a new reader gets whole
unaffected() {
	state > "$BATS_TEST_TMPDIR/state"
	run awk '$1 == "#hits" { h = $2 } $1 == "#read" { r = $2 } $1 == "#queued" { q = $2 }
		$1 == "#lost" { l = $2 } END { print (h == r + q + l) ? "balanced" : "unbalanced " h " " r " " q " " l }' "$BATS_TEST_TMPDIR/state"
	assert_output balanced
	run grep -c '^#reader' "$BATS_TEST_TMPDIR/state"
	assert_output 0
	run traced1
	assert_success
	assert_output "$(cat "$BATS_TEST_TMPDIR/want")"
	run counter queued
	assert_output 4000
	devtrace cat > "$BATS_TEST_TMPDIR/next"
	run wc -l < "$BATS_TEST_TMPDIR/next"
	assert_output 4000
	run awk -f "$BATS_TEST_DIRNAME/records.awk" "$BATS_TEST_TMPDIR/next"
	assert_success
}

# a tmpfs of 64 KiB: room for about 540 records
smalldisk() {
	S=$BATS_TEST_TMPDIR/small
	mkdir "$S"
	mount -t tmpfs -o size=64k tmpfs "$S" || skip "cannot mount a tmpfs"
}

unmount_small() {
	[ -z "${S:-}" ] || umount "$S" 2>/dev/null || true
	S=
}

# the files suite's teardown, after the tmpfs is gone
eval "files_$(declare -f teardown)"
teardown() {
	unmount_small
	files_teardown
}

# the readers, with their standard output sent to FILE (run captures its own)
devcat() {
	devtrace cat > "$1"
}
cattrace() {
	cat "$D/trace" > "$1"
}

@test "the test's program prints one line per thread and a total, the same every run" {
	[ -x "$WORK" ] || skip "needs $WORK"
	run "$WORK" 7 2 1000 0
	assert_success
	assert_output "7 0 50e159ee1ee9f20d
7 1 acea6a6797f441cd
7 total fc0b3389891db3c0"
}

@test "devtrace cat on a full disk (/dev/full) fails with status 1 and the device is unaffected" {
	setup_device
	run traced1
	assert_output "$(cat "$BATS_TEST_TMPDIR/want")"
	run devcat /dev/full
	assert_failure 1
	unaffected
}

@test "devtrace cat on a full disk says why: No space left on device" {
	setup_device
	run traced1
	run --separate-stderr devcat /dev/full
	assert_failure 1
	# shellcheck disable=SC2154 # set by run --separate-stderr
	[ "$stderr" = "devtrace cat: standard output: No space left on device" ]
}

@test "devtrace cat on a full tmpfs fails with status 1, what fit is kept, the device is unaffected" {
	setup_device
	smalldisk
	run traced1
	run --separate-stderr devcat "$S/out"
	fit=$(wc -c < "$S/out")
	unmount_small
	assert_failure 1
	# the file holds what fit, up to the disk's size
	[ "$fit" -gt 0 ]
	[ "$fit" -le 65536 ]
	unaffected
}

@test "cat trace on a full disk (/dev/full and a full tmpfs) fails with cat's error and the device is unaffected" {
	setup_device
	run traced1
	run --separate-stderr cattrace /dev/full
	assert_failure 1
	[ "$stderr" = "cat: write error: No space left on device" ]
	unaffected
	smalldisk
	run traced1
	run --separate-stderr cattrace "$S/out"
	unmount_small
	assert_failure 1
	[ "$stderr" = "cat: write error: No space left on device" ]
	unaffected
}

@test "devtrace cat -f | head -1: the reader ends at the closed pipe, the server serves on, a new reader works" {
	setup_device
	run traced1
	run timeout 20 bash -c 'devtrace cat -f | head -1; echo "status ${PIPESTATUS[0]}"'
	assert_success
	assert_line --index 0 --regexp '^E [0-9a-f]{16} '
	# EPIPE: devtrace ignores SIGPIPE and ends with status 1
	assert_line --index 1 "status 1"
	unaffected
}

@test "cat tracepipe | head -1: cat ends at SIGPIPE, the server serves on, a new reader works" {
	setup_device
	run traced1
	run timeout 20 bash -c 'cat "$1/tracepipe" | head -1; echo "status ${PIPESTATUS[0]}"' sh "$D"
	assert_success
	assert_line --index 0 --regexp '^E [0-9a-f]{16} '
	assert_line --index 1 "status 141"
	unaffected
}

@test "the server runs leak-free under valgrind: ctl writes, reads, a traced program, SIGTERM" {
	command -v valgrind > /dev/null || skip "needs valgrind"
	[ -x "$WORK" ] || skip "needs $WORK"
	[ -e "$ROOT/lib/libdevtrace.so" ] || skip "needs lib/libdevtrace.so"
	log=$BATS_TEST_TMPDIR/vg.log
	valgrind -q --leak-check=full --error-exitcode=99 --log-file="$log" "$BIN/devtraced" -f -n 3>&- &
	vg=$!
	BGPIDS=$vg
	for _ in $(seq 600); do
		if [ -e "$D/tracectl" ]; then break; fi
		sleep 0.1
	done
	"$WORK" 7 1 1000 0 > "$BATS_TEST_TMPDIR/want"
	# the session, through the files (devtrace's commands check that the
	# server's process is named devtraced: under valgrind it is not), a
	# refusal, reads of every file, a traced program preloaded by hand
	ctl 'trace sk_* new sk'
	ctl 'trace sk pred /arg1 % 2 == 0/'
	ctl 'trace sk pred'
	ctl 'trace sk on'
	ctl 'watch 0'
	ctl 'size 12'
	ctl start
	run ctl 'trace nosuch on'
	assert_failure
	run env LD_PRELOAD="$ROOT/lib/libdevtrace.so" "$WORK" 7 1 1000 0
	assert_output "$(cat "$BATS_TEST_TMPDIR/want")"
	cat "$D/tracectl" "$D/syms" > /dev/null
	# 10 records, read whole, then the rest
	dd if="$D/trace" of=/dev/null bs=1210 count=1 status=none
	cat "$D/trace" > "$BATS_TEST_TMPDIR/rest"
	run wc -l < "$BATS_TEST_TMPDIR/rest"
	assert_output 3990
	run env LD_PRELOAD="$ROOT/lib/libdevtrace.so" "$WORK" 7 1 1000 0
	timeout 10 head -c 121000 "$D/tracepipe" > /dev/null
	ctl stop
	ctl 'trace sk remove'
	kill -TERM "$vg"
	st=0
	wait "$vg" || st=$?
	# shellcheck disable=SC2034 # read by teardown in helper.bash
	BGPIDS=
	[ "$st" = 0 ] || cat "$log" >&2
	[ "$st" = 0 ]
	run cat "$log"
	assert_output ""
}
