#!/usr/bin/env bats
# devtrace report, graph and replay: a recording read as whole calls (cmd/calls.c).
# The fixtures are recordings made from record lines by build/bench/mkrec
# (no device: exact ticks, a tick a ns), small enough to check by hand:
# f, two threads, with recursion (fib), an exit with no entry (thread 17's
# work), a call an exit passes (17's work) and one that never ends (17's
# second leaf); g, f's run changed: leaf slower, fib gone, extra new.
# shellcheck disable=SC2154 # stderr: set by run --separate-stderr
load helper

MKREC=$ROOT/build/bench/mkrec

setup_file() {
	buildfl loop
}

# f and g in the test's directory, their symbols beside them
fixtures() {
	cd "$BATS_TEST_TMPDIR" || return 1
	callsf
	"$MKREC" -o g <<-'LINES'
	E 1000 0 10
	E 1010 a 10
	E 1020 14 10
	X 1020 50 10
	X 1010 64 10
	E 1040 6e 10
	X 1040 82 10
	X 1000 190 10
	LINES
	{ cat f.syms; printf '%016x %s fl\n' 0x1040 extra; } > g.syms
}

@test "report F: per function calls, total (outermost calls), self, min, avg, max in ns; unmatched records counted below" {
	fixtures
	run devtrace report f
	assert_success
	assert_output - <<-'OUT'
	FUNCTION  CALLS  TOTAL  SELF  MIN  AVG  MAX
	main          1    300   120  300  300  300
	fib           2     90    90   30   60   90
	work          1     90    50   90   90   90
	leaf          3     80    80   10   27   40
	# times in ns; not counted: unfinished calls 2, exits without entry 1
	OUT
}

@test "report -s KEY: sorted by it, largest first; by name a to z" {
	fixtures
	run devtrace report -s calls f
	assert_success
	assert_line --index 1 --regexp '^leaf +3 '
	assert_line --index 2 --regexp '^fib +2 '
	assert_line --index 3 --regexp '^main +1 '
	assert_line --index 4 --regexp '^work +1 '
	run devtrace report -s self f
	assert_line --index 1 --regexp '^main '
	assert_line --index 2 --regexp '^fib '
	assert_line --index 3 --regexp '^leaf '
	assert_line --index 4 --regexp '^work '
	run devtrace report f -s name
	assert_success
	assert_equal "$(printf '%s\n' "${lines[@]:1:4}" | cut -d' ' -f1 | tr '\n' ' ')" "fib leaf main work "
	run devtrace report -s min f
	assert_line --index 1 --regexp '^main '
	assert_line --index 4 --regexp '^leaf '
}

@test "report --threads: a row per thread and function, by thread" {
	fixtures
	run devtrace report --threads f
	assert_success
	assert_output - <<-'OUT'
	TID  FUNCTION  CALLS  TOTAL  SELF  MIN  AVG  MAX
	 16  main          1    300   120  300  300  300
	 16  fib           2     90    90   30   60   90
	 16  work          1     90    50   90   90   90
	 16  leaf          2     40    40   10   20   30
	 17  leaf          1     40    40   40   40   40
	# times in ns; not counted: unfinished calls 2, exits without entry 1
	OUT
}

@test "report --diff G: both side by side, the change and its percent, functions in one alone marked" {
	fixtures
	run devtrace report f --diff g
	assert_success
	assert_output - <<-'OUT'
	FUNCTION  TOTAL1  TOTAL2  DIFF       %  SELF1  SELF2  DIFF        %  CALLS1  CALLS2  DIFF       %
	main         300     400  +100  +33.3%    120    290  +170  +141.7%       1       1    +0   +0.0%
	fib           90       -   -90    gone     90      -   -90     gone       2       -    -2    gone
	extra          -      20   +20     new      -     20   +20      new       -       1    +1     new
	leaf          80      60   -20  -25.0%     80     60   -20   -25.0%       3       1    -2  -66.7%
	work          90      90    +0   +0.0%     50     30   -20   -40.0%       1       1    +0   +0.0%
	# times in ns; 1: f, 2: g
	OUT
	run devtrace report -s calls --diff g f
	assert_line --index 1 --regexp '^fib '
	assert_line --index 2 --regexp '^leaf '
}

@test "report F agrees with scripts/report on the same records, and with self times summed by a short awk" {
	cd "$BATS_TEST_TMPDIR"
	"$MKREC" -o r -n 60000 -T 3
	export LC_ALL=C
	# scripts/report, the text pipeline: the same table (its ns from -v hz)
	run devtrace report r
	assert_success
	assert_equal "${#lines[@]}" 66
	assert_output "$(devtrace cat r | "$ROOT/scripts/name" r.syms | "$ROOT/scripts/report" -v hz=1000000000)"
	# calls and self per function, by a stack per thread (the walk nests: each exit is its top's)
	devtrace cat r | "$ROOT/scripts/name" r.syms | awk '
		$1 == "E" { t = $4; i = ++n[t]; fn[t, i] = $2; st[t, i] = $3; ch[t, i] = 0 }
		$1 == "X" { t = $4; i = n[t]--; d = hex($3) - hex(st[t, i]); calls[$2]++; self[$2] += d - ch[t, i]; if (i > 1) ch[t, i - 1] += d }
		function hex(s,   v, k) { v = 0; for (k = 1; k <= length(s); k++) v = v * 16 + index("0123456789abcdef", substr(s, k, 1)) - 1; return v }
		END { for (f in calls) printf "%s %d %d\n", f, calls[f], self[f] }' | sort > want
	devtrace report -s name r | awk 'NR > 1 && !/^#/ { print $1, $2, $4 }' > got
	run cat got
	assert_equal "${#lines[@]}" 64
	assert_output "$(cat want)"
}

@test "report F of a device's recording: what scripts/report prints from its lines" {
	needlib
	start
	cd "$BATS_TEST_TMPDIR"
	run --separate-stderr devtrace record -t 'fl_work' -t main -o f -- "$X/fl_loop" 3 5 - 0
	assert_success
	hz=$(devtrace cat f | sed -n 's/^#hz //p')
	run devtrace report f
	assert_success
	assert_line --index 1 --regexp '^main +1 '
	assert_line --index 2 --regexp '^fl_work +5 '
	assert_output "$(devtrace cat f | "$ROOT/scripts/name" f.syms | "$ROOT/scripts/report" -v "hz=$hz")"
}

@test "graph F: each path from the threads' bottom calls, its calls and total time, as uftrace graph" {
	fixtures
	run devtrace graph f
	assert_success
	assert_output - <<-'OUT'
	    TOTAL TIME : FUNCTION
	           300 : (1) main
	            90 :  +-(1) work
	            40 :  | +-(2) leaf
	            90 :  +-(1) fib
	            30 :    +-(1) fib
	               :
	            40 : (2) leaf
	             0 :  +-(1) work
	# times in ns; calls without exit 2 (counted, no time), exits without entry 1 (not drawn)
	OUT
}

@test "graph F GLOB: the graph below GLOB's outermost calls" {
	fixtures
	run devtrace graph f 'f*b'
	assert_success
	assert_output - <<-'OUT'
	    TOTAL TIME : FUNCTION
	            90 : (1) fib
	            30 :  +-(1) fib
	# times in ns; calls without exit 0 (counted, no time), exits without entry 1 (not drawn)
	OUT
	# a root function's calls are one tree, whatever thread made them: 17's work, unfinished, adds a call and no time
	run devtrace graph f work
	assert_success
	assert_output - <<-'OUT'
	    TOTAL TIME : FUNCTION
	            90 : (2) work
	            40 :  +-(2) leaf
	# times in ns; calls without exit 1 (counted, no time), exits without entry 1 (not drawn)
	OUT
}

@test "graph --callers GLOB: the backtraces to GLOB's functions, most time first" {
	fixtures
	run devtrace graph --callers f leaf
	assert_success
	assert_output - <<-'OUT'
	backtrace #0: calls 2, time 40
	  [0] leaf
	  [1] work
	  [2] main
	backtrace #1: calls 2, time 40
	  [0] leaf
	# times in ns; calls without exit 1 (counted, no time), exits without entry 1 (not drawn)
	OUT
}

@test "replay F: the flow of cat F | name | flow, from the binary" {
	fixtures
	run devtrace replay f
	assert_success
	assert_line --index 0 "    TID       TIME(ns)   DURATION  FUNCTION"
	assert_line --index 2 "     17              5          -  <- work (no entry)"
	assert_equal "${#lines[@]}" 20
	assert_output "$(devtrace cat f | "$ROOT/scripts/name" f.syms | "$ROOT/scripts/flow")"
}

@test "replay and graph glob as the device does: a backslash is no escape, so '\\l*' names no function" {
	fixtures
	run devtrace replay -F work f
	assert_success
	all=$output
	# leaf's calls stay: as -F work alone shows them (the next test)
	run devtrace replay -F work -N '\l*' f
	assert_success
	assert_output "$all"
	assert_line --index 2 "     16             10               -> leaf"
	run devtrace graph f '\w*'
	assert_failure 1
	assert_output "devtrace graph: no call of a function matching '\w*' in f"
}

@test "replay -D N, -F GLOB, -N GLOB, --tid N, -t MIN: the calls chosen, a call's entry and exit together" {
	fixtures
	# depths as flow counts them: 17's exit without entry lowered its thread's bottom to -1
	run devtrace replay -D 1 f
	assert_success
	assert_output - <<-'OUT'
	    TID       TIME(ns)   DURATION  FUNCTION
	     16              0             -> main
	     17              5          -  <- work (no entry)
	     17             40             -> leaf
	     17             45             -> work
	     17              -          -  <- work (no exit)
	     17             80         40  <- leaf
	     17             90             -> leaf
	     16            300        300  <- main
	     17              -          -  <- leaf (no exit)
	OUT
	run devtrace replay -F work f
	assert_success
	assert_output - <<-'OUT'
	    TID       TIME(ns)   DURATION  FUNCTION
	     16              0             -> work
	     16             10               -> leaf
	     17             35             -> work
	     16             40         30    <- leaf
	     16             50               -> leaf
	     16             60         10    <- leaf
	     16             90         90  <- work
	     17              -          -  <- work (no exit)
	OUT
	run devtrace replay -F work -N 'l*' f
	assert_success
	assert_output - <<-'OUT'
	    TID       TIME(ns)   DURATION  FUNCTION
	     16              0             -> work
	     17             35             -> work
	     16             90         90  <- work
	     17              -          -  <- work (no exit)
	OUT
	run devtrace replay --tid 17 f
	assert_success
	assert_output - <<-'OUT'
	    TID       TIME(ns)   DURATION  FUNCTION
	     17              0          -  <- work (no entry)
	     17             35             -> leaf
	     17             40             -> work
	     17              -          -  <- work (no exit)
	     17             75         40  <- leaf
	     17             85             -> leaf
	     17              -          -  <- leaf (no exit)
	OUT
	run devtrace replay -t 50ns f
	assert_success
	assert_output - <<-'OUT'
	    TID       TIME(ns)   DURATION  FUNCTION
	     16              0             -> main
	     16             10               -> work
	     16            100         90    <- work
	     16            110               -> fib
	     16            200         90    <- fib
	     16            300        300  <- main
	OUT
}

@test "replay F of a device's recording: typed as run -t types it" {
	needlib
	start
	cd "$BATS_TEST_TMPDIR"
	run --separate-stderr devtrace record -t fl_work -t main -o f -- "$X/fl_loop" 3 5 - 0
	assert_success
	run devtrace replay f
	assert_success
	assert_line --regexp '^ +[0-9]+ +[0-9]+ +-> fl_work\(id=3, i=4\)$'
	assert_line --regexp '^ +[0-9]+ +[0-9]+ +[0-9]+    <- fl_work = 3004$'
	assert_line --regexp '^ +[0-9]+ +[0-9]+ +[0-9]+  <- main = 0$'
	assert_equal "${#lines[@]}" 13
	assert_output "$(devtrace cat f | "$ROOT/scripts/name" f.syms | "$ROOT/scripts/flow" -a f.sigs)"
	# fl_work's calls alone, at the left (flow indents the records it is given): main's are not chosen
	run devtrace replay -F fl_work f
	assert_success
	assert_line --index 1 --regexp '^ +[0-9]+ +0 {13}-> fl_work\(id=3, i=0\)$'
	refute_line --partial main
	assert_equal "${#lines[@]}" 11
}

@test "report, graph and replay: a missing file, a file that is no recording, bad options: said, exit 1 or 2" {
	fixtures
	run --separate-stderr devtrace report nosuch
	assert_failure 1
	assert_equal "$stderr" "devtrace report: nosuch: No such file or directory"
	run --separate-stderr devtrace graph f.syms
	assert_failure 1
	assert_equal "$stderr" "devtrace graph: f.syms: not a file of devtrace record (no devtrace header)"
	run --separate-stderr devtrace report -s biggest f
	assert_failure 2
	assert_equal "$stderr" "devtrace report: unknown sort key 'biggest': one of total, self, calls, min, avg, max, name"
	run --separate-stderr devtrace report
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" "devtrace report: no FILE (a recording of devtrace record)"
	run --separate-stderr devtrace report --threads --diff g f
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" "devtrace report: --threads and --diff: one at a time"
	run --separate-stderr devtrace report --diff nosuch f
	assert_failure 1
	assert_equal "$stderr" "devtrace report: nosuch: No such file or directory"
	run --separate-stderr devtrace graph f nomatch
	assert_failure 1
	assert_equal "$stderr" "devtrace graph: no call of a function matching 'nomatch' in f"
	run --separate-stderr devtrace graph --callers f
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" "devtrace graph: --callers needs a GLOB: the functions to trace back from"
	run --separate-stderr devtrace graph -x f
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" "devtrace graph: unknown option -x"
	run --separate-stderr devtrace replay nosuch
	assert_failure 1
	assert_equal "$stderr" "devtrace replay: nosuch: No such file or directory"
	run --separate-stderr devtrace replay -t 10xs f
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" "devtrace replay: -t '10xs': a time, a number and ns, us, ms or s (10us, 1.5ms)"
	run --separate-stderr devtrace replay -D deep f
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" "devtrace replay: -D 'deep': a number, 0 or more"
}

@test "report --help, graph --help, replay --help: their usage on standard output" {
	run devtrace report --help
	assert_success
	assert_line --index 0 "usage: devtrace report [-s KEY] [--threads] [--diff G] FILE"
	run devtrace graph --help
	assert_success
	assert_line --index 0 "usage: devtrace graph [--callers] FILE [GLOB]"
	run devtrace replay --help
	assert_success
	assert_line --index 0 "usage: devtrace replay [-t MIN] [-D N] [-F GLOB ...] [-N GLOB ...] [--tid N] [-T START..END] FILE ..."
}
