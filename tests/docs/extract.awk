# extract.awk: the commands a document shows, and their output, as
# "C<TAB>command" and "O<TAB>line" lines.  README (markdown): in a block
# indented by four spaces, a line "$ command" and the lines after it up
# to the next "$ " line or the block's end; fenced blocks are not read.
# A manual page (mdoc): the same inside .Bd -literal ... .Ed, with the
# roff escapes undone; any other escape is an "E<TAB>message" line, as
# roff would not print what the test runs (a bare \n printed as 0).
# The convention is written in NOTES ("Commands shown in the documents
# are tested").  With -v where=1 each C and O line also says the line of
# the document it comes from, "C<TAB>LINE<TAB>command" (for make
# docs-examples: tests/docs/regen).
FNR == 1 { man = FILENAME ~ /\.[1-8]$/ }
function at(n) { return where ? n "\t" : "" }
function flushblank() { for (; nblank > 0; nblank--) if (incmd) print "O\t" at(FNR - nblank) }
# escapes: an E line for each escape of s but \&, \(aq, \- and \e
function escapes(s,   e) {
	while (match(s, /\\(\(..|.?)/)) {
		e = substr(s, RSTART, RLENGTH)
		if (e !~ /^\\([&e-]|\(aq)$/)
			print "E\t" FILENAME ":" FNR ": the roff escape " e " does not print as the command the test runs; write \\e for a backslash"
		s = substr(s, RSTART + RLENGTH)
	}
}
function text(s) {
	if (!man) return s
	escapes(s)
	gsub(/\\&/, "", s); gsub(/\\\(aq/, "'", s); gsub(/\\-/, "-", s)
	gsub(/\\e/, "\\", s)
	return s
}
function line(s) {
	s = text(s)
	if (s ~ /^\$ /) { nblank = 0; incmd = 1; print "C\t" at(FNR) substr(s, 3); return }
	if (s == "") { nblank++; return }
	flushblank()
	if (incmd) print "O\t" at(FNR) s
}
man {
	if ($0 ~ /^\.Bd -literal/) { inblock = 1; incmd = 0; nblank = 0; next }
	if ($0 ~ /^\.Ed/) { inblock = 0; incmd = 0; nblank = 0; next }
	if (inblock && $0 !~ /^\.\\"/) line($0)
	next
}
/^```/ { fenced = !fenced; incmd = 0; next }
fenced { next }
/^    / { line(substr($0, 5)); next }
/^[ \t]*$/ { nblank++; next }
{ incmd = 0; nblank = 0 }
