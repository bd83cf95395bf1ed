# flags.awk: the options of synopsis lines, a line "COMMAND<TAB>OPTION"
# each ("COMMAND<TAB>" for one with none), for docs.bats to compare a
# manual page's SYNOPSIS with the commands' --help.  A line is one form
# of a command, as mandoc renders SYNOPSIS or a usage line reads after
# "usage: " (wrapped lines joined): the program, for devtrace its
# subcommand (after its own [-d dir]), names joined by " | " each the
# same form (devtrace-durations | devtrace-report, state | syms), then
# the form.  A script's usage names it NAME; it is devtrace-NAME here,
# as installed.  An option is -x, a bundle -xyz (each letter one), or
# --word; OPTION=  when a value follows it (-o FILE, [-t GLOB ...]).
# With -v summary=1 the input is devtrace --help, whose lines
# "  NAME    ARGS  WHAT" give the forms "devtrace NAME ARGS": ARGS end at
# the first word outside brackets that is lowercase letters alone and
# not "prog" (WHAT's first word).
function bare(w) { return w ~ /^[a-z][a-z0-9-]*$/ }
function form(s,   t, n, i, j, names, nn, u, core, parts, np, p, k, val, c) {
	n = split(s, t, " ")
	if (n == 0) return
	i = 1; nn = 1; names[1] = t[1]
	if (t[1] == "devtrace") {
		if (t[2] == "[-d" && t[3] == "dir]") i = 3
		i++
		names[1] = "devtrace " t[i]
		while (t[i + 1] == "|" && bare(t[i + 2])) { names[++nn] = "devtrace " t[i + 2]; i += 2 }
	} else {
		if (t[1] !~ /^devtrace/) names[1] = "devtrace-" t[1]
		while (t[i + 1] == "|" && bare(t[i + 2])) { names[++nn] = t[i + 2]; i += 2 }
	}
	for (k = 1; k <= nn; k++) print names[k] "\t"
	for (j = i + 1; j <= n; j++) {
		u = t[j]
		sub(/^\[+/, "", u)
		if (u !~ /^--?[A-Za-z]/) continue
		core = u
		sub(/\]+$/, "", core)
		np = split(core, parts, "|")
		for (p = 1; p <= np; p++) {
			c = parts[p]
			if (c !~ /^--?[A-Za-z]/) continue
			if (c ~ /^-[A-Za-z][A-Za-z]+$/) {
				for (k = 2; k <= length(c); k++) out("-" substr(c, k, 1), names, nn)
				continue
			}
			val = p == np && u !~ /\]$/ && j < n && t[j + 1] !~ /^(-|\[|\||\.\.\.)/
			out(c (val ? "=" : ""), names, nn)
		}
	}
}
function out(f, names, nn,   k) { for (k = 1; k <= nn; k++) print names[k] "\t" f }
!summary { form($0); next }
/^  [a-z]/ {
	s = substr($0, 3)
	name = s; sub(/ .*/, "", name)
	s = substr(s, length(name) + 1)
	n = split(s, w, " ")
	args = ""; depth = 0
	for (i = 1; i <= n; i++) {
		if (depth == 0 && w[i] ~ /^[a-z]+$/ && w[i] != "prog") break
		args = args " " w[i]
		depth += gsub(/\[/, "[", w[i]) - gsub(/\]/, "]", w[i])
	}
	form("devtrace " name args)
}
