# records.awk: check that every line is a record of the trace format,
# exactly 121 bytes with its newline: E or X, then seven fields of 16
# lowercase hex digits one space apart; an X record's last three are
# zero (unless -v scribbled=1: a scribbled slot may hold any values,
# only the format is the device's promise then).  Prints the first few bad lines with their numbers, and the
# count; exits 1 if any.  (Spelled out, not with {16}: old mawk has no
# intervals.)
BEGIN {
	h = "[0-9a-f][0-9a-f][0-9a-f][0-9a-f]"
	h = h h h h
	f = " " h
	rec = "^[EX]" f f f f f f f "$"
	z = " 0000000000000000"
	xtail = z z z "$"
}
length($0) != 120 || $0 !~ rec || (!scribbled && $1 == "X" && $0 !~ xtail) {
	if (++bad <= 5)
		printf "records.awk: line %d is not a record: %s\n", NR, $0 > "/dev/stderr"
}
END {
	if (bad)
		printf "records.awk: %d of %d lines are not records\n", bad, NR > "/dev/stderr"
	exit bad > 0
}
