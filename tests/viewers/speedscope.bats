#!/usr/bin/env bats
# speedscope, in headless Chromium, opens what scripts/traceevents,
# scripts/folded and devtrace dump --speedscope write for
# tests/fixtures/traces/threads.trace, and shows its functions with
# their exact times.
load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
S=$ROOT/scripts
F=$ROOT/tests/fixtures/traces
VIEW=$BATS_TEST_DIRNAME/speedscope-view
export PATH=$ROOT/bin:$PATH

# threads.trace as a recording of devtrace record (bench/mkrec, 2 GHz): $1
mkrec() {
	"$ROOT/build/bench/mkrec" -z 2000000000 -o "$1" < "$F/threads.trace"
	cp "$F/threads.syms" "$1.syms"
}

@test "the viewers are installed (tools/install-viewers)" {
	run command -v chromium
	assert_success
	assert [ -f "${VIEWERS_DIR:-$ROOT/build/viewers}/node_modules/speedscope/dist/release/index.html" ]
}

@test "speedscope opens traceevents JSON: three threads, tid 300's calls in ns" {
	"$S/traceevents" -s "$F/threads.syms" -v "ctl=$F/tracectl" "$F/threads.trace" > "$BATS_TEST_TMPDIR/threads.json"
	run "$VIEW" "$BATS_TEST_TMPDIR/threads.json"
	assert_success
	# main 1000..1300 ticks at 2 GHz; worker 1040..1150 less lock 1060..1100
	assert_output "$(printf '%s\n' \
		"# threads.trace (pid 1), tid 300 (tid 300) (1/3)" \
		"150.00ns (100%)	95.00ns (63%)	main" \
		"55.00ns (37%)	35.00ns (23%)	worker" \
		"20.00ns (13%)	20.00ns (13%)	lock")"
}

@test "speedscope opens devtrace dump --speedscope: a profile per thread, tid 300's calls in ns as the JSON's" {
	mkrec "$BATS_TEST_TMPDIR/threads"
	devtrace dump --speedscope "$BATS_TEST_TMPDIR/threads" > "$BATS_TEST_TMPDIR/threads.speedscope.json"
	run "$VIEW" "$BATS_TEST_TMPDIR/threads.speedscope.json"
	assert_success
	assert_output "$(printf '%s\n' \
		"# tid 300 (1/3)" \
		"150.00ns (100%)	95.00ns (63%)	main" \
		"55.00ns (37%)	35.00ns (23%)	worker" \
		"20.00ns (13%)	20.00ns (13%)	lock")"
}

@test "speedscope opens folded stacks: self times summed over the threads" {
	"$S/folded" -s "$F/threads.syms" -v "ctl=$F/tracectl" "$F/threads.trace" > "$BATS_TEST_TMPDIR/threads.folded"
	run "$VIEW" "$BATS_TEST_TMPDIR/threads.folded"
	assert_success
	assert_output "$(printf '%s\n' \
		"150 (60%)	95 (38%)	main" \
		"110 (44%)	80 (32%)	worker" \
		"45 (18%)	45 (18%)	read" \
		"30 (12%)	30 (12%)	lock")"
}

@test "speedscope's screenshot of the JSON is a PNG of the size asked" {
	"$S/traceevents" -s "$F/threads.syms" -v "ctl=$F/tracectl" "$F/threads.trace" > "$BATS_TEST_TMPDIR/threads.json"
	run "$VIEW" -g 800x300 -o "$BATS_TEST_TMPDIR/shot.png" "$BATS_TEST_TMPDIR/threads.json"
	assert_success
	run python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); assert d[:8]==b"\x89PNG\r\n\x1a\n"; print("%dx%d" % struct.unpack(">II", d[16:24]))' "$BATS_TEST_TMPDIR/shot.png"
	assert_output "800x300"
}
