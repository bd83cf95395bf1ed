#!/usr/bin/env bats
# Predicates end to end: `trace io pred /EXPR/` written to tracectl on a
# real server (FUSE), a fixture built with bin/devtrace-cc run attached,
# and the records that come out of trace checked exactly: which ones,
# how many, every value, and the counters #hits, #filtered, #predfaults.
#
# The fixture (fx_io.c) calls io(fd, size, 'A', i) for size 1, 100,
# 4095, 4096, 5000, 65536 (i = 0..5); io returns size * 2.  So one run
# makes 6 E and 6 X records of io.  On an exit hit arg0..arg3 are 0 and
# entry is 0; on an entry hit retval is 0.  A predicate that reads no
# retval, dur, timestamp, cpu or entry decides whole calls at the entry.
load helper

# the fixture's last line: PID FD SUM
ran() {
	read -r P FD SUM < "$T/out"
	[ "$FD" = "$1" ]
	[ "$SUM" = 157656 ]
}

@test "the fixture is traced: io's 12 records, exact, without a predicate" {
	# io is a real call in the fixture, not inlined
	run sh -c "objdump -d --no-show-raw-insn '$X/fx_io' | grep -c 'call.*<io>'"
	assert_output 1
	server
	fx "$X/fx_io" 3
	ran 3
	records
	run grep -c " io $X/fx_io\$" "$T/syms"
	assert_output 1
	run cat "$T/recs"
	assert_output "$(all "$P" 3)"
	[ "$(counter hits)" = 12 ]
	[ "$(counter filtered)" = 0 ]
	[ "$(counter predfaults)" = 0 ]
	[ "$(counter lost)" = 0 ]
}

@test "by argument: /arg1 >= 4096/ keeps the whole calls of 4096, 5000, 65536, E and X records" {
	server
	pred 'arg1 >= 4096'
	fx "$X/fx_io" 3
	ran 3
	records
	run cat "$T/recs"
	# the entry decides the whole call: its X record is kept, with the return value
	assert_output - <<EOF
E $P io 3 4096 65 3
X $P io 8192
E $P io 3 5000 65 4
X $P io 10000
E $P io 3 65536 65 5
X $P io 131072
EOF
	[ "$(counter hits)" = 6 ]
	[ "$(counter filtered)" = 6 ]
	[ "$(counter predfaults)" = 0 ]
}

@test "the entry's arguments decide, not the exit's 0s: /arg1 < 4096/ keeps the whole calls of 1, 100, 4095" {
	server
	pred 'arg1 < 4096'
	fx "$X/fx_io" 3
	ran 3
	records
	run cat "$T/recs"
	assert_output - <<EOF
E $P io 3 1 65 0
X $P io 2
E $P io 3 100 65 1
X $P io 200
E $P io 3 4095 65 2
X $P io 8190
EOF
	[ "$(counter hits)" = 6 ]
	[ "$(counter filtered)" = 6 ]
}

@test "entry tells the hits apart: /entry && arg1 >= 4096/ only E, /!entry && retval > 8192/ only X" {
	server
	pred 'entry && arg1 >= 4096'
	fx "$X/fx_io" 3
	ran 3
	records
	run cat "$T/recs"
	assert_output - <<EOF
E $P io 3 4096 65 3
E $P io 3 5000 65 4
E $P io 3 65536 65 5
EOF
	[ "$(counter filtered)" = 9 ]
	pred '!entry && retval > 8192'
	fx "$X/fx_io" 3
	ran 3
	records
	run cat "$T/recs"
	assert_output - <<EOF
X $P io 10000
X $P io 131072
EOF
	# the counters add up over both runs
	[ "$(counter hits)" = 5 ]
	[ "$(counter filtered)" = 19 ]
	[ "$(counter read)" = 5 ]
	[ "$(counter predfaults)" = 0 ]
}

@test "by return value: /retval == 8192/, a range of retval, and retval 0 on entry hits" {
	server
	pred 'retval == 8192'
	fx "$X/fx_io" 3
	ran 3
	records
	run cat "$T/recs"
	assert_output "X $P io 8192"
	[ "$(counter filtered)" = 11 ]
	pred 'retval >= 8192 && retval < 100000'
	fx "$X/fx_io" 3
	ran 3
	records
	run cat "$T/recs"
	assert_output - <<EOF
X $P io 8192
X $P io 10000
EOF
	[ "$(counter filtered)" = 21 ]
	# on an entry hit retval is 0, and 0 % 3 == 0: every E record stays;
	# of the X records only 8190 is a multiple of 3
	pred 'retval % 3 == 0'
	fx "$X/fx_io" 3
	ran 3
	records
	run cat "$T/recs"
	assert_output - <<EOF
E $P io 3 1 65 0
E $P io 3 100 65 1
E $P io 3 4095 65 2
X $P io 8190
E $P io 3 4096 65 3
E $P io 3 5000 65 4
E $P io 3 65536 65 5
EOF
	[ "$(counter filtered)" = 26 ]
	[ "$(counter hits)" = 10 ]
}

@test "arg0, arg2, arg3, character constants, hex and octal literals" {
	server
	pred "arg0 == 3 && arg2 == 'A' && (arg3 == 1 || arg3 == 05)"
	fx "$X/fx_io" 3
	ran 3
	records
	run cat "$T/recs"
	assert_output - <<EOF
E $P io 3 100 65 1
X $P io 200
E $P io 3 65536 65 5
X $P io 131072
EOF
	pred 'arg1 == 0x1000 || arg1 == 010000'
	fx "$X/fx_io" 3
	ran 3
	records
	run cat "$T/recs"
	assert_output - <<EOF
E $P io 3 4096 65 3
X $P io 8192
EOF
	# io(3, ...): arg0 == 4 is never true
	pred 'arg0 == 4'
	fx "$X/fx_io" 3
	ran 3
	records
	run cat "$T/recs"
	assert_output ""
	[ "$(counter hits)" = 6 ]
	[ "$(counter filtered)" = 30 ]
}

@test "by pid: two processes running at once, /pid == N/ keeps exactly N's records" {
	server
	spawn a "$X/fx_io" -r "$T/ready.a" -g "$T/go2" 3
	spawn b "$X/fx_io" -r "$T/ready.b" -g "$T/go2" 4
	# the pid is known before the process reads the device's state
	# shellcheck disable=SC2154 # spawn sets a
	pred "pid == $a"
	touch "$T/go"
	# both attached and waiting; then both make their calls at once
	for f in ready.a ready.b; do
		while ! [ -e "$T/$f" ]; do sleep 0.005; done
	done
	touch "$T/go2"
	go
	[ "$(cat "$T/out.1")" = "$a 3 157656" ]
	# shellcheck disable=SC2154 # spawn sets b
	[ "$(cat "$T/out.2")" = "$b 4 157656" ]
	records
	run cat "$T/recs"
	assert_output "$(all "$a" 3)"
	[ "$(counter hits)" = 12 ]
	[ "$(counter filtered)" = 12 ]
	# the other way round, on two new processes
	spawn a "$X/fx_io" 3
	spawn b "$X/fx_io" 4
	pred "pid != $a"
	go
	records
	run cat "$T/recs"
	assert_output "$(all "$b" 4)"
	[ "$(counter filtered)" = 24 ]
}

@test "by execname: copies of the fixture named fxa and fxb; == and != keep one each" {
	server
	spawn a "$X/fxa" 3
	spawn b "$X/fxb" 4
	pred 'execname == "fxa"'
	go
	records
	run cat "$T/recs"
	assert_output "$(all "$a" 3)"
	[ "$(counter filtered)" = 12 ]
	spawn a "$X/fxa" 3
	spawn b "$X/fxb" 4
	pred '"fxa" != execname'
	go
	records
	run cat "$T/recs"
	assert_output "$(all "$b" 4)"
	[ "$(counter filtered)" = 24 ]
	# a name that no process has
	spawn a "$X/fxa" 3
	pred 'execname == "fx"'
	go
	records
	run cat "$T/recs"
	assert_output ""
	[ "$(counter filtered)" = 36 ]
	[ "$(counter hits)" = 24 ]
}

@test "execname is the kernel's command name: 15 bytes of the file name" {
	cp "$X/fx_io" "$X/fx_a_very_long_name"
	server
	pred 'execname == "fx_a_very_long_name"'
	fx "$X/fx_a_very_long_name" 3
	records
	run cat "$T/recs"
	assert_output ""
	pred 'execname == "fx_a_very_long_"'
	fx "$X/fx_a_very_long_name" 3
	ran 3
	records
	run cat "$T/recs"
	assert_output "$(all "$P" 3)"
}

@test "execname follows exec: the same pid under a new name" {
	server
	# fxb makes its 12 calls (fd 4), then execs fxa, which makes 12 more (fd 5)
	spawn p "$X/fxb" 4 "$X/fxa" 5
	pred 'execname == "fxa"'
	go
	run cat "$T/out.1"
	# shellcheck disable=SC2154 # spawn sets p
	assert_output "$(printf '%s 4 157656\n%s 5 157656' "$p" "$p")"
	records
	run cat "$T/recs"
	assert_output "$(all "$p" 5)"
	[ "$(counter filtered)" = 12 ]
	# and the other name: the records before the exec
	spawn p "$X/fxb" 4 "$X/fxa" 5
	pred 'execname == "fxb"'
	go
	records
	run cat "$T/recs"
	assert_output "$(all "$p" 4)"
	[ "$(counter filtered)" = 24 ]
}

@test "the typical three-term predicate pid == N && arg1 >= 4096 && execname == \"fxa\"" {
	server
	# n: fxb (fd 4), then exec fxa (fd 5), same pid; m: another fxa (fd 6); o: fxb (fd 7)
	spawn n "$X/fxb" 4 "$X/fxa" 5
	spawn m "$X/fxa" 6
	spawn o "$X/fxb" 7
	# shellcheck disable=SC2154 # spawn sets n
	pred "pid == $n && arg1 >= 4096 && execname == \"fxa\""
	go
	records
	# each term drops calls the others keep: pid drops m's, execname
	# drops n's before the exec, arg1 the small sizes
	run cat "$T/recs"
	assert_output - <<EOF
E $n io 5 4096 65 3
X $n io 8192
E $n io 5 5000 65 4
X $n io 10000
E $n io 5 65536 65 5
X $n io 131072
EOF
	# 4 runs of the fixture, 12 hits each
	[ "$(counter hits)" = 6 ]
	[ "$(counter filtered)" = 42 ]
	[ "$(counter predfaults)" = 0 ]
	[ "$(counter lost)" = 0 ]
}

@test "a predicate that divides by zero records nothing and counts a fault per call" {
	server
	pred 'arg1 / (arg0 - arg0) > 0'
	fx "$X/fx_io" 3
	ran 3
	records
	run cat "$T/recs"
	assert_output ""
	# every entry faulted, and its call went whole: its exit was not asked
	[ "$(counter predfaults)" = 6 ]
	[ "$(counter filtered)" = 12 ]
	[ "$(counter hits)" = 0 ]
	# the program ran on, unharmed
	[ "$(cat "$T/out")" = "$P 3 157656" ]
}

@test "a fault ends only its own evaluation: the other hits are judged as usual" {
	server
	# 4096 divides by zero; sizes below give a negative quotient; 5000 and 65536 a positive one;
	# X hits stop at !entry
	pred 'entry && 1000000 / (arg1 - 4096) > 0'
	fx "$X/fx_io" 3
	ran 3
	records
	run cat "$T/recs"
	assert_output - <<EOF
E $P io 3 5000 65 4
E $P io 3 65536 65 5
EOF
	[ "$(counter predfaults)" = 1 ]
	[ "$(counter filtered)" = 10 ]
	# the most negative number % -1 faults (E: arg0 - 4 == -1), and the whole call
	# goes: its exit, where arg0 reads 0 and % -4 is 0, is not asked
	pred '-9223372036854775808 % (arg0 - 4) == 0'
	fx "$X/fx_io" 3
	ran 3
	records
	run cat "$T/recs"
	assert_output ""
	[ "$(counter predfaults)" = 7 ]
	[ "$(counter filtered)" = 22 ]
	# short circuit: 1 / 0 is never evaluated
	pred '0 && 1 / 0 || entry == 2'
	fx "$X/fx_io" 3
	ran 3
	records
	run cat "$T/recs"
	assert_output ""
	[ "$(counter predfaults)" = 7 ]
	[ "$(counter filtered)" = 34 ]
}

# refused EXPR ERRNO: `trace io pred /EXPR/` makes the write fail with ERRNO's text
refused() {
	run bash -c 'printf "trace io pred /%s/\n" "$1" > "$2"' _ "$1" "$D/tracectl"
	assert_failure
	assert_output --partial "write error: $2"
}

errors() {
	grep '^#error' "$D/tracectl"
}

@test "a refused predicate: the write fails, #error shows the reason and a caret, nothing changes" {
	server
	pred 'arg1 >= 4096'
	commands > "$T/before"

	refused 'arg1 >= 4096 && execnme == "fxa"' "Invalid argument"
	run errors
	assert_output - <<'EOF'
#error trace: unknown variable
#error   arg1 >= 4096 && execnme == "fxa"
#error                   ^
EOF
	refused 'arg1 >= 4096 && execname == 7' "Invalid argument"
	run errors
	assert_output - <<'EOF'
#error trace: string compared with a number
#error   arg1 >= 4096 && execname == 7
#error                            ^
EOF
	refused 'execname + 1' "Invalid argument"
	run errors
	assert_output - <<'EOF'
#error trace: string used as a number
#error   execname + 1
#error   ^
EOF
	refused 'execname' "Invalid argument"
	run errors
	assert_output - <<'EOF'
#error trace: string used as a number
#error   execname
#error   ^
EOF
	refused '"fxa" == "fxa"' "Invalid argument"
	run errors
	assert_output - <<'EOF'
#error trace: compare execname with a string
#error   "fxa" == "fxa"
#error         ^
EOF
	refused '(arg1 > 2' "Invalid argument"
	run errors
	assert_output - <<'EOF'
#error trace: ')' expected
#error   (arg1 > 2
#error            ^
EOF
	refused 'arg1 > 2)' "Invalid argument"
	run errors
	assert_output - <<'EOF'
#error trace: unbalanced ')'
#error   arg1 > 2)
#error           ^
EOF
	refused 'arg1 >' "Invalid argument"
	run errors
	assert_output - <<'EOF'
#error trace: expression expected
#error   arg1 >
#error         ^
EOF
	refused 'entry ? arg1' "Invalid argument"
	run errors
	assert_output - <<'EOF'
#error trace: ':' expected
#error   entry ? arg1
#error               ^
EOF
	refused 'arg1 $ 2' "Invalid argument"
	run errors
	assert_output - <<'EOF'
#error trace: bad character
#error   arg1 $ 2
#error        ^
EOF
	refused 'arg1 == 99999999999999999999' "Invalid argument"
	run errors
	assert_output - <<'EOF'
#error trace: number too large
#error   arg1 == 99999999999999999999
#error           ^
EOF
	refused 'execname == "fxa' "Invalid argument"
	run errors
	assert_output - <<'EOF'
#error trace: unterminated string
#error   execname == "fxa
#error                   ^
EOF
	refused '' "Invalid argument"
	run errors
	assert_output - <<'EOF'
#error trace: expression expected
#error   
#error   ^
EOF
	# a tab in the expression is copied into the caret line: the caret stays under its place
	refused "$(printf 'arg1 >\t4096 && bogus')" "Invalid argument"
	run errors
	assert_output "$(printf '#error trace: unknown variable\n#error   arg1 >\t4096 && bogus\n#error         \t        ^')"

	# not /expression/
	run bash -c 'echo "trace io pred arg1 > 2" > "$1"' _ "$D/tracectl"
	assert_failure
	assert_output --partial "write error: Invalid argument"
	run errors
	assert_output "#error trace: predicate must be /expression/"
	run bash -c 'echo "trace io pred /arg1 > 2" > "$1"' _ "$D/tracectl"
	assert_failure
	run errors
	assert_output "#error trace: predicate must be /expression/"
	# no such trace
	run bash -c 'echo "trace nosuch pred /arg1 > 2/" > "$1"' _ "$D/tracectl"
	assert_failure
	assert_output --partial "write error: Invalid argument"
	run errors
	assert_output "#error trace: no such trace"

	# nothing changed: the first predicate is still there and still works
	commands > "$T/after"
	cmp "$T/before" "$T/after"
	fx "$X/fx_io" 3
	ran 3
	records
	run cat "$T/recs"
	assert_output "$(all "$P" 3 | tail -6)"
	# the #error lines stay until a command succeeds
	[ -n "$(errors)" ]
	pred 'arg1 >= 4096'
	run errors
	assert_output ""
}

@test "devtrace ctl prints the same reason and caret and exits 1" {
	server
	run devtrace ctl 'trace io pred /arg1 >= 4096 && execnme == "fxa"/'
	assert_failure 1
	assert_output - <<'EOF'
devtrace ctl: trace io pred /arg1 >= 4096 && execnme == "fxa"/: trace: unknown variable
  arg1 >= 4096 && execnme == "fxa"
                  ^
EOF
	run commands
	refute_output --partial pred
}

@test "limits: a predicate of 511 bytes is taken, 512 is refused (E2BIG)" {
	server
	# 'arg1 >= 4096' and spaces up to 511 bytes
	e=$(printf '%-511s' 'arg1 >= 4096')
	[ ${#e} = 511 ]
	pred "$e"
	run grep -c "^trace io pred /$e/\$" "$D/tracectl"
	assert_output 1
	refused "$e " "Argument list too long"
	run errors
	assert_output "#error trace: predicate too long"
	# too deep, too many strings, too long a program: refused with the caret
	refused '((((((((((((((((((1))))))))))))))))))' "Argument list too long"
	run errors
	assert_output - <<'EOF'
#error trace: expression too deep
#error   ((((((((((((((((((1))))))))))))))))))
#error                   ^
EOF
	refused "$(printf '1+%.0s' $(seq 200))1" "Argument list too long"
	run errors
	assert_line --index 0 "#error trace: program too long"
	# the 511-byte one is still in force
	fx "$X/fx_io" 3
	ran 3
	records
	run cat "$T/recs"
	assert_output "$(all "$P" 3 | tail -6)"
}

@test "the predicate shows in tracectl as written and survives a save into a new server" {
	server
	ctl trace 'done' new d
	ctl trace d on
	# spaces inside the slashes, a '/' operator, a string, a character constant, a tab
	e=$(printf '  execname == "fx_io" && arg1 / 2 >= 2048 &&\targ2 == %s  ' "'A'")
	pred "$e"
	ctl trace d pred '/retval == 157656/'
	run commands
	assert_output - <<EOF
logsize 65536
policy ring
trace io new io
trace io on
trace io pred /$e/
trace done new d
trace d on
trace d pred /retval == 157656/
watch 0
start
EOF
	cat "$D/tracectl" > "$T/saved"
	devtrace stop
	devtraced -n
	[ "$(counter hits)" = 0 ]
	cat "$T/saved" > "$D/tracectl"
	run commands
	assert_output "$(grep -v '^#' "$T/saved")"
	fx "$X/fx_io" 3
	ran 3
	records
	run cat "$T/recs"
	assert_output - <<EOF
E $P io 3 4096 65 3
X $P io 8192
E $P io 3 5000 65 4
X $P io 10000
E $P io 3 65536 65 5
X $P io 131072
X $P done 157656
EOF
	# io: 3 calls dropped whole; done: its E (retval 0 on entry)
	[ "$(counter filtered)" = 7 ]
}

@test "a new predicate replaces the old one; trace NAME pred removes it" {
	server
	pred 'arg1 >= 4096'
	pred 'arg1 == 1'
	run grep pred "$D/tracectl"
	assert_output - <<'EOF'
trace io pred /arg1 == 1/
#predfaults 0
EOF
	fx "$X/fx_io" 3
	ran 3
	records
	run cat "$T/recs"
	assert_output "$(all "$P" 3 | head -2)"
	pred
	run grep '^trace io pred' "$D/tracectl"
	assert_failure
	fx "$X/fx_io" 3
	ran 3
	records
	run cat "$T/recs"
	assert_output "$(all "$P" 3)"
	# spaces after pred remove it too
	pred 'arg1 == 1'
	echo 'trace io pred   ' > "$D/tracectl"
	run grep '^trace io pred' "$D/tracectl"
	assert_failure
	# removing what is not there is no error
	ctl trace io pred
	[ "$(counter filtered)" = 10 ]
}

@test "a predicate belongs to its trace: another trace's records are not filtered" {
	server
	ctl trace 'done' new d
	ctl trace d on
	pred 'arg1 == 65536'
	fx "$X/fx_io" 3
	ran 3
	records
	# done(fd, sum) has two arguments: the other two are whatever the registers held
	run awk '$1 == "E" { print $1, $2, $3, $4, $5; next } { print }' "$T/recs"
	assert_output - <<EOF
E $P io 3 65536
X $P io 131072
E $P done 3 157656
X $P done 157656
EOF
	[ "$(counter filtered)" = 10 ]
}

@test "#filtered counts exactly what the watch list and the predicate drop" {
	server
	spawn a "$X/fx_io" 3
	spawn b "$X/fx_io" 4
	ctl watch "$a"
	pred 'arg1 >= 4096'
	go
	records
	run cat "$T/recs"
	assert_output "$(all "$a" 3 | tail -6)"
	# a's 3 calls, 6 hits, by the predicate.  b's calls are not hits at all: a process
	# the watch list leaves out keeps its sites off (rt/apply.c, watched()),
	# so they are not counted (whereas rt/hook.c does count the hits of a
	# left-out thread of a watched process)
	[ "$(counter filtered)" = 6 ]
	[ "$(counter hits)" = 6 ]
	[ "$(counter read)" = 6 ]
	[ "$(counter queued)" = 0 ]
	[ "$(counter lost)" = 0 ]
	# a hit of a trace that is off is not counted at all
	ctl watch 0
	ctl trace io off
	fx "$X/fx_io" 3
	ran 3
	[ "$(counter filtered)" = 6 ]
	# nor a hit before start
	ctl trace io on
	ctl stop
	fx "$X/fx_io" 3
	ran 3
	[ "$(counter filtered)" = 6 ]
	[ "$(counter hits)" = 6 ]
	# and on again: 6 more by the predicate
	ctl start
	fx "$X/fx_io" 3
	ran 3
	[ "$(counter filtered)" = 12 ]
	[ "$(counter hits)" = 12 ]
}

@test "tid, ppid, uid, depth and cpu" {
	server
	u=$(id -u)
	# spawn's process is a child of this shell
	spawn p "$X/fx_io" 3
	pred "tid == pid && ppid == $BASHPID && uid == $u && depth == 0"
	go
	records
	run cat "$T/recs"
	assert_output "$(all "$p" 3)"
	spawn p "$X/fx_io" 3
	pred "ppid != $BASHPID || uid != $u"
	go
	records
	run cat "$T/recs"
	assert_output ""
	# depth counts the traced frames below: with main traced, io is at 1
	ctl trace main new m
	ctl trace m on
	pred 'depth == 1'
	fx "$X/fx_io" 3
	ran 3
	records
	run grep -c ' io ' "$T/recs"
	assert_output 12
	ctl trace m remove
	# cpu: pinned to the last CPU this test may use
	c=$(awk '/^Cpus_allowed_list/ { n = split($2, a, /[-,]/); print a[n] }' /proc/self/status)
	pred "cpu == $c"
	taskset -c "$c" devtrace run "$X/fx_io" 3 > "$T/out"
	ran 3
	records
	run cat "$T/recs"
	assert_output "$(all "$P" 3)"
	[ "$(counter filtered)" = 12 ]
}

@test "timestamp and pc" {
	server
	fx "$X/fx_io" 3
	records
	t=$(awk '{ print $3 }' "$T/raw" | sort | tail -1)
	# later hits have later timestamps (the record's ticks)
	pred "timestamp > 0x$t"
	fx "$X/fx_io" 3
	ran 3
	records
	run cat "$T/recs"
	assert_output "$(all "$P" 3)"
	pred "timestamp <= 0x$t"
	fx "$X/fx_io" 3
	records
	run cat "$T/recs"
	assert_output ""
	# pc: the function's entry, on E and X; without address randomisation it is the same every run
	setarch -R true 2>/dev/null || skip "setarch -R not allowed here"
	pred
	setarch -R devtrace run "$X/fx_io" 3 > "$T/out"
	records
	pc=$(awk 'NR == 1 { print $2 }' "$T/raw")
	[ "$(awk -v pc="$pc" '$2 "" == pc' "$T/raw" | wc -l)" = 12 ]
	pred "pc == 0x$pc"
	setarch -R devtrace run "$X/fx_io" 3 > "$T/out"
	ran 3
	records
	run cat "$T/recs"
	assert_output "$(all "$P" 3)"
	pred "pc != 0x$pc"
	setarch -R devtrace run "$X/fx_io" 3 > "$T/out"
	records
	run cat "$T/recs"
	assert_output ""
}
