# recs.awk SYMS RECORDS: each record as "tid E name a1 a2 a3 a4",
# "tid X name retval" or "tid P name a1 a2 a3 a4" (a probe's), numbers
# in decimal (above 2^48: 0x and hex),
# names from the symbol file ("<pc> <name> <object>" lines); the
# writers' wait marks (W) left out.
function hex(s,   i, v) {
	v = 0
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
function num(s) {
	sub(/^0+/, "", s)
	if (s == "") return 0
	if (length(s) > 12) return "0x" s
	return hex(s)
}
FNR == NR { name[$1] = $2; next }
$1 == "E" || $1 == "X" || $1 == "P" {
	n = ($2 in name) ? name[$2] : "?" $2
	if ($1 != "X")
		print num($4), $1, n, num($5), num($6), num($7), num($8)
	else
		print num($4), "X", n, num($5)
	next
}
$1 == "W" && NF == 8 { next }	# a writer's wait (the reader, the ring's next pages): no hit
{ print "bad record: " $0; bad = 1 }
END { exit bad }
