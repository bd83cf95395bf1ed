# mutate.awk -v seed=N [-v junk=BYTES] FILE: print FILE with a few random
# mutations, for the awk scripts' termination test (awkfuzz): the trace
# format's edges (fields at 64-bit ends, signs, blanks, wrong counts,
# E without X, X without E, binary bytes, long lines) rather than
# uniform noise, which the scripts reject on the first field.
BEGIN {
	srand(seed)
	n = split("0000000000000000 ffffffffffffffff 8000000000000000 7fffffffffffffff " \
		"-1 0 1e999 nan inf 0x10 99999999999999999999 . - E X", odd, " ")
	nmut = 1 + int(rand() * 4)
}
{ line[NR] = $0 }
function pick(k) { return 1 + int(rand() * k) }
function field(s,    f, k, i, out) {
	k = split(s, f, " ")
	if (k == 0)
		return odd[pick(n)]
	f[pick(k)] = odd[pick(n)]
	out = f[1]
	for (i = 2; i <= k; i++)
		out = out " " f[i]
	return out
}
END {
	if (NR == 0)
		line[++NR] = "E 0000000000401000 00000000000003e8 0000000000000064 0 0 0 0"
	for (m = 0; m < nmut; m++) {
		i = pick(NR)
		op = int(rand() * 10)
		if (op == 0) line[i] = field(line[i])
		else if (op == 1) line[i] = substr(line[i], 1, int(rand() * length(line[i])))
		else if (op == 2) line[i] = line[pick(NR)]	# a duplicate: X twice, E twice
		else if (op == 3) line[i] = ""
		else if (op == 4) line[i] = (substr(line[i], 1, 1) == "E" ? "X" : "E") substr(line[i], 2)
		else if (op == 5) line[i] = line[i] " " line[i]	# too many fields
		else if (op == 6) { s = line[i]; gsub(/ /, "  ", s); line[i] = s }
		else if (op == 7) line[i] = sprintf("%s%c%c", line[i], pick(255), pick(255))
		else if (op == 8) { s = line[i] "0"; while (length(s) < 5000) s = s s; line[i] = s }
		else { t = line[i]; j = pick(NR); line[i] = line[j]; line[j] = t }	# out of order
	}
	for (i = 1; i <= NR; i++)
		print line[i]
}
