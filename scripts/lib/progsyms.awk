# progsyms.awk: a symbol file ("pc name object" lines, as scripts/name
# reads) from nm's listing of a program (NM, lines "addr type name")
# and the pcs of a trace (the files on the command line).  The program
# may be position independent, loaded anywhere: its load address is
# the one that puts the most of the trace's pcs on function addresses
# (a load address is a multiple of the page size, so a pc and the
# function it is the entry of agree in their low 12 bits).  LOADADDR, if
# given (hex), is the load address and no pc is looked at.
# Writes "#base HEX VOTES" first, then the symbol lines.
BEGIN {
	while ((n = (getline line < NM)) > 0) {
		if (split(line, f, " ") != 3 || f[2] !~ /^[Tt]$/) continue
		a = hextrim(f[1])
		if (a !~ /^[0-9a-f]+$/ || length(a) > 13) continue
		NSY++
		SA[NSY] = hexval(a)
		SN[NSY] = f[3]
		k = substr("000" a, length(a) + 1, 3)	# low 12 bits
		LOW[k] = LOW[k] " " NSY
	}
	if (n < 0) die("cannot read " NM)
	close(NM)
	if (!NSY) die(OBJ ": no function symbols (nm finds none)")
	if (LOADADDR != "") {
		b = tolower(LOADADDR)
		sub(/^0x/, "", b)
		if (b !~ /^[0-9a-f]+$/ || length(b) > 13) die("bad load address: " LOADADDR)
		put(hexval(b), "given")
		exit
	}
}
LOADADDR == "" && isrec() && !($2 in SEEN) && ishex16($2) {
	SEEN[$2] = 1
	pc = hexval($2)
	m = split(LOW[substr($2, 14, 3)], c, " ")
	for (i = 1; i <= m; i++) {
		b = pc - SA[c[i]]
		if (b >= 0) VOTE[sprintf("%.0f", b)]++	# mawk keys big numbers by %.6g
	}
}
END {
	if (DIED) exit 2
	if (LOADADDR != "") exit 0
	best = -1
	for (b in VOTE)
		if (best < 0 || VOTE[b] > VOTE[best] || (VOTE[b] == VOTE[best] && b + 0 < best + 0)) best = b
	if (best < 0) die("no pc of the trace is the entry of a function of " OBJ " (give its load address with -b)")
	put(best + 0, VOTE[best])
}
function put(b, why,   i) {
	print "#base " hexof(b) " " why
	for (i = 1; i <= NSY; i++) print hexof(b + SA[i]), SN[i], OBJ
}
# hexof: 16 hex digits of a whole number below 2^53
function hexof(v,   s, d) {
	s = ""
	while (length(s) < 16) {
		d = v % 16
		s = substr(HEXD, d + 1, 1) s
		v = (v - d) / 16
	}
	return s
}
