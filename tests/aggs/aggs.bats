#!/usr/bin/env bats
# Aggregations on programs whose calls are known: counts, sums, averages,
# distributions bucket by bucket, keys by pid and by thread, durations,
# the same answers from the awk scripts over a full trace, a full table,
# the state's round trip, refusals, and devtrace aggs -t's session of
# its own beside the top level's trace.
# shellcheck disable=SC2154 # stderr and stderr_lines: set by run --separate-stderr
load ../files/helper

setup_file() {
	for f in known threads many typed; do
		"$ROOT/bin/devtrace-cc" -O0 -g -o "$BATS_FILE_TMPDIR/ag_$f" "$BATS_TEST_DIRNAME/ag_$f.c" -lpthread
	done
	for f in loop parse signed; do
		"$ROOT/bin/devtrace-cc" -O0 -g -o "$BATS_FILE_TMPDIR/fl_$f" "$BATS_TEST_DIRNAME/../files/fl_$f.c"
	done
}

# a server, trace t over PATTERN (on), then the agg lines, then start
traceagg() {
	X=$BATS_FILE_TMPDIR
	start
	ctl trace "$1" new t
	ctl trace t on
	shift
	for a in "$@"; do
		ctl agg t "$a"
	done
	ctl start
}

# one aggregation's machine lines, fields chosen
raw() {
	awk -v a="@$1" -v f="$2" 'BEGIN { n = split(f, k, ",") } $1 == a { s = ""; for (i = 1; i <= n; i++) s = s (i > 1 ? " " : "") $(k[i]); print s }' "$D/aggraw" | sort
}

@test "count per function" {
	traceagg 'ag_*' 'entry @calls[func] = count()'
	run devtrace run "$X/ag_known"
	assert_output 1
	run raw calls 6,4
	assert_output "ag_a 3
ag_b 5
ag_c 7
ag_long 10
ag_short 10
ag_size 100
ag_val 104"
}

@test "sums and averages of an argument, by another" {
	traceagg ag_size 'entry @bytes[arg0] = sum(arg1)' 'entry @mean[arg0] = avg(arg1)' 'entry @least[arg0] = min(arg1)' 'entry @most[arg0] = max(arg1)'
	devtrace run "$X/ag_known"
	run raw bytes 6,4,5
	assert_output "0 34 1683
1 33 1617
2 33 1650"
	run raw mean 6,5
	assert_output "0 49
1 49
2 50"
	run raw least 6,5
	assert_output "0 0
1 1
2 2"
	run raw most 6,5
	assert_output "0 99
1 97
2 98"
}

@test "quantize, bucket by bucket" {
	traceagg ag_val 'entry @q = quantize(arg0)'
	devtrace run "$X/ag_known"
	run awk '$1 == "@q" { print $3, $4 }' "$D/aggraw"
	assert_output "-2 1
-1 1
0 1
1 1
2 2
4 4
8 8
16 16
32 32
64 38"
}

@test "lquantize, bucket by bucket, and as printa draws it" {
	traceagg ag_val 'entry @l = lquantize(arg0, 0, 100, 25)'
	devtrace run "$X/ag_known"
	run awk '$1 == "@l" { print $3, $4 }' "$D/aggraw"
	assert_output "-9223372036854775808 2
0 25
25 25
50 25
75 25
100 2"
	run cat "$D/aggs"
	assert_output "@l = lquantize(arg0, 0, 100, 25)
           value  ------------- Distribution ------------- count
             < 0 |@                                        2
               0 |@@@@@@@@@@                               25
              25 |@@@@@@@@@@                               25
              50 |@@@@@@@@@@                               25
              75 |@@@@@@@@@@                               25
          >= 100 |@                                        2"
}

@test "keys by pid over two processes" {
	traceagg ag_key 'entry @p[pid] = count()'
	p1=$(devtrace run "$X/ag_many" 5 -)
	p2=$(devtrace run "$X/ag_many" 7 -)
	run raw p 6,5
	assert_output "$(printf '%s 5\n%s 7\n' "$p1" "$p2" | sort)"
}

@test "keys by thread over several threads" {
	traceagg ag_work 'entry @t[tid] = count()'
	devtrace run "$X/ag_threads" 4 > "$BATS_TEST_TMPDIR/out"
	run raw t 6,5
	assert_output "$(sort "$BATS_TEST_TMPDIR/out")"
	run awk 'END { print NR }' "$BATS_TEST_TMPDIR/out"
	assert_output 4
}

# min, not avg: one call slowed by the machine (a preemption, the
# thread's first hit) must not decide the order of the two
@test "durations at the exit: the longer call takes longer" {
	traceagg 'ag_[sl][ho]*' 'exit @d[func] = min(dur)' 'exit @n[func] = count()'
	devtrace run "$X/ag_known"
	run raw n 6,5
	assert_output "ag_long 10
ag_short 10"
	short=$(awk '$1 == "@d" && $6 == "ag_short" { print $5 }' "$D/aggraw")
	long=$(awk '$1 == "@d" && $6 == "ag_long" { print $5 }' "$D/aggraw")
	[ "$short" -gt 0 ]
	[ "$long" -gt $((10 * short)) ]
}

@test "the awk scripts over the full trace of the same run give the same answers" {
	traceagg 'ag_*' 'entry @calls[func] = count()' 'exit @time[func] = sum(dur)' 'entry @q[func] = quantize(arg0)' 'records on'
	ctl size 16
	devtrace run "$X/ag_known"
	devtrace cat | "$ROOT/scripts/name" "$D/syms" > "$BATS_TEST_TMPDIR/named"
	run counter lost
	assert_output 0
	# counts: scripts/count over the E records
	"$ROOT/scripts/count" -k pc "$BATS_TEST_TMPDIR/named" | awk 'NR > 1 { print $1, $2 }' | sort > "$BATS_TEST_TMPDIR/count"
	run raw calls 6,4
	assert_output "$(cat "$BATS_TEST_TMPDIR/count")"
	# time: the inclusive ticks of scripts/durations, summed by function
	"$ROOT/scripts/durations" "$BATS_TEST_TMPDIR/named" | awk '{ t[$2] += $6 } END { for (f in t) print f, t[f] }' | sort > "$BATS_TEST_TMPDIR/time"
	run raw time 6,5
	assert_output "$(cat "$BATS_TEST_TMPDIR/time")"
	# a distribution: scripts/histogram over ag_val's arguments
	grep '^E ag_val ' "$BATS_TEST_TMPDIR/named" | "$ROOT/scripts/histogram" arg0 | awk 'NR > 1 && $3 > 0 { print $1, $3 }' > "$BATS_TEST_TMPDIR/hist"
	run awk '$1 == "@q" && $6 == "ag_val" { print $3, $4 }' "$D/aggraw"
	assert_output "$(cat "$BATS_TEST_TMPDIR/hist")"
}

@test "an aggregated trace writes no records unless asked; reading consumes nothing; clear empties" {
	traceagg ag_key 'entry @k = count()'
	devtrace run "$X/ag_many" 9 - > /dev/null
	run counter hits
	assert_output 0
	run counter aggregated
	assert_output 9
	run raw k 4
	assert_output 9
	run raw k 4
	assert_output 9
	ctl agg t records on
	devtrace run "$X/ag_many" 2 - > /dev/null
	run counter hits
	assert_output 4
	run raw k 4
	assert_output 11
	ctl agg @k clear
	run cat "$D/aggraw"
	assert_output ""
	devtrace run "$X/ag_many" 1 - > /dev/null
	run raw k 4
	assert_output 1
}

@test "a full table drops new keys and counts them" {
	traceagg ag_key 'entry @k[arg0] = count()'
	devtrace run "$X/ag_many" 6000 - > /dev/null
	kept=$(awk '$1 == "@k" && $4 == 1 { n++ } END { print n }' "$D/aggraw")
	drops=$(counter aggdrops)
	[ "$kept" -le 4096 ]
	[ "$drops" -ge $((6000 - 4096)) ]
	[ $((kept + drops)) -eq 6000 ]
	run awk '$1 == "#" { print $2, $3, $4 }' "$D/aggraw"
	assert_output "@k drops $drops"
	run grep -c "hits dropped: a writer's table was full" "$D/aggs"
	assert_output 1
}

@test "the state replays the aggregations" {
	traceagg 'ag_*' 'entry @a[func, pid] = count()' 'exit @b[execname] = quantize(dur)' 'entry @c = lquantize(arg0 & 0xff, -10, 90, 5)' 'records on'
	grep -v '^#' "$D/tracectl" > "$BATS_TEST_TMPDIR/state"
	run grep '^agg ' "$BATS_TEST_TMPDIR/state"
	assert_output "agg t entry @a[func, pid] = count()
agg t exit @b[execname] = quantize(dur)
agg t entry @c = lquantize(arg0 & 0xff, -10, 90, 5)
agg t records on"
	devtrace stop
	start
	devtrace ctl < "$BATS_TEST_TMPDIR/state"
	run diff "$BATS_TEST_TMPDIR/state" <(grep -v '^#' "$D/tracectl")
	assert_success
	ctl trace t remove
	run grep -c '^agg ' "$D/tracectl"
	assert_output 0
}

@test "bad definitions are refused with a reason" {
	traceagg ag_key
	run devtrace ctl agg t entry '@a[arg9] = count()'
	assert_failure
	assert_output "devtrace ctl: agg t entry @a[arg9] = count(): agg: key 1: unknown variable
  arg9
  ^"
	run devtrace ctl agg t entry '@a = median(arg0)'
	assert_failure
	assert_output "devtrace ctl: agg t entry @a = median(arg0): agg: unknown function (count, sum, min, max, avg, quantize, lquantize)"
	run devtrace ctl agg nosuch entry '@a = count()'
	assert_output "devtrace ctl: agg nosuch entry @a = count(): agg: no such trace"
	run devtrace ctl agg t entry '@a = lquantize(arg0, 10, 0, 1)'
	assert_output --partial "devtrace ctl: agg t entry @a = lquantize(arg0, 10, 0, 1): agg: lquantize: low < high"
	run devtrace ctl agg t entry '@a = sum(arg0 +)'
	assert_output "devtrace ctl: agg t entry @a = sum(arg0 +): agg: value: expression expected
  arg0 +
        ^"
	run grep -c '^agg ' "$D/tracectl"
	assert_output 0
}

@test "devtrace aggs prints what the files print" {
	traceagg 'ag_[abc]' 'entry @calls[func] = count()'
	devtrace run "$X/ag_known" > /dev/null
	run devtrace aggs
	assert_output "$(cat "$D/aggs")"
	assert_output "@calls[func] = count()
  ag_a  3
  ag_b  5
  ag_c  7"
	run devtrace aggs -m
	assert_output "$(cat "$D/aggraw")"
}

@test "keys that are an entry's arguments or an exit's return value print typed; aggraw keeps the numbers" {
	traceagg ty_move 'entry @d[arg0] = count()' 'entry @m[arg1] = count()' 'entry @b[arg2] = count()' 'entry @c[arg3] = count()' 'exit @r[retval] = min(retval)' 'exit @e[arg2] = count()'
	ctl trace ty_count new u
	ctl agg u 'entry @u[arg0] = sum(arg1)'
	ctl agg u 'entry @p[arg1, arg0] = count()'
	ctl trace u on
	run devtrace run "$X/ag_typed"
	assert_success
	# ty_move(int, enum mode, bool, char) -> int; ty_count(unsigned long, char *) -> long;
	# an exit's arguments are 0, no function's values
	run devtrace aggs
	assert_output "@d[arg0] = count()
  4   1
  0   2
  -2  2
  -1  2

@m[arg1] = count()
  3     1
  OFF   3
  FAST  3

@b[arg2] = count()
  true   3
  false  4

@c[arg3] = count()
  '\n'  1
  'a'   3
  'b'   3

@r[retval] = min(retval)
  4              4
  -105  4294967191
  -104  4294967192
  -97   4294967199
  -96   4294967200
  -2    4294967294

@e[arg2] = count()
  0  7

@u[arg0] = sum(arg1)
  7                     4096
  18446744073709551615  4096

@p[arg1, arg0] = count()
  0x1000  7                     1
  0x1000  18446744073709551615  1"
	assert_output "$(cat "$D/aggs")"
	# the machine form: the device's numbers (an int's upper half as the register held it)
	run cat "$D/aggraw"
	assert_output "@d count - 1 1 4
@d count - 2 2 0
@d count - 2 2 4294967294
@d count - 2 2 4294967295
@m count - 1 1 3
@m count - 3 3 0
@m count - 3 3 7
@b count - 3 3 1
@b count - 4 4 0
@c count - 1 1 10
@c count - 3 3 97
@c count - 3 3 98
@r min - 1 4 4
@r min - 1 4294967191 4294967191
@r min - 1 4294967192 4294967192
@r min - 1 4294967199 4294967199
@r min - 1 4294967200 4294967200
@r min - 2 4294967294 4294967294
@e count - 7 7 0
@u sum - 1 4096 7
@u sum - 1 4096 -1
@p count - 1 1 4096 7
@p count - 1 1 4096 -1"
	run devtrace aggs -m
	assert_output "$(cat "$D/aggraw")"
}

@test "keys stay numbers where the trace's functions' types differ, the key is no argument of theirs, or a function has no signature" {
	X=$BATS_FILE_TMPDIR
	start
	# ty_move's arg0 is an int, ty_count's an unsigned long (retval: int, long);
	# an exit's arguments and an entry's retval are no function's; pid is no argument
	run --separate-stderr devtrace aggs -t 'ty_*' -a 'entry @x[func, arg0] = count()' \
		-a 'exit @z[arg0, retval] = count()' -a 'entry @w[retval, pid > 0] = count()' -- "$X/ag_typed"
	assert_success
	assert_output "@x[func, arg0] = count()
  ty_move   4           1
  ty_count  7           1
  ty_count  -1          1
  ty_move   0           2
  ty_move   4294967294  2
  ty_move   4294967295  2

@z[arg0, retval] = count()
  0  0           1
  0  4           1
  0  8           1
  0  4294967191  1
  0  4294967192  1
  0  4294967199  1
  0  4294967200  1
  0  4294967294  2

@w[retval, pid > 0] = count()
  0  1  9"
	assert_equal "$stderr" ""
	# the same program without debug information: no signature, nothing typed
	"$ROOT/bin/devtrace-cc" -O0 -g0 -o "$BATS_TEST_TMPDIR/nodebug" "$BATS_TEST_DIRNAME/ag_typed.c"
	run devtrace aggs -t ty_move -a 'entry @d[arg0] = count()' -a 'entry @b[arg2] = count()' -- "$BATS_TEST_TMPDIR/nodebug"
	assert_success
	assert_output "@d[arg0] = count()
  4           1
  0           2
  4294967294  2
  4294967295  2

@b[arg2] = count()
  1  3
  0  4"
}

@test "values as their type: min, quantize, keys of an int's negative retval; an unsigned one stays so; a short argument" {
	X=$BATS_FILE_TMPDIR
	# neg returns -22, 5, 0 (int); negu 4294967274 (unsigned); down's first argument is a short, -3 then 2
	run --separate-stderr devtrace aggs -t neg -a 'exit @m = min(retval)' -a 'exit @q = quantize(retval)' -a 'exit @k[retval] = count()' -- "$X/fl_signed"
	assert_success
	assert_output "@m = min(retval)
          -22

@q = quantize(retval)
           value  ------------- Distribution ------------- count
             -32 |                                         0
             -16 |@@@@@@@@@@@@@                            1
              -8 |                                         0
              -4 |                                         0
              -2 |                                         0
              -1 |                                         0
               0 |@@@@@@@@@@@@@                            1
               1 |                                         0
               2 |                                         0
               4 |@@@@@@@@@@@@@                            1
               8 |                                         0

@k[retval] = count()
  0    1
  5    1
  -22  1"
	assert_equal "$stderr" ""
	run devtrace aggs -t negu -a 'exit @u = min(retval)' -t down -a 'entry @s = sum(arg0)' -- "$X/fl_signed"
	assert_success
	assert_output "@u = min(retval)
          4294967274

@s = sum(arg0)
          -1"
}

# the top level's counters of records
records() {
	grep -E '^#(hits|read|queued|lost|dropped) ' "$D/tracectl"
}

@test "aggs -t: a session of its own aggregates its program's calls alone; the top level's trace keeps its records" {
	X=$BATS_FILE_TMPDIR
	start
	ctl trace 'parse_*' new other
	ctl trace other on
	ctl start
	# 1+2*3+4: parse_expr(0); parse_term at 0, 2, 6; parse_num at 0, 2, 4, 6
	run --separate-stderr devtrace aggs -t 'parse_*' -a 'entry @calls[func] = count()' -a 'entry @at[func] = sum(arg0)' -a 'exit @v[func] = max(retval)' -- "$X/fl_parse" '1+2*3+4'
	assert_success
	assert_output "11
@calls[func] = count()
  parse_expr  1
  parse_term  3
  parse_num   4

@at[func] = sum(arg0)
  parse_expr   0
  parse_term   8
  parse_num   12

@v[func] = max(retval)
  parse_num    4
  parse_term   6
  parse_expr  11"
	assert_equal "$stderr" ""
	# the top level's: its 8 calls, E and X, queued; no aggregation of its own
	run records
	assert_output - <<-'END'
	#hits 16
	#read 0
	#queued 16
	#lost 0
	#dropped 0
	END
	run cat "$D/aggs"
	assert_output ""
	run grep '^#sessions' "$D/tracectl"
	assert_output '#sessions live 0 made 1 ended 1 reaped 0 refused 0'
	# -m: the machine lines; the program's exit status is aggs'
	run devtrace aggs -m -t 'parse_n*' -a 'entry @calls[func] = count()' -- "$X/fl_parse" '1+2*3+4' 3
	assert_failure 3
	assert_output "11
@calls count - 4 4 parse_num"
}

@test "aggs with several -t: a trace each, an -a the -t's before it" {
	X=$BATS_FILE_TMPDIR
	start
	# 1+2*3+4: parse_expr at 0; parse_num at 0, 2, 4, 6, returning 1, 2, 3, 4
	run --separate-stderr devtrace aggs -t 'parse_e*' -a 'entry @e[func] = count()' -t 'parse_n*' -a 'entry @n[arg0] = count()' -a 'exit @v = sum(retval)' -- "$X/fl_parse" '1+2*3+4'
	assert_success
	assert_output "11
@e[func] = count()
  parse_expr  1

@n[arg0] = count()
  0  1
  2  1
  4  1
  6  1

@v = sum(retval)
          10"
	assert_equal "$stderr" ""
	# -a before any -t: the first's
	run --separate-stderr devtrace aggs -a 'entry @n[func] = count()' -t 'parse_n*' -t 'parse_t*' -a 'entry @t[func] = count()' -- "$X/fl_parse" '1+2'
	assert_success
	assert_output "3
@n[func] = count()
  parse_num  2

@t[func] = count()
  parse_term  2"
	run grep '^#sessions' "$D/tracectl"
	assert_output '#sessions live 0 made 2 ended 2 reaped 0 refused 0'
}

@test "aggs -t -p: another process at the top level at the same time counts in neither the session nor its records" {
	X=$BATS_FILE_TMPDIR
	F=$BATS_TEST_TMPDIR
	start
	ctl trace fl_work new other
	ctl trace other on
	ctl start
	devtrace aggs -t fl_work -a 'entry @n[arg0] = count()' -a 'entry @even = sum(arg1)' -p 'arg1 % 2 == 0' -- "$X/fl_loop" 3 10 "$F/go" 0 > "$F/out" 3>&- &
	a=$!
	devtrace run "$X/fl_loop" 4 10 "$F/go" 0 > /dev/null 3>&- &
	b=$!
	# shellcheck disable=SC2034 # read by teardown in helper.bash
	BGPIDS="$a $b"
	waitfor test -d "$D/1"
	touch "$F/go"
	wait $a
	wait $b
	# fl_work(3, i) for i even of 0..9: 5 calls, 0+2+4+6+8
	run cat "$F/out"
	assert_output "3 30045
@n[arg0] = count()
  3  5

@even = sum(arg1)
          20"
	# the top level's: both programs' 20 calls, E and X
	run records
	assert_output - <<-'END'
	#hits 40
	#read 0
	#queued 40
	#lost 0
	#dropped 0
	END
	run sh -c "awk '{ print \$5 }' '$D/trace' | sort | uniq -c"
	assert_output "     10 0000000000000003
     10 0000000000000004
      1 0000000000000bb8
      1 0000000000000bb9
      1 0000000000000bba
      1 0000000000000bbb
      1 0000000000000bbc
      1 0000000000000bbd
      1 0000000000000bbe
      1 0000000000000bbf
      1 0000000000000bc0
      1 0000000000000bc1
      1 0000000000000fa0
      1 0000000000000fa1
      1 0000000000000fa2
      1 0000000000000fa3
      1 0000000000000fa4
      1 0000000000000fa5
      1 0000000000000fa6
      1 0000000000000fa7
      1 0000000000000fa8
      1 0000000000000fa9"
}

@test "aggs -t's refusals: an -a for each -t and a program needed, a bad definition named" {
	X=$BATS_FILE_TMPDIR
	start
	run --separate-stderr devtrace aggs -t 'parse_*' -a 'entry @a = count()' -t fl_work -- "$X/fl_parse" 1
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "devtrace aggs: -t 'fl_work' needs an -a: what to aggregate"
	run --separate-stderr devtrace aggs -t 'parse_*' -- "$X/fl_parse" 1
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "devtrace aggs: -t 'parse_*' needs an -a: what to aggregate"
	run --separate-stderr devtrace aggs -t 'parse_*' -a 'entry @a = count()'
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "devtrace aggs: -t needs a program to watch: -- prog"
	run --separate-stderr devtrace aggs -a 'entry @a = count()'
	assert_failure 2
	assert_equal "$stderr" "devtrace aggs: -a needs a -t to attach it to"
	run --separate-stderr devtrace aggs -t 'parse_*' -a 'entry @a[arg9] = count()' -- "$X/fl_parse" 1
	assert_failure 1
	assert_equal "$stderr" "devtrace aggs: -a 'entry @a[arg9] = count()': key 1: not an argument of the trace's functions at column 1"
	run --separate-stderr devtrace aggs -t 'parse_*' -a 'entry @a = count()' -p 'arg0 ==' -- "$X/fl_parse" 1
	assert_failure 1
	assert_equal "$stderr" "devtrace aggs: -p 'arg0 ==': expression expected at column 8"
	run --separate-stderr devtrace aggs -t 'zz*' -a 'entry @a = count()' -- "$X/fl_parse" 1
	assert_failure 1
	assert_equal "$output" "1
@a = count()"
	assert_equal "$stderr" "devtrace aggs: -t 'zz*': no function of the program matched"
	run grep '^#sessions' "$D/tracectl"
	assert_output '#sessions live 0 made 3 ended 3 reaped 0 refused 0'
	run grep -c '^trace ' "$D/tracectl"
	assert_output 0
}
