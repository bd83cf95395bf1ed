# count.awk: counts by a list of fields, each optionally divided.
BEGIN {
	NK = split(FIELDS, spec, ",")
	if (NK == 0) die("no fields")
	want = "E"
	for (i = 1; i <= NK; i++) {
		s = spec[i]
		DIV[i] = 1
		if ((j = index(s, "/")) > 0) {
			DIV[i] = substr(s, j + 1)
			s = substr(s, 1, j - 1)
			if (DIV[i] !~ /^[1-9][0-9]*$/ || length(DIV[i]) > 14)
				die("bad divisor: " spec[i])
			DIV[i] += 0
		}
		if (!fieldsel(s)) die("unknown field: " s)
		COL[i] = F_COL
		if (F_TYPE == "X") want = "X"
		if (F_TYPE != "") types = types F_TYPE
		if (F_COL == 1) anytype = 1
		if (F_COL > maxcol) maxcol = F_COL
		HEAD[i] = toupper(spec[i])
		NUM[i] = 1	# cleared when a value is not a decimal number
	}
	if (types ~ /E/ && types ~ /X/) die("arguments and retval are in different records")
}
# records of the wanted type; other lines (scripts/durations output) if long enough
isrec() ? ($1 == want || anytype) : (NF >= maxcol && $0 !~ /^#/) {
	key = ""
	for (i = 1; i <= NK; i++) {
		v = keyval(i, $COL[i], isrec())
		K[i] = v
		key = key (i > 1 ? SUBSEP : "") v
	}
	if (!(key in CNT)) {
		ROWS[++NR_] = key
		for (i = 1; i <= NK; i++) {
			KEYS[NR_, i] = K[i]
			if (K[i] !~ /^-?[0-9]+$/) NUM[i] = 0
		}
	}
	CNT[key]++
}
# keyval: field i's text in the table
function keyval(i, v, rec,   c) {
	c = COL[i]
	# other lines (scripts/durations output) keep their text; only
	# decimal numbers divide
	if (!rec || !ishex16(v))
		return DIV[i] > 1 && v ~ /^[0-9]+$/ ? sprintf("%.0f", int(v / DIV[i])) : v
	if (c == 3 || c == 4)	# ticks and pid: below 2^53
		return sprintf("%.0f", DIV[i] > 1 ? int(hexval(v) / DIV[i]) : hexval(v))
	if (c < 3) return v
	if (DIV[i] > 1) {
		v = hexdiv(v, DIV[i])
		return fmt == "x" ? v : hexdec(v)
	}
	return fmt == "x" ? hextrim(v) : fmt == "u" ? hexdec(v) : hexsdec(v)
}
END {
	if (DIED) exit 2
	if (!NR_) exit 0
	for (i = 1; i <= NK; i++) W[i] = length(HEAD[i])
	W[NK + 1] = length("COUNT")
	for (r = 1; r <= NR_; r++) {
		for (i = 1; i <= NK; i++) if (length(KEYS[r, i]) > W[i]) W[i] = length(KEYS[r, i])
		if (length(CNT[ROWS[r]]) > W[NK + 1]) W[NK + 1] = length(CNT[ROWS[r]])
	}
	for (i = 1; i <= NK; i++) printf "%-" W[i] "s  ", HEAD[i]
	printf "%" W[NK + 1] "s\n", "COUNT"
	fflush()
	# sort(1) orders the rows: by count, then keys (numbers as numbers)
	keys = ""
	for (i = 1; i <= NK; i++) keys = keys " -k" i "," i (NUM[i] ? "n" : "")
	cmd = "sort" (bykey ? keys : " -k" (NK + 1) "," (NK + 1) "nr" keys)
	for (r = 1; r <= NR_; r++) {
		for (i = 1; i <= NK; i++) printf "%-" W[i] "s  ", KEYS[r, i] | cmd
		printf "%" W[NK + 1] "s\n", CNT[ROWS[r]] | cmd
	}
	close(cmd)
}
