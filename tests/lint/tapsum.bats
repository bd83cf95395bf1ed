#!/usr/bin/env bats
# tests/tapsum, which judges every suite's TAP: fake TAP directories and
# allow-lists, and exactly what it prints and returns for each.
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)

setup() {
	T=$BATS_TEST_TMPDIR
	export TAPSKIPS=$T/skips
	printf '%s\n' '# a comment' '' 'alpha | ^two # skip no clang$ | clang not installed' > "$TAPSKIPS"
}

tap() {
	printf '%s\n' "${@:2}" > "$T/$1.tap"
}

@test "an allowed skip counts as skipped, and the run passes" {
	tap alpha '1..2' 'ok 1 one' 'ok 2 two # skip no clang'
	run "$ROOT/tests/tapsum" "$T" alpha
	assert_success
	assert_output - <<'OUT'
alpha: ok 2 two # skip no clang
alpha: 1 passed, 0 failed, 1 skipped
1 passed, 0 failed, 1 skipped
OUT
}

@test "a skip no line allows fails, says so and how to allow it" {
	tap alpha '1..2' 'ok 1 one # SKIP needs root' 'ok 2 two # skip no clang'
	tap beta '1..1' 'ok 1 two # skip no clang'
	run "$ROOT/tests/tapsum" "$T" alpha beta
	assert_failure 1
	assert_output - <<'OUT'
alpha: skip not allowed: ok 1 one # SKIP needs root (allow it with a line "alpha | PATTERN | WHY" in tests/tapskips)
alpha: ok 2 two # skip no clang
alpha: 0 passed, 1 failed, 1 skipped
beta: skip not allowed: ok 1 two # skip no clang (allow it with a line "beta | PATTERN | WHY" in tests/tapskips)
beta: 0 passed, 1 failed, 0 skipped
failed: alpha: skip not allowed: ok 1 one # SKIP needs root (allow it with a line "alpha | PATTERN | WHY" in tests/tapskips)
failed: beta: skip not allowed: ok 1 two # skip no clang (allow it with a line "beta | PATTERN | WHY" in tests/tapskips)
0 passed, 2 failed, 1 skipped
OUT
}

@test "-g: a suite of a group is looked up as the group, its tests as SUITE: NAME" {
	echo 'asan | ^files: two # skip | the runtime is not built with ASan' >> "$TAPSKIPS"
	tap files '1..3' 'ok 1 one' 'ok 2 two # skip needs lib' 'ok 3 three # skip needs lib'
	run "$ROOT/tests/tapsum" -g asan "$T" files
	assert_failure 1
	assert_line --index 0 'files: ok 2 two # skip needs lib'
	assert_line --index 1 'files: skip not allowed: ok 3 three # skip needs lib (allow it with a line "asan | PATTERN | WHY" in tests/tapskips)'
	assert_line --index 2 'files: 1 passed, 1 failed, 1 skipped'
}

@test "a suite whose TAP is empty fails" {
	: > "$T/alpha.tap"
	echo 'cc: error' > "$T/alpha.err"
	run "$ROOT/tests/tapsum" "$T" alpha
	assert_failure 1
	assert_output - <<'OUT'
alpha: no TAP output (did not build or run)
cc: error
failed: alpha: no TAP output (did not build or run)
0 passed, 1 failed, 0 skipped
OUT
}

@test "fewer results than the plan: the missing ones fail" {
	tap alpha '1..4' 'ok 1 one' 'ok 2 two # skip no clang'
	run "$ROOT/tests/tapsum" "$T" alpha
	assert_failure 1
	assert_output - <<'OUT'
alpha: ok 2 two # skip no clang
alpha: 2 planned tests did not report
alpha: 1 passed, 2 failed, 1 skipped
failed: alpha: 2 planned tests did not report
1 passed, 2 failed, 1 skipped
OUT
}

@test "an allow-list line without its reason fails the run and names the line" {
	echo 'alpha | ^one' >> "$TAPSKIPS"
	tap alpha '1..1' 'ok 1 one'
	run "$ROOT/tests/tapsum" "$T" alpha
	assert_failure 1
	assert_output - <<OUT
tapskips: $TAPSKIPS:4: not SUITE | PATTERN | WHY: alpha | ^one
alpha: 1 passed, 0 failed, 0 skipped
failed: tapskips: $TAPSKIPS:4: not SUITE | PATTERN | WHY: alpha | ^one
1 passed, 1 failed, 0 skipped
OUT
}

@test "the allow-list make test uses: every line has its three fields" {
	run env -u TAPSKIPS "$ROOT/tests/tapsum" "$T"
	assert_success
	assert_output '0 passed, 0 failed, 0 skipped'
}

@test "a failure's first 12 diagnostic lines follow it, there and in the list at the end; a known failure's do not" {
	local diag=() i
	for i in $(seq 14); do diag+=("# line $i"); done
	tap alpha '1..3' 'ok 1 one' 'not ok 2 two' "${diag[@]}" 'ok 3 three' '# after a pass: not shown'
	tap beta '1..1' 'not ok 1 later # TODO not yet' '# why it fails'
	run "$ROOT/tests/tapsum" "$T" alpha beta
	assert_failure 1
	assert_output - <<'OUT'
alpha: not ok 2 two
alpha:   # line 1
alpha:   # line 2
alpha:   # line 3
alpha:   # line 4
alpha:   # line 5
alpha:   # line 6
alpha:   # line 7
alpha:   # line 8
alpha:   # line 9
alpha:   # line 10
alpha:   # line 11
alpha:   # line 12
alpha: 2 passed, 1 failed, 0 skipped
beta: known failure: not ok 1 later # TODO not yet
beta: 0 passed, 0 failed, 1 skipped
failed: alpha: not ok 2 two
failed: alpha:   # line 1
failed: alpha:   # line 2
failed: alpha:   # line 3
failed: alpha:   # line 4
failed: alpha:   # line 5
failed: alpha:   # line 6
failed: alpha:   # line 7
failed: alpha:   # line 8
failed: alpha:   # line 9
failed: alpha:   # line 10
failed: alpha:   # line 11
failed: alpha:   # line 12
2 passed, 1 failed, 1 skipped
OUT
}
