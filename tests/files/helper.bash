# helper.bash: what every files test shares.  Each test has its own
# device directory; teardown stops its server, kills what it started
# in the background, and fails the test if a mount is left behind.
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
BIN=$ROOT/bin
export PATH=$BIN:$PATH

setup() {
	export DEVTRACE_DIR=$BATS_TEST_TMPDIR/dev
	D=$DEVTRACE_DIR
	BGPIDS=
	EXTRA=
}

teardown() {
	local p
	for p in $BGPIDS; do kill -9 "$p" 2>/dev/null || true; done
	devtrace stop 2>/dev/null || true
	if mounted "$D"; then
		umount -l "$D" 2>/dev/null || fusermount3 -u -z "$D" 2>/dev/null || true
		# shellcheck disable=SC2086 # EXTRA: paths, one a word
		rm -rf $EXTRA
		echo "stale mount left on $D" >&2
		return 1
	fi
	# shellcheck disable=SC2086
	rm -rf $EXTRA
}

# setup_file's: the fixtures fl_NAME.c built with devtrace-cc, once the runtime is built
buildfl() {
	[ -e "$ROOT/lib/libdevtrace.so" ] || return 0
	local f
	for f; do
		"$ROOT/bin/devtrace-cc" -O0 -g -o "$BATS_FILE_TMPDIR/fl_$f" "$BATS_TEST_DIRNAME/fl_$f.c"
	done
}

# a test of an instrumented program: X is where buildfl put it
needlib() {
	[ -e "$ROOT/lib/libdevtrace.so" ] || skip "needs lib/libdevtrace.so"
	# shellcheck disable=SC2034 # read by the tests
	X=$BATS_FILE_TMPDIR
	# shellcheck disable=SC2034 # read by the tests: the test's own files
	O=$BATS_TEST_TMPDIR
}

mounted() {
	awk -v d="$1" '$2 == d { f = 1 } END { exit !f }' /proc/mounts
}

# the server, without /dev links: the tests that want those say so
start() {
	devtraced -n "$@"
}

ctl() {
	echo "$*" > "$D/tracectl"
}

# tracectl with the lines that differ between machines and reads made fixed
state() {
	sed 's/^#hz [0-9]*$/#hz HZ/; s/^#clock [0-9]* [0-9]*$/#clock TICKS NS/' "$D/tracectl"
}

counter() {
	awk -v k="#$1" '$1 == k { print $2 }' "$D/tracectl"
}

hex() {
	printf '%016x' "$1"
}

# wait up to 5 s for a command to succeed
waitfor() {
	for _ in $(seq 500); do
		"$@" && return 0
		sleep 0.01
	done
	echo "timed out waiting for: $*" >&2
	return 1
}

# a process that ended: no zombie waits for a parent that may never reap it
# (it may vanish between the two looks: grep's complaint is not output)
gone() {
	! [ -e "/proc/$1" ] || grep -qs ') [ZX] ' "/proc/$1/stat" || ! [ -e "/proc/$1" ]
}

serverpid() {
	devtrace status | awk '{ print $3 }'
}

# a record line: E or X, seven fields of 16 lowercase hex digits; or a
# wait's mark, W: pc, ticks, thread, the ticks waited (not 0), what for
# (1 the reader, 2 the ring's pages, 3 both), two zeros
wellformed() {
	awk 'length($0) != 120 { bad++ }
		$1 == "W" && ($0 !~ /^W( [0-9a-f]{16}){4} 0{15}[123]( 0{16}){2}$/ || $5 ~ /^0+$/) { bad++ }
		$1 != "W" && $0 !~ /^[EX]( [0-9a-f]{16}){7}$/ { bad++ }
		END { exit bad > 0 }' "$@"
}

# the wait marks (W lines) of a file of record lines: how many
marks() {
	awk '$1 == "W" { n++ } END { print n + 0 }' "$1"
}

# calls.bats' and replay.bats' recording f and its f.syms, made by
# build/bench/mkrec in the current directory (a tick a ns): thread 16,
# main 0..300 > work 10..100 > leaf 20..50, leaf 60..70; fib 110..200 >
# fib 120..150; thread 17: an exit of work with no entry at 5, leaf
# 40..80 > work 45 (passed over at 80), leaf 90 never ends
callsf() {
	"$ROOT/build/bench/mkrec" -o f <<-'LINES'
	E 1000 0 10
	X 1010 5 11
	E 1010 a 10
	E 1020 14 10
	X 1020 32 10
	E 1020 3c 10
	X 1020 46 10
	X 1010 64 10
	E 1030 6e 10
	E 1030 78 10
	X 1030 96 10
	X 1030 c8 10
	X 1000 12c 10
	E 1020 28 11
	E 1010 2d 11
	X 1020 50 11
	E 1020 5a 11
	LINES
	printf '%016x %s fl\n' 0x1000 main 0x1010 work 0x1020 leaf 0x1030 fib > f.syms
}

# waits.bats' and dump.bats' recording w and its w.syms, made by
# build/bench/mkrec in the current directory (a tick a ns) from
# tests/fixtures/traces/waits.trace, whose .src says the times: thread
# 100 waits 300 inside parse and 100 in main's own time; on the
# program's clock main 1000..1600 (self 300), parse 1100..1200, render
# 1300..1500 with a probe's hit at 1400; thread 200's parse 1200..1650
waitsf() {
	"$ROOT/build/bench/mkrec" -o w < "$ROOT/tests/fixtures/traces/waits.trace"
	cp "$ROOT/tests/fixtures/traces/waits.syms" w.syms
}
