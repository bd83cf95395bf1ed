# deps.bats: tools/install-deps and make test's use of it, with a fake
# dpkg-query (and apt-get) first on PATH.  Not root is nobody (setpriv).
load helper

setup() {
	# nobody must reach the fakes: a directory of its own, not under
	# bats's private one
	FAKE=$(mktemp -d /tmp/devtrace-fakedeps.XXXXXX)
	chmod 755 "$FAKE"
	# and the tree: a root's checkout (in /root, 0700) is out of its reach;
	# the sources only, as make reads them before it builds anything
	TREE=$FAKE/tree
	mkdir "$TREE"
	tar -C "$ROOT" --exclude=./.git --exclude=./build --exclude='./build-*' \
		--exclude=./bin --exclude=./lib --exclude=./bench/src -cf - . | tar -C "$TREE" -xf -
	# dpkg-query -W -f FORMAT QUERY...: as dpkg's own, one status line per
	# installed match, exit 1 if a query matched nothing.  A package is
	# installed for every architecture but `all`, unless named in
	# $FAKE_MISSING (none) or $FAKE_ONLY (PKG:ARCH, that one only); a bare
	# name matches any installed architecture, as dpkg's does.
	cat > "$FAKE/dpkg-query" <<'SH'
#!/bin/sh
shift 3
rc=0
for q; do
	p=${q%%:*} a=${q#"$p"}; a=${a#:}
	only=
	for o in $FAKE_ONLY; do [ "${o%%:*}" != "$p" ] || only=${o#*:}; done
	case " $FAKE_MISSING " in
	*" $p "*) has=false;;
	*) if [ -n "$only" ]; then has="[ -z '$a' ] || [ '$a' = '$only' ]"; else has="[ '$a' != all ]"; fi;;
	esac
	if eval "$has"; then
		echo 'install ok installed'
	else
		echo "dpkg-query: no packages found matching $q" >&2; rc=1
	fi
done
exit $rc
SH
	# dpkg: amd64, with the foreign architectures of $FAKE_FOREIGN
	cat > "$FAKE/dpkg" <<'SH'
#!/bin/sh
case $1 in
--print-architecture) echo amd64;;
--print-foreign-architectures) for a in $FAKE_FOREIGN; do echo "$a"; done;;
*) echo "dpkg $*" >> "$FAKE_LOG";;
esac
SH
	cat > "$FAKE/apt-get" <<'SH'
#!/bin/sh
echo "$*" >> "$FAKE_LOG"
SH
	chmod 755 "$FAKE/dpkg-query" "$FAKE/dpkg" "$FAKE/apt-get"
	export FAKE_FOREIGN=arm64
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
	run asnobody FAKE_MISSING='mandoc libfuse3-dev' "$TREE/tools/install-deps"
	assert_failure 1
	assert_output 'install-deps: missing Debian packages: libfuse3-dev:amd64 mandoc:amd64; install them as root with: apt-get install libfuse3-dev:amd64 mandoc:amd64'
}

@test "install-deps, not root, nothing missing: prints nothing, exit 0" {
	run asnobody FAKE_MISSING= "$TREE/tools/install-deps"
	assert_success
	assert_output ''
}

@test "install-deps as root installs only what is missing, with apt-get" {
	run env PATH="$FAKE:$PATH" FAKE_MISSING='mandoc fuse3' "$TREE/tools/install-deps"
	assert_success
	assert_output ''
	run cat "$FAKE_LOG"
	assert_output 'update -qq
install -y -qq fuse3:amd64 mandoc:amd64'
}

@test "install-deps as root: only the arm64 libelf-dev installed, the native one is installed" {
	run env PATH="$FAKE:$PATH" FAKE_MISSING= FAKE_ONLY=libelf-dev:arm64 "$TREE/tools/install-deps"
	assert_success
	run cat "$FAKE_LOG"
	assert_output 'update -qq
install -y -qq libelf-dev:amd64'
}

@test "install-deps, not root, only the native libelf-dev and no arm64 in dpkg: the arm64 one, with the command that adds the architecture" {
	run asnobody FAKE_MISSING= FAKE_ONLY=libelf-dev:amd64 FAKE_FOREIGN= "$TREE/tools/install-deps"
	assert_failure 1
	assert_output 'install-arm64-deps: missing Debian packages: libelf-dev:arm64; install them as root with: dpkg --add-architecture arm64 && apt-get update && apt-get install libelf-dev:arm64'
}

@test "install-deps as root adds the arm64 architecture before it installs an arm64 package" {
	run env PATH="$FAKE:$PATH" FAKE_MISSING= FAKE_ONLY=libelf-dev:amd64 FAKE_FOREIGN= "$TREE/tools/install-deps"
	assert_success
	run cat "$FAKE_LOG"
	assert_output 'dpkg --add-architecture arm64
update -qq
install -y -qq libelf-dev:arm64'
}

@test "install-deps: an Architecture: all package is found as PKG:all" {
	run asnobody FAKE_MISSING= FAKE_ONLY=bats:all "$TREE/tools/install-deps"
	assert_success
	assert_output ''
}

@test "install-deps as root with nothing missing runs no apt-get" {
	run env PATH="$FAKE:$PATH" FAKE_MISSING= "$TREE/tools/install-deps"
	assert_success
	assert_output ''
	assert [ ! -e "$FAKE_LOG" ]
}

@test "make test, not root, a package missing: stops before building, with one line" {
	run asnobody FAKE_MISSING=libfuse3-dev make --no-print-directory -C "$TREE" test
	assert_failure 2
	assert_equal "${#lines[@]}" 1
	assert_output --regexp '^Makefile:[0-9]+: \*\*\* install-deps: missing Debian packages: libfuse3-dev:amd64; install them as root with: apt-get install libfuse3-dev:amd64\.  Stop\.$'
}

@test "make test INSTALL_DEPS=: skips the check" {
	run asnobody FAKE_MISSING=libfuse3-dev make --no-print-directory -C "$TREE" -n test INSTALL_DEPS=:
	assert_success
	refute_output --partial 'missing Debian packages'
	assert_line --partial 'tests/tapsum'
}

@test "make demo, not root, a package missing: stops before building, with one line" {
	run asnobody FAKE_MISSING=libfuse3-dev make --no-print-directory -C "$TREE" demo
	assert_failure 2
	assert_equal "${#lines[@]}" 1
	assert_output --regexp '^Makefile:[0-9]+: \*\*\* install-deps: missing Debian packages: libfuse3-dev:amd64; install them as root with: apt-get install libfuse3-dev:amd64\.  Stop\.$'
}
