# nest.awk: over recs.awk output, check that each thread's E and X
# records nest: every X closes the innermost open E of the thread, of
# the same function.  With skip=1, open frames that a later X passes
# over (left by longjmp) are dropped instead.  Prints "nested" or the
# first problem, and the number of frames left open.
{
	t = $1
	if ($2 == "E") { st[t, ++n[t]] = $3; next }
	if (skip)
		while (n[t] > 0 && st[t, n[t]] != $3) n[t]--
	if (n[t] == 0 || st[t, n[t]] != $3) {
		print "line " NR ": X " $3 " closes " (n[t] ? st[t, n[t]] : "nothing") " in thread " t
		bad = 1
		exit 1
	}
	n[t]--
}
END {
	if (bad) exit 1
	open = 0
	for (t in n) open += n[t]
	print "nested, open " open
}
