#!/usr/bin/env bats
# Values as their type: where the program's debug information gives a
# function's types, predicates read arg0..arg3 and retval as C values
# (signed ones sign-extended from their width, unsigned ones not);
# without it, and where a pattern's functions disagree, the raw words.
# fl_signed's calls: neg(22) = -22, neg(-5) = 5, neg(0) = 0,
# negu(22) = 4294967274, down(-3, 4), down(2, -7), tiny(-2, true),
# tiny(9, false), level(-8) = LOW (-1), level(0) = MID.
load helper

setup_file() {
	[ -e "$ROOT/lib/libdevtrace.so" ] || return 0
	"$ROOT/bin/devtrace-cc" -O0 -g -o "$BATS_FILE_TMPDIR/fl_signed" "$BATS_TEST_DIRNAME/fl_signed.c"
	"$ROOT/bin/devtrace-cc" -O0 -g0 -o "$BATS_FILE_TMPDIR/fl_signednodebug" "$BATS_TEST_DIRNAME/fl_signed.c"
}

# devtrace run -t $1 -p $2 on program $3 (fl_signed): the flow without its time columns, and the records in $O/t
flow() {
	run devtrace run -t "$1" -p "$2" -o "$O/t" -- "$X/${3:-fl_signed}"
	assert_success
	run sh -c '"$1/scripts/name" "$2.syms" "$2" | "$1/scripts/flow" -a "$2.sigs" | cut -c36-' sh "$ROOT" "$O/t"
}

@test "retval < 0 and retval == -22 on an int function: the call that returned -22" {
	needlib
	flow neg 'retval < 0'
	assert_output - <<-'END'
	FUNCTION
	<- neg = -22 (no entry)
	END
	run awk '{ print $1, $5 }' "$O/t"
	assert_output "X 00000000ffffffea"
	flow neg 'retval == -22'
	assert_output - <<-'END'
	FUNCTION
	<- neg = -22 (no entry)
	END
	# the word is no longer what an int compares as
	flow neg 'retval == 0xffffffea'
	assert_output ""
}

@test "arg0 < 0 on a short and on an int parameter, arg1 < 0 on an int" {
	needlib
	flow down 'arg0 < 0'
	assert_output - <<-'END'
	FUNCTION
	-> down(s=-3, i=4)
	<- down = 1
	END
	flow down 'arg1 < 0'
	assert_output - <<-'END'
	FUNCTION
	-> down(s=2, i=-7)
	<- down = -5
	END
	flow neg 'entry && arg0 < 0'
	assert_output - <<-'END'
	FUNCTION
	-> neg(x=-5)
	<- neg (no exit)
	END
}

@test "an unsigned int is not sign-extended: 4294967274 stays so" {
	needlib
	flow negu 'retval == 4294967274'
	assert_output - <<-'END'
	FUNCTION
	<- negu = 4294967274 (no entry)
	END
	flow negu 'retval < 0'
	assert_output ""
}

@test "a signed char, a bool, an enum with a negative value" {
	needlib
	flow tiny 'arg0 < 0 && arg1 == 1'
	assert_output - <<-'END'
	FUNCTION
	-> tiny(c=-2, b=true)
	<- tiny = -2
	END
	flow level 'retval < 0'
	assert_output - <<-'END'
	FUNCTION
	<- level = LOW (no entry)
	END
}

@test "without debug information, or where the pattern's functions disagree: the raw words" {
	needlib
	run devtrace run -t neg -p 'retval < 0' -o "$O/t" -- "$X/fl_signednodebug"
	assert_success
	run wc -l < "$O/t"
	assert_output 0
	run devtrace run -t neg -p 'retval == 0xffffffea' -o "$O/t" -- "$X/fl_signednodebug"
	assert_success
	run awk '{ print $1, $5 }' "$O/t"
	assert_output "X 00000000ffffffea"
	# neg's int and negu's unsigned: retval is the word for both
	run devtrace run -t 'neg*' -p 'retval == 0xffffffea' -o "$O/t" -- "$X/fl_signed"
	assert_success
	run awk '{ print $1, $5 }' "$O/t"
	assert_output - <<-'END'
	X 00000000ffffffea
	X 00000000ffffffea
	END
	# level's enum (signed: LOW is -1), negu's unsigned, neg's int: whichever comes first, the words
	run devtrace run -t '*e*' -p 'retval < 0' -o "$O/t" -- "$X/fl_signed"
	assert_success
	run wc -l < "$O/t"
	assert_output 0
	run devtrace run -t '*e*' -p 'retval == 0xffffffff' -o "$O/t" -- "$X/fl_signed"
	assert_success
	run wc -l < "$O/t"
	assert_output 1
}
