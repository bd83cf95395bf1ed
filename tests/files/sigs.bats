#!/usr/bin/env bats
# Typed calls: devtrace sigs reads the signatures from a program's DWARF,
# devtrace run and scripts/flow print its calls with them, predicates
# name its arguments.  fl_types has one function of each type class;
# built with -g0 it has none.
load helper

setup_file() {
	[ -e "$ROOT/lib/libdevtrace.so" ] || return 0
	"$ROOT/bin/devtrace-cc" -O0 -o "$BATS_FILE_TMPDIR/fl_types" "$BATS_TEST_DIRNAME/fl_types.c"
	"$ROOT/bin/devtrace-cc" -O0 -g0 -o "$BATS_FILE_TMPDIR/fl_nodebug" "$BATS_TEST_DIRNAME/fl_types.c"
	"$ROOT/bin/devtrace-cc" -O0 -o "$BATS_FILE_TMPDIR/fl_parse" "$BATS_TEST_DIRNAME/fl_parse.c"
}

@test "sigs: one line per function, each argument's name, class and record word" {
	needlib
	run devtrace sigs "$X/fl_types"
	assert_success
	assert_output - <<-'END'
	main s32
	nothing void
	half f64 d:f64:0 n:s32:1
	sum s64 p:struct16:1 k:s8:3
	paint enum32{0=RED,1=GREEN,7=BLUE} c:enum32{0=RED,1=GREEN,7=BLUE}:1
	flip bool b:bool:1
	upper char c:char:1
	next ptr p:ptr:1
	add u64 x:u64:1 y:u16:2
	neg s32 x:s32:1
	END
}

@test "run -t prints each call typed: signed, unsigned, pointer, char, bool, enum, struct, floating point, void" {
	needlib
	run -65 devtrace run -t '*' -- "$X/fl_types"
	printf '%s\n' "$output" > "$O/out"
	run cut -c36- "$O/out"
	assert_output - <<-'END'
	FUNCTION
	-> main()
	  -> nothing()
	  <- nothing
	  -> neg(x=-4)
	  <- neg = -5
	  -> add(x=18446744073709551615, y=2)
	  <- add = 1
	  -> next(p=0x1000)
	  <- next = 0x1001
	  -> upper(c='a')
	  <- upper = 'A'
	  -> flip(b=false)
	  <- flip = true
	  -> paint(c=GREEN)
	  <- paint = RED
	  -> sum(p={0x1, 0x2}, k=-3)
	  <- sum = 0
	  -> half(d=?, n=1)
	  <- half = ?
	<- main = 65
	END
}

@test "run -o FILE writes the signatures to FILE.sigs, the records unchanged" {
	needlib
	run -65 devtrace run -t neg -o "$O/t" -- "$X/fl_types"
	run devtrace sigs "$X/fl_types"
	assert_equal "$(cat "$O/t.sigs")" "$output"
	run awk '{ print $1, $5 }' "$O/t"
	assert_output - <<-'END'
	E 00000000fffffffc
	X 00000000fffffffb
	END
	run sh -c '"$1/scripts/name" "$2.syms" "$2" | "$1/scripts/flow" -a "$2.sigs" | cut -c36-' sh "$ROOT" "$O/t"
	assert_output - <<-'END'
	FUNCTION
	-> neg(x=-4)
	<- neg = -5
	END
}

@test "a program without debug information: no signatures, the calls untyped" {
	needlib
	run devtrace sigs "$X/fl_nodebug"
	assert_success
	assert_output "devtrace sigs: $X/fl_nodebug: no debug information (build it with -g)"
	run -65 devtrace run -t neg -o "$O/t" -- "$X/fl_nodebug"
	run cat "$O/t.sigs"
	assert_output ""
	run -65 devtrace run -t neg -- "$X/fl_nodebug"
	printf '%s\n' "$output" > "$O/out"
	run cut -c36- "$O/out"
	assert_output - <<-'END'
	FUNCTION
	-> neg
	<- neg
	END
}

@test "sigs with no object: the objects the symbol file names" {
	needlib
	start
	run -65 devtrace run -- "$X/fl_types"
	run devtrace sigs
	assert_success
	assert_line "neg s32 x:s32:1"
}

@test "sigs: an object that cannot be read is an error" {
	run devtrace sigs "$BATS_TEST_TMPDIR/none"
	assert_failure 1
	assert_output "devtrace sigs: $BATS_TEST_TMPDIR/none: No such file or directory"
}

@test "predicates by argument name: run -p, names resolved from the program's debug information" {
	needlib
	# at is parse_*'s first argument: the records of arg0 == 2, the two calls at 2
	run devtrace run --pred 'entry && at == 2' -t 'parse_n*' -t 'parse_t*' -o "$O/byname" -- "$X/fl_parse" '1+2*3'
	assert_success
	run devtrace run --pred 'entry && arg0 == 2' -t 'parse_n*' -t 'parse_t*' -o "$O/byarg" -- "$X/fl_parse" '1+2*3'
	assert_success
	run wc -l < "$O/byname"
	assert_output 2
	assert_equal "$(cut -d' ' -f1,5 "$O/byname")" "$(cut -d' ' -f1,5 "$O/byarg")"
	run -65 devtrace run -t 'neg' -p 'x == -4' -- "$X/fl_types"
	printf '%s\n' "$output" > "$O/out"
	run cut -c36- "$O/out"
	# x is an int: -4 from the word's low 32 bits; the entry decides the whole call, exit and all
	assert_output - <<-'END'
	FUNCTION
	-> neg(x=-4)
	<- neg = -5
	END
}

@test "predicates by argument name: a name the functions lack, or no word holds, is refused" {
	needlib
	run devtrace run -t 'parse_*' -p 'count > 1' -- "$X/fl_parse" 1
	assert_failure 1
	assert_output "devtrace run: -p 'count > 1': not an argument of the trace's functions at column 1"
	run -1 devtrace run -t half -p 'd > 1' -- "$X/fl_types"
	assert_output "devtrace run: -p 'd > 1': an argument no record word holds (floating point, a large struct, past the fourth, or not the same in all the trace's functions) at column 1"
	# add has x and y in words 1 and 2; half has n in word 1 and d in none
	run -1 devtrace run -t '[ah][da][dl]*' -p 'n > 1' -- "$X/fl_types"
	assert_output "devtrace run: -p 'n > 1': an argument no record word holds (floating point, a large struct, past the fourth, or not the same in all the trace's functions) at column 1"
}

@test "predicates by argument name in the control language: the attached programs' names, kept as written" {
	needlib
	start
	run -65 devtrace run -- "$X/fl_types"
	devtrace ctl 'trace neg new n'
	devtrace ctl 'trace n pred /x < 0/'
	run sh -c "devtrace state | grep '^trace n pred'"
	assert_output "trace n pred /x < 0/"
	# through tracectl: devtraced names them too
	echo 'trace n pred /x > 0 && x < 9/' > "$D/tracectl"
	run sh -c "devtrace state | grep '^trace n pred'"
	assert_output "trace n pred /x > 0 && x < 9/"
	run devtrace ctl 'trace n pred /count > 0/'
	assert_failure 1
	assert_output - <<-'END'
	devtrace ctl: trace n pred /count > 0/: trace: not an argument of the trace's functions
	  count > 0
	  ^
	END
	run sh -c "echo 'trace n pred /count > 0/' > '$D/tracectl'"
	assert_failure
	# next has p, neg has x: a pattern over both has neither in all
	devtrace ctl 'trace ne* new ne'
	run devtrace ctl 'trace ne pred /x < 0/'
	assert_failure 1
	assert_line --index 0 "devtrace ctl: trace ne pred /x < 0/: trace: an argument no record word holds (floating point, a large struct, past the fourth, or not the same in all the trace's functions)"
}

# a program with one function, fl_ren(int NAME), built at path $1
buildren() {
	printf 'int __attribute__((noinline)) fl_ren(int %s) { return %s + 1; }\nint main(int c, char **v) { (void)v; return fl_ren(c) - c - 1; }\n' "$2" "$2" > "$O/ren.c"
	"$ROOT/bin/devtrace-cc" -O0 -o "$1" "$O/ren.c"
}

@test "devtraced reads a program's names again when the program changes on disk (its signatures are kept by path, size and time)" {
	needlib
	start
	buildren "$O/ren" x
	run devtrace run -- "$O/ren"
	assert_success
	echo 'trace fl_ren new r' > "$D/tracectl"
	echo 'trace r pred /x > 0/' > "$D/tracectl"
	run sh -c "echo 'trace r pred /y > 0/' > '$D/tracectl'"
	assert_failure
	buildren "$O/ren.new" y
	mv "$O/ren.new" "$O/ren"
	echo 'trace r pred /y > 0/' > "$D/tracectl"
	run sh -c "devtrace state | grep '^trace r pred'"
	assert_output "trace r pred /y > 0/"
	run sh -c "echo 'trace r pred /x > 0/' > '$D/tracectl'"
	assert_failure
}

@test "a control write goes on while another's predicate waits for a program's debug information (read before the device's lock)" {
	needlib
	start
	cp "$X/fl_types" "$O/prog"
	run -65 devtrace run -- "$O/prog"
	# the symbol file names $O/prog: made a FIFO, reading its DWARF waits for a writer
	mv "$O/prog" "$O/prog.real"
	mkfifo "$O/prog"
	ln "$O/prog" "$O/fifo"
	devtrace ctl 'trace neg new n'
	devtrace ctl 'trace n pred /arg0 > 0/' 2> "$O/pred.err" &
	pred=$!
	BGPIDS="$BGPIDS $pred"
	sleep 1
	run kill -0 "$pred"
	assert_success
	# another writer takes the lock now: while DWARF was read under it, this waited 100 ms and failed
	run devtrace ctl 'trace n on'
	assert_success
	run kill -0 "$pred"
	assert_success
	# the program back, and the reader that waits on the FIFO let go (an end of file)
	mv -f "$O/prog.real" "$O/prog"
	: > "$O/fifo"
	wait "$pred"
	run sh -c "devtrace state | grep '^trace n pred'"
	assert_output "trace n pred /arg0 > 0/"
}
