#!/usr/bin/env bats
# layers-kernel: kernel/'s files call down only (tests/layers/loops), on
# the objects of the module's build, which needs Debian's kernel headers:
# run by make test-kernel, not make test.
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)

@test "kernel/: no loop between the module's files" {
	[ -n "$KERNELOBJ" ]
	# shellcheck disable=SC2086
	run "$ROOT/tests/layers/loops" $KERNELOBJ
	assert_success
	refute_output --partial "loop:"
}

@test "kernel/: every file of kernel/ is in the graph" {
	run sh -c 'for c in "$0"/kernel/*.c; do o=$(basename "$c" .c).o; printf "%s\n" $KERNELOBJ | grep -q "/kernel/$o\$" || echo "$o missing"; done' "$ROOT"
	assert_success
	assert_output ""
}
