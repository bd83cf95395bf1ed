#!/usr/bin/env bats
# devtrace dump FILE: a recording of devtrace record for the viewers.
# --perfetto is decoded by protoc against the schema written for these
# tests (perfetto.proto) and compared event by event with the records of
# devtrace cat FILE, its times computed here by an awk of their own;
# --speedscope's JSON read back by jq.
# shellcheck disable=SC2154 # stderr: set by run --separate-stderr
load helper

setup_file() {
	buildfl threads types fork
}

# a recording of fl_threads' fl_work calls, 2 threads of 3 calls: F
recthreads() {
	needlib
	command -v protoc > /dev/null || skip "needs protoc (Debian: protobuf-compiler)"
	start
	F=$O/f
	devtrace record -t fl_work -o "$F" -- "$X/fl_threads" 2 3 > /dev/null 2>&1
}

# a recording of fl_fork N $1: 3 fl_work calls of its parent, then 3 of
# its child, which stays $1 ms more: F, the parent's pid P, the child's C
recfork() {
	needlib
	command -v protoc > /dev/null || skip "needs protoc (Debian: protobuf-compiler)"
	start
	F=$O/f
	devtrace record -t fl_work -o "$F" -- "$X/fl_fork" 3 "$1" > "$O/out" 2> /dev/null
	P=$(devtrace info "$F" | awk '$1 == "pid" { print $2 }')
	C=$(awk '$1 == "child" { print $2 }' "$O/out")
}

# the Perfetto trace's track descriptors on standard input as lines
# "process UUID PID NAME", "thread UUID TID PID PARENT"
tracks() {
	protoc -I "$BATS_TEST_DIRNAME" --decode=perfetto.Trace "$BATS_TEST_DIRNAME/perfetto.proto" |
	awk '
	/^  track_descriptor \{$/ { t = 1; kind = pid = tid = nm = par = ""; next }
	t && /^    uuid: / { u = $2 }
	t && /^    (process|thread) \{$/ { kind = $1 }
	t && /^      pid: / { pid = $2 }
	t && /^      tid: / { tid = $2 }
	t && /^      process_name: / { nm = substr($0, index($0, ":") + 2) }
	t && /^    parent_uuid: / { par = $2 }
	t && /^  \}$/ { print kind, u, (kind == "thread" ? tid " " pid " " par : pid " " nm); t = 0 }
	'
}

# the Perfetto trace on standard input as lines "KIND TID NAME NS ARG=VALUE ...":
# KIND B (slice begin), E (end), I (instant); names through the interned ones;
# NS the packet's timestamp on BOOTTIME (clock 6), or on the sequence's
# incremental clock 64: the sum of the deltas since its snapshot (gawk -M: exact)
decode() {
	protoc -I "$BATS_TEST_DIRNAME" --decode=perfetto.Trace "$BATS_TEST_DIRNAME/perfetto.proto" |
	gawk -M '
	/\{$/ { p[++d] = $1; next }
	/^ *\}$/ {
		if (p[d] == "clocks" && cid == 64) clk = cts
		if (d == 1 && ts != "") { if (tcid != 6) { clk += ts; ts = clk }; tcid = "" }
		if (p[d] == "debug_annotations") args[++na] = an SUBSEP av
		if (p[d] == "thread") TID[uuid] = tid
		if (p[d] == "event_names") EN[iid] = nm
		if (p[d] == "debug_annotation_names") AN[iid] = nm
		if (d == 1 && type != "") {
			s = substr("BEI", type, 1) " " TID[track] " " (type == 2 ? "-" : EN[name]) " " ts
			for (i = 1; i <= na; i++) { split(args[i], a, SUBSEP); s = s " " AN[a[1]] "=" a[2] }
			print s
		}
		if (d == 1) { type = ""; na = 0; ts = "" }
		d--; next
	}
	{ k = $1; sub(/:$/, "", k); v = substr($0, index($0, ":") + 2) }
	d == 1 && k == "timestamp" { ts = v }
	d == 1 && k == "timestamp_clock_id" { tcid = v }
	p[d] == "clocks" && k == "clock_id" { cid = v }
	p[d] == "clocks" && k == "timestamp" { cts = v }
	p[d] == "track_descriptor" && k == "uuid" { uuid = v }
	p[d] == "thread" && k == "tid" { tid = v }
	p[d] == "track_event" && k == "type" { type = v }
	p[d] == "track_event" && k == "name_iid" { name = v }
	p[d] == "track_event" && k == "track_uuid" { track = v }
	p[d] == "debug_annotations" && k == "name_iid" { an = v }
	p[d] == "debug_annotations" && k ~ /_value$/ { av = v }
	p[d] ~ /_names$/ && k == "iid" { iid = v }
	p[d] ~ /_names$/ && k == "name" { nm = v; gsub(/"/, "", nm) }
	'
}

# decode's lines without their tid and ns
calls() {
	decode | awk '{ $2 = ""; $4 = ""; sub(/ +$/, ""); print }'
}

# the records of devtrace cat F as the lines decode gives: fl_work's
# entries with id and i (words 1 and 2), its exits with return (word 1);
# ns = the #clock's NS + (ticks - its TICKS) * 10^9 / #hz, exact (gawk -M)
expected() {
	devtrace cat "$F" | "$ROOT/scripts/name" "$F.syms" | gawk -M '
	function hex(s,   i, v) { v = 0; s = tolower(s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
	$1 == "#hz" { hz = $2 }
	$1 == "#clock" { t0 = $2; ns0 = $3 }
	$1 == "E" || $1 == "X" {
		t = ns0 + int((hex($3) - t0) * 1000000000 / hz)
		if ($1 == "E") print "B", hex($4), $2, t, "id=" hex($5), "i=" hex($6)
		else print "E", hex($4), "-", t, "return=" hex($5)
	}'
}

# the first profile's lines "TYPE FRAME AT", from the records: ns since the first record
ssexpected() {
	devtrace cat "$F" | gawk -M '
	function hex(s,   i, v) { v = 0; s = tolower(s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
	$1 == "#hz" { hz = $2 }
	$1 == "E" || $1 == "X" {
		if (t0 == "") t0 = hex($3)
		if (!($4 in seen)) { seen[$4] = 1; order[++n] = $4 }
		ev[$4] = ev[$4] ($1 == "E" ? "O" : "C") " 0 " int((hex($3) - t0) * 1000000000 / hz) "\n"
	}
	END { for (i = 1; i <= n; i++) printf "tid %d\n%s", hex(order[i]), ev[order[i]] }'
}

@test "dump --perfetto F: every record an event of its thread's track, its name, ns, arguments and return value as devtrace cat F holds them" {
	recthreads
	run devtrace dump --perfetto "$F"
	assert_success
	devtrace dump --perfetto "$F" > "$O/f.pftrace"
	run decode < "$O/f.pftrace"
	assert_success
	assert_equal "${#lines[@]}" 12
	assert_output "$(expected)"
	# the times as deltas: after the first, each below a second (absolute ns are 19 digits)
	protoc -I "$BATS_TEST_DIRNAME" --decode=perfetto.Trace "$BATS_TEST_DIRNAME/perfetto.proto" < "$O/f.pftrace" > "$O/text"
	run awk '/^  timestamp: / && n++ && length($2) > 9' "$O/text"
	assert_output ""
	run grep -c '^  timestamp: ' "$O/text"
	assert_output 12
	# 6 calls of each of two threads, none of the program's main thread
	run bash -c "devtrace cat '$F' | awk '\$1 == \"E\" { print \$4 }' | sort | uniq -c | awk '{ print \$1 }'"
	assert_output "$(printf '3\n3')"
}

@test "dump --perfetto F: one process track, the recording's pid and command; a thread track per tid under it; names interned once, the first packet clearing the sequence and starting its incremental clock at the #clock's ns" {
	recthreads
	devtrace dump --perfetto "$F" > "$O/f.pftrace"
	protoc -I "$BATS_TEST_DIRNAME" --decode=perfetto.Trace "$BATS_TEST_DIRNAME/perfetto.proto" < "$O/f.pftrace" > "$O/text"
	pid=$(devtrace info "$F" | awk '$1 == "pid" { print $2 }')
	run grep -c '^  track_descriptor {' "$O/text"
	assert_output 3
	run grep -A1 '^    process {' "$O/text"
	assert_output "$(printf '    process {\n      pid: %s' "$pid")"
	run grep 'process_name' "$O/text"
	assert_output "      process_name: \"$X/fl_threads 2 3\""
	run grep -c "^      pid: $pid\$" "$O/text"
	assert_output 3
	run grep -A1 'event_names {' "$O/text"
	assert_output "$(printf '    event_names {\n      iid: 1')"
	run grep -c 'sequence_flags: 1$' "$O/text"
	assert_output 1
	ns0=$(devtrace cat "$F" | awk '$1 == "#clock" { print $3 }')
	run sed -n '2,/^}/p' "$O/text"
	assert_output - <<-OUT
	  clock_snapshot {
	    clocks {
	      clock_id: 6
	      timestamp: $ns0
	    }
	    clocks {
	      clock_id: 64
	      timestamp: $ns0
	      is_incremental: true
	    }
	  }
	  trusted_packet_sequence_id: 1
	  sequence_flags: 1
	  trace_packet_defaults {
	    timestamp_clock_id: 64
	  }
	}
	OUT
	run grep -c 'trusted_packet_sequence_id: 1$' "$O/text"
	assert_output 16
	run grep -c 'clock_id' "$O/text"
	assert_output 3
}

@test "dump --perfetto F: a process track per recorded process, the recording's named by its command, a forked child's by its comm as record read it; each thread's track under its own" {
	recfork 200
	assert_not_equal "$C" "$P"
	devtrace dump --perfetto "$F" | tracks > "$O/tracks"
	run cat "$O/tracks"
	assert_output - <<-OUT
	process $((1 << 32 | P)) $P "$X/fl_fork 3 200"
	thread $((2 << 32 | P)) $P $P $((1 << 32 | P))
	process $((1 << 32 | C)) $C "fl_fork"
	thread $((2 << 32 | C)) $C $C $((1 << 32 | C))
	OUT
	run devtrace dump --perfetto "$F"
	assert_success
}

@test "dump --perfetto F: arguments and return values typed by F.sigs, one class each" {
	needlib
	command -v protoc > /dev/null || skip "needs protoc (Debian: protobuf-compiler)"
	start
	F=$O/f
	devtrace record -t '*' -o "$F" -- "$X/fl_types" > /dev/null 2>&1 || true
	devtrace dump --perfetto "$F" > "$O/f.pftrace"
	run calls < "$O/f.pftrace"
	assert_line "B  neg  x=-4"
	assert_line "E  -  return=-5"
	assert_line "B  add  x=18446744073709551615 y=2"
	assert_line "B  next  p=4096"
	assert_line "B  upper  c=97"
	assert_line "B  flip  b=false"
	assert_line "B  paint  c=1"
	assert_line 'B  sum  p="{0x1, 0x2}" k=-3'
	assert_line 'B  half  d="?" n=1'
	assert_line 'E  -  return="?"'
	assert_line "E  -  return=true"
	assert_line "E  -  return=4097"
	assert_line "B  nothing"
	assert_equal "${#lines[@]}" 20
}

@test "dump --speedscope F: a profile per thread, its events in ns from the records, the frames shared" {
	recthreads
	run devtrace dump --speedscope "$F"
	assert_success
	devtrace dump --speedscope "$F" > "$O/f.json"
	run jq -c '.shared.frames' "$O/f.json"
	assert_output '[{"name":"fl_work"}]'
	run jq -r '."$schema"' "$O/f.json"
	assert_output "https://www.speedscope.app/file-format-schema.json"
	run jq -r '.profiles[] | "\(.name)", (.events[] | "\(.type) \(.frame) \(.at)")' "$O/f.json"
	assert_output "$(ssexpected)"
	run jq -r '.profiles[] | "\(.type) \(.unit) \(.startValue == .events[0].at) \(.endValue == .events[-1].at)"' "$O/f.json"
	assert_output "$(printf 'evented nanoseconds true true\nevented nanoseconds true true')"
}

@test "dump: calls paired as report pairs them (cmd/calls.c): a call an exit passes over ends there, one open at the end at its thread's last record, an exit with no entry left out" {
	cd "$BATS_TEST_TMPDIR"
	# cut.lines, thread 17: work's exit with no entry (5); leaf (40) calls work (45); leaf's exit (80) passes work's; leaf again (90), never ends
	"$ROOT/build/bench/mkrec" -o c < "$ROOT/tests/fixtures/traces/cut.lines"
	cp "$ROOT/tests/fixtures/traces/cut.syms" c.syms
	devtrace dump --speedscope c > c.json
	run jq -c '.shared.frames, .profiles[0].events, [.profiles[0].startValue, .profiles[0].endValue]' c.json
	assert_line --index 0 '[{"name":"work"},{"name":"leaf"}]'
	assert_line --index 1 '[{"type":"O","frame":1,"at":35},{"type":"O","frame":0,"at":40},{"type":"C","frame":0,"at":75},{"type":"C","frame":1,"at":75},{"type":"O","frame":1,"at":85},{"type":"C","frame":1,"at":85}]'
	assert_line --index 2 '[0,85]'
	command -v protoc > /dev/null || skip "needs protoc (Debian: protobuf-compiler)"
	devtrace dump --perfetto c > c.pftrace
	run decode < c.pftrace
	assert_output - <<-'OUT'
	B 17 leaf 40
	B 17 work 45
	E 17 - 80
	E 17 - 80
	B 17 leaf 90
	E 17 - 90
	OUT
}

@test "dump --perfetto: a call open at the end ends at its thread's last record, before the packet last written: that one packet absolute, on BOOTTIME" {
	cd "$BATS_TEST_TMPDIR"
	# thread 11 enters work at 10 and never returns; thread 12 calls leaf 20..30
	printf '%s\n' 'E 1010 a b' 'E 1020 14 c' 'X 1020 1e c' | "$ROOT/build/bench/mkrec" -o b
	cp "$ROOT/tests/fixtures/traces/cut.syms" b.syms
	devtrace dump --perfetto b > b.pftrace
	run decode < b.pftrace
	assert_output - <<-'OUT'
	B 11 work 10
	B 12 leaf 20
	E 12 - 30
	E 11 - 10
	OUT
	protoc -I "$BATS_TEST_DIRNAME" --decode=perfetto.Trace "$BATS_TEST_DIRNAME/perfetto.proto" < b.pftrace > text
	run grep -E '^  timestamp(_clock_id)?: ' text
	assert_output "$(printf '  timestamp: %s\n' 10 10 10 10; printf '  timestamp_clock_id: 6')"
}

@test "dump: a missing file, a file that is no recording, no format, two formats: clear words" {
	run --separate-stderr devtrace dump --perfetto "$BATS_TEST_TMPDIR/none"
	assert_failure 1
	assert_equal "$stderr" "devtrace dump: $BATS_TEST_TMPDIR/none: No such file or directory"
	echo "E 0 0 0" > "$BATS_TEST_TMPDIR/text"
	run --separate-stderr devtrace dump --speedscope "$BATS_TEST_TMPDIR/text"
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "devtrace dump: $BATS_TEST_TMPDIR/text: not a file of devtrace record (no devtrace header)"
	run --separate-stderr devtrace dump "$BATS_TEST_TMPDIR/text"
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "devtrace dump: no format: give --perfetto or --speedscope"
	run --separate-stderr devtrace dump --perfetto --speedscope "$BATS_TEST_TMPDIR/text"
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "devtrace dump: --perfetto or --speedscope, not both"
	run --separate-stderr devtrace dump --perfetto
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "devtrace dump: no FILE (a file devtrace record wrote)"
}

@test "dump --help: the usage, on standard output" {
	run --separate-stderr devtrace dump --help
	assert_success
	assert_line --index 0 "usage: devtrace dump --perfetto|--speedscope FILE"
}

@test "dump W: slices on each thread's program's clock (its waits for the reader taken out), nested; no event for a wait" {
	cd "$BATS_TEST_TMPDIR"
	waitsf
	devtrace dump --speedscope w > w.json
	run jq -c '.shared.frames, (.profiles[] | [.name, .startValue, .endValue]), (.profiles[] | [.events[] | "\(.type) \(.frame) \(.at)"])' w.json
	assert_success
	# thread 100: main 0..600, parse 100..200, render 300..500; thread 200: parse 200..650
	assert_output - <<-'OUT'
	[{"name":"main"},{"name":"parse"},{"name":"render"},{"name":"probe:step"}]
	["tid 100",0,600]
	["tid 200",200,650]
	["O 0 0","O 1 100","C 1 200","O 2 300","C 2 500","C 0 600"]
	["O 1 200","C 1 650"]
	OUT
	command -v protoc > /dev/null || skip "needs protoc (Debian: protobuf-compiler)"
	devtrace dump --perfetto w > w.pftrace
	run decode < w.pftrace
	assert_success
	assert_output - <<-'OUT'
	B 100 main 1000
	B 100 parse 1100
	B 200 parse 1200
	E 100 - 1200
	B 100 render 1300
	E 200 - 1650
	I 100 probe:step 1400 arg0=5 arg1=0 arg2=0 arg3=0
	E 100 - 1500
	E 100 - 1600
	OUT
}

@test "dump: a thread whose first record is a wait (begun before the recording) is numbered at its first call; its earlier clock starts speedscope's" {
	cd "$BATS_TEST_TMPDIR"
	# thread 12 waited 5 before anything of it was recorded: its leaf 12..30 is 7..25; thread 11's work 10..30
	printf '%s\n' 'W 1020 5 c 5' 'E 1010 a b' 'E 1020 c c' 'X 1020 1e c' 'X 1010 1e b' | "$ROOT/build/bench/mkrec" -o first
	cp "$ROOT/tests/fixtures/traces/cut.syms" first.syms
	devtrace dump --speedscope first > first.json
	run jq -c '.shared.frames, (.profiles[] | [.name, .startValue, .endValue, [.events[] | "\(.type) \(.frame) \(.at)"]])' first.json
	assert_success
	assert_output - <<-'OUT'
	[{"name":"work"},{"name":"leaf"}]
	["tid 11",3,23,["O 0 3","C 0 23"]]
	["tid 12",0,18,["O 1 0","C 1 18"]]
	OUT
	command -v protoc > /dev/null || skip "needs protoc (Debian: protobuf-compiler)"
	devtrace dump --perfetto first > first.pftrace
	run decode < first.pftrace
	assert_success
	assert_output - <<-'OUT'
	B 11 work 10
	B 12 leaf 7
	E 12 - 25
	E 11 - 30
	OUT
	protoc -I "$BATS_TEST_DIRNAME" --decode=perfetto.Trace "$BATS_TEST_DIRNAME/perfetto.proto" < first.pftrace > text
	run grep -c '^  track_descriptor {' text
	assert_output 3
}
