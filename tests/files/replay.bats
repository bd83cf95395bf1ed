#!/usr/bin/env bats
# devtrace replay -T START..END and several recordings merged (cmd/replay.c).
# Fixtures from build/bench/mkrec (a tick a ns), checked by hand: f is
# calls.bats's f (thread 16: main 0..300 > work 10..100 > leaf 20..50,
# leaf 60..70; fib 110..200 > fib 120..150; thread 17: an exit of work
# with no entry at 5, leaf 40..80 > work 45 (passed over at 80), leaf
# 90 never ends); a and b: one thread 10 each, b's clock 25 ns after a's.
# shellcheck disable=SC2154 # stderr: set by run --separate-stderr
load helper

MKREC=$ROOT/build/bench/mkrec

fixtures() {
	cd "$BATS_TEST_TMPDIR" || return 1
	callsf
	printf 'E 1000 0 a\nE 1020 a a\nX 1020 1e a\nX 1000 32 a\n' | "$MKREC" -o a -c '0 1000'
	printf 'E 1000 0 a\nE 1020 5 a\nX 1020 f a\nX 1000 28 a\n' | "$MKREC" -o b -c '0 1025'
	printf '%016x %s fl\n' 0x1000 main 0x1020 leaf > a.syms
	# the same pc named otherwise in b: each file's own names
	printf '%016x %s fl\n' 0x1000 main 0x1020 bleaf > b.syms
}

@test "replay -T START..END: the calls wholly inside; 17's work ends where the exit that passed it came (80)" {
	fixtures
	run devtrace replay -T 10ns..100ns f
	assert_success
	assert_output - <<-'OUT'
	    TID       TIME(ns)   DURATION  FUNCTION
	     16              0             -> work
	     16             10               -> leaf
	     17             30             -> leaf
	     17             35               -> work
	     16             40         30    <- leaf
	     16             50               -> leaf
	     16             60         10    <- leaf
	     17              -          -    <- work (no exit)
	     17             70         40  <- leaf
	     16             90         90  <- work
	OUT
}

@test "replay -T: calls partly outside are left out, with their entry and exit" {
	fixtures
	# leaf 20..50 begins before, leaf 60..70, 17's leaf 40..80 and work 45..80 end after
	run devtrace replay -T 40ns..60ns f
	assert_success
	assert_output ""
	# 17's work (45) ends at 80, where the exit that passed it came, the first record past END
	run devtrace replay -T 45ns..79ns f
	assert_success
	assert_output - <<-'OUT'
	    TID       TIME(ns)   DURATION  FUNCTION
	     16              0             -> leaf
	     16             10         10  <- leaf
	OUT
	run devtrace replay -T 15us..99s f
	assert_success
	assert_output ""
}

@test "replay -T START.. and ..END: open sides; an exit with no entry only with no START, a call with no exit only with no END" {
	fixtures
	run devtrace replay -T 100ns.. f
	assert_success
	assert_output - <<-'OUT'
	    TID       TIME(ns)   DURATION  FUNCTION
	     16              0             -> fib
	     16             10               -> fib
	     16             40         30    <- fib
	     16             90         90  <- fib
	OUT
	run devtrace replay -T 0.08us.. f
	assert_success
	assert_output - <<-'OUT'
	    TID       TIME(ns)   DURATION  FUNCTION
	     17              0             -> leaf
	     16             20             -> fib
	     16             30               -> fib
	     16             60         30    <- fib
	     16            110         90  <- fib
	     17              -          -  <- leaf (no exit)
	OUT
	run devtrace replay -T ..50ns f
	assert_success
	assert_output - <<-'OUT'
	    TID       TIME(ns)   DURATION  FUNCTION
	     17              0          -  <- work (no entry)
	     16             15             -> leaf
	     16             45         30  <- leaf
	OUT
}

@test "replay F1 F2: merged by their clocks, each named by its own syms, threads apart as FILE/TID" {
	fixtures
	run devtrace replay a b
	assert_success
	assert_output - <<-'OUT'
	    TID       TIME(ns)   DURATION  FUNCTION
	   1/10              0             -> main
	   1/10             10               -> leaf
	   2/10             25             -> main
	   1/10             30         20    <- leaf
	   2/10             30               -> bleaf
	   2/10             40         10    <- bleaf
	   1/10             50         50  <- main
	   2/10             65         40  <- main
	OUT
	# the window counts from the merged stream's first record; files numbered in the order given
	run devtrace replay -T 20ns..45ns b a
	assert_success
	assert_output - <<-'OUT'
	    TID       TIME(ns)   DURATION  FUNCTION
	   1/10              0             -> bleaf
	   1/10             10         10  <- bleaf
	OUT
}

@test "replay: a bad window, a second file that is no recording: said, exit 2 or 1" {
	fixtures
	run --separate-stderr devtrace replay -T 5ms..1ms f
	assert_failure 2
	assert_equal "$stderr" "devtrace replay: -T '5ms..1ms': END before START"
	run --separate-stderr devtrace replay -T 5xs.. f
	assert_failure 2
	assert_equal "$stderr" "devtrace replay: -T '5xs..': a window START..END, each a time (10us, 1.5ms; ns, us, ms, s), either left out (1ms.., ..500us)"
	run --separate-stderr devtrace replay -T 5ms f
	assert_failure 2
	assert_equal "$stderr" "devtrace replay: -T '5ms': a window START..END, each a time (10us, 1.5ms; ns, us, ms, s), either left out (1ms.., ..500us)"
	run --separate-stderr devtrace replay a a.syms
	assert_failure 1
	assert_equal "$stderr" "devtrace replay: a.syms: not a file of devtrace record (no devtrace header)"
	run --separate-stderr devtrace replay -z5 a
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" "devtrace replay: unknown option -z"
}
