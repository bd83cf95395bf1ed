#!/usr/bin/env bats
# The paper's three uses on a real program, end to end: tools/uses builds
# Lua 5.4 from Debian's source with devtrace-cc (tools/fetch-lua: apt-get
# source, so the network is a real dependency and its absence a failure),
# traces it on its own device, and runs the scripts and plots, all under
# mawk (awk itself is mawk too).  The tests check what is deterministic.
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
S=$ROOT/scripts
P=$ROOT/plots

setup_file() {
	local u=$BATS_FILE_TMPDIR/u rc=0
	mkdir -p "$BATS_FILE_TMPDIR/mawk"
	ln -sf "$(command -v mawk)" "$BATS_FILE_TMPDIR/mawk/awk"
	PATH=$BATS_FILE_TMPDIR/mawk:$PATH AWK=mawk "$ROOT/tools/uses" -o "$u" \
		> "$BATS_FILE_TMPDIR/transcript" 2> "$BATS_FILE_TMPDIR/stderr" 3>&- || rc=$?
	echo $rc > "$BATS_FILE_TMPDIR/rc"
}

teardown_file() {
	DEVTRACE_DIR=$BATS_FILE_TMPDIR/u/dev "$ROOT/bin/devtrace" stop > /dev/null 2>&1 || true
	if awk -v d="$BATS_FILE_TMPDIR/u/dev" '$2 == d { f = 1 } END { exit !f }' /proc/mounts; then
		umount -l "$BATS_FILE_TMPDIR/u/dev" 2> /dev/null || true
		echo "stale mount left on $BATS_FILE_TMPDIR/u/dev" >&2
		return 1
	fi
}

setup() {
	U=$BATS_FILE_TMPDIR/u
	T=$BATS_TEST_TMPDIR
}

# counter STATEFILE NAME: a counter of a saved tracectl
counter() {
	awk -v k="#$2" '$1 == k { print $2 }' "$1"
}

# both AWKS: the same output from mawk and gawk, and nothing on stderr
bothawks() {
	local a
	for a in mawk gawk; do
		AWK=$a "$@" > "$T/$a.out" 2> "$T/$a.err" || fail "AWK=$a $*: exit $?: $(cat "$T/$a.err")"
		[ ! -s "$T/$a.err" ] || fail "AWK=$a $*: stderr: $(cat "$T/$a.err")"
	done
	cmp -s "$T/mawk.out" "$T/gawk.out" || { diff "$T/mawk.out" "$T/gawk.out" >&2; fail "mawk and gawk differ: $*"; }
}

@test "tools/uses builds Lua from Debian's source, traces it and plots, with nothing on stderr" {
	rc=$(cat "$BATS_FILE_TMPDIR/rc")
	[ "$rc" = 0 ] || fail "tools/uses: exit $rc
$(tail -30 "$BATS_FILE_TMPDIR/transcript")
$(cat "$BATS_FILE_TMPDIR/stderr")
$(tail -20 "$U/lua-build.log" 2>/dev/null)"
	[ ! -s "$BATS_FILE_TMPDIR/stderr" ] || fail "stderr: $(cat "$BATS_FILE_TMPDIR/stderr")"
	for h in '== (a) ' '== (b) ' '== (c) ' '$ bin/devtrace stop'; do
		grep -qF -- "$h" "$BATS_FILE_TMPDIR/transcript" || fail "no '$h' in the transcript"
	done
}

@test "l_alloc survives -O2 as a symbol with its hook site, and the device saw it" {
	run nm "$U/lua/lua"
	assert_output --regexp '(^|
)[0-9a-f]+ t l_alloc(
|$)'
	grep -q ' l_alloc ' "$U/syms"
	# the patchable entry: 7 bytes of NOPs before the body
	a=$(nm "$U/lua/lua" | awk '$3 == "l_alloc" { print $1 }')
	run objdump -d --start-address="0x$a" --stop-address="$(printf '0x%x' $((0x$a + 7)))" "$U/lua/lua"
	[ "$(printf '%s\n' "$output" | grep -c '	nop *$')" -eq 7 ]
}

@test "the traced Lua prints what the untraced one prints" {
	run cat "$U/plain.out"
	assert_output "$(printf '1000\tkey00000\tkey00499\tkey00999')"
	for f in a b c1 c2; do
		cmp "$U/plain.out" "$U/$f.out"
	done
}

@test "no record lost: #lost is 0 and every hit was read" {
	for s in a b c; do
		[ "$(counter "$U/$s.state" lost)" = 0 ] || fail "$s: #lost $(counter "$U/$s.state" lost)"
		[ "$(counter "$U/$s.state" reentered)" = 0 ]
		[ "$(counter "$U/$s.state" deep)" = 0 ]
		h=$(counter "$U/$s.state" hits) r=$(counter "$U/$s.state" read) q=$(counter "$U/$s.state" queued)
		[ "$h" -eq $((r + q)) ]
		[ "$q" -eq "$(wc -l < "$U/$s.trace")" ]
	done
	# each state's read is what the earlier uses took out of trace
	[ "$(counter "$U/b.state" read)" -eq "$(wc -l < "$U/a.trace")" ]
	[ "$(counter "$U/c.state" read)" -eq $(($(wc -l < "$U/a.trace") + $(wc -l < "$U/b.trace"))) ]
}

@test "every record is 121 bytes and every E has its X: durations finds no unfinished call" {
	for s in a b c; do
		# E, X, and W: the marks of the writers' waits (the ring's next pages)
		run awk 'length($0) != 120 || $1 !~ /^[EXW]$/ || NF != 8' "$U/$s.trace"
		assert_output ''
		[ "$(grep -c '^E' "$U/$s.trace")" -eq "$(grep -c '^X' "$U/$s.trace")" ]
	done
	bothawks "$S/durations" "$U/a.named"
	[ "$(wc -l < "$T/mawk.out")" -eq $(($(grep -c '^[EX]' "$U/a.trace") / 2)) ]
	run awk '$4 == "-" || $5 == "-" || $6 == "-"' "$T/mawk.out"
	assert_output ''
	bothawks "$S/durations" "$U/b.trace" "$U/c.trace"
	run grep -c -- ' - ' "$T/mawk.out"
	assert_output 0
}

@test "(a) the sort window: one call of sort, and each comparison goes sort_comp, lua_compare, luaV_lessthan, l_strcmp" {
	run grep -c '^E sort ' "$U/sort.trace"
	assert_output 1
	head -1 "$U/sort.trace" | grep -q '^E sort '
	tail -1 "$U/sort.trace" | grep -q '^X sort '
	bothawks "$S/report" -v ctl="$U/a.state" "$U/sort.trace"
	run awk '$1 == "sort" { print $2 }' "$T/mawk.out"
	assert_output 1
	n=$(awk '$1 == "sort_comp" { print $2 }' "$T/mawk.out")
	[ "$n" -ge 1000 ]
	for f in lua_compare luaV_lessthan l_strcmp; do
		[ "$(awk -v f=$f '$1 == f { print $2 }' "$T/mawk.out")" = "$n" ] || fail "$f calls differ from sort_comp's $n"
	done
	# auxsort is recursive: its callees are stacked several deep
	run sh -c "'$S/durations' '$U/sort.trace' | awk '\$2 == \"auxsort\" && \$3 > d { d = \$3 } END { print (d >= 5) }'"
	assert_output 1
}

@test "(a) the timeline PNG and SVG: real pictures, under 200 KB, gnuplot quiet" {
	[ "$(head -c 8 "$U/timeline.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]
	[ "$(wc -c < "$U/timeline.png")" -gt 10000 ]
	[ "$(wc -c < "$U/timeline.png")" -lt 200000 ]
	grep -q '<svg' "$U/timeline.svg"
	grep -q 'auxsort' "$U/timeline.svg"
	grep -q 'table.sort of 1000 strings' "$U/timeline.svg"
	AWK=gawk run --separate-stderr "$P/createplot" -v ctl="$U/a.state" -o "$T/t.png" "$U/sort.trace"
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	[ -s "$T/t.png" ]
}

@test "(b) the histogram of nsize counts every entry of l_alloc, frees in the 0 row" {
	n=$(wc -l < "$U/b.alloc")
	[ "$n" -gt 1000 ]
	[ "$(grep -c '^E' "$U/b.trace")" -eq "$n" ]	# only l_alloc was traced
	bothawks "$S/histogram" arg3 "$U/b.alloc"
	cmp "$T/mawk.out" "$U/b.hist"
	[ "$(awk 'NR > 1 { s += $NF } END { print s }' "$U/b.hist")" -eq "$n" ]
	frees=$(awk '$8 == "0000000000000000"' "$U/b.alloc" | wc -l)
	[ "$(awk '$1 == "0" { print $NF }' "$U/b.hist")" -eq "$frees" ]
	# the 1000 strings "keyNNNNN": 24-byte header + 8 characters + NUL
	[ "$(awk '$8 == "0000000000000021"' "$U/b.alloc" | wc -l)" -ge 1000 ]
	# lua_close frees every block: as many frees of a block as new blocks
	[ "$(awk '$6 == "0000000000000000" && $8 != "0000000000000000"' "$U/b.alloc" | wc -l)" -eq \
	  "$(awk '$6 != "0000000000000000" && $8 == "0000000000000000"' "$U/b.alloc" | wc -l)" ]
	[ "$(head -c 8 "$U/allocsizes.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]
	[ "$(wc -c < "$U/allocsizes.png")" -lt 200000 ]
	grep -q '<svg' "$U/allocsizes.svg"
	AWK=gawk run --separate-stderr "$P/distplot" -l -o "$T/d.png" arg3 "$U/b.alloc"
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
}

@test "(c) the page count has exactly two processes, and adds up to every entry" {
	bothawks "$S/count" pid,arg1/4096 "$U/c.alloc"
	cmp "$T/mawk.out" "$U/c.count"
	run awk 'NR > 1 { p[$1] = 1 } END { for (k in p) n++; print n }' "$U/c.count"
	assert_output 2
	[ "$(awk 'NR > 1 { s += $3 } END { print s }' "$U/c.count")" -eq "$(wc -l < "$U/c.alloc")" ]
	# the two pids are the two processes that ran, each a whole run of work.lua
	[ "$(awk '{ print $4 }' "$U/c.trace" | sort -u | wc -l)" -eq 2 ]
	while read -r p; do
		[ "$(awk -v p="$p" '$1 == p && $2 == 0 { print $3 }' "$U/c.count")" -gt 1000 ]
	done < <(awk 'NR > 1 { print $1 }' "$U/c.count" | sort -u)
	# same program, same work: each process made as many calls as (b)'s
	n=$(wc -l < "$U/b.alloc")
	run sh -c "awk 'NR > 1 { s[\$1] += \$3 } END { for (p in s) print s[p] }' '$U/c.count'"
	assert_output "$n
$n"
}

@test "Lua traced with typed arguments: lua_State *L, int and size_t, from its debug information" {
	DEVTRACE_DIR=$T/dev run "$ROOT/bin/devtrace" run -t lua_createtable -t luaS_newlstr -- \
		"$U/lua/lua" -e 'local t = table.pack(1, 2, 3) local s = string.rep("ab", 40)'
	assert_success
	printf '%s\n' "$output" | cut -c36- | sed 's/^ *//' > "$T/raw"
	# one Lua state: every call's L is the same pointer
	run sh -c "grep -o 'L=0x[0-9a-f]*' '$T/raw' | sort -u | wc -l"
	assert_output 1
	run sed 's/0x[0-9a-f]*/0xN/g' "$T/raw"
	# table.pack(1, 2, 3): lua_createtable(L, 3, 1), a void function
	assert_line "-> lua_createtable(L=0xN, narray=3, nrec=1)"
	assert_line "<- lua_createtable"
	refute_line --partial "<- lua_createtable ="
	# string.rep("ab", 40): an 80-byte string, its TString returned
	assert_line "-> luaS_newlstr(L=0xN, str=0xN, l=80)"
	assert_line "<- luaS_newlstr = 0xN"
}
