#!/usr/bin/env bats
# scripts/histogram: quantize() of a field, exact on 64-bit values.
load helper

@test "histogram: retval, signed: -1, -22 and -2^63 in negative buckets" {
	golden args.histogram.retval "$S/histogram" retval "$F/args.trace"
}

@test "histogram: retval, unsigned" {
	golden args.histogram.retval.u "$S/histogram" -u retval "$F/args.trace"
}

@test "histogram: an argument takes E records only" {
	golden args.histogram.arg1 "$S/histogram" arg1 "$F/args.trace"
}

@test "histogram: one function's values, through grep" {
	golden simple.histogram.arg1 pipe '"$S/name" "$F/simple.syms" "$F/simple.trace" | grep "^E parse " | "$S/histogram" arg1'
}

@test "histogram: a decimal column of durations (inclusive time)" {
	golden simple.histogram.incl pipe '"$S/durations" "$F/simple.trace" | "$S/histogram" 6'
}

@test "histogram: empty input gives empty output" {
	golden empty "$S/histogram" retval "$F/empty.trace"
}

@test "histogram: a bad field is an error" {
	fails 2 "unknown field" "$S/histogram" arg9 "$F/args.trace"
	fails 2 "no field" "$S/histogram"
}
