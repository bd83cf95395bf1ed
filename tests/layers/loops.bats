#!/usr/bin/env bats
# layers: no two files of a folder call each other, directly or round a
# loop (tests/layers/loops), in dev/, host/, cmd/ and rt/; kernel/'s,
# built only by make test-kernel, in kernel.bats.
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
L=$ROOT/tests/layers/loops

# obj NAME 'C source': an object file NAME.o in the test's directory
obj() {
	printf '%s\n' "$2" > "$BATS_TEST_TMPDIR/$1.c"
	cc -c -o "$BATS_TEST_TMPDIR/$1.o" "$BATS_TEST_TMPDIR/$1.c"
}

# infolder FOLDER OBJ...: every FOLDER/*.c has its object among OBJ
infolder() {
	d=$1
	shift
	for c in "$ROOT/$d"/*.c; do
		o=$(basename "$c" .c).o
		printf '%s\n' "$@" | grep -q "/$d/$o\$" || echo "$d/$o missing"
	done
}

@test "rt/: no loop between the runtime's files" {
	[ -n "$RTOBJ" ]
	# shellcheck disable=SC2086
	run "$L" $RTOBJ
	assert_success
	refute_output --partial "loop:"
}

@test "host/: no loop between the host's files" {
	[ -n "$HOSTOBJ" ]
	# shellcheck disable=SC2086
	run "$L" $HOSTOBJ
	assert_success
	refute_output --partial "loop:"
}

@test "cmd/: no loop between the commands' files" {
	[ -n "$CMDOBJ" ]
	# shellcheck disable=SC2086
	run "$L" $CMDOBJ
	assert_success
	refute_output --partial "loop:"
}

@test "dev/: no loop between the device's files" {
	[ -n "$DEVOBJ" ]
	# shellcheck disable=SC2086
	run "$L" $DEVOBJ
	assert_success
	refute_output --partial "loop:"
}

@test "rt/: the graph has the calls it should (the checker sees the files)" {
	# shellcheck disable=SC2086
	run "$L" $RTOBJ
	assert_line "init -> ctl"
	assert_line "dl -> ctl"
	assert_line "ctl -> apply"
	assert_line "hook -> shadow"
	assert_line "classic -> obj"
	refute_line "ctl -> dl"
	refute_line "ctl -> init"
}

@test "host/ and cmd/: the graphs have the calls they should" {
	# shellcheck disable=SC2086
	run "$L" $HOSTOBJ
	assert_line "shmctl -> shmlock"
	assert_line "shmmap -> shmpath"
	refute_line "shmlock -> shmctl"
	# shellcheck disable=SC2086
	run "$L" $CMDOBJ
	assert_line "devtrace -> run"
	assert_line "record -> capfile"
	assert_line "run -> statetext"
	assert_line "devtraced -> fs"
	refute_line "run -> devtrace"
	refute_line "record -> run"
}

@test "every file of rt/, host/, cmd/ and dev/ is in its graph" {
	# shellcheck disable=SC2086
	run infolder rt $RTOBJ
	assert_success
	assert_output ""
	# shellcheck disable=SC2086
	run infolder host $HOSTOBJ
	assert_success
	assert_output ""
	# shellcheck disable=SC2086
	run infolder cmd $CMDOBJ
	assert_success
	assert_output ""
	# shellcheck disable=SC2086
	run infolder dev $DEVOBJ
	assert_success
	assert_output ""
}

@test "self-test: a loop of three files is found and named" {
	obj a 'void b(void); void a(void) { b(); }'
	obj b 'void c(void); void b(void) { c(); }'
	obj c 'void a(void); void c(void) { a(); }'
	run "$L" "$BATS_TEST_TMPDIR/a.o" "$BATS_TEST_TMPDIR/b.o" "$BATS_TEST_TMPDIR/c.o"
	assert_failure 1
	assert_line --index 3 --regexp '^loop: (a -> b -> c -> a|b -> c -> a -> b|c -> a -> b -> c)$'
}

@test "self-test: two files that call each other (through data too) are a loop" {
	obj a 'extern int y; int x; int a(void) { return y; }'
	obj b 'extern int x; int y; int b(void) { return x; }'
	run "$L" "$BATS_TEST_TMPDIR/a.o" "$BATS_TEST_TMPDIR/b.o"
	assert_failure 1
	assert_line --regexp '^loop: (a -> b -> a|b -> a -> b)$'
}

@test "self-test: calls down only, and calls within a file, are no loop" {
	obj a 'void b(void); void c(void); static void s(void) { b(); } void a(void) { s(); c(); a(); }'
	obj b 'void c(void); void b(void) { c(); }'
	obj c 'int c0; void c(void) { c0++; }'
	run "$L" "$BATS_TEST_TMPDIR/a.o" "$BATS_TEST_TMPDIR/b.o" "$BATS_TEST_TMPDIR/c.o"
	assert_success
	assert_output "a -> b
a -> c
b -> c"
}
