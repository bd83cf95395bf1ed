#!/usr/bin/env bats
# Every script and plot: usage on -h and --help, and on bad options.
load helper

ALL="scripts/name scripts/durations scripts/report scripts/flow scripts/histogram scripts/count plots/createplot plots/distplot"

@test "options: -h and --help print the usage and succeed" {
	for s in $ALL; do
		for h in -h --help; do
			run "$ROOT/$s" $h
			assert_success
			assert_line --index 0 --partial "usage: ${s#*/}"
		done
	done
}

@test "options: a bad option prints the usage and fails with 2" {
	for s in $ALL; do
		run "$ROOT/$s" -Z
		assert_failure 2
		assert_line --index 0 "${s#*/}: unknown option -Z"
		assert_line --index 1 --partial "usage: ${s#*/}"
	done
}

@test "options: -v takes hz= and ctl= only" {
	for s in scripts/durations scripts/report scripts/flow plots/createplot; do
		run "$ROOT/$s" -v foo=1 "$F/simple.trace"
		assert_failure 2
		assert_line --index 0 "${s#*/}: unknown variable: -v foo=1"
	done
}

@test "options: a missing option argument" {
	run "$S/report" -v
	assert_failure 2
	assert_line --index 0 "report: option -v needs an argument"
}
