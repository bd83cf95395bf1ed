#!/usr/bin/env bats
# scripts/count: counts by fields: the paper's okaddr table.
load helper

@test "count: pid and page (arg0/4096), most frequent first" {
	golden args.count.page pipe '"$S/name" "$F/args.syms" "$F/args.trace" | grep "^E okaddr " | "$S/count" pid,arg0/4096'
}

@test "count: -k orders by the keys, as the paper's table" {
	golden args.count.page.k "$S/count" -k pid,arg0/4096 "$F/args.trace"
}

@test "count: arguments in hex with -x" {
	golden args.count.x "$S/count" -x arg0 "$F/args.trace"
}

@test "count: retval takes X records; signed, and unsigned with -u" {
	golden args.count.retval "$S/count" pid,retval "$F/args.trace"
	golden args.count.retval.u "$S/count" -u retval "$F/args.trace"
}

@test "count: type counts both record types" {
	golden args.count.type pipe '"$S/name" "$F/args.syms" "$F/args.trace" | "$S/count" type,pc'
}

@test "count: calls per thread and function, from durations" {
	golden threads.count pipe '"$S/name" "$F/threads.syms" "$F/threads.trace" | "$S/durations" | "$S/count" 1,2'
}

@test "count: empty input gives empty output" {
	golden empty "$S/count" pid "$F/empty.trace"
}

@test "count: bad fields are errors" {
	fails 2 "unknown field" "$S/count" pid,foo "$F/args.trace"
	fails 2 "different records" "$S/count" arg0,retval "$F/args.trace"
	fails 2 "bad divisor" "$S/count" arg0/0 "$F/args.trace"
	fails 2 "no fields" "$S/count"
}
