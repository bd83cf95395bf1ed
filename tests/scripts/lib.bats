#!/usr/bin/env bats
# scripts/lib/lib.awk: 64-bit hex without strtonum, the same in every awk.
load helper

libawk() { "$AWK" -f "$S/lib/lib.awk" -f /dev/stdin; }

@test "lib: hex conversions, exact on 64-bit values" {
	for AWK in $AWKS; do
		export AWK
		run libawk <<'EOF2'
BEGIN {
	print hexval("00000000000003e8"), sprintf("%.0f", hexval("0001000000000000"))
	print hexdec("ffffffffffffffff"), hexsdec("ffffffffffffffff"), hexsdec("8000000000000000")
	print hexdec("7fffffffffffffff"), hexsdec("0000000000000000")
	print hexdiv("ffff888000001000", 4096), hexdiv("0000000000000fff", 4096)
	print hexbits("0000000000000000"), hexbits("0000000000000001"), hexbits("8000000000000000"), hexbits("000000000000abcd")
	print bucket("ffffffffffffffff", 0), bucket("ffffffffffffffff", 1), bucket("0000000000001000", 0), bucket("7", 0), bucket("-3", 0), bucket("-", 0) "."
	print hexabs("fffffffffffffff0"), hextrim("0000000000000000")
}
EOF2
		assert_success
		assert_output "1000 281474976710656
18446744073709551615 -1 -9223372036854775808
9223372036854775807 0
ffff888000001 0
0 1 64 16
-1 64 13 3 -2 .
0000000000000010 0"
	done
}
