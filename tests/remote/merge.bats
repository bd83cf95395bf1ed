#!/usr/bin/env bats
# merge.bats: devtrace merge on hand-made hosts' states and records
# (the times worked out by hand in the comments), and the scripts on its
# stream.  The two hosts over 9P are make test-remote's.
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
S=$ROOT/scripts
export PATH=$ROOT/bin:$PATH

setup() {
	T=$BATS_TEST_TMPDIR
	# host a: 1 tick a ns, tick 1000 at 5 s; host b: 2 ticks a ns, tick 0 at 5 s
	printf 'stop\n#hits 2\n#hz 1000000000\n#clock 1000 5000000000\n' > "$T/a.ctl"
	printf 'stop\n#hits 2\n#hz 2000000000\n#clock 0 5000000000\n' > "$T/b.ctl"
	# a's call: ticks 0x1000 = 4096 and 0x3000 = 12288, so 5 s + 3096 ns and 5 s + 11288 ns
	cat > "$T/a.trace" <<-'END'
	E 0000000000401000 0000000000001000 0000000000000007 0000000000000001 0000000000000002 0000000000000003 0000000000000004
	X 0000000000401000 0000000000003000 0000000000000007 0000000000000009 0000000000000000 0000000000000000 0000000000000000
	END
	# b's call: ticks 0x2000 = 8192 and 0x3000 = 12288, so 5 s + 4096 ns and 5 s + 6144 ns: inside a's
	cat > "$T/b.trace" <<-'END'
	E 0000000000402000 0000000000002000 000000000000000b 0000000000000005 0000000000000006 0000000000000007 0000000000000008
	X 0000000000402000 0000000000003000 000000000000000b 000000000000000a 0000000000000000 0000000000000000 0000000000000000
	END
}

@test "merge: each host's ticks in real-time ns from its #hz and #clock, its threads marked, in time order" {
	run devtrace merge a "$T/a.ctl" "$T/a.trace" b "$T/b.ctl" "$T/b.trace"
	assert_success
	# 5000003096 = 0x12a05fe18, 5000004096 = 0x12a060200, 5000006144 = 0x12a060a00, 5000011288 = 0x12a061e18
	assert_output - <<-'END'
	#host 1 a
	#host 2 b
	#hz 1000000000
	E 0000000000401000 000000012a05fe18 0001000000000007 0000000000000001 0000000000000002 0000000000000003 0000000000000004
	E 0000000000402000 000000012a060200 000200000000000b 0000000000000005 0000000000000006 0000000000000007 0000000000000008
	X 0000000000402000 000000012a060a00 000200000000000b 000000000000000a 0000000000000000 0000000000000000 0000000000000000
	X 0000000000401000 000000012a061e18 0001000000000007 0000000000000009 0000000000000000 0000000000000000 0000000000000000
	END
}

@test "merge: two #clock pairs 0.2 s apart give the rate, over a wrong #hz; a tie keeps the hosts' order" {
	# 400000000 ticks in 200000000 ns: 2 ticks a ns; tick 3000 is 5 s + 1000 ns
	printf '#hz 1\n#clock 1000 5000000000\n#hz 1\n#clock 400001000 5200000000\n' > "$T/c.ctl"
	echo 'E f 0000000000000bb8 0000000000000001 0000000000000000 0000000000000000 0000000000000000 0000000000000000' > "$T/c.trace"
	# host a's tick 2000 is 5 s + 1000 ns too
	echo 'E g 00000000000007d0 0000000000000002 0000000000000000 0000000000000000 0000000000000000 0000000000000000' > "$T/a1.trace"
	run devtrace merge c "$T/c.ctl" "$T/c.trace" a "$T/a.ctl" "$T/a1.trace"
	assert_success
	assert_output - <<-'END'
	#host 1 c
	#host 2 a
	#hz 1000000000
	E f 000000012a05f5e8 0001000000000001 0000000000000000 0000000000000000 0000000000000000 0000000000000000
	E g 000000012a05f5e8 0002000000000002 0000000000000000 0000000000000000 0000000000000000 0000000000000000
	END
}

@test "merge: a state without #clock, a line that is not a record, a missing file, odd arguments are errors" {
	printf '#hz 1000\n' > "$T/old.ctl"
	run -1 devtrace merge a "$T/old.ctl" "$T/a.trace"
	assert_output "devtrace merge: $T/old.ctl: no #clock line"
	echo 'E 0000000000401000 12 0000000000000007' > "$T/bad.trace"
	run -1 devtrace merge a "$T/a.ctl" "$T/bad.trace"
	assert_output "devtrace merge: $T/bad.trace:1: not a record: E 0000000000401000 12 0000000000000007"
	run -1 devtrace merge a "$T/a.ctl" "$T/none"
	assert_output "devtrace merge: $T/none: No such file or directory"
	run -2 devtrace merge a "$T/a.ctl"
	assert_line --index 0 "usage: devtrace merge HOST TRACECTL TRACE ..."
	run -2 devtrace merge "a b" "$T/a.ctl" "$T/a.trace"
	assert_output "devtrace merge: a host's name is one word: 'a b'"
}

@test "merge's stream in the scripts: threads named HOST/TID (each its own depth), one Trace Event process per host" {
	devtrace merge a "$T/a.ctl" "$T/a.trace" b "$T/b.ctl" "$T/b.trace" > "$T/m"
	run "$S/flow" -v "ctl=$T/m" "$T/m"
	assert_success
	assert_output - <<-'END'
	    TID       TIME(ns)   DURATION  FUNCTION
	    a/7              0             -> 0000000000401000
	   b/11           1000             -> 0000000000402000
	   b/11           3048       2048  <- 0000000000402000
	    a/7           8192       8192  <- 0000000000401000
	END
	run "$S/traceevents" -v "ctl=$T/m" "$T/m"
	assert_success
	run jq -c '[.traceEvents[] | select(.name == "process_name") | [.pid, .args.name]]' <<< "$output"
	assert_output '[[1,"a"],[2,"b"]]'
	"$S/traceevents" -v "ctl=$T/m" "$T/m" > "$T/m.json"
	run jq -c '[.traceEvents[] | select(.ph == "X") | [.pid, .tid, .name, .ts, .dur]] | sort' "$T/m.json"
	assert_output '[[1,7,"0000000000401000",0,8.192],[2,11,"0000000000402000",1,2.048]]'
}
