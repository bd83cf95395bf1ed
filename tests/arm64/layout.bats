#!/usr/bin/env bats
# The shared memory's layout is one on both ABIs: an arm64 process writes
# the block an amd64 server reads.  The structures' sizes and every
# member's offset, as the compilers' DWARF gives them (layout.awk), for
# the device's structures (layout.c) and the shared header (host/shmdat.h, in host/shmmap.o),
# from the amd64 build (objects in $A_B) and the arm64 one ($R_B).
load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)

# layout BUILD: the lines of both objects of a build, for devtrace's own
# structures (capitalised names: the C library's, such as stat, differ)
layout() {
	for o in "$1/tests/arm64/layout.o" "$1/host/shmmap.o"; do
		readelf --debug-dump=info "$o" | awk -f "$BATS_TEST_DIRNAME/layout.awk" | grep '^[A-Z]'
	done
}

@test "the layout lists the device's records, shards, traces and the shared header" {
	layout "$A_B" | sort -u > "$BATS_TEST_TMPDIR/a"	# Rec is in both objects' DWARF (host/shm.c reads records)
	# a slot is its seq and a Rec (dev/ring/slot.h): the record's fields at 8 + their offsets in the Rec
	run grep -cxF -e 'Slot size 64' -e 'Slot.seq 0' -e 'Slot.rec 8' -e 'Rec size 56' -e 'Rec.pc 0' -e 'Rec.ticks 8' \
		-e 'Rec.tid 16' -e 'Rec.exit 20' -e 'Rec.a 24' -e 'Shard size 64' -e 'Hdr.devsize 16' -e 'Hdr.dir 24' "$BATS_TEST_TMPDIR/a"
	assert_output 12
	run grep -c '^Dev\.' "$BATS_TEST_TMPDIR/a"
	[ "$output" -ge 20 ]
}

@test "amd64 and arm64 builds: every size and offset the same" {
	layout "$A_B" > "$BATS_TEST_TMPDIR/a"
	layout "$R_B" > "$BATS_TEST_TMPDIR/r"
	run diff "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/r"
	assert_success
	assert_output ""
	run grep -c . "$BATS_TEST_TMPDIR/r"
	[ "$output" -ge 60 ]
}

@test "a layout that differs is caught (self-test: structures packed to 4 bytes)" {
	mkdir -p "$BATS_TEST_TMPDIR/p/tests/arm64" "$BATS_TEST_TMPDIR/p/host"
	cd "$ROOT"
	$CC_A -std=c11 -D_GNU_SOURCE -I. -g -fpack-struct=4 -c -o "$BATS_TEST_TMPDIR/p/tests/arm64/layout.o" tests/arm64/layout.c
	cp "$A_B/host/shmmap.o" "$BATS_TEST_TMPDIR/p/host/"
	layout "$BATS_TEST_TMPDIR/p" > "$BATS_TEST_TMPDIR/p.txt"
	layout "$R_B" > "$BATS_TEST_TMPDIR/r"
	run diff "$BATS_TEST_TMPDIR/p.txt" "$BATS_TEST_TMPDIR/r"
	assert_failure
}
