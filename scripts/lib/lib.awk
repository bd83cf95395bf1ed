# lib.awk: what the devtrace scripts share.  Loaded first with -f, before
# each script's own program.  Portable awk (mawk and gawk): no strtonum,
# no bit operations, no asort, and numbers are printed with %.0f because
# mawk's %d stops at 2^31-1.
#
# A record is "E|X|P|W pc ticks pid a1 a2 a3 a4", every field 16 hex digits;
# after scripts/name the pc may be a function name.  Numbers are doubles,
# exact below 2^53: ticks (2^40..2^50 today), pcs and pids fit.  Values
# that may use all 64 bits (arguments, return values) are kept as hex
# strings and handled digit by digit where exactness matters.

BEGIN { libinit() }
/^#host [0-9]+ [^ \t]+$/ { HOSTNAME[$2 + 0] = $3 }
# The program's clock.  Under policy block a hook may wait for the
# reader; the device then writes, after the record that waited, a W
# record "W pc ticks tid waited 0 0 0": ticks when the wait ended,
# waited how many ticks it took.  Every script that computes times
# takes a thread's waits out, as devtrace report does (cmd/calls.c):
# WAITED[t] sums thread t's waits so far and its later records are at
# progtick(t), their ticks less that sum, so a call that held a wait
# lasts that much less, its callers too, and a thread's times still only
# grow.  WAITS and WAITSUM count them all (report's last line).  A rule
# here, before every script's own, so that none can miss a wait; no
# `next`: name passes W lines on, and no other script has a rule for
# them (a wait is no call).
$1 == "W" && NF == 8 { WAITED[$4] += hexval($5); WAITSUM += hexval($5); WAITS++ }
function progtick(t) { return tickval($3) - WAITED[t] }

function libinit(   i, j, a, b) {
	HEXD = "0123456789abcdef"
	for (i = 0; i < 16; i++) {
		a = substr(HEXD, i + 1, 1)
		HX1[a] = i
		for (j = 0; j < 16; j++) {
			b = substr(HEXD, j + 1, 1)
			HX2[a b] = i * 16 + j
		}
	}
	# bit length of one hex digit
	split("1 2 2 3 3 3 3 4 4 4 4 4 4 4 4", BL1, " ")
	BL1[0] = 0
	T64 = 2 ^ 64
}

function die(msg) {
	print PROG ": " msg > "/dev/stderr"
	DIED = 1
	exit 2
}

# a record line: E (entry), X (exit), P (a static probe) or W (a wait), seven fields
function isrec() { return ($1 == "E" || $1 == "X" || $1 == "P" || $1 == "W") && NF == 8 }
function ishex16(s) { return length(s) == 16 && s ~ /^[0-9a-fA-F]+$/ }

# hexval: the unsigned number a hex string stands for (exact below 2^53);
# two digits per step, by table.
function hexval(s,   v, i, n) {
	s = tolower(s)
	n = length(s)
	v = 0
	i = 1
	if (n % 2) { v = HX1[substr(s, 1, 1)]; i = 2 }
	for (; i < n; i += 2)
		v = v * 256 + HX2[substr(s, i, 2)]
	return v
}

# hexneg: a 16-digit value with the top bit set is negative as int64
function hexneg(s) { return length(s) == 16 && HX1[tolower(substr(s, 1, 1))] >= 8 }

# hexabs: the magnitude of a negative int64, as hex: ~s + 1, digit by digit
function hexabs(s,   i, d, c, r) {
	s = tolower(s)
	r = ""
	c = 1
	for (i = length(s); i >= 1; i--) {
		d = 15 - HX1[substr(s, i, 1)] + c
		c = d >= 16
		r = substr(HEXD, d % 16 + 1, 1) r
	}
	return r
}

function hextrim(s) { s = tolower(s); sub(/^0+/, "", s); return s == "" ? "0" : s }

# hexsigned: the int64 value, approximate beyond 2^53
function hexsigned(s) { return hexneg(s) ? -hexval(hexabs(s)) : hexval(s) }

# hexbits: bit length of an unsigned hex string: from its digit count and
# leading digit, so exact for every 64-bit value
function hexbits(s) {
	s = hextrim(s)
	if (s == "0") return 0
	return 4 * (length(s) - 1) + BL1[HX1[substr(s, 1, 1)]]
}

# hexdiv: unsigned s / n (n a positive integer below 2^48), as trimmed hex
function hexdiv(s, n,   i, r, q, d) {
	s = tolower(s)
	r = 0
	q = ""
	for (i = 1; i <= length(s); i++) {
		r = r * 16 + HX1[substr(s, i, 1)]
		d = int(r / n)
		r -= d * n
		q = q substr(HEXD, d + 1, 1)
	}
	return hextrim(q)
}

# hexdec: exact unsigned decimal of a hex string, in limbs of 10^7
function hexdec(s,   i, j, n, c, v, L, r) {
	s = tolower(s)
	n = 1
	L[1] = 0
	for (i = 1; i <= length(s); i++) {
		c = HX1[substr(s, i, 1)]
		for (j = 1; j <= n; j++) {
			v = L[j] * 16 + c
			L[j] = v % 10000000
			c = int(v / 10000000)
		}
		if (c) L[++n] = c
	}
	r = sprintf("%.0f", L[n])
	for (j = n - 1; j >= 1; j--) r = r sprintf("%07.0f", L[j])
	return r
}

# hexsdec: exact signed (int64) decimal of a 16-digit hex string
function hexsdec(s) { return hexneg(s) ? "-" hexdec(hexabs(s)) : hexdec(s) }

# Fields by name.  fieldsel sets F_COL and F_TYPE: arg0..arg3 are fields
# 5..8 of E records, retval is field 5 of X records; names valid on both
# record types, and bare numbers, take every line that has the field.
function fieldsel(spec) {
	F_TYPE = ""
	F_NAME = spec
	if (spec ~ /^arg[0-3]$/) { F_COL = 5 + substr(spec, 4); F_TYPE = "E" }
	else if (spec == "retval") { F_COL = 5; F_TYPE = "X" }
	else if (spec == "type") F_COL = 1
	else if (spec == "pc" || spec == "func" || spec == "name") F_COL = 2
	else if (spec == "ticks") F_COL = 3
	else if (spec == "pid" || spec == "tid") F_COL = 4
	else if (spec ~ /^[1-9][0-9]*$/) F_COL = spec + 0
	else return 0
	return 1
}

# fieldhere: this line carries the selected field
function fieldhere() { return F_TYPE == "" ? NF >= F_COL : ($1 == F_TYPE && NF == 8) }

# Power-of-two buckets, as DTrace's quantize(): key 0 holds 0, key k > 0
# holds [2^(k-1), 2^k), key -k holds (-2^k, -2^(k-1)].  v is a 16-digit
# hex value (int64, or unsigned if uns) or a decimal number (as the
# columns of scripts/durations); "" if v is neither.
function bucket(v, uns,   n) {
	if (ishex16(v)) {
		if (!uns && hexneg(v)) return -hexbits(hexabs(v))
		return hexbits(v)
	}
	if (v !~ /^-?[0-9]+$/) return ""
	if (v ~ /^-/) return -bucket(substr(v, 2), uns)
	v += 0
	for (n = 0; v >= 1; n++) v = int(v / 2)
	return n
}
function bucketval(k) { return k == 0 ? 0 : k > 0 ? 2 ^ (k - 1) : -(2 ^ (-k - 1)) }

# The value of a field as a number, for plotting: int64 unless uns.
function numval(v, uns) {
	if (ishex16(v)) return uns ? hexval(v) : hexsigned(v)
	if (v ~ /^-?[0-9]+(\.[0-9]*)?$/) return v + 0
	return ""
}

# Time.  timeinit reads the cycle counter frequency from -v hz=N, or from
# the "#hz N" line of a tracectl file given with -v ctl=FILE; with one,
# times are shown in ns, else in ticks.
function timeinit(   line, n, f) {
	UNIT = "ticks"
	SCALE = 1
	if (hz == "" && ctl != "") {
		while ((n = (getline line < ctl)) > 0)
			if (line ~ /^#hz[ \t]/) { split(line, f, " "); hz = f[2] }
		if (n < 0) die("cannot read " ctl)
		close(ctl)
		if (hz == "") die(ctl ": no #hz line")
	}
	if (hz != "") {
		if (hz !~ /^[0-9]+(\.[0-9]*)?$/ || hz + 0 <= 0) die("bad hz: " hz)
		SCALE = 1e9 / hz
		UNIT = "ns"
	}
}
function fmtt(t) { return t == "" ? "-" : sprintf("%.0f", t * SCALE) }

# Ticks.  Cycle counters pass 2^53 after about a month at 3 GHz, so a
# tick is held as the distance from the first one seen, computed from
# the two 8-digit halves: exact while a trace spans less than 2^53
# ticks.  tickabs gives the absolute value back, exact in ticks (a
# decimal addition), to the nearest ns in ns.
function tickval(s) {
	if (!TB_SET) {
		TB_SET = 1
		if (length(s) == 16) {
			TBH = hexval(substr(s, 1, 8))
			TBL = hexval(substr(s, 9, 8))
			TBDEC = hexdec(s)
		} else { TBH = 0; TBL = hexval(s); TBDEC = sprintf("%.0f", TBL) }
	}
	if (length(s) != 16) return hexval(s) - (TBH * 4294967296 + TBL)
	return (hexval(substr(s, 1, 8)) - TBH) * 4294967296 + (hexval(substr(s, 9, 8)) - TBL)
}
function tickabs(t,   n, hi, lo, c) {
	if (t == "") return "-"
	if (SCALE != 1) return sprintf("%.0f", (TBH * 4294967296 + TBL + t) * SCALE)
	# TBDEC + t, with TBDEC split at 10^15 so both parts stay exact
	n = length(TBDEC)
	hi = n > 15 ? substr(TBDEC, 1, n - 15) + 0 : 0
	lo = (n > 15 ? substr(TBDEC, n - 14) : TBDEC) + t
	c = lo >= 0 ? int(lo / 1e15) : -int((-lo + 1e15 - 1) / 1e15)
	lo -= c * 1e15
	hi += c
	return hi > 0 ? sprintf("%.0f%015.0f", hi, lo) : sprintf("%.0f", hi * 1e15 + lo)
}

# Thread ids print in decimal; the hex string is the key.
function tidname(t,   h) {
	if (!(t in TIDDEC))
		TIDDEC[t] = (h = tidhost(t)) ? (h in HOSTNAME ? HOSTNAME[h] : h) "/" tidlocal(t) : ishex16(t) ? sprintf("%.0f", hexval(t)) : t
	return TIDDEC[t]
}
# A merged stream (devtrace merge) marks each thread with its host: the
# host's number N in the top 16 bits of the field, named by a comment
# line "#host N NAME" (the rule below, before every script's own).
# tidhost: that number, 0 in one host's trace; tidlocal: the thread on its host.
function tidhost(t) { return ishex16(t) ? hexval(substr(t, 1, 4)) : 0 }
function tidlocal(t) { return ishex16(t) ? sprintf("%.0f", hexval(substr(t, 5))) : t }

# Call stacks, one per thread t.  NS[t] frames; frame i holds SF function,
# ST start tick and SC the inclusive ticks of its finished callees, and
# is at depth BASE[t] + i.  THR[1..NTHR] lists threads as first seen.
#
# The rules, used by every script that pairs records:
#  - an X closes the nearest frame of its function from the top (so
#    recursion pairs innermost first);
#  - frames above that one get no X of their own: they are unfinished
#    (a longjmp past them, or their X was lost);
#  - an X with no frame of its function is an orphan: its call began
#    before the trace (or its E was lost or filtered).  It is put one
#    level below the stack; on an empty stack BASE drops by one, so a
#    trace started inside main -> run -> loop draws loop, run and main
#    under the calls they made (depths -1, -2, -3);
#  - frames left at the end are unfinished.
# An unfinished callee's time stays in its caller's exclusive time.
function callnew(t) {
	if (!(t in NS)) { NS[t] = 0; BASE[t] = 0; THR[++NTHR] = t }
}
function callenter(t, fn, tick,   i) {
	callnew(t)
	i = NS[t]++
	SF[t, i] = fn
	ST[t, i] = tick
	SC[t, i] = 0
	ACT[t, fn]++
	return BASE[t] + i
}
function callfind(t, fn,   i) {
	callnew(t)
	for (i = NS[t] - 1; i >= 0; i--)
		if (SF[t, i] == fn) return i
	return -1
}
# callpop: pop t's top frame, ended at tick ("" if it never ended); sets
# C_FN C_DEPTH C_START C_END C_INCL C_EXCL, and C_OUTER when no other call
# of the same function is open below it (for totals that count
# recursion once).
function callpop(t, tick,   i) {
	i = --NS[t]
	C_FN = SF[t, i]
	C_DEPTH = BASE[t] + i
	C_START = ST[t, i]
	C_OUTER = --ACT[t, C_FN] == 0
	if (C_OUTER) delete ACT[t, C_FN]
	if (tick == "") C_END = C_INCL = C_EXCL = ""
	else {
		C_END = tick
		C_INCL = tick - C_START
		C_EXCL = C_INCL - SC[t, i]
		if (i > 0) SC[t, i - 1] += C_INCL
	}
	delete SF[t, i]
	delete ST[t, i]
	delete SC[t, i]
}
# calldepth: the depth of what happens inside t's top frame (a probe's
# hit: a P record is no call and opens no frame)
function calldepth(t) { callnew(t); return BASE[t] + NS[t] }
# probevals: a P record's four values, signed decimal, one space apart
function probevals() { return hexsdec($5) " " hexsdec($6) " " hexsdec($7) " " hexsdec($8) }
# callorphan: the depth of an orphan X in thread t
function callorphan(t) {
	callnew(t)
	if (NS[t] == 0) return --BASE[t]
	return BASE[t] - 1
}
