#!/usr/bin/env bats
# scripts/name: pcs become names, everything else stays byte for byte.
load helper

@test "name: pcs become names; a later syms line for a pc wins" {
	golden simple.named "$S/name" "$F/simple.syms" "$F/simple.trace"
}

@test "name: records of two processes, names from two objects" {
	golden threads.named "$S/name" "$F/threads.syms" "$F/threads.trace"
}

@test "name: only the pc field changes" {
	for a in $AWKS; do
		AWK=$a "$S/name" "$F/simple.syms" "$F/simple.trace" | cut -d' ' -f1,3- > "$BATS_TEST_TMPDIR/named"
		cut -d' ' -f1,3- "$F/simple.trace" | diff - "$BATS_TEST_TMPDIR/named"
	done
}

@test "name: unknown pcs stay hex; other lines pass through; standard input" {
	golden mixed.named pipe '{ echo "#lost 3"; cat "$F/args.trace"; echo "not a record"; } | "$S/name" "$F/simple.syms"'
}

@test "name: short and 0x pcs in the symbol file" {
	printf '0x401100 parse /bin/x\n401000 main /bin/x\n' > "$BATS_TEST_TMPDIR/syms"
	golden short.named "$S/name" "$BATS_TEST_TMPDIR/syms" "$F/simple.trace"
}

@test "name: empty input gives empty output" {
	golden empty "$S/name" "$F/simple.syms" "$F/empty.trace"
}

@test "name: a missing symbol file is an error" {
	fails 1 "cannot read" "$S/name" /nonexistent "$F/simple.trace"
	fails 2 "no symbol file" "$S/name"
}

# prog KIND: a small program (pie or no-pie) and its trace, loaded at
# 0x55d4c0000000 if pie: main -> mid -> leaf, then a libc pc
prog() {
	local base=0 a
	printf 'int leaf(int x){return x+1;}\nint mid(int x){return leaf(x)*2;}\nint main(void){return mid(1)-4;}\n' > "$BATS_TEST_TMPDIR/p.c"
	cc -O0 -"$1" -o "$BATS_TEST_TMPDIR/p" "$BATS_TEST_TMPDIR/p.c"
	[ "$1" = pie ] && base=$((0x55d4c0000000))
	a() { printf '%x' $((base + 0x$(nm "$BATS_TEST_TMPDIR/p" | awk -v f="$1" '$3 == f { print $1 }'))); }
	printf 'E %s 1000 7\nE %s 1100 7\nE %s 1200 7\nX %s 1300 7\nX %s 1400 7\nE 7f0000001000 1500 7\nX 7f0000001000 1600 7\nX %s 1700 7\n' \
		"$(a main)" "$(a mid)" "$(a leaf)" "$(a leaf)" "$(a mid)" "$(a main)" | "$BATS_TEST_DIRNAME/mktrace" > "$BATS_TEST_TMPDIR/p.trace"
}

@test "name -s PROGRAM: names from nm; a PIE's load address found from the trace" {
	prog pie
	for a in $AWKS; do
		run env AWK="$a" "$S/name" -s "$BATS_TEST_TMPDIR/p" "$BATS_TEST_TMPDIR/p.trace"
		assert_success
		run cut -d' ' -f1,2 <<< "$output"
		assert_output "$(printf 'E main\nE mid\nE leaf\nX leaf\nX mid\nE 00007f0000001000\nX 00007f0000001000\nX main')"
	done
}

@test "name -s PROGRAM: a program not position independent; standard input; an ELF as SYMS" {
	prog no-pie
	run sh -c '"$0" -s "$1" < "$2" | cut -d" " -f2 | tr "\n" " "' "$S/name" "$BATS_TEST_TMPDIR/p" "$BATS_TEST_TMPDIR/p.trace"
	assert_output "main mid leaf leaf mid 00007f0000001000 00007f0000001000 main "
	run sh -c '"$0" "$1" "$2" | cut -d" " -f2 | head -1' "$S/name" "$BATS_TEST_TMPDIR/p" "$BATS_TEST_TMPDIR/p.trace"
	assert_output "main"
}

@test "name -s PROGRAM -b LOADADDR: the load address given; errors" {
	prog pie
	run sh -c '"$0" -s "$1" -b 0x55d4c0000000 "$2" | cut -d" " -f2 | head -3 | tr "\n" " "' "$S/name" "$BATS_TEST_TMPDIR/p" "$BATS_TEST_TMPDIR/p.trace"
	assert_output "main mid leaf "
	# a wrong load address names nothing
	run sh -c '"$0" -s "$1" -b 0x1000 "$2" | cut -d" " -f2 | head -1' "$S/name" "$BATS_TEST_TMPDIR/p" "$BATS_TEST_TMPDIR/p.trace"
	assert_output --regexp '^000055d4c000[0-9a-f]{4}$'
	fails 2 "bad load address: 0xzz" "$S/name" -s "$BATS_TEST_TMPDIR/p" -b 0xzz "$BATS_TEST_TMPDIR/p.trace"
	fails 2 "-b needs -s PROGRAM" "$S/name" -b 1000 "$F/simple.syms" "$F/simple.trace"
	printf 'E 401003 1 1\nX 401003 2 1\n' | "$BATS_TEST_DIRNAME/mktrace" > "$BATS_TEST_TMPDIR/odd.trace"
	fails 1 "no pc of the trace is the entry of a function of" "$S/name" -s "$BATS_TEST_TMPDIR/p" "$BATS_TEST_TMPDIR/odd.trace"
	fails 1 "cannot read /nonexistent" "$S/name" -s /nonexistent "$F/simple.trace"
}

@test "name -a SIGS: typed functions' records show their arguments and return values; others stay records" {
	golden types.named "$S/name" -a "$F/types.sigs" "$F/types.syms" "$F/types.trace"
	fails 1 "cannot read" "$S/name" -a "$F/none.sigs" "$F/types.syms" "$F/types.trace"
}

@test "name -a SIGS -s PROGRAM: the signatures apply to names from nm" {
	prog no-pie
	printf 'leaf s32 x:s32:1\nmid s32 x:s32:1\n' > "$BATS_TEST_TMPDIR/p.sigs"
	run sh -c '"$0" -a "$1" -s "$2" "$3" | cut -d" " -f1,2,5- | head -4' "$S/name" "$BATS_TEST_TMPDIR/p.sigs" "$BATS_TEST_TMPDIR/p" "$BATS_TEST_TMPDIR/p.trace"
	assert_output - <<-'END'
	E main 0000000000000000 0000000000000000 0000000000000000 0000000000000000
	E mid (x=0)
	E leaf (x=0)
	X leaf = 0
	END
}
