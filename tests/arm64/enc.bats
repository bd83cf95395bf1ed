#!/usr/bin/env bats
# The arm64 site and stub encodings (arch/arm64/site.c, through enc.c),
# read back by the arm64 disassembler: what the fixtures cannot reach (a
# site number above 65535, a stub in a page after the first, stubs
# before and after the object, the reach of bl).
load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load

OBJDUMP=${OBJDUMP:-aarch64-linux-gnu-objdump}

# dis FILE VMA: "address: instruction" lines, spaces squeezed
dis() {
	"$OBJDUMP" -D -b binary -m aarch64 --adjust-vma="0x$2" "$BATS_TEST_TMPDIR/$1" |
		awk -F'\t' '/^ *[0-9a-f]+:\t/ { sub(/^ */, "", $1); s = $3 " " $4; gsub(/[ \t]+/, " ", s); sub(/ *\/\/.*/, "", s); sub(/ +$/, "", s); print $1, s }'
}

@test "off: b over the call; the call to a stub before the object" {
	run "$ENC" 5500001000 54fff00000 70000 300 250 "$BATS_TEST_TMPDIR"
	assert_output "reach 1 0"
	run dis off.bin 5500001000
	assert_output "$(printf '%s\n' '5500001000: b 0x550000100c' '5500001004: mov x9, x30' '5500001008: bl 0x54fff01398')"
}

@test "on: the first word is a nop, nothing else changes" {
	"$ENC" 5500001000 54fff00000 70000 300 250 "$BATS_TEST_TMPDIR"
	run dis on.bin 5500001000
	assert_output "$(printf '%s\n' '5500001000: nop' '5500001004: mov x9, x30' '5500001008: bl 0x54fff01398')"
	run sh -c "cmp -l '$BATS_TEST_TMPDIR/off.bin' '$BATS_TEST_TMPDIR/on.bin' | awk '\$1 > 4' | wc -l"
	assert_output 0
}

@test "a stub in the page's second 4 KiB, for a site above 65535: its number and the page header" {
	"$ENC" 5500001000 54fff00000 70000 300 250 "$BATS_TEST_TMPDIR"
	# stub 250: 16 + 250 * 20 = 0x1398 into the page; site 70250 = 0x1126a
	run sh -c "$(declare -f dis); OBJDUMP=$OBJDUMP BATS_TEST_TMPDIR=$BATS_TEST_TMPDIR dis page.bin 54fff00000 | grep -A4 '^54fff01398:'"
	assert_output "$(printf '%s\n' '54fff01398: mov w16, #0x126a' '54fff0139c: movk w16, #0x1, lsl #16' \
		'54fff013a0: adrp x17, 0x54fff00000' '54fff013a4: ldr x17, [x17]' '54fff013a8: br x17')"
	run od -An -tx8 -N8 "$BATS_TEST_TMPDIR/page.bin"
	assert_output " 1122334455667788"
}

@test "a stub page after the object; a call 128 MiB away is out of reach" {
	run "$ENC" 5500001000 5507ff0000 0 300 2 "$BATS_TEST_TMPDIR"
	assert_output "reach 1 0"
	run dis off.bin 5500001000
	assert_line --index 2 '5500001008: bl 0x5507ff0038'
	run sh -c "$(declare -f dis); OBJDUMP=$OBJDUMP BATS_TEST_TMPDIR=$BATS_TEST_TMPDIR dis page.bin 5507ff0000 | grep -A1 '^5507ff0038:'"
	assert_output "$(printf '%s\n' '5507ff0038: mov w16, #0x2' '5507ff003c: movk w16, #0x0, lsl #16')"
}
