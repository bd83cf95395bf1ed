# norm.awk SIGS RECS: records (as tests/hooks/recs.awk prints them) with
# what is the same on every ISA: no thread id, an E's first N integer
# arguments (the function's own: the other registers hold whatever they
# held) and an X's return value if the function returns an integer.
# SIGS lines: "name N int|-".
FNR == NR { nargs[$1] = $2; ret[$1] = $3; next }
!($3 in nargs) { print "unknown function: " $3; bad = 1; next }
$2 == "E" {
	s = "E " $3
	for (i = 1; i <= nargs[$3]; i++)
		s = s " " $(3 + i)
	print s
	next
}
$2 == "X" { print "X", $3, (ret[$3] == "int" ? $4 : "-") }
END { exit bad }
