#!/usr/bin/env bats
# devtrace record -o FILE saves the records, binary, from the shared
# memory; devtrace cat FILE prints them as the lines reading trace gives.
# With -t, from a session of its own beside the top level's trace, under
# policy block unless -P says otherwise.
# shellcheck disable=SC2154 # stderr and stderr_lines: set by run --separate-stderr
load helper

setup_file() {
	[ -e "$ROOT/lib/libdevtrace.so" ] || return 0
	"$ROOT/bin/devtrace-cc" -O0 -g -o "$BATS_FILE_TMPDIR/fl_loop" "$BATS_TEST_DIRNAME/fl_loop.c"
	"$ROOT/bin/devtrace-cc" -O0 -g -pthread -o "$BATS_FILE_TMPDIR/fl_threads" "$BATS_TEST_DIRNAME/fl_threads.c"
}

needlib() {
	[ -e "$ROOT/lib/libdevtrace.so" ] || skip "needs lib/libdevtrace.so"
}

# a trace over 1000..2000, on, the device started
traced() {
	start
	ctl trace 1000 2000 new t
	ctl trace t on
	ctl start
}

# devtrace record -o FILE until SIGINT, sent once it reads: what was queued
# is saved; its standard error in FILE.err, its exit status the function's
recordqueued() {
	local r st=0
	devtrace record -o "$1" 2> "$1.err" 3>&- &
	r=$!
	BGPIDS="$BGPIDS $r"
	waitfor grep -qx "#reader $r" "$D/tracectl"
	kill -INT $r
	wait $r || st=$?
	return $st
}

# the same records, injected by this shell: its pid is each record's
inject() {
	ctl testtracein 1234 1 2 3 4
	ctl testtracein 1fff ffffffffffffffff 0 8000000000000000 a5a5a5a5a5a5a5a5
	ctl testtracein 1000 0 0 0 0
}

# devtrace cat FILE's records: its lines after #hz and #clock (checked
# apart), the marks of waits (W) left out (savedline counts them)
catrecs() {
	devtrace cat "$1" > "$BATS_TEST_TMPDIR/catrecs" || return
	tail -n +3 "$BATS_TEST_TMPDIR/catrecs" | awk '$1 != "W"'
}

# what record says of FILE holding N records of calls, LOST lost (0 if
# not given): its waits' marks (W, policy block: as many as the reader
# made the program wait) are records saved too
savedline() {
	echo "devtrace record: $(($2 + $(marks <(devtrace cat "$1")))) records saved, ${3:-0} lost"
}

# the length of a file's header text (the u64 at 24)
textlen() {
	od -A n -t u8 -j 24 -N 8 "$1" | tr -d ' '
}

# the file in its order, decoded by od and gawk's bignums, not by devtrace:
# after the 32-byte header and its text, chunks: source, count and length, 4
# bytes each, then count packed records (capfile.h): a flags byte (kind E X P, 3:
# its varint follows: W is 3; 4 tid, 8 pc, 16 << i a[i]), then LEB128 varints,
# zigzag differences from the chunk's last pc, ticks and the kind's last
# a[i]; or the trailer's text (source fffffffe).  A line a record: its
# ticks, source + 1 (the shared ring's 0) and number, then the line cat
# prints; "trailer LINE" a line of the trailer's text
walkfile() {
	od -A n -v -t u1 -w1 -j $((32 + $(textlen "$1"))) "$1" | gawk -M '
		function u32(i) { return b[i] + b[i + 1] * 256 + b[i + 2] * 65536 + b[i + 3] * 16777216 }
		function v(x, s, c) { x = 0; s = 1; do { c = b[p++]; x += (c % 128) * s; s *= 128 } while (c >= 128); return x }
		function unzig(from, x, r) { r = (from + (x % 2 ? -(x + 1) / 2 : x / 2)) % 2^64; return r < 0 ? r + 2^64 : r }
		{ b[nb++] = $1 + 0 }
		END {
			for (p = 0; p < nb; ) {
				src = u32(p); cnt = u32(p + 4); len = u32(p + 8); p += 12
				if (src == 4294967294) {
					for (line = ""; len-- > 0; p++)
						if (b[p] == 10) { print "trailer " line; line = "" } else if (b[p] != 0) line = line sprintf("%c", b[p])
					continue
				}
				tid = pc = ticks = 0
				for (k = 0; k < 16; k++) last[int(k / 4), k % 4] = 0
				for (i = 0; i < cnt; i++) {
					f = b[p++]; kind = f % 4
					if (kind == 3) kind = v()
					if (int(f / 4) % 2) tid = v()
					if (int(f / 8) % 2) pc = unzig(pc, v())
					ticks = unzig(ticks, v())
					for (k = 0; k < 4; k++) if (int(f / (16 * 2^k)) % 2) last[f % 4, k] = unzig(last[f % 4, k], v())
					printf "%016x %08x %012d %s %016x %016x %016x %016x %016x %016x %016x\n", ticks, src == 4294967295 ? 0 : src + 1, ++n,
						substr("EXPW", kind + 1, 1), pc, ticks, tid, last[f % 4, 0], last[f % 4, 1], last[f % 4, 2], last[f % 4, 3]
				}
			}
		}'
}

# the file's records as cat's lines: merged by ticks, on a tie the shared
# ring's first, then the lower ring's, each source in its order
decode() {
	walkfile "$1" | grep -v '^trailer ' | sort -k1,1 -k2,2 -k3,3 | cut -d' ' -f4-
}

# a line without its ticks, the one field two injections do not share
noticks() {
	cut -c1-19,37- "$@"
}

@test "record then cat FILE: the lines cat trace gives for the same records, byte for byte" {
	traced
	inject
	cat "$D/trace" > "$BATS_TEST_TMPDIR/text"
	inject
	run recordqueued "$BATS_TEST_TMPDIR/f"
	assert_success
	run cat "$BATS_TEST_TMPDIR/f.err"
	assert_output "devtrace record: 3 records saved, 0 lost"
	catrecs "$BATS_TEST_TMPDIR/f" > "$BATS_TEST_TMPDIR/out"
	p=$(hex $$)
	run cat "$BATS_TEST_TMPDIR/out"
	assert_line --index 0 --regexp "^E 0000000000001234 [0-9a-f]{16} $p 0000000000000001 0000000000000002 0000000000000003 0000000000000004\$"
	assert_line --index 1 --regexp "^E 0000000000001fff [0-9a-f]{16} $p ffffffffffffffff 0000000000000000 8000000000000000 a5a5a5a5a5a5a5a5\$"
	assert_line --index 2 --regexp "^E 0000000000001000 [0-9a-f]{16} $p 0000000000000000 0000000000000000 0000000000000000 0000000000000000\$"
	run wc -c < "$BATS_TEST_TMPDIR/out"
	assert_output $((3 * 121))
	# the ticks too: the binary decoded by another formatter gives the same bytes
	run cmp "$BATS_TEST_TMPDIR/out" <(decode "$BATS_TEST_TMPDIR/f")
	assert_success
	run cmp <(noticks "$BATS_TEST_TMPDIR/out") <(noticks "$BATS_TEST_TMPDIR/text")
	assert_success
}

@test "the file: a 32-byte header (magic, version, record size, #hz, text length), its text, then chunks: source, count, length, packed records; the trailer" {
	traced
	inject
	run recordqueued "$BATS_TEST_TMPDIR/f"
	assert_success
	F=$BATS_TEST_TMPDIR/f
	t=$(textlen "$F")
	run head -c 8 "$F"
	assert_output devtrace
	run od -A n -t u4 -j 8 -N 8 "$F"
	assert_output --regexp '^ +4 +56$'
	run od -A n -t u8 -j 16 -N 8 "$F"
	assert_output --regexp "^ +$(counter hz)\$"
	assert_equal $((t % 8)) 0
	# the text: what the recording is, NUL-padded (no program: no pid, no command)
	run sh -c "tail -c +33 '$F' | head -c $t | tr -d '\\0'"
	assert_line --index 0 --regexp '^clock [0-9]+ [0-9]+$'
	assert_line --index 1 "host $(uname -n)"
	assert_line --index 2 "kernel $(uname -s) $(uname -r) $(uname -m)"
	assert_equal "${#lines[@]}" 3
	# testtracein has no writer of its own: the shared ring's chunk of 3, packed
	run od -A n -t u4 -j $((32 + t)) -N 12 "$F"
	assert_output --regexp '^ +4294967295 +3 +[0-9]+$'
	len=$(od -A n -t u4 -j $((32 + t + 8)) -N 4 "$F" | tr -d ' ')
	# the first record says all but its kind (0): flags 4|8|16|32|64|128, then its tid
	tid=$(devtrace cat "$F" | awk 'NR == 3 { print $4 }')
	tid=$((16#$tid))
	run od -A n -t u1 -j $((32 + t + 12)) -N 1 "$F"
	assert_output --regexp '^ +252$'
	v=$tid want=
	while [ "$v" -ge 128 ]; do want="$want $((v % 128 + 128))"; v=$((v / 128)); done
	run sh -c "od -A n -t u1 -j $((32 + t + 13)) -N $(($(wc -w <<< "$want") + 1)) '$F' | xargs"
	assert_output "$(xargs <<< "$want $v")"
	# 3 records: their flags, tid, pcs, ticks and args in fewer bytes than 3 x 56
	assert [ "$len" -lt $((3 * 56)) ]
	# the trailer: source fffffffe, n 0, its text's length, its text (no object: no symbol has these pcs);
	# the records' thread (the shell that wrote testtracein) and its process, named: no program, none is the recording's
	comm=$(cat "/proc/$tid/comm")
	run od -A n -t u4 -j $((32 + t + 12 + len)) -N 8 "$F"
	assert_output --regexp '^ +4294967294 +0$'
	run sh -c "tail -c +$((32 + t + 12 + len + 13)) '$F' | tr -d '\\0'"
	assert_line --index 0 --regexp '^end [0-9]+ [0-9]+$'
	assert_line --index 1 'lost 0'
	assert_line --index 2 "thread $tid $tid"
	assert_line --index 3 "process $tid $comm"
	assert_equal "${#lines[@]}" 4
}

@test "record -- prog: every record of a traced program, in order, counted exactly; the symbols beside" {
	needlib
	start
	ctl trace fl_work new w
	ctl trace w on
	ctl start
	run --separate-stderr devtrace record -o "$BATS_TEST_TMPDIR/f" -- "$BATS_FILE_TMPDIR/fl_loop" 3 500 - 0
	assert_success
	assert_output "3 1624750"
	assert_equal "$stderr" "$(savedline "$BATS_TEST_TMPDIR/f" 1000)"
	catrecs "$BATS_TEST_TMPDIR/f" > "$BATS_TEST_TMPDIR/out"
	wellformed "$BATS_TEST_TMPDIR/out"
	# E fl_work(3, i), then X returning 3000 + i, for i = 0..499
	run awk '{ i = int((NR - 1) / 2) }
		NR % 2 == 1 && ($1 != "E" || $5 != sprintf("%016x", 3) || $6 != sprintf("%016x", i)) { bad++ }
		NR % 2 == 0 && ($1 != "X" || $5 != sprintf("%016x", 3000 + i)) { bad++ }
		END { print NR, bad + 0 }' "$BATS_TEST_TMPDIR/out"
	assert_output "1000 0"
	run grep -cE "^[0-9a-f]+ fl_work $BATS_FILE_TMPDIR/fl_loop\$" "$BATS_TEST_TMPDIR/f.syms"
	assert_output 1
	# hits = read + queued + lost, and the reader is gone
	run grep -E '^#(hits|read|queued|lost|reader)' "$D/tracectl"
	assert_output - <<-'END'
	#hits 1000
	#read 1000
	#queued 0
	#lost 0
	END
}

@test "record without prog saves until SIGINT, then what is queued; it is a reader, not traced" {
	traced
	devtrace record -o "$BATS_TEST_TMPDIR/f" 2> "$BATS_TEST_TMPDIR/err" 3>&- &
	r=$!
	# shellcheck disable=SC2034 # read by teardown in helper.bash
	BGPIDS="$r"
	waitfor grep -qx "#reader $r" "$D/tracectl"
	for i in 1 2 3 4 5; do ctl testtracein 1500 "$i" 0 0 0; done
	kill -INT $r
	st=0
	wait $r || st=$?
	assert_equal "$st" 0
	run cat "$BATS_TEST_TMPDIR/err"
	assert_output "devtrace record: 5 records saved, 0 lost"
	run catrecs "$BATS_TEST_TMPDIR/f"
	assert_success
	assert_equal "${#lines[@]}" 5
	assert_line --index 4 --regexp "^E 0000000000001500 [0-9a-f]{16} $(hex $$) 0000000000000005 "
	run grep '^#reader' "$D/tracectl"
	assert_failure
}

# stopunlocked PID: reader PID stopped where it holds none of the device's
# lock: a reader stopped inside its read keeps the lock, and every control
# write after would wait Lockms for it, then fail (seen once, on a loaded CI)
stopunlocked() {
	for _ in $(seq 100); do
		kill -STOP "$1"
		grep -q '^#hits ' "$D/tracectl" 2>/dev/null && return 0
		kill -CONT "$1"
		sleep 0.01
	done
	echo "reader $1 never stopped outside the device's lock" >&2
	return 1
}

@test "records lost while record ran are counted exactly; those lost before it are not its; the counters balance" {
	traced
	ctl size 4
	for i in $(seq 20); do ctl testtracein 1000 "$(printf %x "$i")" 0 0 0; done
	run recordqueued "$BATS_TEST_TMPDIR/f0"
	assert_success
	run cat "$BATS_TEST_TMPDIR/f0.err"
	assert_output "devtrace record: 16 records saved, 0 lost"
	run catrecs "$BATS_TEST_TMPDIR/f0"
	assert_equal "${#lines[@]}" 16
	# the ring of 16 kept the last 16: 5..20
	assert_line --index 0 --regexp "^E 0000000000001000 [0-9a-f]{16} [0-9a-f]{16} 0000000000000005 "
	assert_line --index 15 --regexp "^E 0000000000001000 [0-9a-f]{16} [0-9a-f]{16} 0000000000000014 "
	# stopped while 25 are written into 16 slots: 9 lost on its watch (under ring, asked for: block is the default)
	devtrace record -P ring -o "$BATS_TEST_TMPDIR/f" 2> "$BATS_TEST_TMPDIR/err" 3>&- &
	r=$!
	# shellcheck disable=SC2034 # read by teardown in helper.bash
	BGPIDS="$r"
	waitfor grep -qx "#reader $r" "$D/tracectl"
	stopunlocked $r
	for i in $(seq 25); do ctl testtracein 1000 "$(printf %x "$i")" 0 0 0; done
	kill -CONT $r
	kill -INT $r
	st=0
	wait $r || st=$?
	assert_equal "$st" 0
	run cat "$BATS_TEST_TMPDIR/err"
	assert_output "devtrace record: 16 records saved, 9 lost"
	run catrecs "$BATS_TEST_TMPDIR/f"
	assert_equal "${#lines[@]}" 16
	assert_line --index 0 --regexp "^E 0000000000001000 [0-9a-f]{16} [0-9a-f]{16} 000000000000000a "
	run grep -E '^#(hits|read|queued|lost) ' "$D/tracectl"
	assert_output - <<-'END'
	#hits 45
	#read 32
	#queued 0
	#lost 13
	END
}

@test "record with the device's lock held by another process says the device is busy" {
	traced
	"$ROOT/build/tests/hooks/devshm" "$D" hold 3000 &
	# shellcheck disable=SC2034 # read by teardown in helper.bash
	BGPIDS=$!
	sleep 0.3
	run --separate-stderr timeout 5 devtrace record -o "$BATS_TEST_TMPDIR/f"
	assert_failure 1
	assert_equal "$stderr" "devtrace record: device busy: another process holds its lock"
}

# little-endian bytes: le N VALUE
le() {
	local i
	for ((i = 0; i < $1; i++)); do
		# shellcheck disable=SC2059 # the escape is the format
		printf "\\$(printf %03o $(( ($2 >> (8 * i)) & 255 )))"
	done
}

# one record of a capture file: pc and ticks, thread 77, an entry, no arguments
caprec() {
	le 8 "$1"; le 8 "$2"; le 4 77; le 4 0; le 8 0; le 8 0; le 8 0; le 8 0
}

@test "cat FILE merges the sources by ticks, a tie to the shared ring, then the lower ring, run after run" {
	F=$BATS_TEST_TMPDIR/f
	{
		printf devtrace; le 4 2; le 4 56; le 8 1000; le 8 0
		le 4 0; le 4 4; caprec 0x10 1; caprec 0x11 4; caprec 0x12 6; caprec 0x13 8
		le 4 1; le 4 5; caprec 0x20 2; caprec 0x21 4; caprec 0x22 5; caprec 0x23 7; caprec 0x24 8
		le 4 0xffffffff; le 4 1; caprec 0x30 4
	} > "$F"
	run devtrace cat "$F"
	assert_success
	assert_line --index 0 '#hz 1000'
	run awk 'NR > 1 { print substr($2, 15), substr($3, 16) }' <<< "$output"
	assert_output - <<-'END'
	10 1
	20 2
	30 4
	11 4
	21 4
	22 5
	12 6
	23 7
	13 8
	24 8
	END
}

@test "a file that is not a record, a truncated or a damaged one, is a clear error" {
	traced
	inject
	recordqueued "$BATS_TEST_TMPDIR/f"
	F=$BATS_TEST_TMPDIR
	t=$(textlen "$F/f")
	len=$(od -A n -t u4 -j $((32 + t + 8)) -N 4 "$F/f" | tr -d ' ')
	head -c $((32 + t + 12 + len - 1)) "$F/f" > "$F/short"
	run --separate-stderr devtrace cat "$F/short"
	assert_failure 1
	assert_equal "$stderr" "devtrace cat: $F/short: truncated: its last chunk has $((len - 1)) of its $len bytes"
	# the whole records before it are printed all the same, after #hz and #clock
	assert_equal "${#lines[@]}" 4
	assert_equal "$(tail -n +3 <<< "$output")" "$(catrecs "$F/f" | head -n 2)"
	# a chunk that says 4 records where its bytes hold 3, or 2 where they hold more
	for n in 4 2; do
		{ head -c $((32 + t + 4)) "$F/f"; le 4 $n; tail -c +$((32 + t + 9)) "$F/f"; } > "$F/bad$n"
	done
	run --separate-stderr devtrace cat "$F/bad4"
	assert_failure 1
	assert_equal "$stderr" "devtrace cat: $F/bad4: damaged: a chunk of 4 records in $len bytes at byte $((32 + t + 12)): 3 of them read"
	assert_equal "$(tail -n +3 <<< "$output")" "$(catrecs "$F/f")"
	run --separate-stderr devtrace cat "$F/bad2"
	assert_failure 1
	assert_equal "$stderr" "devtrace cat: $F/bad2: damaged: a chunk of 2 records in $len bytes at byte $((32 + t + 12)): 2 of them read"
	assert_equal "${#lines[@]}" 4
	head -c 20 "$F/f" > "$F/hdr"
	run --separate-stderr devtrace cat "$F/hdr"
	assert_failure 1
	assert_equal "$stderr" "devtrace cat: $F/hdr: not a file of devtrace record (no devtrace header)"
	run --separate-stderr devtrace cat "$F/f.syms"
	assert_failure 1
	assert_equal "$stderr" "devtrace cat: $F/f.syms: not a file of devtrace record (no devtrace header)"
	head -c $((32 + 8)) "$F/f" > "$F/text"
	run --separate-stderr devtrace cat "$F/text"
	assert_failure 1
	assert_equal "$stderr" "devtrace cat: $F/text: truncated: its header's text has 8 of its $t bytes"
	head -c $((32 + t + 4)) "$F/f" > "$F/chdr"
	run --separate-stderr devtrace cat "$F/chdr"
	assert_failure 1
	assert_equal "$stderr" "devtrace cat: $F/chdr: truncated: its last chunk header has 4 of its 12 bytes"
	head -c $((32 + t + 12 + len + 16)) "$F/f" > "$F/trailer"
	run --separate-stderr devtrace cat "$F/trailer"
	assert_failure 1
	assert_equal "$stderr" "devtrace cat: $F/trailer: truncated: its trailer has 4 of its $(od -A n -t u4 -j $((32 + t + 12 + len + 8)) -N 4 "$F/f" | tr -d ' ') bytes"
	assert_equal "${#lines[@]}" 5
	{ head -c 8 "$F/f"; printf '\005\0\0\0'; tail -c +13 "$F/f"; } > "$F/v5"
	run --separate-stderr devtrace cat "$F/v5"
	assert_failure 1
	assert_equal "$stderr" "devtrace cat: $F/v5: version 5 with records of 56 bytes: this devtrace reads versions 1 to 4, 56 bytes"
	# version 1: the records merged already, unpacked, no chunks, no text, no trailer
	{ printf devtrace; le 4 1; le 4 56; le 8 1000; le 8 0; caprec 0x10 1; caprec 0x11 3; caprec 0x12 2; } > "$F/v1"
	run devtrace cat "$F/v1"
	assert_success
	assert_output - <<-'END'
	#hz 1000
	E 0000000000000010 0000000000000001 000000000000004d 0000000000000000 0000000000000000 0000000000000000 0000000000000000
	E 0000000000000011 0000000000000003 000000000000004d 0000000000000000 0000000000000000 0000000000000000 0000000000000000
	E 0000000000000012 0000000000000002 000000000000004d 0000000000000000 0000000000000000 0000000000000000 0000000000000000
	END
	run --separate-stderr devtrace cat "$F/none"
	assert_failure 1
	assert_equal "$stderr" "devtrace cat: $F/none: No such file or directory"
	head -c $((32 + t)) "$F/f" > "$F/empty"
	run --separate-stderr devtrace cat "$F/empty"
	assert_success
	assert_equal "${#lines[@]}" 2
}

@test "record's usage: -o is needed, prog must exist, a server must serve the device" {
	run --separate-stderr devtrace record -o "$BATS_TEST_TMPDIR/f"
	assert_failure 1
	assert_equal "$stderr" "devtrace: no devtraced serves $D (devtrace start starts one)"
	start
	run --separate-stderr devtrace record
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "devtrace record: no -o FILE to save the records in"
	run --separate-stderr devtrace record -x
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "devtrace record: unknown option -x"
	run -127 --separate-stderr devtrace record -o "$BATS_TEST_TMPDIR/f" -- "$BATS_TEST_TMPDIR/nosuch"
	assert_failure 127
	assert_equal "$stderr" "devtrace record: $BATS_TEST_TMPDIR/nosuch: program not found"
	run devtrace record --help
	assert_success
	assert_line --index 0 "usage: devtrace record [-t GLOB ...] [-p EXPR] [-P POLICY] [-j N] -o FILE [--] [prog [arg ...]]"
	for j in 0 65 x 2x ''; do
		run --separate-stderr devtrace record -j "$j" -o "$BATS_TEST_TMPDIR/f"
		assert_failure 2
		assert_equal "${stderr_lines[0]}" "devtrace record: -j $j: readers from 1 to 64"
	done
	run --separate-stderr devtrace cat -f "$BATS_TEST_TMPDIR/f"
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "devtrace cat: unexpected argument '$BATS_TEST_TMPDIR/f'"
}

@test "record -- prog: prog's exit status; no symbols beside what is no regular file" {
	needlib
	start
	ctl start
	run --separate-stderr devtrace record -o "$BATS_TEST_TMPDIR/f" -- sh -c 'exit 3'
	assert_failure 3
	assert_equal "$stderr" "devtrace record: 0 records saved, 0 lost"
	run devtrace record -o /dev/null -- true
	assert_success
	run test -e /dev/null.syms
	rm -f /dev/null.syms
	assert_failure
}

@test "record of threads' rings written before it: merged by time exactly, every call saved, cat's lines another formatter's" {
	needlib
	start
	ctl trace fl_work new w
	ctl trace w on
	ctl start
	# no reader while they run: 2,000 records in each ring of 8,192
	run devtrace run "$BATS_FILE_TMPDIR/fl_threads" 4 1000
	assert_output 6001998000
	run recordqueued "$BATS_TEST_TMPDIR/f"
	assert_success
	run cat "$BATS_TEST_TMPDIR/f.err"
	assert_output "$(savedline "$BATS_TEST_TMPDIR/f" 8000)"
	catrecs "$BATS_TEST_TMPDIR/f" > "$BATS_TEST_TMPDIR/out"
	wellformed "$BATS_TEST_TMPDIR/out"
	run cmp "$BATS_TEST_TMPDIR/out" <(decode "$BATS_TEST_TMPDIR/f")
	assert_success
	# 4 threads of 1000 calls, each in its order; the ticks never go back
	run awk '$1 == "E" { t = $4; i = strtonum("0x" $6); if (t in n && i != last[t] + 1) bad++; last[t] = i; n[t]++ }
		{ k = strtonum("0x" $3); if (NR > 1 && k < prev) back++; prev = k }
		END { for (t in n) if (n[t] != 1000) bad++; print length(n), bad + 0, back + 0 }' "$BATS_TEST_TMPDIR/out"
	assert_output "4 0 0"
	run grep -E '^#(hits|read|queued|lost|dropped) ' "$D/tracectl"
	assert_output - <<-'END'
	#hits 8000
	#read 8000
	#queued 0
	#lost 0
	#dropped 0
	END
}

@test "record -- threads, live: every call of each thread saved, in its order" {
	needlib
	start
	ctl trace fl_work new w
	ctl trace w on
	ctl start
	run --separate-stderr devtrace record -o "$BATS_TEST_TMPDIR/f" -- "$BATS_FILE_TMPDIR/fl_threads" 4 3000
	assert_success
	assert_output 18017994000
	assert_equal "$stderr" "$(savedline "$BATS_TEST_TMPDIR/f" 24000)"
	catrecs "$BATS_TEST_TMPDIR/f" > "$BATS_TEST_TMPDIR/out"
	run awk '$1 == "E" { t = $4; i = strtonum("0x" $6); if (t in n && i != last[t] + 1) bad++; last[t] = i; n[t]++ }
		END { for (t in n) if (n[t] != 3000) bad++; print length(n), bad + 0 }' "$BATS_TEST_TMPDIR/out"
	assert_output "4 0"
}

@test "record -j 1, 2, 5 -- 16 threads of their own rings, live, 5 rings' worth each: every call of each thread saved once, in its order, whatever the readers" {
	needlib
	start
	ctl trace fl_work new w
	ctl trace w on
	ctl start
	ctl size 13	# 8,192 records a ring: each thread's 40,000 are read while it runs
	for j in 1 2 5; do
		run --separate-stderr devtrace record -j $j -o "$BATS_TEST_TMPDIR/f$j" -- "$BATS_FILE_TMPDIR/fl_threads" 16 20000
		assert_success
		assert_output 2403199840000
		assert_equal "$stderr" "$(savedline "$BATS_TEST_TMPDIR/f$j" 640000)"
		catrecs "$BATS_TEST_TMPDIR/f$j" > "$BATS_TEST_TMPDIR/out"
		run awk '$1 == "E" { t = $4; i = strtonum("0x" $6); if (t in n && i != last[t] + 1) bad++; last[t] = i; n[t]++ }
			END { for (t in n) if (n[t] != 20000) bad++; print length(n), NR, bad + 0 }' "$BATS_TEST_TMPDIR/out"
		assert_output "16 640000 0"
		w=$((${w:-0} + $(marks <(devtrace cat "$BATS_TEST_TMPDIR/f$j"))))
	done
	run grep -E '^#(read|queued|lost|dropped) ' "$D/tracectl"
	assert_output - <<-END
	#read $((1920000 + w))
	#queued 0
	#lost 0
	#dropped 0
	END
}

# the file's records' tids in its chunks' order, each once at its first
# as "seen TID" (decimal), then the trailer's text (source fffffffe)
seentrailer() {
	walkfile "$1" | awk '$1 == "trailer" { print substr($0, 9); next } !seen[$7]++ { print "seen", strtonum("0x" $7) }'
}

@test "record -- 64 threads, 63 of them in the shared ring: the trailer names each thread once, in the order first saved, under the program's pid" {
	needlib
	# one ring (4 MiB): the other threads' records interleaved in the shared ring, each
	# thread looked up again at every change of tid; alive 300 ms more for /proc's Tgid
	start -M 4M
	ctl trace fl_work new w
	ctl trace w on
	ctl start
	run --separate-stderr devtrace record -o "$BATS_TEST_TMPDIR/f" -- "$BATS_FILE_TMPDIR/fl_threads" 64 2000 300
	assert_success
	assert_output 4032127936000
	run grep -x '#ringless 63' "$D/tracectl"
	assert_success
	pid=$(devtrace info "$BATS_TEST_TMPDIR/f" | awk '$1 == "pid" { print $2 }')
	seentrailer "$BATS_TEST_TMPDIR/f" > "$BATS_TEST_TMPDIR/st"
	run awk -v pid="$pid" '$1 == "thread" { n++; if (seen[$2]++) dup++; if ($3 != pid) other++ } END { print n, dup + 0, other + 0 }' "$BATS_TEST_TMPDIR/st"
	assert_output "64 0 0"
	run cmp <(awk '$1 == "seen" { print $2 }' "$BATS_TEST_TMPDIR/st") <(awk '$1 == "thread" { print $2 }' "$BATS_TEST_TMPDIR/st")
	assert_success
}

# fl_loop ID's calls in devtrace cat's lines: E fl_work(ID, i) then X
# returning ID * 1000 + i, for i = 0.., all at fl_work's pc (from SYMS) and
# of one thread: "lines bad"
loopcalls() {
	awk -v id="$1" -v pc="$(awk '$2 == "fl_work" { print $1 }' "$2")" '{ i = int((NR - 1) / 2) }
		NR == 1 { tid = $4 }
		$2 "" != pc || $4 "" != tid { bad++ }
		NR % 2 == 1 && ($1 != "E" || $5 != sprintf("%016x", id) || $6 != sprintf("%016x", i)) { bad++ }
		NR % 2 == 0 && ($1 != "X" || $5 != sprintf("%016x", id * 1000 + i)) { bad++ }
		END { print NR, bad + 0 }' "$3"
}

@test "record -t: a session of its own, exactly its program's calls; the top level's trace of the same function keeps all of its own" {
	needlib
	start
	ctl trace fl_work new other
	ctl trace other on
	ctl start
	run --separate-stderr devtrace record -t fl_work -o "$BATS_TEST_TMPDIR/f" -- "$BATS_FILE_TMPDIR/fl_loop" 3 500 - 0
	assert_success
	assert_output "3 1624750"
	assert_equal "$stderr" "$(savedline "$BATS_TEST_TMPDIR/f" 1000)"
	catrecs "$BATS_TEST_TMPDIR/f" > "$BATS_TEST_TMPDIR/out"
	wellformed "$BATS_TEST_TMPDIR/out"
	run loopcalls 3 "$BATS_TEST_TMPDIR/f.syms" "$BATS_TEST_TMPDIR/out"
	assert_output "1000 0"
	# the top level's: the same 1000 hits, all queued, none read, none lost
	run grep -E '^#(hits|read|queued|lost|dropped|reader) ' "$D/tracectl"
	assert_output - <<-'END'
	#hits 1000
	#read 0
	#queued 1000
	#lost 0
	#dropped 0
	END
	devtrace cat > "$BATS_TEST_TMPDIR/top"
	run loopcalls 3 "$BATS_TEST_TMPDIR/f.syms" "$BATS_TEST_TMPDIR/top"
	assert_output "1000 0"
	# its trace as it was, and no other left
	run grep '^trace ' "$D/tracectl"
	assert_output "trace fl_work new other
trace other on"
	run grep '^#sessions' "$D/tracectl"
	assert_output '#sessions live 0 made 1 ended 1 reaped 0 refused 0'
}

# record (pid $1, writing $2/f, its output in $2/stdout and $2/err) held
# up: no reading for 0.3 s while fl_loop's 400,000 records come, 65,536 a
# ring; under block the program waits, and the file has every record
heldup() {
	kill -STOP "$1"
	touch "$2/go"
	sleep 0.3
	kill -CONT "$1"
	# its exit status, checked by bats: 0
	wait "$1"
	run cat "$2/stdout"
	assert_output "7 21399900000"
	run cat "$2/err"
	assert_output "$(savedline "$2/f" 400000)"
	catrecs "$2/f" > "$2/out"
	run loopcalls 7 "$2/f.syms" "$2/out"
	assert_output "400000 0"
}

@test "record -t: policy block 1000 in its session alone; a reader held up loses nothing where the top level's ring loses" {
	needlib
	start
	ctl trace fl_work new other
	ctl trace other on
	ctl start
	F=$BATS_TEST_TMPDIR
	devtrace record -t fl_work -o "$F/f" -- "$BATS_FILE_TMPDIR/fl_loop" 7 200000 "$F/go" 0 > "$F/stdout" 2> "$F/err" 3>&- &
	r=$!
	# shellcheck disable=SC2034 # read by teardown in helper.bash
	BGPIDS=$r
	waitfor test -d "$D/1"
	run grep '^policy' "$D/1/ctl"
	assert_output 'policy block 1000'
	run grep '^policy' "$D/tracectl"
	assert_output 'policy ring'
	heldup $r "$F"
	# the same run under the top level's ring, with no reader: the newest
	# 65,536 kept; 15 records more, the marks of its ring's warm (a step of
	# 4,096 slots at its first hit, 15 steps later, each a W record)
	run grep -E '^#(hits|read|queued|lost|dropped) ' "$D/tracectl"
	assert_output - <<-'END'
	#hits 400015
	#read 0
	#queued 65536
	#lost 334479
	#dropped 0
	END
}

@test "record without -t: policy block 1000 at the top level while it reads, the policy before put back; a reader held up loses nothing" {
	needlib
	start
	ctl policy fill
	ctl trace fl_work new t
	ctl trace t on
	ctl start
	F=$BATS_TEST_TMPDIR
	devtrace record -o "$F/f" -- "$BATS_FILE_TMPDIR/fl_loop" 7 200000 "$F/go" 0 > "$F/stdout" 2> "$F/err" 3>&- &
	r=$!
	# shellcheck disable=SC2034 # read by teardown in helper.bash
	BGPIDS=$r
	waitfor grep -qx 'policy block 1000' "$D/tracectl"
	heldup $r "$F"
	w=$(marks <(devtrace cat "$F/f"))
	run grep -E '^(policy|#hits|#read|#queued|#lost|#dropped) ' "$D/tracectl"
	assert_output - <<-END
	policy fill
	#hits $((400000 + w))
	#read $((400000 + w))
	#queued 0
	#lost 0
	#dropped 0
	END
}

@test "record without -t: -P sets the top level's policy while it reads; one changed meanwhile stays" {
	needlib
	start
	ctl trace fl_work new t
	ctl trace t on
	ctl start
	F=$BATS_TEST_TMPDIR
	run --separate-stderr devtrace record -P 'block 50' -o "$F/f" -- sh -c "grep '^policy' '$D/tracectl'"
	assert_success
	assert_output 'policy block 50'
	assert_equal "$stderr" "devtrace record: 0 records saved, 0 lost"
	run grep '^policy' "$D/tracectl"
	assert_output 'policy ring'
	run devtrace record -o "$F/f" -- sh -c "echo 'policy fill' > '$D/tracectl'"
	assert_success
	run grep '^policy' "$D/tracectl"
	assert_output 'policy fill'
}

@test "record -t: -P sets the session's policy; refusals name the option" {
	needlib
	start
	F=$BATS_TEST_TMPDIR
	devtrace record -t fl_work -P fill -o "$F/f" -- "$BATS_FILE_TMPDIR/fl_loop" 7 20 "$F/go" 0 > /dev/null 2> "$F/err" 3>&- &
	r=$!
	# shellcheck disable=SC2034 # read by teardown in helper.bash
	BGPIDS=$r
	waitfor test -d "$D/1"
	run grep '^policy' "$D/1/ctl"
	assert_output 'policy fill'
	touch "$F/go"
	wait $r
	run cat "$F/err"
	assert_output "devtrace record: 40 records saved, 0 lost"
	run --separate-stderr devtrace record -t fl_work -P bogus -o "$F/f" -- "$BATS_FILE_TMPDIR/fl_loop" 7 2 - 0
	assert_failure 1
	assert_equal "$stderr" "devtrace record: -P 'bogus': unknown policy (ring, fill or block)"
	run --separate-stderr devtrace record -t fl_work -p 'arg9 > 1' -o "$F/f" -- "$BATS_FILE_TMPDIR/fl_loop" 7 2 - 0
	assert_failure 1
	assert_equal "$stderr" "devtrace record: -p 'arg9 > 1': not an argument of the trace's functions at column 1"
	run --separate-stderr devtrace record -t 'zz*' -o "$F/f" -- "$BATS_FILE_TMPDIR/fl_loop" 7 2 - 0
	assert_failure 1
	assert_equal "$stderr" "devtrace record: 0 records saved, 0 lost
devtrace record: -t 'zz*': no function of the program matched"
	run --separate-stderr devtrace record -t fl_work -o "$F/f"
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "devtrace record: -t needs a program to watch: -- prog"
	run --separate-stderr devtrace record -P bogus -o "$F/f" -- true
	assert_failure 1
	assert_equal "$stderr" "devtrace record: -P 'bogus': unknown policy (ring, fill or block)"
	run --separate-stderr devtrace record -p 'arg0 > 1' -o "$F/f" -- true
	assert_failure 2
	assert_equal "$stderr" "devtrace record: -p needs a -t to attach it to"
	run grep '^#sessions' "$D/tracectl"
	assert_output '#sessions live 0 made 4 ended 4 reaped 0 refused 0'
	run grep -c '^trace ' "$D/tracectl"
	assert_output 0
}
