# unchecked.awk: flag checks in bats @test bodies that cannot fail the test.
# usage: awk -f unchecked.awk FILE.bats...; prints FILE:LINE: why, and
# exits 1 if it printed anything.
#
# bats fails a test through errexit (set -e and an ERR trap), and errexit
# ignores a command negated with ! and every command of an && list but
# the last.  So in a @test body
#	! mounted "$D"			never fails (use: run ! mounted "$D")
#	[ "$a" = 1 ] && [ "$b" = 2 ]	checks only $b (one check a line)
# ShellCheck (SC2314, SC2315) finds a bare ! at the top of a test, but not
# one inside a loop, nor any && list: this finds both.
#
# A line is read as the shell does, enough for this: quotes, $( ), ${ },
# [[ ]] and (( )) are passed over (their && and ! are not commands), so
# are comments and here-documents; a command goes on over a line that
# ends inside a quote or with a backslash.  The conditions of if, elif,
# while and until are not checks and are left alone.

FNR == 1 { intest = 0; heredoc = ""; reset() }

function reset() {
	sp = 0; stk[0] = "top"; cmd = ""; start = 0
}

# the text of line s that is at the top level (in the test's own shell),
# with what is inside quotes or substitutions made "_"; the context stack
# (stk, sp) goes on from one line to the next
function toplevel(s,   out, i, n, c, c2, ctx, word) {
	out = ""
	n = length(s)
	word = 1			# at the start of a word: # begins a comment
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		c2 = substr(s, i, 2)
		ctx = stk[sp]
		if (ctx == "sq") {
			if (c == "'") sp--
			c = "_"
		} else if (ctx == "dq") {
			if (c == "\\") i++
			else if (c == "\"") sp--
			else if (c2 == "$(") { stk[++sp] = "sub"; i++ }
			else if (c2 == "${") { stk[++sp] = "brace"; i++ }
			c = "_"
		} else if (ctx == "brace") {
			if (c == "}") sp--
			else if (c == "\"") stk[++sp] = "dq"
			else if (c == "'") stk[++sp] = "sq"
			c = "_"
		} else {		# top, a $( ) or a ( ) in one
			if (c == "#" && word) break
			if (c == "\\") { i++; c = "_" }
			else if (c == "'") { stk[++sp] = "sq"; c = "_" }
			else if (c == "\"") { stk[++sp] = "dq"; c = "_" }
			else if (c2 == "$(") { stk[++sp] = "sub"; i++; c = "_" }
			else if (c2 == "${") { stk[++sp] = "brace"; i++; c = "_" }
			else if (c == "(" && ctx != "top") { stk[++sp] = "paren"; c = "_" }
			else if (c == ")" && ctx != "top") { sp--; c = "_" }
			else if (ctx != "top") c = "_"
			word = c ~ /[ \t;&|(]/
		}
		out = out c
	}
	return out
}

# the checks that cannot fail in one command line t (top-level text)
function judge(t, line,   head, rest) {
	# [[ ]] and (( )) are one command each, whatever && they hold
	gsub(/\[\[([^\]]|\][^\]])*\]\]/, "[[_]]", t)
	gsub(/\(\(([^)]|\)[^)])*\)\)/, "((_))", t)
	# a condition decides, it does not check: blank it up to then or do
	while (match(t, /(^|[;&|({ \t])(if|elif|while|until)[ \t]/)) {
		head = substr(t, 1, RSTART + RLENGTH - 1)
		rest = substr(t, RSTART + RLENGTH)
		sub(/(if|elif|while|until)[ \t]$/, "cond ", head)
		if (match(rest, /;[ \t]*(then|do)([ \t;]|$)/))
			rest = substr(rest, RSTART)
		else
			rest = ""
		t = head rest
	}
	if (t ~ /&&/)
		report(line, "an && list: only its last command can fail the test; one check a line")
	if (t ~ /(^|[;&|({]|(^|[ \t])(do|then|else))[ \t]*![ \t]/ || t ~ /^[ \t]*!$/)
		report(line, "a bare !: it never fails the test; use run ! CMD, or [ ! ... ]")
}

function report(line, why) {
	printf "%s:%d: %s\n", FILENAME, line, why
	bad = 1
}

# a here-document's body is data
heredoc != "" {
	s = $0
	sub(/^\t*/, "", s)
	if (s == heredoc) heredoc = ""
	next
}

/^@test / { intest = 1; reset(); next }
intest && sp == 0 && /^}/ { intest = 0; next }
!intest { next }

{
	if (!start) start = FNR
	cmd = cmd toplevel($0) " "
	# (not a here-string, <<<)
	if (match($0, /(^|[^<])<<-?[ \t]*['"]?[A-Za-z_][A-Za-z_0-9]*/)) {
		heredoc = substr($0, RSTART, RLENGTH)
		sub(/^[^<]?<<-?[ \t]*['"]?/, "", heredoc)
	}
	# a command goes on inside a quote or substitution, or after a backslash
	if (sp > 0 || $0 ~ /\\$/) next
	judge(cmd, start)
	cmd = ""; start = 0
}

END { exit bad }
