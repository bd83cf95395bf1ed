#!/usr/bin/env bats
# privhdr: nothing outside dev/ (but tests/ and bench/) includes one of
# dev/'s private headers (tests/layers/privhdr).  The self-tests run it
# on a small tree made in the test's directory.
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
P=$ROOT/tests/layers/privhdr
T=

setup() {
	T=$BATS_TEST_TMPDIR/tree
	mkdir -p "$T/rt" "$T/dev/pred" "$T/tests" "$T/bench"
	printf '#include "dev/devtrace.h"\n' > "$T/rt/ok.c"
}

@test "the tree includes no private header of dev/ outside it" {
	run "$P" "$ROOT"
	assert_success
	assert_output ""
}

@test "self-test: a public header passes" {
	printf '#include "dev/hitfast.h"\n#include "dev/lib.h"\n' > "$T/rt/x.c"
	run "$P" "$T"
	assert_success
	assert_output ""
}

@test "self-test: the layout, and a part's header, are refused and named" {
	printf 'int a;\n#include "dev/dat.h"\n' > "$T/rt/x.c"
	printf '# include "dev/pred/pred.h"\n' > "$T/rt/y.h"
	run "$P" "$T"
	assert_failure 1
	assert_line --index 0 'rt/x.c:2:#include "dev/dat.h"'
	assert_line --index 1 'rt/y.h:1:# include "dev/pred/pred.h"'
	assert_equal "${#lines[@]}" 2
}

@test "self-test: a header added to dev/ later is private" {
	printf '#include "dev/new.h"\n' > "$T/rt/x.c"
	run "$P" "$T"
	assert_failure 1
	assert_output 'rt/x.c:1:#include "dev/new.h"'
}

@test "self-test: dev/, tests/ and bench/ may include any" {
	printf '#include "dev/dat.h"\n' > "$T/dev/pred/x.c"
	printf '#include "dev/dat.h"\n' > "$T/tests/x.c"
	printf '#include "dev/pred/pred.h"\n' > "$T/bench/x.c"
	run "$P" "$T"
	assert_success
	assert_output ""
}
