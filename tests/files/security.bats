#!/usr/bin/env bats
# security.bats: another local user can neither hijack the device's files
# nor keep the server from starting, and a damaged header leaves the
# commands usable (issue 12, defects 5 and 6).  As root; the other user
# is nobody.
load helper

PRIV=/run/devtrace.shm

setup() {
	[ "$(id -u)" = 0 ] || skip "needs root (and the user nobody)"
	export DEVTRACE_DIR=$BATS_TEST_TMPDIR/dev
	D=$DEVTRACE_DIR
	BGPIDS=
	EXTRA=
	H=$(fnv "$D")
}

# FNV-1a of the device directory, as shmpath names its files (bash wraps at 64 bits)
fnv() {
	local s=$1 h=$((0xcbf29ce484222325)) c i
	for ((i = 0; i < ${#s}; i++)); do
		printf -v c '%d' "'${s:i:1}"
		h=$(((h ^ c) * 0x100000001b3))
	done
	printf '%016x' "$h"
}

nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}

# the shared device the server maps, wherever it keeps it
devfile() {
	awk -v h="/$H" 'substr($NF, length($NF) - length(h) + 1) == h { print $NF; exit }' /proc/"$1"/maps
}

@test "links another user plants at the old /dev/shm names are not followed, and the server starts" {
	victim=/etc/devtrace-victim-$H
	EXTRA="$victim $victim.lock $victim.syms /dev/shm/devtrace-0-$H /dev/shm/devtrace-0-$H.lock /dev/shm/devtrace-0-$H.syms"
	for s in "" .lock .syms; do
		nobody ln -s "$victim$s" "/dev/shm/devtrace-0-$H$s"
	done
	run start
	assert_success
	run find /etc -maxdepth 1 -name "devtrace-victim-$H*"
	assert_success
	assert_output ""
	run devtrace status
	assert_success
	assert_output --regexp "^devtraced pid [0-9]+ serves $D\$"
}

@test "another user's flock on the old lock file does not keep the server from starting" {
	lock=/dev/shm/devtrace-0-$H.lock
	EXTRA="$lock $lock.held"
	# setpriv itself, not the function nobody: $! is then the process that holds the lock
	setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c 'exec 9>"$1"; flock -x 9; : > "$1.held"; exec sleep 60' sh "$lock" 3>&- &
	BGPIDS=$!
	waitfor test -e "$lock.held"
	run start
	assert_success
	run devtrace status
	assert_success
	assert_output --regexp "^devtraced pid [0-9]+ serves $D\$"
}

@test "the device's files are the owner's alone: a 0700 directory, 0600 regular files; the lock names the server" {
	start
	pid=$(serverpid)
	run stat -c '%a %U %F' "$PRIV"
	assert_output "700 root directory"
	run find "$PRIV" -maxdepth 1 -name "$H*" -printf '%f %m %u %y\n'
	assert_success
	run sort <<<"$output"
	assert_output "$H 600 root f
$H.lock 600 root f
$H.syms 600 root f"
	run cat "$PRIV/$H.lock"
	assert_output "$pid"
}

@test "a damaged header: devtrace run runs the program untraced with a warning" {
	# devtrace run takes the runtime off when the header is damaged; it must be there to take
	[ -e "$ROOT/lib/libdevtrace.so" ] || skip "needs lib/libdevtrace.so"
	start
	pid=$(serverpid)
	f=$(devfile "$pid")
	printf 'JUNK' | dd of="$f" bs=1 count=4 conv=notrunc status=none
	run --separate-stderr devtrace run sh -c 'echo out; echo err >&2; exit 3'
	assert_failure 3
	assert_output "out"
	# shellcheck disable=SC2154 # set by run --separate-stderr
	[ "$stderr" = "devtrace run: the device of $D looks damaged (bad header): running sh untraced
err" ]
	run --separate-stderr devtrace run -t 'main' sh -c 'echo out; exit 4'
	assert_failure 4
	assert_output "out"
	[ "$stderr" = "devtrace run: the device of $D looks damaged (bad header): running sh untraced" ]
}

@test "a damaged header: devtrace status finds the server and devtrace stop stops it" {
	start
	pid=$(serverpid)
	BGPIDS=$pid
	f=$(devfile "$pid")
	printf 'JUNK' | dd of="$f" bs=1 count=4 conv=notrunc status=none
	run devtrace status
	assert_success
	assert_output "devtraced pid $pid serves $D"
	run devtrace stop
	assert_success
	run gone "$pid"
	assert_success
	run mounted "$D"
	assert_failure
}

# a device directory another user may make files in: nobody's server runs there
# userdir: ud, a device directory of nobody's, and NB, the commands where
# nobody can run them: a root's checkout (in /root, 0700) is out of reach
userdir() {
	W=$(mktemp -d)
	chmod 755 "$W"
	install -d -o nobody "$W/u"
	install -d "$W/bin"
	cp "$BIN/devtraced" "$BIN/devtrace" "$W/bin/"
	EXTRA="$EXTRA $W"
	ud=$W/u/dev
	NB=$W/bin
}

@test "without a runtime directory a user's files are in /dev/shm/devtrace-UID, 0700, files 0600" {
	u=$(id -u nobody)
	rm -rf "/dev/shm/devtrace-$u" "/run/user/$u"
	userdir
	EXTRA="$EXTRA /dev/shm/devtrace-$u"
	h=$(fnv "$ud")
	run nobody env DEVTRACE_DIR="$ud" "$NB/devtraced" -F
	assert_success
	# shellcheck disable=SC2034 # read by teardown in helper.bash
	BGPIDS=$(nobody env DEVTRACE_DIR="$ud" "$NB/devtrace" status | awk '{ print $3 }')
	run stat -c '%a %U %F' "/dev/shm/devtrace-$u"
	assert_output "700 nobody directory"
	run find "/dev/shm/devtrace-$u" -mindepth 1 -printf '%f %m %u %y\n'
	run sort <<<"$output"
	assert_output "$h 600 nobody f
$h.lock 600 nobody f
$h.syms 600 nobody f"
	run nobody env DEVTRACE_DIR="$ud" "$NB/devtrace" stop
	assert_success
}

@test "with /run/user/UID a user's files are in its devtrace.shm" {
	u=$(id -u nobody)
	rm -rf "/dev/shm/devtrace-$u" "/run/user/$u"
	install -d -m 700 -o nobody "/run/user/$u"
	userdir
	EXTRA="$EXTRA /run/user/$u"
	h=$(fnv "$ud")
	run nobody env DEVTRACE_DIR="$ud" "$NB/devtraced" -F
	assert_success
	# shellcheck disable=SC2034 # read by teardown in helper.bash
	BGPIDS=$(nobody env DEVTRACE_DIR="$ud" "$NB/devtrace" status | awk '{ print $3 }')
	run stat -c '%a %U %F' "/run/user/$u/devtrace.shm"
	assert_output "700 nobody directory"
	run find "/run/user/$u/devtrace.shm" -mindepth 1 -printf '%f %m %u %y\n'
	run sort <<<"$output"
	assert_output "$h 600 nobody f
$h.lock 600 nobody f
$h.syms 600 nobody f"
	run test -e "/dev/shm/devtrace-$u"
	assert_failure
	run nobody env DEVTRACE_DIR="$ud" "$NB/devtrace" stop
	assert_success
}

@test "a link or a directory another user plants at /dev/shm/devtrace-UID is refused, not followed or used" {
	u=$(id -u nobody)
	rm -rf "/dev/shm/devtrace-$u" "/run/user/$u"
	userdir
	trap_=$(mktemp -d)
	chmod 777 "$trap_"
	EXTRA="$EXTRA $trap_ /dev/shm/devtrace-$u"
	setpriv --reuid=12345 --regid=12345 --clear-groups ln -s "$trap_" "/dev/shm/devtrace-$u"
	run nobody env DEVTRACE_DIR="$ud" "$NB/devtraced" -F
	assert_failure 1
	assert_output "devtraced: /dev/shm/devtrace-$u: Not a directory (it must be a directory of yours that no one else may write)"
	run find "$trap_" -mindepth 1
	assert_output ""
	rm "/dev/shm/devtrace-$u"
	setpriv --reuid=12345 --regid=12345 --clear-groups mkdir -m 777 "/dev/shm/devtrace-$u"
	run nobody env DEVTRACE_DIR="$ud" "$NB/devtraced" -F
	assert_failure 1
	assert_output "devtraced: /dev/shm/devtrace-$u: Operation not permitted (it must be a directory of yours that no one else may write)"
	run find "/dev/shm/devtrace-$u" -mindepth 1
	assert_output ""
}

@test "a link another user plants as the device directory in a shared directory is not mounted on" {
	W=$(mktemp -d)
	chmod 1777 "$W"
	T=$(mktemp -d)
	EXTRA="$W $T"
	nobody ln -s "$T" "$W/dev"
	export DEVTRACE_DIR=$W/dev
	run devtraced -n
	assert_failure 1
	assert_output "devtraced: $W/dev: not a directory of yours (a link or another user's): not served"
	run mounted "$T"
	assert_failure
	run find "$T" -mindepth 1
	assert_output ""
	run find "$PRIV" -name "$(fnv "$W/dev")*"
	assert_output ""
}
