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
