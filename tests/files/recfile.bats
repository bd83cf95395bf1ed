#!/usr/bin/env bats
# A recording that stands alone: devtrace record -o FILE (and run -o) puts
# beside FILE the symbols and signatures of the objects its records fall
# in, FILE's header and trailer say what it is (devtrace info), and
# devtrace cat FILE gives #hz and #clock, so the scripts show ns with no
# device at hand.
# shellcheck disable=SC2154 # stderr and stderr_lines: set by run --separate-stderr
load helper

setup_file() {
	buildfl loop threads
}

# the symbol file of the device after other programs ran on it: fl_threads
# (its own fl_work), and fl_loop twice (the same object at other addresses)
others() {
	devtrace run "$X/fl_threads" 2 3 > /dev/null
	devtrace run "$X/fl_loop" 1 2 - 0 > /dev/null
	devtrace run "$X/fl_threads" 2 3 > /dev/null
	devtrace run "$X/fl_loop" 1 2 - 0 > /dev/null
}

# the records of a trace-lines file or of devtrace cat: their distinct pcs
pcs() {
	awk '$1 == "E" || $1 == "X" { print $2 }' "$@" | sort -u
}

@test "record -o F: F.syms holds the recorded program's object alone, once, F.sigs its signatures" {
	needlib
	start
	others
	ctl trace fl_work new w
	ctl trace w on
	ctl start
	run --separate-stderr devtrace record -o "$BATS_TEST_TMPDIR/f" -- "$X/fl_loop" 3 5 - 0
	assert_success
	assert_equal "$stderr" "devtrace record: 10 records saved, 0 lost"
	# the device's: 2 lines (main, fl_work) for each of 3 fl_loop, 3 for each of 2 fl_threads
	run grep -c "fl_loop\$" "$D/syms"
	assert_output 6
	run grep -c "fl_threads\$" "$D/syms"
	assert_output 6
	# the recording's: the last fl_loop's 2, the device's last 2 lines of it
	run cat "$BATS_TEST_TMPDIR/f.syms"
	assert_output "$(grep "fl_loop\$" "$D/syms" | tail -n 2)"
	assert_equal "${#lines[@]}" 2
	# the one pc recorded is its fl_work's
	run pcs <(devtrace cat "$BATS_TEST_TMPDIR/f")
	assert_output "$(awk '$2 == "fl_work" { print $1 }' "$BATS_TEST_TMPDIR/f.syms")"
	run cat "$BATS_TEST_TMPDIR/f.sigs"
	assert_output "$(devtrace sigs "$X/fl_loop")"
	assert_line "fl_work s64 id:s64:1 i:s64:2"
}

@test "run -o F: F.syms holds the recorded program's object alone, F.sigs its signatures" {
	needlib
	start
	others
	run --separate-stderr devtrace run -t fl_work -o "$BATS_TEST_TMPDIR/f" -- "$X/fl_loop" 3 5 - 0
	assert_success
	run cat "$BATS_TEST_TMPDIR/f.syms"
	assert_output "$(grep "fl_loop\$" "$D/syms" | tail -n 2)"
	assert_equal "${#lines[@]}" 2
	run pcs "$BATS_TEST_TMPDIR/f"
	assert_output "$(awk '$2 == "fl_work" { print $1 }' "$BATS_TEST_TMPDIR/f.syms")"
	run cat "$BATS_TEST_TMPDIR/f.sigs"
	assert_output "$(devtrace sigs "$X/fl_loop")"
}

@test "cat F: #hz and #clock first, the device's; piped through name and flow, ns with no device at hand" {
	needlib
	start
	ctl trace fl_work new w
	ctl trace w on
	ctl start
	F=$BATS_TEST_TMPDIR/f
	devtrace record -o "$F" -- "$X/fl_loop" 3 5 - 0 > /dev/null 2>&1
	hz=$(counter hz)
	devtrace stop
	run devtrace status
	assert_failure 1
	run devtrace cat "$F"
	assert_success
	assert_line --index 0 "#hz $hz"
	assert_line --index 1 --regexp '^#clock [0-9]+ [0-9]+$'
	assert_equal "${#lines[@]}" 12
	run sh -c "devtrace cat '$F' | '$ROOT/scripts/name' '$F.syms' | '$ROOT/scripts/flow'"
	assert_success
	assert_line --index 0 "    TID       TIME(ns)   DURATION  FUNCTION"
	assert_line --index 2 --regexp '^ +[0-9]+ +[0-9]+ +[0-9]+  <- fl_work$'
	# the same ns as flow given the device's #hz: the durations made from it
	assert_output "$(devtrace cat "$F" | tail -n +3 | "$ROOT/scripts/name" "$F.syms" | "$ROOT/scripts/flow" -v "hz=$hz")"
}

@test "info F: what the recording is, its records those cat prints" {
	needlib
	start
	ctl trace fl_work new w
	ctl trace w on
	ctl start
	F=$BATS_TEST_TMPDIR/f
	touch "$BATS_TEST_TMPDIR/go it"
	devtrace record -o "$F" -- "$X/fl_loop" 3 5 "$BATS_TEST_TMPDIR/go it" 0 > /dev/null 2>&1
	hz=$(counter hz)
	tid=$(devtrace cat "$F" | awk 'NR == 3 { print $4 }')
	n=$(devtrace cat "$F" | grep -c '^[EX] ')
	run devtrace info "$F"
	assert_success
	assert_line --index 0 "file      $F"
	assert_line --index 1 "version   4"
	assert_line --index 2 "command   $X/fl_loop 3 5 '$BATS_TEST_TMPDIR/go it' 0"
	assert_line --index 3 "pid       $((16#$tid))"
	assert_line --index 4 "trace     the device's top level (no -t)"
	assert_line --index 5 --regexp "^start     $(date -u +%Y-%m-%d) [0-9:]{8}\\.[0-9]{9} UTC\$"
	assert_line --index 6 "host      $(uname -n)"
	assert_line --index 7 "kernel    $(uname -s) $(uname -r) $(uname -m)"
	assert_line --index 8 "hz        $hz"
	assert_line --index 9 "clock     $(devtrace cat "$F" | sed -n 's/^#clock //p')"
	assert_equal "$n" 10
	assert_line --index 10 "records   $n"
	assert_line --index 11 "lost      0"
	assert_line --index 12 --regexp '^duration  0\.[0-9]{9} s$'
	assert_line --index 13 "objects   1"
	assert_line --index 14 "object    $X/fl_loop"
	assert_equal "${#lines[@]}" 15
	# with -t: its globs
	devtrace record -t 'fl_w*' -t main -o "$F" -- "$X/fl_loop" 3 5 - 0 > /dev/null 2>&1
	run devtrace info "$F"
	assert_line --index 4 "trace     fl_w* main"
	assert_line --index 10 "records   12"
}

@test "info F: an old file, and one record did not finish, say what they lack" {
	F=$BATS_TEST_TMPDIR/v2
	# version 2: header, a chunk of one record
	{
		printf devtrace; printf '\002\0\0\0\070\0\0\0'; printf '\350\003\0\0\0\0\0\0'; printf '\0\0\0\0\0\0\0\0'
		printf '\377\377\377\377\001\0\0\0'; head -c 56 /dev/zero
	} > "$F"
	run devtrace info "$F"
	assert_success
	assert_output - <<-END
	file      $F
	version   2
	command   unknown (a version 2 file: record did not store it then)
	pid       unknown (a version 2 file: record did not store it then)
	trace     unknown (a version 2 file: record did not store it then)
	start     unknown (a version 2 file: record did not store it then)
	host      unknown (a version 2 file: record did not store it then)
	kernel    unknown (a version 2 file: record did not store it then)
	hz        1000
	clock     unknown (a version 2 file: record did not store it then)
	records   1
	lost      unknown (a version 2 file: record did not store it then)
	duration  unknown (a version 2 file: record did not store it then)
	objects   unknown (a version 2 file: record did not store it then)
	END
	# version 4 without its trailer (record killed): the header's fields, not the trailer's
	start
	ctl trace 1000 2000 new t
	ctl trace t on
	ctl start
	ctl testtracein 1234 1 2 3 4
	devtrace record -o "$BATS_TEST_TMPDIR/f" 2> /dev/null 3>&- &
	r=$!
	# shellcheck disable=SC2034 # read by teardown in helper.bash
	BGPIDS=$r
	waitfor grep -qx "#reader $r" "$D/tracectl"
	kill -INT $r
	wait $r
	t=$(od -A n -t u8 -j 24 -N 8 "$BATS_TEST_TMPDIR/f" | tr -d ' ')
	len=$(od -A n -t u4 -j $((32 + t + 8)) -N 4 "$BATS_TEST_TMPDIR/f" | tr -d ' ')
	head -c $((32 + t + 12 + len)) "$BATS_TEST_TMPDIR/f" > "$BATS_TEST_TMPDIR/cut"
	run devtrace info "$BATS_TEST_TMPDIR/cut"
	assert_success
	assert_line --index 2 "command   none (no program: the device's records until SIGINT)"
	assert_line --index 3 "pid       none"
	assert_line --index 10 "records   1"
	assert_line --index 11 "lost      unknown (no trailer: record was killed, or is still running)"
	assert_line --index 12 "duration  unknown (no trailer: record was killed, or is still running)"
	assert_line --index 13 "objects   unknown (no trailer: record was killed, or is still running)"
	run devtrace info "$BATS_TEST_TMPDIR/f"
	assert_line --index 11 "lost      0"
	assert_line --index 13 "objects   0"
	run --separate-stderr devtrace info
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "devtrace info: no FILE (a file devtrace record wrote)"
	run --separate-stderr devtrace info "$BATS_TEST_TMPDIR/f.syms"
	assert_failure 1
	assert_equal "$stderr" "devtrace info: $BATS_TEST_TMPDIR/f.syms: not a file of devtrace record (no devtrace header)"
}

@test "record on a stopped device says so, with what to do; exit 1 unless prog's status says otherwise" {
	needlib
	start
	ctl trace fl_work new w
	ctl trace w on
	hint="devtrace record: the device is stopped: nothing was recorded; devtrace ctl start (with a trace on), or devtrace record -t GLOB -o FILE -- prog"
	run --separate-stderr devtrace record -o "$BATS_TEST_TMPDIR/f" -- "$X/fl_loop" 3 5 - 0
	assert_failure 1
	assert_output "3 15010"
	assert_equal "$stderr" "devtrace record: 0 records saved, 0 lost
$hint"
	run --separate-stderr devtrace record -o "$BATS_TEST_TMPDIR/f" -- sh -c 'exit 3'
	assert_failure 3
	assert_equal "${stderr_lines[1]}" "$hint"
	# without prog, until SIGINT
	devtrace record -o "$BATS_TEST_TMPDIR/f" 2> "$BATS_TEST_TMPDIR/err" 3>&- &
	r=$!
	# shellcheck disable=SC2034 # read by teardown in helper.bash
	BGPIDS=$r
	waitfor grep -qx "#reader $r" "$D/tracectl"
	kill -INT $r
	st=0
	wait $r || st=$?
	assert_equal "$st" 1
	run cat "$BATS_TEST_TMPDIR/err"
	assert_line --index 1 "$hint"
	# started: no word of it
	ctl start
	run --separate-stderr devtrace record -o "$BATS_TEST_TMPDIR/f" -- "$X/fl_loop" 3 5 - 0
	assert_success
	assert_equal "$stderr" "devtrace record: 10 records saved, 0 lost"
}
