# figures.awk: the output a document shows for one command (the first
# file) against what the command printed (the second), line by line, in
# any order; the convention is NOTES' "Commands shown in the documents
# are tested".
#
# A line's shape is the line with every number made N (a word of hex
# digits that holds a digit, or 0x and hex digits) and runs of blanks one
# blank: shown and printed lines pair by shape, each shown line with the
# first printed line of its shape, in order, whose numbers agree with
# its own; a shown line "..." stands for lines cut from the paste.  The
# numbers, the figures, agree by their kind, taken from the shown line:
#   any    (not compared) what differs from run to run by nature: TID
#          and PID columns, a call flow's first column, a record's ticks
#          and thread (the third and fourth of its eight fields), #hz and
#          #clock lines, addresses written 0x...;
#   time   within a factor of 10 either way, a figure under 100 counting
#          as 100 (the clock's grain): a call flow's TIME and DURATION,
#          and the TIME, DURATION, TOTAL, SELF, MIN, AVG and MAX columns
#          of a table whose header line is capitals (report's);
#   exact  every other number: sizes, counts, byte figures, arguments,
#          return values, pcs, line numbers.
# Exit 0 when every line agrees, 1 when a line is missing or more (its
# shape) or an exact figure differs, 3 when only times are out of their
# tolerance (rundoc runs the document again then: a time can be an
# outlier, a count cannot).
#
# With -v regen=1 it prints instead, a line per shown line, what make
# docs-examples needs in its place: "=\tLINE" (the printed line paired
# with it, which agrees), "R\tLINE" (the printed line of its shape paired
# with it, which does not), "U" (no printed line of its shape) or "...";
# then "end STATUS" (STATUS as the exit status above) and, when the
# output was not cut, "all\tLINE" for every printed line, in order.

function isnum(w) { return (w ~ /^[0-9a-fA-F]+$/ && w ~ /[0-9]/) || w ~ /^0x[0-9a-fA-F]+$/ }

# the kind of each field of line s, in cls[1..n]; fields in f[]
function kinds(s, f, n, cls,   i, k) {
	for (i = 1; i <= n; i++) cls[i] = "x"
	if (n == 0) { hn = 0; return }
	# a call flow line: TID TIME [DURATION] -> | <- | * ...
	k = 0
	for (i = 3; i <= 4 && i <= n; i++)
		if (f[i] == "->" || f[i] == "<-" || f[i] == "*") { k = i; break }
	if (k) {
		for (i = 2; i < k; i++) if (f[i] !~ /^([0-9]+|-)$/) k = 0
	}
	if (k) {
		cls[1] = "a"
		for (i = 2; i < k; i++) cls[i] = "t"
		return
	}
	# a record: E|X|P|W pc ticks tid a0 a1 a2 a3
	if (n == 8 && f[1] ~ /^[EXPW]$/ && length(f[3]) == 16 && f[3] ~ /^[0-9a-f]+$/ && length(f[4]) == 16 && f[4] ~ /^[0-9a-f]+$/) {
		cls[3] = cls[4] = "a"
		return
	}
	if (f[1] ~ /^#?(hz|clock)$/) {
		for (i = 1; i <= n; i++) cls[i] = "a"
		return
	}
	# a header line of capitals, then its table's rows
	if (n >= 2 && s ~ /(CALLS|COUNT|TID|PID|TOTAL|SELF|DURATION)/) {
		for (i = 1; i <= n; i++) if (f[i] !~ /^[A-Z][A-Z0-9_()\/%]*$/) break
		if (i > n) {
			hn = n
			for (i = 1; i <= n; i++) hdr[i] = f[i]
			return
		}
	}
	if (hn && n == hn) {
		for (i = 1; i <= n; i++) {
			if (hdr[i] ~ /^(TID|PID)$/) cls[i] = "a"
			else if (hdr[i] ~ /^(TIME|DURATION|TOTAL|SELF|MIN|AVG|MAX)/) cls[i] = "t"
		}
	}
}

# line s of file w (1 shown, 2 printed) as its shape and its figures
function parse(s, w, l,   f, n, cls, i, fs, out, v, sh, nf) {
	n = split(s, f)
	kinds(s, f, n, cls)
	sh = ""; nf = 0
	for (i = 1; i <= n; i++) {
		fs = f[i]; out = ""
		while (match(fs, /[0-9A-Za-z_]+/)) {
			v = substr(fs, RSTART, RLENGTH)
			if (isnum(v)) {
				nf++
				fig[w, l, nf] = v
				kind[w, l, nf] = (v ~ /^0x/) ? "a" : cls[i]
				v = "N"
			}
			out = out substr(fs, 1, RSTART - 1) v
			fs = substr(fs, RSTART + RLENGTH)
		}
		sh = sh (i > 1 ? " " : "") out fs
	}
	shape[w, l] = sh
	nfig[w, l] = nf
}

function timeok(a, b) {
	if (a !~ /^[0-9]+$/ || b !~ /^[0-9]+$/) return a == b
	a += 0; b += 0
	if (a < 100) a = 100
	if (b < 100) b = 100
	return a <= 10 * b && b <= 10 * a
}

# "" if shown line i and printed line j agree; else "t" (times only) or "x"
function agree(i, j,   k, bad) {
	bad = ""
	for (k = 1; k <= nfig[1, i]; k++) {
		if (kind[1, i, k] == "a") continue
		if (kind[1, i, k] == "t") {
			if (!timeok(fig[1, i, k], fig[2, j, k]) && bad == "") bad = "t"
		} else if (fig[1, i, k] != fig[2, j, k])
			bad = "x"
	}
	return bad
}

# why shown line i and printed line j disagree, figure by figure
function why(i, j,   k, s, t) {
	s = ""
	for (k = 1; k <= nfig[1, i]; k++) {
		t = kind[1, i, k]
		if (t == "a") continue
		if (t == "t" && timeok(fig[1, i, k], fig[2, j, k])) continue
		if (t == "x" && fig[1, i, k] == fig[2, j, k]) continue
		s = s (s == "" ? "" : "; ") fig[1, i, k] " shown, " fig[2, j, k] " printed" (t == "t" ? ", a time out by more than a factor of 10" : "")
	}
	return s
}

FNR == 1 { hn = 0 }
{ w = FILENAME == ARGV[1] ? 1 : 2 }
w == 1 { n1++; line[1, n1] = $0; if ($0 ~ /^[ \t]*\.\.\.[ \t]*$/) { cut = 1; dots[n1] = 1 } else parse($0, 1, n1); next }
w == 2 { n2++; line[2, n2] = $0; parse($0, 2, n2) }

END {
	st = 0
	for (i = 1; i <= n1; i++) {
		if (dots[i]) continue
		pair[i] = 0; first = 0
		for (j = 1; j <= n2; j++) {
			if (used[j] || shape[1, i] != shape[2, j]) continue
			if (!first) first = j
			if (agree(i, j) == "") { pair[i] = j; ok[i] = 1; break }
		}
		if (!pair[i]) pair[i] = first
		if (pair[i]) used[pair[i]] = 1
	}
	for (i = 1; i <= n1; i++) {
		if (dots[i]) continue
		if (!pair[i]) { st = 1; continue }
		if (!ok[i]) { b = agree(i, pair[i]); if (b == "x") st = 1; else if (st == 0) st = 3 }
	}
	if (!cut) for (j = 1; j <= n2; j++) if (!used[j]) st = 1
	if (regen) {
		for (i = 1; i <= n1; i++) {
			if (dots[i]) print "..."
			else if (!pair[i]) print "U"
			else print (ok[i] ? "=" : "R") "\t" line[2, pair[i]]
		}
		print "end " st
		if (!cut) for (j = 1; j <= n2; j++) print "all\t" line[2, j]
		exit 0
	}
	for (i = 1; i <= n1; i++) {
		if (dots[i]) continue
		if (!pair[i]) print "\t- " line[1, i] "\t(shown; no line of its shape printed)"
		else if (!ok[i]) print "\t! " line[1, i] "\n\t  " line[2, pair[i]] "\t(" why(i, pair[i]) ")"
	}
	if (!cut) for (j = 1; j <= n2; j++) if (!used[j]) print "\t+ " line[2, j] "\t(printed; not shown)"
	exit st
}
