#!/usr/bin/env bats
# upcalls: the device calls nothing above it, except through the
# pointers upcalls.allow lists with their reasons (tests/layers/upcalls,
# on dev/'s objects built for it: no jump tables, no sibling calls).
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
U=$ROOT/tests/layers/upcalls
A=$ROOT/tests/layers/upcalls.allow

# the allow-list's "FILE FUNCTION" pairs, sorted
allowed() {
	awk -F '\t' '!/^#/ && NF { print $1, $2 }' "$A" | sort -u
}

# obj NAME 'C source': NAME.o in the test's directory, built as the rule builds dev/'s for upcalls
obj() {
	printf '%s\n' "$2" > "$BATS_TEST_TMPDIR/$1.c"
	cc -O2 -fno-jump-tables -fno-optimize-sibling-calls -c -o "$BATS_TEST_TMPDIR/$1.o" "$BATS_TEST_TMPDIR/$1.c"
}

@test "dev/: the functions that call through a pointer are those upcalls.allow lists, no more, no fewer" {
	[ -n "$UPCALLOBJ" ]
	# shellcheck disable=SC2086
	run "$U" $UPCALLOBJ
	assert_success
	assert_output "$(allowed)"
}

@test "dev/: every object of the device is read (one per .c file of dev/ and its folders)" {
	[ -n "$UPCALLOBJ" ]
	# shellcheck disable=SC2086
	run printf '%s\n' $UPCALLOBJ
	assert_equal "${#lines[@]}" "$(find "$ROOT/dev" -name '*.c' | wc -l)"
}

@test "upcalls.allow: every line has its four fields: file, function, own or host, and why" {
	run awk -F '\t' '!/^#/ && NF && (NF != 4 || ($3 != "own" && $3 != "host") || $4 == "") { print FILENAME ":" FNR ": " $0 }' "$A"
	assert_success
	assert_output ""
}

@test "self-test: a call through a pointer set from outside is found, named by file and function" {
	obj up 'int (*hook)(int); static int twice(int x) { return hook(x) + hook(x); } int f(int x) { return twice(x) + 1; }'
	run "$U" "$BATS_TEST_TMPDIR/up.o"
	assert_success
	assert_output --regexp '^up (f|twice)$'
}

@test "self-test: a switch and direct calls are no pointer call" {
	obj sw 'int g(int); int f(int x) { switch (x) { case 0: return g(1); case 1: return g(7); case 2: return g(9); case 3: return 4; case 4: return g(2); case 5: return 8; default: return g(x); } }'
	run "$U" "$BATS_TEST_TMPDIR/sw.o"
	assert_success
	assert_output ""
}
