#!/usr/bin/env bats
# Sessions through the files (as /net/tcp/clone): clone makes one, its
# directory N has ctl, trace, tracepipe, aggs and aggraw; two sessions
# and the top level on one program at once each read exactly their own
# records; block in one does not hold up another; devtrace run -t uses
# a session of its own; a session whose holder dies ends; the limit.
# bats keeps fd 3 for itself: the sessions' descriptors are 5 and up.
load helper

setup_file() {
	buildfl loop
}

# counter KEY of session N's ctl
scounter() {
	awk -v k="#$2" '$1 == k { print $2 }' "$D/$1/ctl"
}

sessions() {
	grep '^#sessions' "$D/tracectl"
}

nodir() {
	[ ! -e "$1" ]
}

# the calls in a record file, a line a record: "E pid arg1 arg2" or "X pid retval"
calls() {
	awk '{ if ($1 == "E") print "E", strtonum("0x" $4), strtonum("0x" $5), strtonum("0x" $6); else print "X", strtonum("0x" $4), strtonum("0x" $5) }' "$1"
}

# the file $2 has at least $1 lines
lines() {
	[ "$(wc -l < "$2")" -ge "$1" ]
}

# sessions live: N
live() {
	sessions | grep -q "^#sessions live $1 "
}

# what fl_loop ID N makes, as calls prints it, for pid P
expect() {
	local i
	for ((i = $3; i < $4; i++)); do
		echo "E $1 $2 $i"
		echo "X $1 $(($2 * 1000 + i))"
	done
}

@test "clone makes a session: its number, its directory, and its end at the last close" {
	start
	exec 5<>"$D/clone"
	read -r n <&5
	assert_equal "$n" 1
	run ls "$D/1"
	assert_output "$(printf 'aggraw\naggs\nctl\ntrace\ntracepipe')"
	run ls "$D"
	assert_output "$(printf '1\naggraw\naggs\nclone\nsyms\ntrace\ntracectl\ntracepipe')"
	exec 6<>"$D/clone"
	read -r m <&6
	assert_equal "$m" 2
	# a session starts as a fresh device does, stopped, its own traces none
	echo 'trace fl_work new w' >&5
	run cat "$D/2/ctl"
	assert_output --partial "$(printf 'policy ring\nwatch 0\nstop\n')"
	refute_output --partial 'fl_work'
	run sessions
	assert_output '#sessions live 2 made 2 ended 0 reaped 0 refused 0'
	exec 5<&-
	waitfor nodir "$D/1"
	run sessions
	assert_output '#sessions live 1 made 2 ended 1 reaped 0 refused 0'
	# rmdir ends one now, whoever holds it; its ctl then refuses
	rmdir "$D/2"
	run sessions
	assert_output '#sessions live 0 made 2 ended 2 reaped 0 refused 0'
	run ! bash -c 'echo start >&6'
	assert_output --partial 'No such device or address'
	exec 6<&-
	# the top level is as it was
	run state
	assert_output --partial "$(printf 'watch 0\nstop\n')"
}

@test "two sessions and the top level trace one program at once: each reads exactly its own records" {
	needlib
	start
	ctl trace fl_work new top
	ctl trace top pred '/arg0 == 1 || retval / 1000 == 1/'
	ctl trace top on
	ctl start
	exec 5<>"$D/clone"
	read -r a <&5
	exec 6<>"$D/clone"
	read -r b <&6
	printf '%s\n' 'trace fl_work new w' 'trace w pred /entry ? arg1 < 10 : retval % 1000 < 10/' 'trace w on' 'policy block 1000' 'start' >&5
	go=$BATS_TEST_TMPDIR/go
	devtrace run "$X/fl_loop" 1 50 "$go" 100 > "$BATS_TEST_TMPDIR/out1" &
	p1=$!
	devtrace run "$X/fl_loop" 2 50 "$go" 100 > "$BATS_TEST_TMPDIR/out2" &
	p2=$!
	BGPIDS="$p1 $p2"
	printf '%s\n' 'trace fl_work new v' "watch $p2" 'trace v on' 'size 10' 'start' >&6
	waitfor grep -q ' fl_work ' "$D/syms"
	sleep 0.2
	touch "$go"
	wait $p1
	wait $p2
	cat "$D/trace" > "$BATS_TEST_TMPDIR/top"
	cat "$D/$a/trace" > "$BATS_TEST_TMPDIR/a"
	cat "$D/$b/trace" > "$BATS_TEST_TMPDIR/b"
	wellformed "$BATS_TEST_TMPDIR/a"
	# the top level: process 1's 50 calls; session a: both processes' first 10; b: process 2's 50
	run calls "$BATS_TEST_TMPDIR/top"
	assert_output "$(expect "$p1" 1 0 50)"
	awk -v p="$(hex "$p1")" '$4 "" == p' "$BATS_TEST_TMPDIR/a" > "$BATS_TEST_TMPDIR/a1"
	run calls "$BATS_TEST_TMPDIR/a1"
	assert_output "$(expect "$p1" 1 0 10)"
	awk -v p="$(hex "$p2")" '$4 "" == p' "$BATS_TEST_TMPDIR/a" > "$BATS_TEST_TMPDIR/a2"
	run calls "$BATS_TEST_TMPDIR/a2"
	assert_output "$(expect "$p2" 2 0 10)"
	run wc -l < "$BATS_TEST_TMPDIR/a"
	assert_output 40
	run calls "$BATS_TEST_TMPDIR/b"
	assert_output "$(expect "$p2" 2 0 50)"
	# counters of their own: each one's hits and filtered, none lost or dropped anywhere
	run scounter "$a" hits
	assert_output 40
	run scounter "$b" hits
	assert_output 100
	run counter hits
	assert_output 100
	# a's predicate reads retval: each call is followed, its entry and exit tested apart
	run scounter "$a" filtered
	assert_output 160
	# b's watch list names process 2: process 1 does not follow b's trace at all, so none of its calls is b's hit;
	# the top level's predicate reads retval: process 2's calls are followed, both hits tested
	run scounter "$b" filtered
	assert_output 0
	run counter filtered
	assert_output 100
	for n in "$a" "$b"; do
		run scounter "$n" lost
		assert_output 0
		run scounter "$n" dropped
		assert_output 0
	done
	run counter lost
	assert_output 0
	exec 5<&- 6<&-
}

@test "a session under policy block with no reader does not hold up another's records" {
	needlib
	start
	exec 5<>"$D/clone"
	read -r a <&5
	exec 6<>"$D/clone"
	read -r b <&6
	# a: 16 records of room (size 4: 2^4) and no reader, waiting up to 200 ms; without the bound's end 3,984 waits
	printf '%s\n' 'size 4' 'policy block 200' 'trace fl_work new w' 'trace w on' 'start' >&5
	printf '%s\n' 'trace fl_work new w' 'trace w on' 'start' >&6
	cat "$D/$b/tracepipe" > "$BATS_TEST_TMPDIR/b" &
	c=$!
	BGPIDS=$c
	waitfor grep -qx "#reader $c" "$D/$b/ctl"
	SECONDS=0
	run timeout 30 devtrace run "$X/fl_loop" 4 2000 - 0
	assert_success
	assert_output "4 9999000"
	took=$SECONDS
	[ "$took" -lt 10 ]
	waitfor lines 4000 "$BATS_TEST_TMPDIR/b"
	kill -TERM $c
	run calls "$BATS_TEST_TMPDIR/b"
	assert_output "$(expect "$(awk 'NR == 1 { print strtonum("0x" $4) }' "$BATS_TEST_TMPDIR/b")" 4 0 2000)"
	run scounter "$b" lost
	assert_output 0
	run scounter "$b" dropped
	assert_output 0
	# a kept its first 16 and counted the rest dropped
	run scounter "$a" hits
	assert_output 4000
	run scounter "$a" queued
	assert_output 16
	run scounter "$a" dropped
	assert_output 3984
	exec 5<&- 6<&-
}

@test "devtrace run -t with another trace on prints only its own calls and leaves the other's records" {
	needlib
	start
	ctl trace fl_work new other
	ctl trace other on
	ctl start
	run devtrace run -t main -- "$X/fl_loop" 3 5 - 0
	assert_success
	assert_line --index 0 '3 15010'
	run sh -c "devtrace run -t main -- '$X/fl_loop' 3 5 - 0 | grep -c -e '-> main' -e '<- main'"
	assert_output 2
	run sh -c "devtrace run -t main -- '$X/fl_loop' 3 5 - 0 | grep -c fl_work"
	assert_output 0
	# the other trace's records are all there, unread: 3 runs of 5 calls
	run counter queued
	assert_output 30
	run counter read
	assert_output 0
	run sh -c "grep -c ' ' '$D/trace'"
	assert_output 30
	run sessions
	assert_output '#sessions live 0 made 3 ended 3 reaped 0 refused 0'
}

@test "a session whose holder dies ends: its files closed by the kernel, or reaped by the server" {
	needlib
	start
	# held through the files: the holder's descriptors close as it dies
	sh -c 'exec 5<>"$1/clone"; echo "trace fl_work new w" >&5; echo "trace w on" >&5; echo start >&5; exec sleep 100' sh "$D" &
	h=$!
	BGPIDS=$h
	waitfor live 1
	waitfor test -d "$D/1"
	kill -9 $h
	waitfor nodir "$D/1"
	run sessions
	assert_output '#sessions live 0 made 1 ended 1 reaped 0 refused 0'
	# held by a process that uses the block directly (devtrace run): reaped once it is gone
	devtrace run -t fl_work -- "$X/fl_loop" 1 5 "$BATS_TEST_TMPDIR/go" 0 > /dev/null &
	r=$!
	BGPIDS="$h $r $(pgrep -P $r || true)"
	waitfor test -d "$D/1"
	BGPIDS="$h $r $(pgrep -P $r)"
	kill -9 $r
	waitfor nodir "$D/1"
	run sessions
	assert_output '#sessions live 0 made 2 ended 1 reaped 1 refused 0'
}

@test "at the limit of 8 sessions clone is refused with a clear error, and counted" {
	needlib
	start
	# seven held by one process and one by the test's shell: the ninth is refused
	bash -c 'exec 20<>"$1/clone" 21<>"$1/clone" 22<>"$1/clone" 23<>"$1/clone" 24<>"$1/clone" 25<>"$1/clone" 26<>"$1/clone"; exec sleep 100' _ "$D" &
	h=$!
	exec 5<>"$D/clone"
	# shellcheck disable=SC2034 # read by teardown in helper.bash
	BGPIDS=$h
	waitfor live 8
	run ls "$D"
	assert_output "$(printf '1\n2\n3\n4\n5\n6\n7\n8\naggraw\naggs\nclone\nsyms\ntrace\ntracectl\ntracepipe')"
	run ! cat "$D/clone"
	assert_output --partial 'No space left on device'
	run devtrace run -t fl_work -- "$X/fl_loop" 1 5 - 0
	assert_failure 1
	assert_output 'devtrace run: clone: too many sessions: end one (close its ctl, or remove it)'
	run sessions
	assert_output '#sessions live 8 made 8 ended 0 reaped 0 refused 2'
	exec 5<&-
	waitfor live 7
	run sh -c "devtrace run -t fl_work -- '$X/fl_loop' 1 5 - 0 | grep -c -e '-> fl_work'"
	assert_output 5
	kill -9 $h
	waitfor live 0
}
