# helper.bash: what the install tests share.  The make run inside a
# test is a make of its own, not a part of the make test that runs it.
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)

submake() {
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make --no-print-directory -C "$ROOT" "$@"
}
