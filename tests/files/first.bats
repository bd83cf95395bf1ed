#!/usr/bin/env bats
# Time belongs to the call: a thread's first traced call is not charged
# the runtime's set-up (its Thr and shadow stack, its Writer decided, a
# ring claimed, the ring's pages faulted in).  fl_first makes 21 calls of
# the same shape in the main thread, then 21 in a new one; each thread's
# first call must take at most twice the median of its later ones
# (with the clock read before the set-up: 4 to 8 times; fl_first.c says
# why its calls are 100 us long).  Not under ASan (check-asan's copy
# of this suite): there the reader and the server, ASan-built, take the
# 2 cores from the program as it starts, and CI saw the main thread's
# first call 2.5 to 3.4 times its median in 3 runs of 3; the plain run
# of this suite is the one that times.
load helper

# timing is not asked of an ASan build (check-asan sets ASAN_OPTIONS): a counted skip (tests/tapskips)
notasan() {
	[ -z "${ASAN_OPTIONS:-}" ] || skip "timing under ASan"
}

setup_file() {
	buildfl first
	[ -e "$ROOT/lib/libdevtrace.so" ] || return 0
	"$ROOT/bin/devtrace-cc" --classic -O0 -g -o "$BATS_FILE_TMPDIR/fl_first_classic" "$BATS_TEST_DIRNAME/fl_first.c"
}

# per thread (the first column), "TID FIRST MEDIAN" of the durations in
# column $2 of the exit lines (those that match $1), in their order
firstvsmedian() {
	awk -v pat="$1" -v col="$2" '$0 ~ pat {
		t = $1; d[t, ++n[t]] = $col
	}
	END {
		for (t in n) {
			m = 0
			for (i = 2; i <= n[t]; i++)
				v[++m] = d[t, i]
			for (i = 2; i <= m; i++)	# insertion sort: 20 values
				for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
					x = v[j]; v[j] = v[j - 1]; v[j - 1] = x
				}
			print t, n[t], d[t, 1], v[int((m + 1) / 2)]
		}
	}'
}

# within2x: each line "TID N FIRST MEDIAN" restated; fails unless there
# are 2 threads of 21 calls each, FIRST at most 2 x MEDIAN
within2x() {
	awk '{ print "thread " $1 ": " $2 " calls, the first " $3 ", the median of the rest " $4; n++ }
		$2 != 21 || $3 > 2 * $4 { bad = 1 }
		END { if (n != 2) print n + 0 " threads, want 2"; exit bad || n != 2 }'
}

# besttry FN: FN runs fl_first once and prints its "TID N FIRST MEDIAN"
# lines; passes when one of 3 runs is within2x.  A set-up charged to the
# first call fails every run; a preemption that lands in one 50 us call
# on a loaded machine (seen once in a CI's nested make test) fails one.
besttry() {
	local i
	for i in 1 2 3; do
		"$1" > "$BATS_TEST_TMPDIR/fm" || fail "run $i of fl_first failed"
		echo "run $i:" >> "$BATS_TEST_TMPDIR/tries"
		within2x < "$BATS_TEST_TMPDIR/fm" >> "$BATS_TEST_TMPDIR/tries" && return 0
	done
	fail "in each of 3 runs a thread's first call took more than twice its median:
$(cat "$BATS_TEST_TMPDIR/tries")"
}

runt() {
	devtrace run -t fl_step -- "$X/fl_first" > "$BATS_TEST_TMPDIR/out" || return 1
	firstvsmedian '<- fl_step' 3 < "$BATS_TEST_TMPDIR/out"
}

runtclassic() {
	devtrace run -t fl_step -- "$X/fl_first_classic" > "$BATS_TEST_TMPDIR/out" || return 1
	firstvsmedian '<- fl_step' 3 < "$BATS_TEST_TMPDIR/out"
}

# the records: E pc ticks pid ..., X pc ticks pid retval; fl_step is a
# leaf: durations from pairs, by thread.  Reading trace takes the records.
toplevel() {
	devtrace run -- "$X/fl_first" > /dev/null || return 1
	gawk '$1 == "E" { e[$4] = strtonum("0x" $3) } $1 == "X" { print $4, strtonum("0x" $3) - e[$4] }' "$D/trace" |
		firstvsmedian . 2
}

@test "run -t: each thread's first call takes at most twice the median of its later calls" {
	needlib
	notasan
	besttry runt
}

@test "run -t on a --classic build: each thread's first call takes at most twice the median of its later calls" {
	needlib
	notasan
	besttry runtclassic
}

@test "the top level's trace: each thread's first call takes at most twice the median of its later calls" {
	needlib
	notasan
	start
	ctl trace fl_step new s
	ctl trace s on
	ctl start
	besttry toplevel
}
