#!/usr/bin/env bats
# The hooks' runtime on real programs: each test makes its own device
# (devshm, no FUSE) in $BATS_TEST_TMPDIR, traces a fixture built with
# bin/devtrace-cc through LD_PRELOAD, and checks its records exactly.
# The same tests run on another ISA's build (tests/arm64/rules.mk): the
# environment then names its runtime (LIB, a bare name found through
# LD_LIBRARY_PATH, so that the emulated programs and the host's programs
# they start each load their own), its compiler wrapper (CCWRAP), the
# devshm that serves (DEVSHM, the host's) and the one whose counter is
# the traced programs' (MAKER), how to run a program (RUN, an emulator),
# the ISA (ISA: arch/ISA/siteflags) and the disassembler (OBJDUMP).
load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
B=${B:-$ROOT/build}
H=$B/tests/hooks
LIB=${LIB:-$ROOT/lib/libdevtrace.so}
LIBFILE=${LIBFILE:-$LIB}
CCWRAP=${CCWRAP:-$ROOT/bin/devtrace-cc}
DEVSHM=${DEVSHM:-$H/devshm}
MAKER=${MAKER:-$DEVSHM}
RUN=${RUN:-}
OBJDUMP=${OBJDUMP:-objdump}
ISA=${ISA:-$(uname -m | sed 's/x86_64/amd64/; s/aarch64/arm64/')}
SITEFLAGS=$ROOT/arch/$ISA/siteflags
# the site's NOPs, as the compiler is told (-fpatchable-function-entry=N,0)
SLEDNOPS=$(sed -n 's/^gcc .*-fpatchable-function-entry=\([0-9]*\),.*/\1/p' "$SITEFLAGS")

setup() {
	export DEVTRACE_DIR=$BATS_TEST_TMPDIR/dev
	T=$BATS_TEST_TMPDIR
	"$DEVSHM" "$DEVTRACE_DIR" create
}

teardown() {
	"$DEVSHM" "$DEVTRACE_DIR" destroy
}

ctl() { "$DEVSHM" "$DEVTRACE_DIR" ctl "$@"; }
state() { "$DEVSHM" "$DEVTRACE_DIR" state; }
# shellcheck disable=SC2086 # RUN is a command and its arguments, or nothing
traced() { LD_PRELOAD=$LIB $RUN "$@"; }
# shellcheck disable=SC2086
untraced() { $RUN "$@"; }

# on GLOB...: a trace per pattern, each on, then start
on() {
	local i=0 g
	for g; do
		ctl trace "$g" new "t$i"
		ctl trace "t$i" on
		i=$((i + 1))
	done
	ctl start
}

# the records, as recs.awk prints them, in $T/recs
records() {
	"$DEVSHM" "$DEVTRACE_DIR" cat > "$T/raw"
	named
}
# $T/raw named into $T/recs
named() {
	"$DEVSHM" "$DEVTRACE_DIR" syms > "$T/syms"
	awk -f "$BATS_TEST_DIRNAME/recs.awk" "$T/syms" "$T/raw" > "$T/recs"
}

# n E|X NAME: how many such records
n() { awk -v k="$1" -v f="$2" '$2 == k && $3 == f' "$T/recs" | wc -l; }

nested() { awk -v skip="${1:-0}" -f "$BATS_TEST_DIRNAME/nest.awk" "$T/recs"; }

counter() { state | awk -v k="#$1" '$1 == k { print $2 }'; }

@test "devtrace-cc prints its flags and help" {
	run "$CCWRAP" --cflags
	assert_success
	assert_output --partial "-fpatchable-function-entry=$SLEDNOPS,0"
	assert_output --partial " -I$(cd "$(dirname "$CCWRAP")/../include" && pwd)"
	run "$CCWRAP" --classic --cflags
	assert_output "-finstrument-functions -I$(cd "$(dirname "$CCWRAP")/../include" && pwd)"
	DEVTRACE_MODE=classic run "$CCWRAP" --cflags
	assert_output "-finstrument-functions -I$(cd "$(dirname "$CCWRAP")/../include" && pwd)"
	# the include folder holds <devtrace/probe.h>
	run test -f "$(dirname "$CCWRAP")/../include/devtrace/probe.h"
	assert_success
	run "$CCWRAP" --help
	assert_success
	assert_output --partial "usage: devtrace-cc"
	DEVTRACE_MODE=bogus run "$CCWRAP" -c x.c
	assert_failure
}

@test "devtrace-cc --cflags --ldflags prints both on one line, the cflags first, as pkg-config does" {
	run "$CCWRAP" --cflags
	c=$output
	run "$CCWRAP" --ldflags
	l=$output
	assert_output --partial " -ldevtrace "
	run "$CCWRAP" --cflags --ldflags
	assert_success
	assert_output "$c $l"
	run "$CCWRAP" --ldflags --cflags
	assert_output "$c $l"
	run "$CCWRAP" --classic --cflags --ldflags
	assert_output "-finstrument-functions -I$(cd "$(dirname "$CCWRAP")/../include" && pwd) $l -Wl,-z,now"
}

@test "devtrace-cc --classic links the hooks bound at load (BIND_NOW): no first call times the dynamic linker's lookup of __cyg_profile_func_exit" {
	printf 'int main(void) { return 0; }\n' > "$T/m.c"
	run "$CCWRAP" --classic -O1 -o "$T/classic" "$T/m.c"
	assert_success
	run sh -c "readelf -d '$T/classic' | grep -c 'FLAGS.*NOW'"
	assert_output 2
	# a compile alone takes no linker flag (clang would warn of an unused one)
	run "$CCWRAP" --classic -O1 -Werror -c -o "$T/m.o" "$T/m.c"
	assert_success
	assert_output ""
}

@test "devtrace-cc refuses the user's -fpatchable-function-entry, naming its own, exit 2; --classic and the runtime's compile pass it" {
	printf 'int f(void) { return 1; }\n' > "$T/x.c"
	run "$CCWRAP" -O1 -fpatchable-function-entry=2 -c -o "$T/x.o" "$T/x.c"
	assert_failure 2
	assert_output "devtrace-cc: -fpatchable-function-entry=2: devtrace-cc adds its own, -fpatchable-function-entry=$SLEDNOPS,0, for the hook sites the runtime patches; the compiler keeps only one of the two, so leave yours out"
	run test -e "$T/x.o"
	assert_failure
	run "$CCWRAP" --classic -O1 -fpatchable-function-entry=2 -c -o "$T/x.o" "$T/x.c"
	assert_success
	run sh -c "readelf -W -S '$T/x.o' | grep -cw __patchable_function_entries"
	assert_output 1
	run "$CCWRAP" -DDEVTRACE_RUNTIME -O1 -fpatchable-function-entry=2 -c -o "$T/r.o" "$T/x.c"
	assert_success
}

@test "a build has its NOP sled (amd64: 7 bytes, arm64: 3 words) at every function entry; the runtime has none" {
	run readelf -W -S "$H/fx_basic"
	assert_output --partial "__patchable_function_entries"
	run sh -c "$OBJDUMP -d '$H/fx_basic' | grep -A$SLEDNOPS '<leaf>:' | grep -c 'nop$'"
	assert_output "$SLEDNOPS"
	run sh -c "readelf -S '$LIBFILE' | grep -c __patchable_function_entries"
	assert_output 0
	run sh -c "nm -D --undefined-only '$LIBFILE' | grep -c cyg_profile"
	assert_output 0
}

@test "arguments, return values and recursion, exactly" {
	on leaf fib scale vsum
	run traced "$H/fx_basic" 6
	assert_equal "$status" 7
	assert_output "$(printf 'leaf 1234\nfib 8\nscale 11.250\nvsum 10.875')"
	records
	run nested
	assert_output "nested, open 0"
	run grep -c . "$T/recs"
	assert_output 56
	grep -qx '[0-9]* E leaf 1 2 3 4' "$T/recs"
	grep -qx '[0-9]* X leaf 1234' "$T/recs"
	# fib(6) makes 25 calls: fib(6) once, fib(5) once, fib(4) twice, ... fib(1) 8, fib(0) 5 times
	run sh -c "awk '\$2 == \"E\" && \$3 == \"fib\" { print \$4 }' '$T/recs' | sort -n | uniq -c | awk '{ printf \"%s:%s \", \$2, \$1 }'"
	assert_output "0:5 1:8 2:5 3:3 4:2 5:1 6:1 "
	assert_equal "$(n X fib)" 25
	# the outermost fib returns last, with 8
	run sh -c "awk '\$3 == \"fib\"' '$T/recs' | tail -1"
	assert_output --regexp ' X fib 8$'
	# integer arguments: k in rdi for scale, n for vsum
	grep -qx '[0-9]* E scale 3 .*' "$T/recs"
	grep -qx '[0-9]* E vsum 4 .*' "$T/recs"
	assert_equal "$(n X scale)" 1
}

@test "records carry the process's pid and the function's entry address" {
	on leaf
	traced "$H/fx_basic" 3 > "$T/out" || true
	records
	pc=$(awk '$1 == "E" { print $2 }' "$T/raw")
	run grep -c "^$pc leaf " "$T/syms"
	assert_output 1
	run awk 'NR == 1 { print length($0) + 1, NF }' "$T/raw"
	assert_output "121 8"
}

@test "tail calls (f and g end in a jump): every frame of the shared slot gets its X" {
	run sh -c "$OBJDUMP -d --no-show-raw-insn '$H/fx_tail' | awk '/<f>:/,/^\$/' | grep -cE '[[:space:]](jmp|b)[[:space:]].*<g>'"
	assert_output 1
	run sh -c "$OBJDUMP -d --no-show-raw-insn '$H/fx_tail' | awk '/<g>:/,/^\$/' | grep -cE '[[:space:]](jmp|b)[[:space:]].*<h>'"
	assert_output 1
	on f g h
	run traced "$H/fx_tail"
	assert_success
	assert_output "$(printf 'f 21\ng 33')"
	records
	run sh -c "awk '{ print \$2, \$3, \$4 }' '$T/recs'"
	assert_output "$(printf '%s\n' 'E f 5' 'E g 6' 'E h 7' 'X h 21' 'X g 21' 'X f 21' 'E g 10' 'E h 11' 'X h 33' 'X g 33')"
}

@test "threads made and gone while traced: each its own nesting and counts" {
	on work inner
	run traced "$H/fx_threads"
	assert_success
	assert_output "total 1810200"
	records
	run nested
	assert_output "nested, open 0"
	assert_equal "$(n E work)" 400
	assert_equal "$(n X work)" 400
	assert_equal "$(n E inner)" 400
	assert_equal "$(n X inner)" 400
	# eight threads, each with its own t (work's first argument) and 50 calls
	run sh -c "awk '\$2 == \"E\" && \$3 == \"work\" { print \$1, \$4 }' '$T/recs' | sort -u | wc -l"
	assert_output 8
	run sh -c "awk '\$2 == \"E\" && \$3 == \"work\" { print \$4 }' '$T/recs' | sort -n | uniq -c | awk '{ print \$1 }' | sort -u"
	assert_output 50
	assert_equal "$(counter reentered)" 0
}

@test "signal handlers run traced functions, on the thread's stack and on an alternate stack" {
	on outer onsig handled
	run traced "$H/fx_signal"
	assert_success
	assert_output "$(printf 'outer 3\nouter 2\ngot 108')"
	records
	run nested
	assert_output "nested, open 0"
	# onsig returns void: its X carries whatever rax held
	run sh -c "awk '{ print \$2, \$3, (\$2 \$3 == \"Xonsig\" ? \"-\" : \$4) }' '$T/recs' | tr '\n' ,"
	s1='E onsig 10,E handled 10,X handled 20,X onsig -,'
	s2='E onsig 12,E handled 12,X handled 24,X onsig -,'
	assert_output "E outer 10,$s1$s1${s1}X outer 3,E outer 12,$s2${s2}X outer 2,"
}

@test "longjmp and siglongjmp: skipped frames are dropped, the program goes on, the shadow stack does not fill" {
	on a b c 'done' main
	DEVTRACE_SHADOW=16 run traced "$H/fx_jmp" 100
	assert_success
	assert_output "jumps 200 done 200"
	records
	assert_equal "$(n E a)" 200
	assert_equal "$(n E b)" 200
	assert_equal "$(n E c)" 200
	assert_equal "$(n X a)" 0
	assert_equal "$(n X b)" 0
	assert_equal "$(n X c)" 0
	grep -qx '[0-9]* X done 200' "$T/recs"
	grep -qx '[0-9]* X main 0' "$T/recs"
	run nested 1
	assert_output "nested, open 0"
	assert_equal "$(counter deep)" 0
}

@test "fork: the child runs on, its records carry its own pid" {
	on f
	run traced "$H/fx_fork"
	assert_success
	parent=$(echo "$output" | awk '$1 == "parent" { print $2 }')
	child=$(echo "$output" | awk '$1 == "child" { print $2 }')
	assert_output "$(printf 'parent %s f 10\nchild %s f 20\nstatus 3 f 30' "$parent" "$child")"
	records
	run sh -c "awk '{ print \$1, \$2, \$3, \$4 }' '$T/recs' | sort"
	assert_output "$(printf '%s\n' "$parent E f 1" "$parent E f 3" "$parent X f 10" "$parent X f 30" "$child E f 2" "$child X f 20" | sort)"
}

@test "exec: the new image attaches again" {
	# an emulated program's exec is the kernel's: it needs binfmt_misc to run the new image
	[ -z "$RUN" ] || "$H/fx_tick" 0 > /dev/null 2>&1 || skip "the kernel cannot exec $ISA programs (no binfmt_misc entry): exec untested here"
	on before after
	run traced "$H/fx_exec"
	assert_equal "$status" 5
	assert_output "$(printf 'before 101\nafter 202')"
	records
	run sh -c "awk '{ print \$2, \$3, \$4 }' '$T/recs'"
	assert_output "$(printf 'E before 1\nX before 101\nE after 2\nX after 202')"
	run sh -c "awk '{ print \$1 }' '$T/recs' | sort -u | wc -l"
	assert_output 1
}

@test "dlopen: an instrumented object loaded later, by a name found in the caller's RUNPATH" {
	on libfn libinner mainfn
	run traced "$H/fx_dl"
	assert_success
	assert_output "$(printf 'libfn 42 mainfn 5\nlibfn 44 mainfn 6')"
	records
	run nested
	assert_output "nested, open 0"
	run sh -c "awk '\$3 ~ /^lib/ { print \$2, \$3, \$4 }' '$T/recs'"
	assert_output "$(printf '%s\n' 'E libfn 20' 'E libinner 20' 'X libinner 21' 'X libfn 42' 'E libfn 21' 'E libinner 21' 'X libinner 22' 'X libfn 44')"
	assert_equal "$(n X mainfn)" 2
	grep -q " libfn .*/libfx.so$" "$T/syms"
}

@test "dlopen without the runtime finds the library the same way" {
	run untraced "$H/fx_dl"
	assert_success
	assert_output "$(printf 'libfn 42 mainfn 5\nlibfn 44 mainfn 6')"
}

@test "a trace turned off mid-call: the redirected return still returns" {
	on slow quick
	run traced "$H/fx_off" "$DEVSHM $DEVTRACE_DIR ctl trace t0 off"
	assert_success
	assert_output "$(printf 'quick 2\nslow 42\nquick 4')"
	records
	run sh -c "awk '{ print \$2, \$3, \$4 }' '$T/recs'"
	assert_output "$(printf 'E quick 1\nX quick 2\nE slow 41\nE quick 2\nX quick 4')"
}

@test "tracing stopped mid-call: no more records, the return still returns" {
	on slow quick
	run traced "$H/fx_off" "$DEVSHM $DEVTRACE_DIR ctl stop"
	assert_success
	assert_output "$(printf 'quick 2\nslow 42\nquick 4')"
	records
	run sh -c "awk '{ print \$2, \$3, \$4 }' '$T/recs'"
	assert_output "$(printf 'E quick 1\nX quick 2\nE slow 41')"
}

@test "the server goes away mid-call: sites off, the return still returns" {
	on slow quick
	run traced "$H/fx_off" "$DEVSHM $DEVTRACE_DIR stop"
	assert_success
	assert_output "$(printf 'quick 2\nslow 42\nquick 4')"
	records
	run sh -c "awk '{ print \$2, \$3, \$4 }' '$T/recs'"
	assert_output "$(printf 'E quick 1\nX quick 2\nE slow 41')"
}

@test "the server restarts: the process attaches to the new device" {
	on tick
	traced "$H/fx_tick" 100 > "$T/out" &
	pid=$!
	sleep 0.5
	"$DEVSHM" "$DEVTRACE_DIR" destroy
	"$DEVSHM" "$DEVTRACE_DIR" create
	on tick
	wait $pid
	run cat "$T/out"
	assert_output "ticks 4950"
	records
	# the new device has the later ticks, in order, each with its X
	run nested
	assert_output "nested, open 0"
	[ "$(n E tick)" -gt 10 ]
	[ "$(n E tick)" -lt 90 ]
	run sh -c "awk '\$2 == \"E\" { print \$4 }' '$T/recs' | tail -1"
	assert_output 99
}

@test "the device's #hz (shmhz) turns the records' ticks into time" {
	# made by a devshm whose counter is the traced program's: under emulation, the emulated one
	"$DEVSHM" "$DEVTRACE_DIR" destroy
	# shellcheck disable=SC2086 # MAKER may be an emulator and a program
	$MAKER "$DEVTRACE_DIR" create
	on tick
	t0=$(date +%s%N)
	run traced "$H/fx_tick" 11
	t1=$(date +%s%N)
	assert_output "ticks 55"
	"$DEVSHM" "$DEVTRACE_DIR" cat > "$T/raw"
	run sh -c "awk '\$1 == \"E\"' '$T/raw' | wc -l"
	assert_output 11
	first=$(awk '$1 == "E" { print $3; exit }' "$T/raw")
	last=$(awk '$1 == "E" { t = $3 } END { print t }' "$T/raw")
	# ten sleeps of 20 ms lie between the first tick and the last, and the whole run took longer
	run awk -v d=$((16#$last - 16#$first)) -v hz="$(counter hz)" -v wall=$(((t1 - t0) / 1000)) \
		'BEGIN { us = d * 1e6 / hz; print (us >= 198000 && us <= wall) ? "ok" : "us " us " wall " wall }'
	assert_output ok
}

@test "a full shadow stack: deeper frames are not followed, and counted" {
	on deep
	DEVTRACE_SHADOW=50 run traced "$H/fx_deep" 200
	assert_success
	assert_output "deep 20100"
	records
	assert_equal "$(n E deep)" 50
	assert_equal "$(n X deep)" 50
	assert_equal "$(counter deep)" 151
	run nested
	assert_output "nested, open 0"
	# 201 calls, deep(200) .. deep(0): the outermost 50 followed, deep(200) .. deep(151); deep(151) returns 151*152/2
	run sh -c "awk '\$2 == \"E\" { print \$4 }' '$T/recs' | sed -n '1p;50p'"
	assert_output "$(printf '200\n151')"
	grep -qx '[0-9]* X deep 11476' "$T/recs"
	grep -qx '[0-9]* X deep 20100' "$T/recs"
}

@test "a call its predicate rejects at entry is not followed: no shadow frame" {
	ctl trace deep new t0
	ctl trace t0 pred '/arg0 > 0 && arg0 < 100/'	# reads arguments only: the entry decides the whole call
	ctl trace t0 on
	ctl start
	DEVTRACE_SHADOW=50 run traced "$H/fx_deep" 200
	assert_output "deep 20100"
	records
	# deep(200) .. deep(100) and deep(0) rejected whole at entry, so deep(99) .. deep(50)
	# fill the 50 frames and only deep(49) .. deep(1) find the stack full
	assert_equal "$(counter deep)" 49
	assert_equal "$(n E deep)" 50
	assert_equal "$(n X deep)" 50
	run sh -c "awk '\$2 == \"E\" { print \$4 }' '$T/recs' | sed -n '1p;50p'"
	assert_output "$(printf '99\n50')"
	# 2 per call rejected at entry (102 calls); the 50 followed keep their exits
	assert_equal "$(counter filtered)" 204
}

@test "a predicate that reads retval follows every call to its exit" {
	ctl trace deep new t0
	ctl trace t0 pred '/retval < 0/'
	ctl trace t0 on
	ctl start
	DEVTRACE_SHADOW=50 run traced "$H/fx_deep" 200
	assert_output "deep 20100"
	records
	assert_equal "$(counter deep)" 151
	assert_equal "$(n E deep)" 0
	assert_equal "$(n X deep)" 0
	# every entry (201) and the exits of the 50 followed
	assert_equal "$(counter filtered)" 251
}

@test "classic mode (-finstrument-functions): E and X with pc, no arguments" {
	on leaf fib
	run traced "$H/fx_classic" 6
	assert_equal "$status" 7
	assert_output "$(printf 'leaf 1234\nfib 8\nscale 11.250\nvsum 10.875')"
	records
	run nested
	assert_output "nested, open 0"
	assert_equal "$(n E leaf)" 1
	assert_equal "$(n E fib)" 25
	assert_equal "$(n X fib)" 25
	grep -qx '[0-9]* E leaf 0 0 0 0' "$T/recs"
	grep -qx '[0-9]* X leaf 0' "$T/recs"
}

@test "a program linked with -ldevtrace attaches without LD_PRELOAD" {
	on leaf
	run untraced "$H/fx_linked" 3
	assert_equal "$status" 7
	records
	run sh -c "awk '{ print \$2, \$3, \$4 }' '$T/recs'"
	assert_output "$(printf 'E leaf 1\nX leaf 1234')"
}

@test "without a device, an instrumented program runs unchanged, preloaded or not" {
	"$DEVSHM" "$DEVTRACE_DIR" destroy
	for f in fx_basic fx_tail fx_signal fx_jmp fx_threads fx_fork fx_dl; do
		rc1=0 rc2=0
		untraced "$H/$f" > "$T/plain" 2>&1 || rc1=$?
		traced "$H/$f" > "$T/pre" 2>&1 || rc2=$?
		[ $rc1 = $rc2 ] || fail "$f: exit $rc1 untraced, $rc2 preloaded"
		sed 's/[0-9][0-9]* f /PID f /' "$T/plain" > "$T/a"
		sed 's/[0-9][0-9]* f /PID f /' "$T/pre" > "$T/b"
		cmp "$T/a" "$T/b" || fail "$f: output differs"
	done
	"$DEVSHM" "$DEVTRACE_DIR" create
}

@test "traced with every function on, output and exit status are byte-identical" {
	on '*'
	for f in "fx_basic 9" fx_tail fx_signal "fx_jmp 50" fx_threads fx_dl "fx_deep 300" fx_classic; do
		rc1=0 rc2=0
		# $f is a program and its arguments: split on purpose
		# shellcheck disable=SC2086
		untraced $H/$f > "$T/plain" 2>&1 || rc1=$?
		# shellcheck disable=SC2086
		traced $H/$f > "$T/traced" 2>&1 || rc2=$?
		[ $rc1 = $rc2 ] || fail "$f: exit $rc1 untraced, $rc2 traced"
		cmp "$T/plain" "$T/traced" || fail "$f: output differs"
	done
	records
	[ "$(wc -l < "$T/recs")" -gt 1000 ]
	run nested 1
	assert_success
}

@test "the reader rule: a process reading trace is not traced" {
	on leaf fib
	# shellcheck disable=SC2086
	run "$DEVSHM" "$DEVTRACE_DIR" reader env LD_PRELOAD="$LIB" $RUN "$H/fx_basic" 4
	assert_equal "$status" 7
	records
	run wc -l < "$T/recs"
	assert_output 0
}

@test "watch: only the named process is traced" {
	ctl watch 1
	on tick
	# simple commands, so that $! is the program's pid
	# shellcheck disable=SC2086
	LD_PRELOAD=$LIB $RUN "$H/fx_tick" 60 > /dev/null &
	p1=$!
	# shellcheck disable=SC2086
	LD_PRELOAD=$LIB $RUN "$H/fx_tick" 60 > /dev/null &
	p2=$!
	sleep 0.3
	ctl watch "$p1"
	wait $p1 $p2
	records
	[ "$(n E tick)" -gt 10 ]
	run sh -c "awk '{ print \$1 }' '$T/recs' | sort -u"
	assert_output "$p1"
}

@test "names: a glob, and a range of the addresses nm prints" {
	ctl trace 'fi?' new g
	ctl trace g on
	start=$(nm "$H/fx_basic" | awk '$3 == "leaf" { print $1 }')
	end=$(printf '%x' $((0x$start + 1)))
	ctl trace "$start" "$end" new r
	ctl trace r on
	ctl start
	traced "$H/fx_basic" 2 > /dev/null || true
	records
	assert_equal "$(n E fib)" 3
	assert_equal "$(n E leaf)" 1
	assert_equal "$(n E scale)" 0
}

@test "the symbol file: one line per function, pc name object" {
	on leaf
	traced "$H/fx_basic" 2 > /dev/null || true
	"$DEVSHM" "$DEVTRACE_DIR" syms > "$T/syms"
	run grep -cvE '^[0-9a-f]{16} [^ ]+ /.+$' "$T/syms"
	assert_output 0
	run grep -c " leaf $H/fx_basic\$" "$T/syms"
	assert_output 1
}

# the record's pc is the symbol's address: a 1-byte range at nm's address selects it
@test "a landing pad (amd64: endbr64, arm64: bti c) before the sled: records carry the symbol's address" {
	run sh -c "$OBJDUMP -d '$H/fx_cet' | grep -A1 '<leaf>:' | grep -cE 'endbr64|bti[[:space:]]+c'"
	assert_output 1
	start=$(nm "$H/fx_cet" | awk '$3 == "leaf" { print $1 }')
	ctl trace "$start" "$(printf '%x' $((0x$start + 1)))" new r
	ctl trace r on
	ctl trace fib new f
	ctl trace f on
	ctl start
	run traced "$H/fx_cet" 6
	assert_equal "$status" 7
	assert_output "$(printf 'leaf 1234\nfib 8\nscale 11.250\nvsum 10.875')"
	records
	run sh -c "awk '\$3 == \"leaf\" { print \$2, \$3, \$4 }' '$T/recs'"
	assert_output "$(printf 'E leaf 1\nX leaf 1234')"
	assert_equal "$(n E fib)" 25
	assert_equal "$(n X fib)" 25
}

@test "a Clang build (amd64: one 7-byte nopl per sled) is traced alike" {
	[ -x "$H/fx_clang" ] || skip "no clang"
	on leaf fib
	run traced "$H/fx_clang" 6
	assert_equal "$status" 7
	assert_output "$(printf 'leaf 1234\nfib 8\nscale 11.250\nvsum 10.875')"
	records
	run nested
	assert_output "nested, open 0"
	grep -qx '[0-9]* E leaf 1 2 3 4' "$T/recs"
	grep -qx '[0-9]* X leaf 1234' "$T/recs"
	assert_equal "$(n E fib)" 25
}

# storm N [jump]: fx_storm under a 20us timer; $sigs, $jumps from its stderr.
# N is STORM, 100000 unless the environment says.  The slower the program
# runs (under emulation), the more signals it takes and the more records
# it writes: so the ring is read while it runs, under policy block, and
# nothing is lost however slow the machine (a full ring's writer waits).
STORM=${STORM:-100000}
storm() {
	"$DEVSHM" "$DEVTRACE_DIR" destroy
	"$DEVSHM" "$DEVTRACE_DIR" create 20
	ctl size 20
	ctl policy block 10000
	on inh leaf work
	: > "$T/raw"
	(while [ ! -e "$T/done" ]; do "$DEVSHM" "$DEVTRACE_DIR" cat >> "$T/raw"; sleep 0.01; done) &
	traced "$H/fx_storm" "$@" > "$T/out" 2> "$T/err"
	touch "$T/done"
	wait
	"$DEVSHM" "$DEVTRACE_DIR" cat >> "$T/raw"
	sigs=$(awk '{ print $2 }' "$T/err")
	jumps=$(awk '{ print $4 }' "$T/err")
	named
}

@test "a signal storm: handlers that land inside the runtime are skipped and counted, nothing else changes" {
	storm "$STORM"
	run cat "$T/out"
	assert_output "sums right"
	[ "$sigs" -gt 100 ]
	assert_equal "$(counter lost)" 0
	assert_equal "$(n E work)" "$STORM"
	assert_equal "$(n X work)" "$STORM"
	assert_equal "$(n E leaf)" $((2 * STORM))
	assert_equal "$(n X leaf)" $((2 * STORM))
	# every signal's inh() was recorded, or skipped and counted as re-entered
	assert_equal $(( $(n E inh) + $(counter reentered) )) "$sigs"
	assert_equal "$(n X inh)" "$(n E inh)"
	run nested
	assert_output "nested, open 0"
}

@test "a signal storm whose handler siglongjmps out, from inside hooks too: tracing goes on" {
	storm "$STORM" jump
	run cat "$T/out"
	assert_output "sums right"
	[ "$jumps" -gt 10 ]
	assert_equal $(( $(n E inh) + $(counter reentered) )) "$sigs"
	# each iteration not cut short before work's hook was recorded: the thread never stays marked inside
	[ "$(n E work)" -ge $((STORM - jumps)) ]
	assert_equal "$(counter deep)" 0
	run nested 1
	assert_success
}

@test "text stays write-protected: no writable code mapping while sites are on" {
	[ -z "$RUN" ] || skip "under emulation /proc/PID/maps shows the emulator's mappings (its code buffer is rwx), not the program's"
	on tick
	traced "$H/fx_tick" 1000 > /dev/null &	# 20 s at most: killed below, however slow the machine
	pid=$!
	sleep 0.4
	run awk '$2 ~ /w/ && $2 ~ /x/' /proc/$pid/maps
	kill $pid
	assert_output ""
	records
	[ "$(n E tick)" -gt 0 ]
}

@test "every argument and return register survives a thread's first hook and its later ones" {
	on swap both wide
	run traced "$H/fx_wide"
	assert_success
	assert_output "$(for t in main thread; do printf '%s\n' "$t 0 swap 4.50 4.50 both 13 7 wide 445.00" \
		"$t 1 swap 4.50 7.50 both 14 8 wide 467.00" "$t 2 swap 4.50 10.50 both 15 9 wide 489.00"; done)"
	records
	assert_equal "$(n E swap)" 6
	assert_equal "$(n X swap)" 6
	assert_equal "$(n E both)" 6
	assert_equal "$(n X both)" 6
	assert_equal "$(n E wide)" 6
	assert_equal "$(n X wide)" 6
	run grep -c ' E wide 1 2 3 4$' "$T/recs"
	assert_output 6
	# the first of two general return registers, as the X record carries it
	run sh -c "awk '\$2 == \"X\" && \$3 == \"both\" { print \$4 }' '$T/recs' | sort | uniq -c | awk '{ printf \"%s:%s \", \$2, \$1 }'"
	assert_output "13:2 14:2 15:2 "
}

# a probe's records: "P name a0 a1 a2 a3", in order
probes() { awk '$2 == "P" { $1 = ""; print substr($0, 2) }' "$T/recs"; }

@test "static probes: one P record per hit with its four values, exactly, between its function's E and X" {
	on push 'probe:*'
	run traced "$H/fx_probe" 10
	assert_output "queue 0 2"
	records
	assert_equal "$(grep -c . "$T/recs")" 31
	assert_equal "$(n P probe:pushed)" 8
	assert_equal "$(n P probe:queue_full)" 2
	assert_equal "$(n P probe:done)" 1
	run probes
	assert_output "$(printf '%s\n' 'P probe:pushed 0 1 0 0' 'P probe:pushed 1 2 3 0xffffffffffffffff' \
		'P probe:pushed 2 3 6 0xfffffffffffffffe' 'P probe:pushed 3 4 9 0xfffffffffffffffd' \
		'P probe:queue_full 4 4 1 0' 'P probe:pushed 5 1 15 0xfffffffffffffffb' \
		'P probe:pushed 6 2 18 0xfffffffffffffffa' 'P probe:pushed 7 3 21 0xfffffffffffffff9' \
		'P probe:pushed 8 4 24 0xfffffffffffffff8' 'P probe:queue_full 9 4 2 0' 'P probe:done 0 0 0 0')"
	# each probe inside its push: E push, P, X push
	run sh -c "awk '\$3 != \"probe:done\" { printf \"%s \", \$2 }' '$T/recs'"
	assert_output "$(for i in 1 2 3 4 5 6 7 8 9 10; do printf 'E P X '; done)"
}

@test "static probes: one selected by its name, the others off; none selected, no record and the same output" {
	on probe:queue_full
	run traced "$H/fx_probe" 10
	assert_output "queue 0 2"
	records
	run cat "$T/recs"
	assert_output --regexp "^[0-9]+ P probe:queue_full 4 4 1 0
[0-9]+ P probe:queue_full 9 4 2 0$"
	"$DEVSHM" "$DEVTRACE_DIR" destroy
	"$DEVSHM" "$DEVTRACE_DIR" create
	on push
	run traced "$H/fx_probe" 10
	assert_output "queue 0 2"
	records
	assert_equal "$(n E push)" 10
	assert_equal "$(grep -c ' P ' "$T/recs")" 0
	run grep -c 'probe:' "$T/syms"
	assert_output 3
}

@test "static probes: a predicate on a probe's value" {
	ctl trace probe:pushed new t0
	ctl trace t0 pred '/arg1 == 4 && arg3 != 0/'
	ctl trace t0 on
	ctl start
	run traced "$H/fx_probe" 10
	assert_output "queue 0 2"
	records
	run probes
	assert_output "$(printf '%s\n' 'P probe:pushed 3 4 9 0xfffffffffffffffd' 'P probe:pushed 8 4 24 0xfffffffffffffff8')"
	assert_equal "$(counter filtered)" 6
}

@test "static probes: aggregations on a probe's values" {
	ctl trace probe:pushed new t0
	ctl agg t0 entry '@n[arg1] = count()'
	ctl agg t0 entry '@s = sum(arg2)'
	ctl trace t0 on
	ctl start
	run traced "$H/fx_probe" 10
	assert_output "queue 0 2"
	run "$DEVSHM" "$DEVTRACE_DIR" aggs
	assert_output "$(printf '%s\n' '@n[arg1] = count()' '  1  2' '  2  2' '  3  2' '  4  2' '' '@s = sum(arg2)' '          96')"
}
