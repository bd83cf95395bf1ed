# deps.bats: tools/install-deps and make test's use of it, with a fake
# dpkg-query (and apt-get) first on PATH.  Not root is nobody (setpriv).
load helper

setup() {
	# nobody must reach the fakes: a directory of its own, not under
	# bats's private one
	FAKE=$(mktemp -d /tmp/devtrace-fakedeps.XXXXXX)
	chmod 755 "$FAKE"
	cat > "$FAKE/dpkg-query" <<'SH'
#!/bin/sh
# dpkg-query -W -f FORMAT PACKAGE: installed unless named in $FAKE_MISSING
for a; do p=$a; done
case " $FAKE_MISSING " in *" $p "*) echo "dpkg-query: no packages found matching $p" >&2; exit 1;; esac
printf 'install ok installed'
SH
	cat > "$FAKE/apt-get" <<'SH'
#!/bin/sh
echo "$*" >> "$FAKE_LOG"
SH
	chmod 755 "$FAKE/dpkg-query" "$FAKE/apt-get"
	export FAKE_LOG=$FAKE/apt-get.log
}

teardown() {
	rm -rf "$FAKE"
}

# asnobody [VAR=VALUE...] CMD...: run as nobody with the fakes on PATH
asnobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS PATH="$FAKE:$PATH" "$@"
}

@test "install-deps, not root, packages missing: one line naming them and the command, exit 1" {
	run asnobody FAKE_MISSING='mandoc libfuse3-dev' "$ROOT/tools/install-deps"
	assert_failure 1
	assert_output 'install-deps: missing Debian packages: libfuse3-dev mandoc; install them as root with: apt-get install libfuse3-dev mandoc'
}

@test "install-deps, not root, nothing missing: prints nothing, exit 0" {
	run asnobody FAKE_MISSING= "$ROOT/tools/install-deps"
	assert_success
	assert_output ''
}

@test "install-deps as root installs only what is missing, with apt-get" {
	run env PATH="$FAKE:$PATH" FAKE_MISSING='mandoc fuse3' "$ROOT/tools/install-deps"
	assert_success
	assert_output ''
	run cat "$FAKE_LOG"
	assert_output 'update -qq
install -y -qq fuse3 mandoc'
}

@test "install-deps as root with nothing missing runs no apt-get" {
	run env PATH="$FAKE:$PATH" FAKE_MISSING= "$ROOT/tools/install-deps"
	assert_success
	assert_output ''
	assert [ ! -e "$FAKE_LOG" ]
}

@test "make test, not root, a package missing: stops before building, with one line" {
	run asnobody FAKE_MISSING=libfuse3-dev make --no-print-directory -C "$ROOT" test
	assert_failure 2
	assert_equal "${#lines[@]}" 1
	assert_output --regexp '^Makefile:[0-9]+: \*\*\* install-deps: missing Debian packages: libfuse3-dev; install them as root with: apt-get install libfuse3-dev\.  Stop\.$'
}

@test "make test INSTALL_DEPS=: skips the check" {
	run asnobody FAKE_MISSING=libfuse3-dev make --no-print-directory -C "$ROOT" -n test INSTALL_DEPS=:
	assert_success
	refute_output --partial 'missing Debian packages'
	assert_line --partial 'tests/tapsum'
}

@test "make demo, not root, a package missing: stops before building, with one line" {
	run asnobody FAKE_MISSING=libfuse3-dev make --no-print-directory -C "$ROOT" demo
	assert_failure 2
	assert_equal "${#lines[@]}" 1
	assert_output --regexp '^Makefile:[0-9]+: \*\*\* install-deps: missing Debian packages: libfuse3-dev; install them as root with: apt-get install libfuse3-dev\.  Stop\.$'
}
