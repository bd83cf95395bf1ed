#!/usr/bin/env bats
# Command lines split across writes to tracectl, or across the chunks
# devtrace ctl reads: a line runs whole when its newline comes, an
# unfinished line when the file is closed.
load helper

# a set-up with a predicate, a pattern, watches and a size, saved as tracectl reads it
saved() {
	start
	printf '%s\n' 'size 10' 'trace 401000 402000 new main' "trace 'rtc*' new rtc" \
		'trace rtc on' "trace main pred /arg0 > 5 && arg1 != 'x'/" 'trace main on' \
		'watch 123456789' 'watch 8' 'start' > "$D/tracectl"
	cat "$D/tracectl" > "$BATS_TEST_TMPDIR/saved"
	state > "$BATS_TEST_TMPDIR/want"
	devtrace stop
	start
}

# commands of 19 bytes, n of them: a line straddles every power-of-two offset
queries() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "query 0x%010x\n", 4096 + i }'
}

@test "dd bs=7 of a saved state into tracectl rebuilds the state exactly" {
	saved
	run grep -c . "$BATS_TEST_TMPDIR/saved"
	assert_output 25
	run dd bs=7 if="$BATS_TEST_TMPDIR/saved" of="$D/tracectl"
	assert_success
	run diff "$BATS_TEST_TMPDIR/want" <(state)
	assert_success
}

@test "dd bs=1 of a saved state into tracectl rebuilds the state exactly" {
	saved
	run dd bs=1 if="$BATS_TEST_TMPDIR/saved" of="$D/tracectl"
	assert_success
	run diff "$BATS_TEST_TMPDIR/want" <(state)
	assert_success
}

@test "a line split across two writes is one command: watch 12, then 3456789" {
	start
	# bash's printf writes at once: two writes on one open file
	run bash -c 'exec > "$DEVTRACE_DIR/tracectl"; printf "watch 12"; printf "3456789\n"'
	assert_success
	run grep '^watch [1-9]' "$D/tracectl"
	assert_output "watch 123456789"
	run grep -c '^#error' "$D/tracectl"
	assert_output 0
}

@test "awk writing 93 KiB of commands through stdio's 8 KiB buffer: every line whole" {
	start
	run bash -c "awk 'BEGIN { for (i = 0; i < 5000; i++) printf \"query 0x%010x\\n\", 4096 + i }' > \"\$DEVTRACE_DIR/tracectl\""
	assert_success
	assert_output ""
	run grep -c '^#error' "$D/tracectl"
	assert_output 0
	run grep '^#query' "$D/tracectl"
	assert_output "#query 0000000000002387 untraced"
}

@test "one write of 3 MiB, which the kernel splits, applies every line whole" {
	start
	queries 160000 > "$BATS_TEST_TMPDIR/big"
	run stat -c %s "$BATS_TEST_TMPDIR/big"
	assert_output 3040000
	# one read, one write
	run dd bs=4M if="$BATS_TEST_TMPDIR/big" of="$D/tracectl"
	assert_success
	assert_line --index 1 "0+1 records out"
	run grep -c '^#error' "$D/tracectl"
	assert_output 0
	run grep '^#query' "$D/tracectl"
	assert_output "#query 00000000000280ff untraced"
}

@test "an unfinished line runs when the file is closed, as echo -n start does" {
	start
	echo -n start > "$D/tracectl"
	run grep -x -e start -e stop "$D/tracectl"
	assert_output start
	run bash -c 'exec > "$DEVTRACE_DIR/tracectl"; printf "watch 5\nsto"; printf "p"'
	assert_success
	run grep -x -e start -e stop -e 'watch 5' "$D/tracectl"
	assert_output - <<-'END'
	watch 5
	stop
	END
	# refused at close: close() fails with its errno (dd says so; a shell ignores it), tracectl says why
	run bash -c 'printf "start\nbogus" | dd of="$DEVTRACE_DIR/tracectl" status=none'
	assert_failure 1
	assert_output "dd: closing output file '$D/tracectl': Invalid argument"
	run tail -n 1 "$D/tracectl"
	assert_output "#error bogus: unknown command"
	run grep -x -e start -e stop "$D/tracectl"
	assert_output start
	run bash -c 'echo -n bogus > "$DEVTRACE_DIR/tracectl"'
	assert_success
	# at close, not at the last close: the next command through the shared memory sees it
	for _ in $(seq 50); do
		echo -n stop > "$D/tracectl"
		devtrace state | grep -qx stop
		echo -n start > "$D/tracectl"
		devtrace state | grep -qx start
	done
}

@test "a blank line is a no-op, as a # line is: one write of trace a new x, a blank line, trace x on applies both" {
	start
	run bash -c 'printf "trace a new x\n\ntrace x on\n" > "$DEVTRACE_DIR/tracectl"'
	assert_success
	assert_output ""
	run grep -x -e 'trace a new x' -e 'trace x on' "$D/tracectl"
	assert_output - <<-'END'
	trace a new x
	trace x on
	END
	run grep -c '^#error' "$D/tracectl"
	assert_output 0
	# blanks alone, in one write and at close
	run bash -c 'printf " \t\n\n" > "$DEVTRACE_DIR/tracectl"; printf "  " > "$DEVTRACE_DIR/tracectl"'
	assert_success
	assert_output ""
	run grep -c '^#error' "$D/tracectl"
	assert_output 0
}

@test "a line too long across writes is refused whole, and the rest of it with it" {
	start
	long=$(printf 'watch 7%01100d' 0)
	run bash -c 'exec > "$DEVTRACE_DIR/tracectl"; printf "%s" "${1:0:600}"; printf "%s" "${1:600}"' - "$long"
	assert_failure
	assert_output --partial "Argument list too long"
	run tail -n 1 "$D/tracectl"
	assert_output "#error line too long"
	run grep -c '^watch [1-9]' "$D/tracectl"
	assert_output 0
	# the rest of a refused line is dropped up to its newline; the next line runs
	run bash -c 'exec > "$DEVTRACE_DIR/tracectl"; printf "%s" "${1:0:1000}"; printf "%s" "${1:1000:50}" || true; printf "%s\nwatch 6\n" "${1:1050}"' - "$long"
	assert_success
	run grep '^watch [1-9]' "$D/tracectl"
	assert_output "watch 6"
}

@test "devtrace ctl reads standard input in chunks: lines split across them, more than 1 MiB" {
	start
	run bash -c '{ printf "watch 12"; sleep 0.2; printf "3456789\nsta"; sleep 0.2; printf "rt"; } | devtrace ctl'
	assert_success
	assert_output ""
	run grep -x -e 'watch 123456789' -e start "$D/tracectl"
	assert_output - <<-'END'
	watch 123456789
	start
	END
	queries 160000 > "$BATS_TEST_TMPDIR/big"
	run devtrace ctl < "$BATS_TEST_TMPDIR/big"
	assert_success
	assert_output ""
	run grep '^#query' "$D/tracectl"
	assert_output "#query 00000000000280ff untraced"
	# an unfinished last line refused: devtrace ctl says why
	run bash -c 'printf "stop\nbogus" | devtrace ctl'
	assert_failure 1
	assert_output "devtrace ctl: standard input: bogus: unknown command"
	run grep -x -e start -e stop "$D/tracectl"
	assert_output stop
}
