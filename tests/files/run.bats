#!/usr/bin/env bats
# devtrace run with options: a whole session in one command, as
# uftrace record; uftrace replay is.  fl_parse's parse_* functions nest
# three deep; the flow's first 35 columns (tid, time, duration) vary
# from run to run, so the tests compare what follows them: the calls,
# typed from fl_parse's debug information.
load helper

setup_file() {
	buildfl parse probe loop
}

# the flow without the columns that vary
calls() {
	cut -c36- "$1"
}

# the set-up part of the state: commands, not counters
setup_of() {
	devtrace state | grep -v '^#'
}

@test "run -t GLOB prints the program's output, then the call flow of the matching functions" {
	needlib
	run devtrace run -t 'parse_*' -- "$X/fl_parse" '1+2*3'
	assert_success
	printf '%s\n' "$output" > "$O/out"
	run calls "$O/out"
	assert_output - <<-'END'

	FUNCTION
	-> parse_expr(at=0)
	  -> parse_term(at=0)
	    -> parse_num(at=0)
	    <- parse_num = 1
	  <- parse_term = 1
	  -> parse_term(at=2)
	    -> parse_num(at=2)
	    <- parse_num = 2
	    -> parse_num(at=4)
	    <- parse_num = 3
	  <- parse_term = 6
	<- parse_expr = 7
	END
	run head -1 "$O/out"
	assert_output 7
	# one thread: every line of the flow has the program's pid
	run awk 'NR > 2 { print $1 }' "$O/out"
	[ "$(printf '%s\n' "$output" | sort -u | wc -l)" = 1 ]
}

@test "run prints the flow's times in ns, from the device's #hz" {
	needlib
	run devtrace run -t 'parse_n*' -- "$X/fl_parse" 1
	assert_success
	assert_line --index 1 '    TID       TIME(ns)   DURATION  FUNCTION'
	# two calls 100 ms apart (usleep between them): the second at 100 to 150 ms,
	# in ns (ticks, or a wrong #hz, would be 2x or more off at any clock of 1 GHz or more)
	run devtrace run -t fl_work -- "$X/fl_loop" 1 2 - 100000
	assert_success
	run awk '/-> fl_work/ { t = $2 } END { print (t >= 100000000 && t < 150000000) ? "in ns" : "not in ns: " t }' <<< "$output"
	assert_output "in ns"
}

@test "run -t twice traces both patterns; --trace is -t" {
	needlib
	run devtrace run --trace 'parse_t*' -t 'print_?alue' "$X/fl_parse" '2+3'
	assert_success
	printf '%s\n' "$output" > "$O/out"
	run calls "$O/out"
	assert_output - <<-'END'

	FUNCTION
	-> parse_term(at=0)
	<- parse_term = 2
	-> parse_term(at=2)
	<- parse_term = 3
	-> print_value(v=5)
	<- print_value = 5
	END
}

@test "run -t 'probe:*' shows a static probe's hits in the flow, at the depth of its function's calls" {
	needlib
	run devtrace run -t main -t step -t 'probe:*' -- "$X/fl_probe"
	assert_success
	printf '%s\n' "$output" > "$O/out"
	run calls "$O/out"
	assert_output - <<-'END'
	FUNCTION
	-> main()
	  -> step(i=1)
	    * probe:sq 1 1 0 0
	  <- step = 1
	  -> step(i=2)
	    * probe:sq 2 4 0 0
	  <- step = 2
	  * probe:done 3 0 0 0
	<- main = 0
	END
}

@test "run -t follows the processes its program starts: two fl_parse under sh, each with its pid" {
	needlib
	run devtrace run -t 'parse_n*' -- sh -c '"$1" 1; "$1" 2' sh "$X/fl_parse"
	assert_success
	printf '%s\n' "$output" > "$O/out"
	run calls "$O/out"
	assert_output - <<-'END'
	
	
	FUNCTION
	-> parse_num(at=0)
	<- parse_num = 1
	-> parse_num(at=0)
	<- parse_num = 2
	END
	# the two calls are two processes', neither the shell's
	run awk 'NR > 3 { print $1 }' "$O/out"
	assert_equal "$(printf '%s\n' "$output" | sort -u | wc -l)" 2
}

@test "run -t follows its program's grandchildren too: fl_parse under sh under sh" {
	needlib
	run devtrace run -t 'parse_n*' -- sh -c 'sh -c "\"\$1\" 3" sh "$1"; "$1" 4' sh "$X/fl_parse"
	assert_success
	printf '%s\n' "$output" > "$O/out"
	run calls "$O/out"
	assert_output - <<-'END'
	
	
	FUNCTION
	-> parse_num(at=0)
	<- parse_num = 3
	-> parse_num(at=0)
	<- parse_num = 4
	END
}

@test "watch PID tree takes in a descendant that was running before the watch was written" {
	needlib
	start
	ctl trace fl_work new w
	ctl trace w on
	ctl start
	ctl watch 1
	# sh, then its child fl_loop, attached and waiting for go: both before the watch names sh
	devtrace run -- sh -c '"$1" 5 3 "$2" 0; :' sh "$X/fl_loop" "$O/go" > "$O/out" 3>&- &
	BGPIDS="$BGPIDS $!"
	waitfor grep -q ' fl_work ' "$D/syms"
	sh=$(pgrep -f -o "sh -c \"\\\$1\" 5 3")
	ctl watch "$sh" tree
	touch "$O/go"
	waitfor grep -q 5003 "$O/out"
	run awk '$1 == "E" { print strtonum("0x" $5), strtonum("0x" $6) }' "$D/trace"
	assert_output "$(printf '5 0\n5 1\n5 2')"
}

@test "run -p EXPR keeps only the hits the predicate passes, in every trace" {
	needlib
	run devtrace run -t 'parse_*' -p 'depth < 2' -- "$X/fl_parse" '1+2*3'
	assert_success
	printf '%s\n' "$output" > "$O/out"
	run calls "$O/out"
	assert_output - <<-'END'

	FUNCTION
	-> parse_expr(at=0)
	  -> parse_term(at=0)
	  <- parse_term = 1
	  -> parse_term(at=2)
	  <- parse_term = 6
	<- parse_expr = 7
	END
	run devtrace run --pred 'entry && arg0 == 2' -t 'parse_n*' -t 'parse_t*' -o "$O/rec" -- "$X/fl_parse" '1+2*3'
	assert_success
	run awk '{ print $1, $5 }' "$O/rec"
	assert_output - <<-'END'
	E 0000000000000002
	E 0000000000000002
	END
}

@test "run -o FILE writes the raw records and FILE.syms, and prints no flow" {
	needlib
	run devtrace run -o "$O/rec" -t parse_num -t print_value -- "$X/fl_parse" '1+2*3'
	assert_success
	assert_output 7
	wellformed "$O/rec"
	run wc -l < "$O/rec"
	assert_output 8
	# named by the saved symbols: three calls of parse_num, then print_value
	run sh -c '"$1"/scripts/name "$2.syms" "$2" | cut -d" " -f1,2,5' _ "$ROOT" "$O/rec"
	assert_output - <<-'END'
	E parse_num 0000000000000000
	X parse_num 0000000000000001
	E parse_num 0000000000000002
	X parse_num 0000000000000002
	E parse_num 0000000000000004
	X parse_num 0000000000000003
	E print_value 0000000000000007
	X print_value 0000000000000007
	END
}

# run -v's lines with the program's pid made PID
pidless() {
	printf '%s\n' "$1" | sed -E "s/'watch [0-9]+ tree'/'watch PID tree'/"
}

@test "run -v shows each line it writes to its session's ctl, as echo lines" {
	needlib
	run --separate-stderr devtrace run -v -t 'parse_t*' -p 'depth == 0' -t print_value -- "$X/fl_parse" 4
	assert_success
	[ "${lines[0]}" = 4 ]
	# shellcheck disable=SC2154 # set by run --separate-stderr
	run pidless "$stderr"
	assert_output - <<-END
	# echo 'trace parse_t* new run1' > $D/1/ctl
	# echo 'trace run1 pred /depth == 0/' > $D/1/ctl
	# echo 'trace run1 on' > $D/1/ctl
	# echo 'trace print_value new run2' > $D/1/ctl
	# echo 'trace run2 pred /depth == 0/' > $D/1/ctl
	# echo 'trace run2 on' > $D/1/ctl
	# echo 'policy block 1000' > $D/1/ctl
	# echo 'watch PID tree' > $D/1/ctl
	# echo 'start' > $D/1/ctl
	# echo 'stop' > $D/1/ctl
	# echo 'trace run2 remove' > $D/1/ctl
	# echo 'trace run1 remove' > $D/1/ctl
	END
	run --separate-stderr devtrace run --show-ctl -- "$X/fl_parse" 4
	assert_success
	run pidless "$stderr"
	assert_output - <<-END
	# echo 'policy block 1000' > $D/1/ctl
	# echo 'watch PID tree' > $D/1/ctl
	# echo 'start' > $D/1/ctl
	# echo 'stop' > $D/1/ctl
	END
}

@test "run starts a device of its own when none runs, and stops it at the end" {
	needlib
	run devtrace status
	assert_failure 1
	run devtrace run -t 'parse_e*' -- "$X/fl_parse" 1
	assert_success
	assert_line --index 2 --partial ' -> parse_expr'
	run devtrace status
	assert_failure 1
	assert_output "no devtraced serves $D"
}

@test "run on a stopped device that others set up leaves their traces, predicates and watches, and the server" {
	needlib
	start
	pid=$(serverpid)
	ctl 'trace main new m'
	ctl 'trace m pred /arg0 > 1/'
	ctl 'trace 7f0000000000 7f0000001000 new r'
	ctl 'trace r on'
	ctl "trace zz* new run1"
	setup_of > "$O/before"
	run --separate-stderr devtrace run -v -t 'parse_e*' -- "$X/fl_parse" 1
	assert_success
	# run1 is theirs at the top level; run's session has its own names, and removes only its own
	run printf '%s\n' "$stderr"
	assert_line --index 0 "# echo 'trace parse_e* new run1' > $D/1/ctl"
	assert_line --index -1 "# echo 'trace run1 remove' > $D/1/ctl"
	run setup_of
	assert_output "$(cat "$O/before")"
	assert_line --index -1 stop
	run serverpid
	assert_output "$pid"
}

@test "run on a started device with a watch list traces its program in its own session, and leaves it all as it was" {
	needlib
	start
	ctl 'trace parse_num new theirs'
	ctl 'trace theirs pred /arg0 == 4/'
	ctl "watch $$"
	ctl start
	setup_of > "$O/before"
	run --separate-stderr devtrace run -v -t 'parse_t*' -- "$X/fl_parse" '1+2*3'
	assert_success
	# the top level's watch list names the test's shell: run's own session watches fl_parse
	assert_line --index 0 7
	assert_line --index 2 --partial ' -> parse_term'
	run pidless "$stderr"
	assert_output - <<-END
	# echo 'trace parse_t* new run1' > $D/1/ctl
	# echo 'trace run1 on' > $D/1/ctl
	# echo 'policy block 1000' > $D/1/ctl
	# echo 'watch PID tree' > $D/1/ctl
	# echo 'start' > $D/1/ctl
	# echo 'stop' > $D/1/ctl
	# echo 'trace run1 remove' > $D/1/ctl
	END
	run setup_of
	assert_output "$(cat "$O/before")"
	assert_line --index -1 start
}

@test "run's exit status is the program's, with options and without" {
	needlib
	run devtrace run -t 'parse_*' -o "$O/rec" -- "$X/fl_parse" 1 42
	assert_failure 42
	assert_output 1
	run wc -l < "$O/rec"
	assert_output 6
	run devtrace run -t 'parse_*' -- "$X/fl_parse"
	assert_failure 2
	assert_line --index 0 "usage: fl_parse expr [status]"
	# a signal ends it: 128 + the signal, as a shell tells it
	run --separate-stderr devtrace run -v -- sh -c 'kill -TERM $$'
	assert_failure 143
	run pidless "$stderr"
	assert_output "# echo 'policy block 1000' > $D/1/ctl
# echo 'watch PID tree' > $D/1/ctl
# echo 'start' > $D/1/ctl
# echo 'stop' > $D/1/ctl"
	# without options too (a server of the test's: as root, one of run's own would make /dev links)
	start
	run devtrace run -- "$X/fl_parse" 2 3
	assert_failure 3
	assert_output 2
}

@test "run's errors: one line, a status that is not 0, and nothing left behind" {
	needlib
	run devtrace run -t 'parse_[xy' -- "$X/fl_parse" 1
	assert_failure 1
	assert_output "devtrace run: -t 'parse_[xy': bad pattern: [ without ]"
	run devtrace run -t 'parse num' -- "$X/fl_parse" 1
	assert_failure 1
	assert_output "devtrace run: -t 'parse num': bad pattern: a character no function name has"
	run devtrace run -t '' -- "$X/fl_parse" 1
	assert_failure 1
	assert_output "devtrace run: -t '': bad pattern: empty pattern"
	run -127 devtrace run -t 'p*' -- "$X/no-such-program" 1
	assert_failure 127
	assert_output "devtrace run: $X/no-such-program: program not found"
	run -127 devtrace run -t 'p*' -- no-such-program-in-path
	assert_failure 127
	assert_output "devtrace run: no-such-program-in-path: program not found"
	run devtrace status
	assert_failure 1
	run --separate-stderr devtrace run -t 'zz*' -t 'parse_n*' -- "$X/fl_parse" 1
	assert_failure 1
	assert_equal "$stderr" "devtrace run: -t 'zz*': no function of the program matched"
	run --separate-stderr devtrace run -t 'parse_*' -- sh -c 'exit 0'
	assert_failure 1
	assert_equal "$stderr" "devtrace run: the program wrote no symbols: was it built with devtrace-cc?"
	run --separate-stderr devtrace run -p 'depth' -- "$X/fl_parse" 1
	assert_failure 2
	assert_equal "$stderr" "devtrace run: -p needs a -t to attach it to"
	start
	setup_of > "$O/before"
	run devtrace run -t 'parse_*' -p 'arg0 ==' -- "$X/fl_parse" 1
	assert_failure 1
	assert_output "devtrace run: -p 'arg0 ==': expression expected at column 8"
	run setup_of
	assert_output "$(cat "$O/before")"
	# another's trace of the same pattern is not run's: its session has its own
	ctl "trace parse_* new mine"
	run devtrace run -t 'parse_*' -- "$X/fl_parse" 1
	assert_success
	assert_line --index 2 --partial ' -> parse_expr'
	run grep -x 'trace parse_\* new mine' "$D/tracectl"
	assert_success
	run devtrace run -t 'parse_*' -t 'parse_*' -- "$X/fl_parse" 1
	assert_failure 1
	assert_output "devtrace run: -t 'parse_*': the session has a trace of that pattern already: trace parse_* new run1"
	run devtrace run -t
	assert_failure 2
	assert_output - <<-'END'
	devtrace run: -t needs an argument
	usage: devtrace run [-t GLOB ...] [-p EXPR] [-P POLICY] [--min DUR] [-o FILE] [-v] [--] prog [arg ...]
	END
	run -127 devtrace run -t 'p*' -- "$BATS_TEST_TMPDIR"
	assert_failure 127
	assert_output "devtrace run: $BATS_TEST_TMPDIR: a directory, not a program"
	run -127 devtrace run -t 'p*' -- /etc/passwd
	assert_failure 127
	assert_output "devtrace run: /etc/passwd: not an executable file"
	run devtrace run -t 'p*' --min 10xs -- "$X/fl_parse" 1
	assert_failure 2
	assert_output "devtrace run: --min '10xs': not a duration: digits, a fraction, a unit of ns us ms s (10us, 1.5ms)"
}

@test "run --help documents every option" {
	run devtrace run --help
	assert_success
	assert_line --index 0 "usage: devtrace run [-t GLOB ...] [-p EXPR] [-P POLICY] [--min DUR] [-o FILE] [-v] [--] prog [arg ...]"
	assert_line --partial "-t, --trace GLOB"
	assert_line --partial "-p, --pred EXPR"
	assert_line --partial "-P, --policy POLICY  the session's buffer policy"
	assert_line --partial "default block 1000: nothing is"
	assert_line --partial "    --min DUR      show only the calls that took at least DUR"
	assert_line --partial "-o, --output FILE  write the records to FILE, as the 121-byte lines cat"
	assert_line --partial "-v, --show-ctl"
	assert_line --partial "Exit status: prog's"
}

@test "run -t keeps every record by default (block 1000), and -P ring says how many it lost and what keeps them" {
	needlib
	run --separate-stderr devtrace run -o "$O/rec" -t fl_work -- "$X/fl_loop" 1 300000 - 0
	assert_success
	assert_equal "$stderr" ""
	# every call's E and X; the waits for the reader, if any, marked on W lines of their own
	run grep -c '^[EX]' "$O/rec"
	assert_output 600000
	wellformed "$O/rec"
	# under ring the records kept and those it says it lost add up to all, whatever the machine's speed
	run --separate-stderr devtrace run -P ring -o "$O/rec" -t fl_work -- "$X/fl_loop" 1 300000 - 0
	assert_success
	lost=0
	if [ -n "$stderr" ]; then
		[[ "$stderr" =~ ^"devtrace run: "([1-9][0-9]*)" records lost while the program ran (the session's #lost and #dropped); -P 'block MS' keeps every record, waiting up to MS ms for a stalled reader (now: ring)"$ ]] ||
			fail "stderr: $stderr"
		lost=${BASH_REMATCH[1]}
	fi
	# with the 15 marks of its ring's warm (65,536 slots, 4,096 at its
	# first hit, then 15 steps of 4,096 each a W record), lost or kept
	run wc -l < "$O/rec"
	assert_output $((600000 + 15 - lost))
	run devtrace run -P 'block -1' -t fl_work -- "$X/fl_loop" 1 1 - 0
	assert_failure 1
	assert_output --partial "devtrace run: -P 'block -1': "
}

@test "run -t on a --classic build shows its calls, without arguments or return values" {
	needlib
	"$ROOT/bin/devtrace-cc" --classic -O0 -g -o "$O/fl_parse_classic" "$BATS_TEST_DIRNAME/fl_parse.c"
	run devtrace run -t 'parse_n*' -- "$O/fl_parse_classic" '1+2'
	assert_success
	printf '%s\n' "$output" > "$O/out"
	run calls "$O/out"
	assert_output - <<-'END'

	FUNCTION
	-> parse_num
	<- parse_num
	-> parse_num
	<- parse_num
	END
}
