# sigs.awk: typed calls from a signature file (devtrace sigs), loaded
# after lib.awk by the scripts that take -a SIGS.  A line of SIGS is
# "NAME RET ARG..." with ARG "name:class:word"; the record's argument
# word 1-4 holds the argument, 0 none of them.  Registers narrower than
# 64 bits leave the upper bits undefined, so a value is read from the
# low bytes of its class only.

# siginit: SIG[name] = "RET ARG...", from file f; a name given two
# different signatures (static functions of one name) stays untyped.
function siginit(f,   l, n, name, rest) {
	while ((n = (getline l < f)) > 0) {
		if (l ~ /^#/ || split(l, SIGF, " ") < 2) continue
		name = SIGF[1]
		rest = substr(l, length(name) + 2)
		if ((name in SIG) && SIG[name] != rest) SIGBAD[name] = 1
		SIG[name] = rest
	}
	if (n < 0) die("cannot read " f)
	close(f)
	for (name in SIGBAD) delete SIG[name]
}

# sigargs: the arguments of an entry of fn whose words are w1..w4, as
# SA_NAME[1..n] and SA_VAL[1..n]; n, or -1 if fn's signature is unknown
function sigargs(fn, w1, w2, w3, w4,   n, i, p, W, k) {
	if (!(fn in SIG)) return -1
	W[1] = w1; W[2] = w2; W[3] = w3; W[4] = w4
	n = split(SIG[fn], SIGF, " ")
	for (i = 2; i <= n; i++) {
		split(SIGF[i], p, ":")
		k = p[3] + 0
		SA_NAME[i - 1] = p[1]
		SA_VAL[i - 1] = k < 1 || k + sigwords(p[2]) - 1 > 4 ? "?" : sigval(p[2], W[k], W[k + 1])
	}
	return n - 1
}

# sigcall: "fn(name=value, ...)", or fn if its signature is unknown
function sigcall(fn, w1, w2, w3, w4,   n, i, s) {
	if ((n = sigargs(fn, w1, w2, w3, w4)) < 0) return fn
	s = ""
	for (i = 1; i <= n; i++) s = s (i > 1 ? ", " : "") SA_NAME[i] "=" SA_VAL[i]
	return fn "(" s ")"
}

# sigretval: the value fn returned in rv, "" for void or an unknown
# signature; floating point and structs are not in the return register
# the record keeps: "?"
function sigretval(fn, rv,   c) {
	if (!(fn in SIG)) return ""
	c = SIG[fn]
	sub(/ .*/, "", c)
	if (c == "void") return ""
	if (c ~ /^(f[0-9]|struct|other)/) return "?"
	return sigval(c, rv)
}

# sigret: " = value" for an exit, or ""
function sigret(fn, rv,   v) { v = sigretval(fn, rv); return v == "" ? "" : " = " v }

# sigwords: how many record words a value of class c takes
function sigwords(c) { return c ~ /^struct/ ? int((substr(c, 7) + 7) / 8) : 1 }

# siglow: the low bits of a 16-digit word, as hex digits
function siglow(w, bits) { return substr(tolower(w), 17 - bits / 4) }

# sigval: word w (and w2, a struct's second) shown as class c
function sigval(c, w, w2,   v, b) {
	if (c == "ptr" || c == "other") return "0x" hextrim(w)
	if (c == "bool") return siglow(w, 8) == "00" ? "false" : "true"
	if (c == "char") return sigchar(HX2[siglow(w, 8)])
	if (c ~ /^struct/) return "{0x" hextrim(w) (sigwords(c) > 1 ? ", 0x" hextrim(w2) : "") "}"
	if (c ~ /^enum/) return sigenum(c, w)
	b = substr(c, 2) + 0
	if (c ~ /^s/) { v = siglow(w, b); return HX1[substr(v, 1, 1)] >= 8 ? "-" hexdec(hexabs(v)) : hexdec(v) }
	if (c ~ /^u/) return hexdec(siglow(w, b))
	return "0x" hextrim(w)
}

# sigchar: a char as C writes it: 'a', '\n', '\x01'
function sigchar(n) {
	if (n == 39 || n == 92) return "'\\" sprintf("%c", n) "'"
	if (n >= 32 && n < 127) return "'" sprintf("%c", n) "'"
	if (n == 10) return "'\\n'"
	if (n == 9) return "'\\t'"
	if (n == 0) return "'\\0'"
	return sprintf("'\\x%02x'", n)
}

# sigenum: the enumerator of class "enumN{v=NAME,...}" whose value the
# word holds, by its signed or unsigned reading; the number if none
function sigenum(c, w,   b, v, s, u, body, n, i, e, q) {
	b = substr(c, 5) + 0
	v = siglow(w, b)
	u = hexdec(v)
	s = HX1[substr(v, 1, 1)] >= 8 ? "-" hexdec(hexabs(v)) : u
	if (!((c, "") in ENUMSEEN)) {
		ENUMSEEN[c, ""] = 1
		body = c
		sub(/^[^{]*\{/, "", body)
		sub(/\}$/, "", body)
		n = split(body, e, ",")
		for (i = 1; i <= n; i++) {
			split(e[i], q, "=")
			if (!((c, q[1]) in ENUMNAME)) ENUMNAME[c, q[1]] = q[2]
		}
	}
	if ((c, s) in ENUMNAME) return ENUMNAME[c, s]
	if ((c, u) in ENUMNAME) return ENUMNAME[c, u]
	return s
}
