#!/usr/bin/env bats
# arch-only: no C or assembly outside arch/ names an ISA's specifics
# (tests/layers/archonly).  The self-tests run it on a small tree made
# in the test's directory, one line each.
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
A=$ROOT/tests/layers/archonly
T=

setup() {
	T=$BATS_TEST_TMPDIR/tree
	mkdir -p "$T/rt" "$T/arch/amd64"
	printf 'int ok;\n' > "$T/rt/ok.c"
}

# flagged 'line': rt/x.c holding only that line is refused, and named
flagged() {
	printf '%s\n' "$1" > "$T/rt/x.c"
	run "$A" "$T"
	assert_failure 1
	assert_output "rt/x.c:1:$1"
}

# passes 'line': rt/x.c holding only that line is fine
passes() {
	printf '%s\n' "$1" > "$T/rt/x.c"
	run "$A" "$T"
	assert_success
	assert_output ""
}

@test "the tree names no ISA outside arch/" {
	run "$A" "$ROOT"
	assert_success
	assert_output ""
}

@test "self-test: a predefined ISA macro" {
	flagged '#ifdef __x86_64__'
}

@test "self-test: a register, with % or bare" {
	flagged '	__asm__ volatile("" : : : "%rsp");'
	flagged 'uint64_t rdi = regs[0];'
	flagged '/* r11d holds the site */'
	flagged 'save xmm7'
}

@test "self-test: a segment prefix" {
	flagged ' * the pointer guard (fs:0x30)'
}

@test "self-test: amd64's address width" {
	flagged '	if ((pc >> 47) == 0)'
}

@test "self-test: instruction bytes" {
	flagged '	p[0] = 0xeb;'
	flagged '	{ 3, 0x0f, 0x1f, 0x00 },'
	flagged '	return p[0] == 0xf3 && q == (uint8_t[]){ 0xf3, 0x0f };'
	flagged '	w = 0xd503201f;'
}

@test "self-test: an instruction's name, a jmp_buf slot, an ISA system register" {
	flagged ' * (or just after its endbr64)'
	flagged 'enum { Jbrsp = 6 };	/* JB_RSP */'
	flagged 'mrs cntvct_el0'
}

@test "self-test: inline assembly with an instruction" {
	flagged '	__asm__ __volatile__("pause");'
	flagged '	asm("nop");'
}

@test "self-test: assembly outside arch/" {
	printf 'ret\n' > "$T/rt/t.S"
	run "$A" "$T"
	assert_failure 1
	assert_output "rt/t.S: assembly outside arch/"
}

@test "self-test: a compiler barrier, other shifts, prose, names like x1 pass" {
	passes '	__asm__ volatile("" : "+r"(a));'
	passes '	if ((k >> 48) != 0)'
	passes '/* counts are taken modulo 64, as amd64 does */'
	passes 'uint64_t x1, w2, sp, fs;'
}

@test "self-test: arch/ may name anything" {
	printf '\tmovq %%rsp, %%rbp\n' > "$T/arch/amd64/t.S"
	printf '#ifdef __x86_64__\n' > "$T/arch/amd64/t.c"
	run "$A" "$T"
	assert_success
	assert_output ""
}

@test "a shell or make file giving a compiler a site's size is flagged; size 0 is not" {
	printf 'echo -fpatchable-function-entry=7,0\n' > "$T/rt/cc.sh"
	run "$A" "$T"
	assert_failure 1
	assert_output "rt/cc.sh:1:echo -fpatchable-function-entry=7,0"
	printf 'X = -fpatchable-function-entry=0,0\n' > "$T/rt/cc.sh"
	run "$A" "$T"
	assert_success
	assert_output ""
}
