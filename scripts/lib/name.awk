# name.awk: replace the pc of each record with its name from SYMS; with
# SIGS, the words of a typed function's records with its arguments or
# its return value (for reading: such lines are records no more).
BEGIN {
	if (SIGS != "") siginit(SIGS)
	while ((n = (getline line < SYMS)) > 0) {
		if (split(line, f, " ") < 2 || f[1] ~ /^#/) continue
		pc = tolower(f[1])
		sub(/^0x/, "", pc)
		while (length(pc) < 16) pc = "0" pc	# nm-style short addresses
		NAME[pc] = f[2]
	}
	if (n < 0) die("cannot read " SYMS)
	close(SYMS)
}
# Rebuild the line from its own text so spacing stays byte for byte.
isrec() && ($2 in NAME) { $0 = $1 " " NAME[$2] substr($0, length($1) + length($2) + 2) }
isrec() && $1 != "W" && ($2 in SIG) { $0 = $1 " " $2 " " $3 " " $4 ($1 == "E" ? " " substr(sigcall($2, $5, $6, $7, $8), length($2) + 1) : sigret($2, $5)) }
{ print }
