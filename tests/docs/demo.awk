# demo.awk LOG README: README with its fenced blocks that show make
# demo's session (a "$ " line naming build/demo/) made again from LOG,
# what tools/demo printed, its paths under root (-v root=DIR/) made
# relative, as README quotes them.  For make docs-examples DEMO=1
# (tests/docs/regen -d); NOTES' "Commands shown in the documents are
# tested".
#
# A block and the log are items: a "$ " or "== " line, its head, and
# the lines after it up to the next head.  Each head shown is the next
# head of the log of its shape (numbers made N); the lines shown under
# it become the log's lines under that head: as many as are shown when
# "..." follows them (the paste cut them there), else all.  A "..."
# stays.  A head the log lacks leaves the block as it was, said on
# standard error, and the exit status is 1.

function shape(s,   out, w) {
	out = ""
	while (match(s, /[0-9A-Za-z_]+/)) {
		w = substr(s, RSTART, RLENGTH)
		if ((w ~ /^[0-9a-fA-F]+$/ && w ~ /[0-9]/) || w ~ /^0x[0-9a-fA-F]+$/) w = "N"
		out = out substr(s, 1, RSTART - 1) w
		s = substr(s, RSTART + RLENGTH)
	}
	out = out s
	gsub(/[ \t]+/, " ", out)
	return out
}
function ishead(s) { return s ~ /^(\$ |== )/ }
function relative(s,   i) {
	while (root != "" && (i = index(s, root)) > 0)
		s = substr(s, 1, i - 1) substr(s, i + length(root))
	return s
}

# the block b[1..nb], made again into o[1..no]; 0 if a head is not found
function remake(   pos, i, j, k, e, n, m) {
	no = 0; pos = 0
	for (i = 1; i <= nb; ) {
		if (b[i] == "...") { o[++no] = b[i]; i++; continue }
		if (!ishead(b[i])) {
			print "demo.awk: README line " at[i] ": a line shown under no head, kept: " b[i] > "/dev/stderr"
			o[++no] = b[i]; i++; continue
		}
		for (j = pos + 1; j <= nl; j++)
			if (head[j] && shape(lg[j]) == shape(b[i])) break
		if (j > nl) {
			print "demo.awk: README line " at[i] ": not in the demo's log, the block kept: " b[i] > "/dev/stderr"
			return 0
		}
		o[++no] = lg[j]
		for (k = i + 1; k <= nb && b[k] != "..." && !ishead(b[k]); k++) ;
		for (e = j + 1; e <= nl && !head[e]; e++) ;
		n = e - j - 1
		if (k <= nb && b[k] == "..." && k - i - 1 < n) n = k - i - 1
		for (m = 1; m <= n; m++) o[++no] = lg[j + m]
		pos = j
		i = k
	}
	return 1
}

NR == FNR { nl++; lg[nl] = relative($0); head[nl] = ishead(lg[nl]); next }
/^```/ && !fenced { fenced = 1; nb = 0; demo = 0; print; next }
/^```/ && fenced {
	fenced = 0
	if (demo && remake()) for (i = 1; i <= no; i++) print o[i]
	else {
		if (demo) bad = 1
		for (i = 1; i <= nb; i++) print b[i]
	}
	print
	next
}
fenced { b[++nb] = $0; at[nb] = FNR; if ($0 ~ /^\$ / && $0 ~ /build\/demo\//) demo = 1; next }
{ print }
END {
	if (fenced) for (i = 1; i <= nb; i++) print b[i]
	exit bad
}
