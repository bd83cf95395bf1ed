#!/usr/bin/env bats
# plots/createplot and plots/distplot: pictures, quickly, without errors;
# every plot, flamegraph too, drawing all of a piped input.
load helper

# picture KIND FILE: FILE is a non-empty PNG or SVG
picture() {
	[ -s "$2" ] || fail "$2 is empty"
	case $1 in
	png) [ "$(head -c 8 "$2" | od -An -c | tr -d ' ')" = '211PNG\r\n032\n' ] || fail "$2 is not a PNG";;
	svg) grep -q '<svg' "$2" || fail "$2 is not an SVG";;
	esac
}

# quiet CMD...: under each awk, CMD succeeds and writes nothing on stderr
quiet() {
	local a
	for a in $AWKS; do
		AWK=$a "$@" 2> "$BATS_TEST_TMPDIR/err" || fail "AWK=$a: failed: $(cat "$BATS_TEST_TMPDIR/err")"
		[ ! -s "$BATS_TEST_TMPDIR/err" ] || fail "AWK=$a: gnuplot said: $(cat "$BATS_TEST_TMPDIR/err")"
	done
}

@test "createplot: PNG and SVG of two processes' threads, no gnuplot error" {
	quiet "$P/createplot" -s "$F/threads.syms" -o "$BATS_TEST_TMPDIR/t.png" "$F/threads.trace"
	picture png "$BATS_TEST_TMPDIR/t.png"
	quiet "$P/createplot" -s "$F/threads.syms" -o "$BATS_TEST_TMPDIR/t.svg" "$F/threads.trace"
	picture svg "$BATS_TEST_TMPDIR/t.svg"
	grep -q '>worker<' "$BATS_TEST_TMPDIR/t.svg"
}

@test "createplot: calls cut by the trace, in us from tracectl" {
	quiet "$P/createplot" -s "$F/midcall.syms" -v "ctl=$F/tracectl" -o "$BATS_TEST_TMPDIR/m.svg" "$F/midcall.trace"
	picture svg "$BATS_TEST_TMPDIR/m.svg"
	grep -q 'time since the first record (us)' "$BATS_TEST_TMPDIR/m.svg"
	quiet "$P/createplot" -s "$F/unfinished.syms" -o "$BATS_TEST_TMPDIR/u.png" "$F/unfinished.trace"
	picture png "$BATS_TEST_TMPDIR/u.png"
}

@test "createplot: without -o, gnuplot input that is the same in every awk" {
	for a in $AWKS; do
		AWK=$a "$P/createplot" -s "$F/recursion.syms" "$F/recursion.trace" > "$BATS_TEST_TMPDIR/$a.gp"
	done
	cmp "$BATS_TEST_TMPDIR/mawk.gp" "$BATS_TEST_TMPDIR/gawk.gp"
	grep -q '^plot ' "$BATS_TEST_TMPDIR/gawk.gp"
	run gnuplot -e "set terminal svg; set output '$BATS_TEST_TMPDIR/p.svg'" "$BATS_TEST_TMPDIR/gawk.gp"
	assert_success
	assert_output ""
}

@test "createplot: -m leaves out short calls" {
	"$P/createplot" -m 0 -s "$F/simple.syms" "$F/simple.trace" > "$BATS_TEST_TMPDIR/all"
	"$P/createplot" -m 300 -s "$F/simple.syms" "$F/simple.trace" > "$BATS_TEST_TMPDIR/some"
	grep -q '(5 calls)' "$BATS_TEST_TMPDIR/all"
	grep -q '(5 calls; 2 under 300 ticks not drawn)' "$BATS_TEST_TMPDIR/some"
}

@test "createplot: 30000 calls in PNG and SVG in less than 10 s each" {
	"$BATS_TEST_DIRNAME/gentrace" 30000 2 > "$BATS_TEST_TMPDIR/big"
	for a in $AWKS; do
		for ext in png svg; do
			start=$(date +%s%N)
			AWK=$a "$P/createplot" -o "$BATS_TEST_TMPDIR/big.$ext" "$BATS_TEST_TMPDIR/big" 2> "$BATS_TEST_TMPDIR/err"
			ms=$(( ($(date +%s%N) - start) / 1000000 ))
			echo "# AWK=$a $ext: $ms ms" >&3
			[ ! -s "$BATS_TEST_TMPDIR/err" ] || fail "$(cat "$BATS_TEST_TMPDIR/err")"
			picture $ext "$BATS_TEST_TMPDIR/big.$ext"
			[ "$ms" -lt 10000 ] || fail "AWK=$a $ext: $ms ms"
		done
	done
}

@test "createplot: an empty trace is an error, and so is a bad output name" {
	fails 1 "no calls" "$P/createplot" -o "$BATS_TEST_TMPDIR/e.png" "$F/empty.trace"
	fails 2 "must end in .png or .svg" "$P/createplot" -o x.pdf "$F/simple.trace"
	fails 1 "cannot read" "$P/createplot" /nonexistent
}

@test "distplot: cumulative distribution and buckets, PNG and SVG" {
	quiet "$P/distplot" -o "$BATS_TEST_TMPDIR/c.png" retval "$F/args.trace"
	picture png "$BATS_TEST_TMPDIR/c.png"
	quiet "$P/distplot" -l -o "$BATS_TEST_TMPDIR/l.svg" retval "$F/args.trace"
	picture svg "$BATS_TEST_TMPDIR/l.svg"
	grep -q '4 at or below 0 not drawn' "$BATS_TEST_TMPDIR/l.svg"
	quiet "$P/distplot" -b -o "$BATS_TEST_TMPDIR/b.png" arg1 "$F/args.trace"
	picture png "$BATS_TEST_TMPDIR/b.png"
}

@test "distplot: no values is an error" {
	fails 1 "no values" "$P/distplot" -o "$BATS_TEST_TMPDIR/e.png" retval "$F/empty.trace"
}

@test "createplot: the axis in ms for a longer trace with a frequency, ticks without" {
	"$BATS_TEST_DIRNAME/gentrace" 3000 1 > "$BATS_TEST_TMPDIR/big"
	run sh -c '"$0" -v hz=1000000 "$1" | grep "^set xlabel"' "$P/createplot" "$BATS_TEST_TMPDIR/big"
	assert_output --regexp '^set xlabel "time since the first record \((ms|s)\)"$'
	run sh -c '"$0" "$1" | grep "^set xlabel"' "$P/createplot" "$BATS_TEST_TMPDIR/big"
	assert_output 'set xlabel "ticks since the first record"'
}

@test "createplot: the paper's form, SYMS MINTICKS TRACE, is -s SYMS -m MINTICKS" {
	for a in $AWKS; do
		AWK=$a "$P/createplot" "$F/simple.syms" 300 "$F/simple.trace" > "$BATS_TEST_TMPDIR/paper"
		AWK=$a "$P/createplot" -s "$F/simple.syms" -m 300 "$F/simple.trace" > "$BATS_TEST_TMPDIR/options"
		cmp "$BATS_TEST_TMPDIR/paper" "$BATS_TEST_TMPDIR/options"
	done
	run grep -c '(5 calls; 2 under 300 ticks not drawn)' "$BATS_TEST_TMPDIR/paper"
	assert_output 1
	fails 2 "minimum twice: -m 1 and 300" "$P/createplot" -m 1 "$F/simple.syms" 300 "$F/simple.trace"
	fails 2 "names twice" "$P/createplot" -s x "$F/simple.syms" 300 "$F/simple.trace"
}

@test "createplot: the paper's command as printed, then gnuplot plotme writes plotme.png" {
	printf 'int leaf(int x){return x+1;}\nint main(void){return leaf(1)-2;}\n' > "$BATS_TEST_TMPDIR/p.c"
	cc -O0 -pie -o "$BATS_TEST_TMPDIR/9k8pf" "$BATS_TEST_TMPDIR/p.c"
	b=$((0x55d4c0000000))
	a() { printf '%x' $((b + 0x$(nm "$BATS_TEST_TMPDIR/9k8pf" | awk -v f="$1" '$3 == f { print $1 }'))); }
	printf 'E %s 1000 7\nE %s 1100 7\nX %s 9000 7\nE %s 9100 7\nX %s 9200 7\nX %s 10000 7\n' \
		"$(a main)" "$(a leaf)" "$(a leaf)" "$(a leaf)" "$(a leaf)" "$(a main)" | "$BATS_TEST_DIRNAME/mktrace" > "$BATS_TEST_TMPDIR/trace"
	cd "$BATS_TEST_TMPDIR"
	run sh -c '"$0" ./9k8pf 4000 ./trace > plotme' "$P/createplot"
	assert_success
	assert_output ""
	run grep -c '(3 calls; 1 under 4000 ticks not drawn)' plotme
	assert_output 1
	run grep -c '^[0-9.]* [0-9.]* "main"$' plotme
	assert_output 1
	run gnuplot plotme
	assert_success
	assert_output ""
	run head -c 4 plotme.png
	assert_output "$(printf '\211PNG')"
}

# piped IN PLOT ARGS...: under each awk, cat IN | PLOT -o x.png ARGS,
# the PNG that broke (a gnuplot that probed the terminals read the
# first lines), with the gnuplot input it drew kept in $BATS_TEST_TMPDIR/AWK.gp
piped() {
	local in=$1 plot=$2 a
	shift 2
	for a in $AWKS; do
		cat -- "$in" | AWK=$a DEVTRACE_PLOTINPUT="$BATS_TEST_TMPDIR/$a.gp" "$plot" -o "$BATS_TEST_TMPDIR/$a.png" "$@" ||
			fail "AWK=$a: $plot $* failed"
		picture png "$BATS_TEST_TMPDIR/$a.png"
	done
}

# block NAME FILE: the lines of the data block $NAME in gnuplot input FILE
block() { sed -n "/^\\\$$1 << EOD\$/,/^EOD\$/p" "$2"; }

@test "flamegraph: a piped input is drawn whole, as from a file" {
	"$S/folded" -s "$F/threads.syms" -v "ctl=$F/tracectl" "$F/threads.trace" > "$BATS_TEST_TMPDIR/f"
	total=$(awk '{ s += $NF } END { print s }' "$BATS_TEST_TMPDIR/f")
	assert_equal "$total" 250
	AWK=gawk "$P/flamegraph" -u ns "$BATS_TEST_TMPDIR/f" > "$BATS_TEST_TMPDIR/file.gp"
	piped "$BATS_TEST_TMPDIR/f" "$P/flamegraph" -u ns
	for a in $AWKS; do
		run grep '^set xlabel' "$BATS_TEST_TMPDIR/$a.gp"
		assert_output "set xlabel \"share of all ns ($total in all), percent\""
		run block boxes "$BATS_TEST_TMPDIR/$a.gp"
		assert_output "$(block boxes "$BATS_TEST_TMPDIR/file.gp")"
	done
}

@test "distplot: a piped input is drawn whole, as from a file, both kinds" {
	n=$(grep -c '^E ' "$F/args.trace")
	assert_equal "$n" 9
	for k in '' -b; do
		# the values as gawk reads them from the file; mawk once made
		# 140737488216080 and 140737488216096 one (6 digits)
		AWK=gawk "$P/distplot" ${k:+"$k"} arg0 "$F/args.trace" > "$BATS_TEST_TMPDIR/file.gp"
		piped "$F/args.trace" "$P/distplot" ${k:+"$k"} arg0
		for a in $AWKS; do
			run grep '^set title' "$BATS_TEST_TMPDIR/$a.gp"
			assert_output "set title \"arg0 in standard input ($n values)\" noenhanced"
			run sed -n '/<< EOD$/,$p' "$BATS_TEST_TMPDIR/$a.gp"
			assert_output "$(sed -n '/<< EOD$/,$p' "$BATS_TEST_TMPDIR/file.gp")"
		done
	done
}

@test "createplot: a piped input is drawn whole, every thread, as from a file" {
	n=$("$S/durations" "$F/threads.trace" | wc -l)
	assert_equal "$n" 7
	AWK=gawk "$P/createplot" -m 0 -s "$F/threads.syms" "$F/threads.trace" > "$BATS_TEST_TMPDIR/file.gp"
	piped "$F/threads.trace" "$P/createplot" -m 0 -s "$F/threads.syms"
	for a in $AWKS; do
		run grep '^set title' "$BATS_TEST_TMPDIR/$a.gp"
		assert_output "set title \"call timeline of standard input ($n calls)\" noenhanced"
		run grep '^set ytics' "$BATS_TEST_TMPDIR/$a.gp"
		assert_output 'set ytics ("tid 400" 0.5, "tid 301" 2.1, "tid 300" 4.7)'
		run block bars "$BATS_TEST_TMPDIR/$a.gp"
		assert_output "$(block bars "$BATS_TEST_TMPDIR/file.gp")"
		run block labels "$BATS_TEST_TMPDIR/$a.gp"
		assert_output "$(block labels "$BATS_TEST_TMPDIR/file.gp")"
	done
}

@test "plots: DEVTRACE_PLOTINPUT keeps what gnuplot drew, without -o nothing" {
	DEVTRACE_PLOTINPUT="$BATS_TEST_TMPDIR/kept.gp" "$P/distplot" -o "$BATS_TEST_TMPDIR/d.svg" arg0 "$F/args.trace"
	run grep -c '^set output ' "$BATS_TEST_TMPDIR/kept.gp"
	assert_output 1
	DEVTRACE_PLOTINPUT="$BATS_TEST_TMPDIR/none.gp" "$P/distplot" arg0 "$F/args.trace" > /dev/null
	[ ! -e "$BATS_TEST_TMPDIR/none.gp" ] || fail "without -o, DEVTRACE_PLOTINPUT was written"
}
