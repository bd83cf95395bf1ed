#!/usr/bin/env bats
# devtraced's life: start, refuse a second, stop, clean up after a
# killed one; who may open the files; the /dev links; the reader rule.
load helper

@test "devtraced returns once the files answer; status tells its pid; devtrace stop removes everything" {
	start
	echo start > "$D/tracectl"
	run grep -x start "$D/tracectl"
	assert_success
	run devtrace status
	assert_success
	assert_output --regexp "^devtraced pid [0-9]+ serves $D\$"
	pid=$(serverpid)
	shm=$(awk '$NF ~ /\/(devtrace\.shm|devtrace-[0-9]+)\/[0-9a-f]+$/ { print $NF; exit }' "/proc/$pid/maps")
	[ -e "$shm" ]
	[ -e "$shm.syms" ]
	mounted "$D"
	run devtrace stop
	assert_success
	gone "$pid"
	run ! mounted "$D"
	[ ! -e "$shm" ]
	[ ! -e "$shm.syms" ]
	run devtrace status
	assert_failure 1
	assert_output "no devtraced serves $D"
	run devtrace stop
	assert_failure 1
	assert_output "devtrace: no devtraced serves $D"
	run devtrace state
	assert_failure 1
	assert_output --partial "no devtraced serves $D"
}

@test "devtrace start starts one server and no second; devtraced refuses a second with a reason" {
	run devtrace start -n
	assert_success
	pid=$(serverpid)
	run devtrace start -n
	assert_success
	assert_output "devtrace: devtraced pid $pid already serves $D"
	run devtraced -n
	assert_failure 1
	assert_output "devtraced: $D is already served by devtraced pid $pid"
	[ "$(serverpid)" = "$pid" ]
	run grep -c " $D " /proc/mounts
	assert_output 1
}

@test "SIGTERM and SIGINT stop a foreground server cleanly" {
	for sig in TERM INT; do
		devtraced -f -n 3>&- &
		pid=$!
		# shellcheck disable=SC2034 # read by teardown in helper.bash
		BGPIDS=$pid
		waitfor mounted "$D"
		waitfor test -e "$D/tracectl"
		kill -$sig $pid
		rc=0
		wait $pid || rc=$?
		[ "$rc" = 0 ]
		run ! mounted "$D"
		run devtrace status
		assert_failure
	done
}

@test "a stale mount of a killed server is cleaned up by the next start" {
	start
	pid=$(serverpid)
	kill -9 "$pid"
	waitfor gone "$pid"
	run stat "$D/tracectl"
	assert_failure
	assert_output --partial "Transport endpoint is not connected"
	run devtrace status
	assert_failure
	start
	run grep -c " $D " /proc/mounts
	assert_output 1
	run head -n 1 "$D/tracectl"
	assert_output "logsize 65536"
}

@test "options: --help, unknown options and arguments get a message and exit 2" {
	run devtraced --help
	assert_success
	assert_line --index 0 --partial "usage: devtraced"
	run devtraced -x
	assert_failure 2
	assert_line --index 0 "devtraced: option -x is unknown"
	run devtraced --bogus
	assert_failure 2
	assert_line --index 0 --partial "--bogus"
	run devtraced -m 99
	assert_failure 2
	assert_line --index 0 --partial "-m wants a number"
	run devtraced -M 3M
	assert_failure 2
	assert_line --index 0 "devtraced: -M wants a size of at least one ring, 4096K (N, NK, NM or NG), not '3M'"
	run devtraced -M 64X
	assert_failure 2
	assert_line --index 0 "devtraced: -M wants a size of at least one ring, 4096K (N, NK, NM or NG), not '64X'"
	run devtraced -M
	assert_failure 2
	assert_line --index 0 "devtraced: option -M needs an argument"
	run devtraced -d
	assert_failure 2
	run devtraced extra
	assert_failure 2
	assert_line --index 0 "devtraced: unexpected argument 'extra'"
	run devtrace --help
	assert_success
	assert_line --index 0 --partial "usage: devtrace"
	run devtrace
	assert_failure 2
	run devtrace bogus
	assert_failure 2
	assert_line --index 0 "devtrace: unknown command 'bogus'"
	run devtrace -q status
	assert_failure 2
	for c in run ctl cat state syms status start stop; do
		run devtrace $c --help
		assert_success
		assert_line --index 0 --partial "usage: devtrace $c"
	done
	for c in run ctl cat state syms status stop; do
		run devtrace $c --bogus
		assert_failure 2
		assert_line --index 0 "devtrace $c: unknown option --bogus"
	done
	run devtrace cat -x
	assert_failure 2
	assert_line --index 0 "devtrace cat: unknown option -x"
	run devtrace start --bogus
	assert_failure 2
	run devtrace status extra
	assert_failure 2
	run devtrace run
	assert_failure 2
	run ! mounted "$D"
}

@test "the files are mode 0600 and the server's; user nobody can open none of them" {
	[ "$(id -u)" = 0 ] || skip "needs root"
	P=$(mktemp -d /tmp/devtrace-perm.XXXXXX)
	# shellcheck disable=SC2034 # read by teardown in helper.bash
	EXTRA=$P
	chmod 755 "$P"
	export DEVTRACE_DIR=$P/dev
	D=$DEVTRACE_DIR
	start
	run stat -c '%a %U %n' "$D"/*
	assert_output - <<-END
	600 root $D/aggraw
	600 root $D/aggs
	600 root $D/clone
	600 root $D/syms
	600 root $D/trace
	600 root $D/tracectl
	600 root $D/tracepipe
	END
	nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
	# nobody gets as far as the directory, and no further
	run nobody ls -d "$P"
	assert_success
	for f in tracectl trace tracepipe syms aggs aggraw clone; do
		run nobody cat "$D/$f"
		assert_failure
		assert_output --partial "Permission denied"
	done
	run nobody sh -c "echo start > $D/tracectl"
	assert_failure
	assert_output --partial "Permission denied"
	run grep -x stop "$D/tracectl"
	assert_success
	run grep '^#reader' "$D/tracectl"
	assert_failure
	# nobody's clone made no session
	run grep '^#sessions' "$D/tracectl"
	assert_failure
}

@test "as root, /dev/tracectl and /dev/trace lead to the files while the server runs, and go when it stops" {
	[ "$(id -u)" = 0 ] || skip "needs root"
	if [ -e /dev/tracectl ]; then
		skip "/dev/tracectl belongs to a device outside this test"
	fi
	# a dangling link of a killed server is replaced
	[ -L /dev/tracectl ] || ln -s /nonexistent/tracectl /dev/tracectl
	devtraced
	for f in tracectl trace tracepipe; do
		run readlink /dev/$f
		assert_output "$D/$f"
	done
	run readlink /dev/tracesyms
	assert_output "$D/syms"
	echo trace 1000 2000 new t > /dev/tracectl
	echo trace t on > /dev/tracectl
	echo start > /dev/tracectl
	echo testtracein 1500 1 2 3 4 > /dev/tracectl
	run cat /dev/trace
	assert_output --regexp '^E 0000000000001500 '
	run grep -x 'trace t on' /dev/tracectl
	assert_success
	devtrace stop
	for f in tracectl trace tracepipe tracesyms; do
		[ ! -e /dev/$f ]
		[ ! -L /dev/$f ]
	done
}

@test "the reader rule: a process with trace open is listed and its own injections are dropped" {
	start
	ctl trace 1000 2000 new t
	ctl trace t on
	ctl start
	me=$BASHPID
	exec 4< "$D/trace"
	run grep '^#reader' "$D/tracectl"
	assert_output "#reader $me"
	echo testtracein 1500 1 1 1 1 > "$D/tracectl"
	[ "$(counter hits)" = 0 ]
	[ "$(counter filtered)" = 1 ]
	# another process is traced meanwhile
	bash -c 'echo testtracein 1500 2 2 2 2 > "$DEVTRACE_DIR/tracectl"'
	[ "$(counter queued)" = 1 ]
	exec 4<&-
	waitfor bash -c "! grep -q '^#reader' '$D/tracectl'"
	echo testtracein 1500 3 3 3 3 > "$D/tracectl"
	run cut -c 1-19,54- "$D/trace"
	assert_output - <<-END
	E 0000000000001500 0000000000000002 0000000000000002 0000000000000002 0000000000000002
	E 0000000000001500 0000000000000003 0000000000000003 0000000000000003 0000000000000003
	END
	[ "$(counter filtered)" = 1 ]
}

@test "without files (-F, or when FUSE cannot mount) devtrace ctl, state and cat still work" {
	run devtraced -n --no-files
	assert_success
	assert_output ""
	run ! mounted "$D"
	run devtrace status
	assert_success
	devtrace ctl trace 1000 2000 new t
	devtrace ctl trace t on
	devtrace ctl start
	devtrace ctl testtracein 1500 1 2 3 4
	run devtrace ctl bogus
	assert_failure 1
	assert_output "devtrace ctl: bogus: bogus: unknown command"
	run devtrace state
	assert_line "#error bogus: unknown command"
	run devtrace cat
	assert_output --regexp '^E 0000000000001500 '
	devtrace stop
	run devtrace status
	assert_failure
}
