#!/usr/bin/env bats
# The same fixtures give the same records on amd64 and on arm64, apart
# from addresses, ticks and thread ids: each fixture runs from the amd64
# build ($A) natively and from the arm64 build ($B/tests/hooks) under the
# emulator ($RUN), both traced into devices the amd64 devshm serves, and
# the records, normalised by norm.awk (sigs: each function's integer
# arguments and whether it returns an integer), are compared whole.
load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load

H=$B/tests/hooks

setup() {
	export DEVTRACE_DIR=$BATS_TEST_TMPDIR/dev
	T=$BATS_TEST_TMPDIR
}

ctl() { "$DEVSHM" "$DEVTRACE_DIR" ctl "$@"; }

# both "FUNCS" PROG ARGS...: $T/a and $T/r, the normalised records of each build
both() {
	local funcs=$1 isa g i
	shift
	for isa in a r; do
		"$DEVSHM" "$DEVTRACE_DIR" create
		i=0
		for g in $funcs; do
			ctl trace "$g" new "t$i"
			ctl trace "t$i" on
			i=$((i + 1))
		done
		ctl start
		if [ $isa = a ]; then
			LD_PRELOAD=$LIB "$A/$1" "${@:2}" > "$T/out.$isa" 2>&1 || true
		else
			# shellcheck disable=SC2086 # RUN: the emulator and its arguments
			LD_PRELOAD=$LIB $RUN "$H/$1" "${@:2}" > "$T/out.$isa" 2>&1 || true
		fi
		"$DEVSHM" "$DEVTRACE_DIR" cat > "$T/raw"
		"$DEVSHM" "$DEVTRACE_DIR" syms > "$T/syms"
		"$DEVSHM" "$DEVTRACE_DIR" destroy
		awk -f "$A/../../../tests/hooks/recs.awk" "$T/syms" "$T/raw" > "$T/recs"
		awk -f "$BATS_TEST_DIRNAME/norm.awk" "$BATS_TEST_DIRNAME/sigs" "$T/recs" > "$T/$isa"
	done
}

# same N: both builds printed the same and left the same N records
same() {
	run cmp "$T/out.a" "$T/out.r"
	assert_success
	run diff "$T/a" "$T/r"
	assert_output ""
	run grep -c . "$T/r"
	assert_output "$1"
}

@test "arguments, return values, recursion" {
	both "leaf fib scale vsum" fx_basic 6
	same 56
}

@test "tail calls" {
	both "f g h" fx_tail
	same 10
}

@test "signal handlers, on the thread's stack and on an alternate one" {
	both "outer onsig handled" fx_signal
	same 24
}

@test "longjmp and siglongjmp" {
	both "a b c done" fx_jmp 20
	same 122
}

@test "dlopen (mainfn's records last: the order of a call's arguments is the compiler's)" {
	both "libfn libinner mainfn" fx_dl
	for f in a r; do
		{ grep -v ' mainfn ' "$T/$f"; grep ' mainfn ' "$T/$f"; } > "$T/$f.1"
		mv "$T/$f.1" "$T/$f"
	done
	same 12
}

@test "a full shadow stack" {
	DEVTRACE_SHADOW=50 both "deep" fx_deep 200
	same 100
}

@test "classic mode" {
	both "leaf fib" fx_classic 6
	same 52
}

@test "threads (records sorted: their order is the scheduler's)" {
	both "work inner" fx_threads
	sort -o "$T/a" "$T/a"
	sort -o "$T/r" "$T/r"
	same 1600
}

@test "fork (sorted: parent and child interleave)" {
	both "f" fx_fork
	sort -o "$T/a" "$T/a"
	sort -o "$T/r" "$T/r"
	sed -i 's/[0-9][0-9]* f /PID f /' "$T/out.a" "$T/out.r"
	same 6
}

@test "a difference is caught (self-test: fib(6) against fib(5))" {
	both "leaf fib" fx_basic 6
	mv "$T/a" "$T/a6"
	both "leaf fib" fx_basic 5
	run diff "$T/a6" "$T/r"
	assert_failure
}

# the hz a device made by an arm64 devshm under the emulator says
armhz() {
	# shellcheck disable=SC2086 # MAKER: the emulator and the arm64 devshm
	$MAKER "$DEVTRACE_DIR" create
	"$DEVSHM" "$DEVTRACE_DIR" state | awk '$1 == "#hz" { print $2 }'
	"$DEVSHM" "$DEVTRACE_DIR" destroy
}

@test "an arm64 device's #hz is the counter's set rate (CNTFRQ_EL0), not a measurement" {
	h1=$(armhz)
	h2=$(armhz)
	assert_equal "$h1" "$h2"
	# a 25 ms measurement is not a round number; a set rate is (QEMU 7.2: 62500000)
	run awk -v h="$h1" 'BEGIN { print (h > 1000000 && h % 100000 == 0) ? "round" : "measured " h }'
	assert_output round
}
