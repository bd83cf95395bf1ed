#!/usr/bin/env bats
# The test scripts' own lint: no check that cannot fail (a bare ! or an
# && list in a @test body: errexit ignores both), and ShellCheck clean;
# README and NOTES within their lengths.
# ShellCheck's SC2314 and SC2315 (a bare ! in a bats test) are on by
# default for bats files; the last test shows they are.  Its other
# findings are fixed, but for these, excluded with the reason:
#   SC2016  $ in single quotes: awk programs and bash -c scripts, meant
#   SC2030, SC2031  a variable set in a test stays in it: each @test runs
#           in a subshell by design
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
L=tests/lint

# the shell files of the test suites
testscripts() {
	find tests \( -name '*.bats' -o -name '*.bash' -o -name '*.sh' \) -type f | sort
}

setup() {
	cd "$ROOT" || return
}

@test "ShellCheck finds nothing in the test suites' .bats, .bash and .sh files" {
	run testscripts
	assert_output --partial tests/files/server.bats
	mapfile -t f < <(testscripts)
	run shellcheck -f gcc -e SC2016,SC2030,SC2031 "${f[@]}"
	assert_success
	assert_output ""
}

# cmd/devtrace-cc.sh, and scripts/lib/common.sh (sh, sourced, no #!):
#   SC1007  VAR= cmd: the empty assignment is meant (CDPATH= cd, hz= ctl=)
#   SC2046  $(flags): the compiler flags are words to split
#   SC2154  prog: set by the script that sources common.sh
#   SC2209  mode=patch: a word, not the output of patch
@test "ShellCheck finds nothing in the other .sh files" {
	run find cmd scripts -name '*.sh' -type f
	assert_output --partial cmd/devtrace-cc.sh
	mapfile -t f < <(find cmd scripts -name '*.sh' -type f)
	run shellcheck -f gcc -s sh -e SC1007,SC2046,SC2154,SC2209 "${f[@]}"
	assert_success
	assert_output ""
}

@test "unchecked.awk finds no check that cannot fail in any .bats file, under mawk and gawk" {
	mapfile -t f < <(find tests -name '*.bats' -type f | sort)
	[ "${#f[@]}" -ge 15 ]
	for a in mawk gawk; do
		run "$a" -f "$L/unchecked.awk" "${f[@]}"
		assert_success
		assert_output ""
	done
}

@test "unchecked.awk flags every bad line of unchecked.cases and no good one, under mawk and gawk" {
	awk '/# BAD$/ { print FNR } /# next line: BAD$/ { print FNR + 1 }' "$L/unchecked.cases" > "$BATS_TEST_TMPDIR/want"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/want")" -ge 20 ]
	for a in mawk gawk; do
		run "$a" -f "$L/unchecked.awk" "$L/unchecked.cases"
		assert_failure 1
		printf '%s\n' "${lines[@]}" | cut -d: -f2 > "$BATS_TEST_TMPDIR/got"
		diff "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
	done
	# and every report names the file, the line and why
	assert_line "$L/unchecked.cases:14: a bare !: it never fails the test; use run ! CMD, or [ ! ... ]"
	assert_line "$L/unchecked.cases:32: an && list: only its last command can fail the test; one check a line"
}

@test "ShellCheck's SC2314 and SC2315 are on: they flag a bare ! in unchecked.cases" {
	run shellcheck -f gcc -i SC2314,SC2315 "$L/unchecked.cases"
	assert_failure
	assert_line --partial "unchecked.cases:14:2: error: In Bats, ! does not cause a test failure. Use 'run ! ' (on Bats >= 1.5.0) instead. [SC2314]"
	assert_line --partial "unchecked.cases:15:2: error: In Bats, ! does not cause a test failure. Fold the \`!\` into the conditional! [SC2315]"
}

# groff -ww warns of what mandoc -T lint lets pass: in a page, a bare \n
# reads a number register, and printf 'a\n' printed as printf 'a0
@test "groff -ww warns of nothing in the manual pages" {
	mapfile -t f < <(find man -name '*.[1-8]' -type f | sort)
	[ "${#f[@]}" -ge 5 ]
	for p in "${f[@]}"; do
		run groff -mandoc -ww -z "$p"
		assert_success
		assert_output ""
	done
}

@test "groff -ww is on: it flags a bare \\n in a literal block" {
	cat > "$BATS_TEST_TMPDIR/x.1" <<-'END'
	.Dd today
	.Dt X 1
	.Os
	.Sh EXAMPLES
	.Bd -literal
	$ printf 'a\n'
	.Ed
	END
	run groff -mandoc -ww -z "$BATS_TEST_TMPDIR/x.1"
	assert_output --partial "x.1:6: warning: number register ''' not defined"
}

# linecount FILE MAX: FILE's line count, and "over" if it passes MAX
linecount() {
	awk -v max="$2" 'END { print NR (NR > max ? " over " max : "") }' "$ROOT/$1"
}

@test "README is a guide of at most 600 lines (the reference is the manual pages')" {
	run linecount README 600
	assert_success
	assert_output --regexp '^[0-9]+$'
}

@test "NOTES holds at most 2,000 lines (no work log, no table a header holds)" {
	run linecount NOTES 2000
	assert_success
	assert_output --regexp '^[0-9]+$'
}

@test "self-test: a file over its limit is reported with the limit" {
	run linecount README 10
	assert_output --regexp '^[0-9]+ over 10$'
}
