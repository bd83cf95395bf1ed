#!/usr/bin/env bats
# Triggers and speculations (devtrace(4)) on traced programs, records
# compared exactly: their values and order, the #triggered line, the
# #untriggered and #spec* counters.  The fixtures are built without PIE,
# so a record's pc is the function's address in nm.
load helper

setup_file() {
	[ -e "$ROOT/lib/libdevtrace.so" ] || return 0
	local f
	for f in parse threads; do
		"$ROOT/bin/devtrace-cc" -O0 -g -no-pie -o "$BATS_FILE_TMPDIR/fl_$f" "$BATS_TEST_DIRNAME/fl_$f.c"
	done
}

# the top level's records as "E|X NAME ARG0|RETVAL", fields 5 and 6 too with -6
named() {
	awk -v six="${2:-}" 'NR == FNR { if ($2 ~ /^[Tt]$/) fn[$1] = $3; next }
		{ pc = $2; sub(/^0+/, "", pc); print $1, (pc in fn ? fn[pc] : $2), $5 (six ? " " $6 : "") }' \
		<(nm --defined-only "$X/fl_$1" | sed 's/^0*//') "$D/trace"
}

# the state's lines whose first word is one of $@
statelines() {
	local pat
	pat=$(printf '%s|' "$@")
	grep -E "^(${pat%|})( |$)" "$D/tracectl" | cut -d' ' -f1,2
}

# "#triggered NAME FUNCTION": the trigger's line with the pc named
triggered() {
	awk '$1 == "#triggered" { print $1, $2, $3 }' "$D/tracectl" | while read -r k n pc; do
		echo "$k $n $(nm --defined-only "$X/fl_$1" | awk -v pc="$pc" '$1 "" == pc { print $3 }')"
	done
}

@test "trigger stop after 1: the ring keeps the 15 records up to the firing hit's and 1 after, then the device stops" {
	needlib
	start
	ctl size 4
	ctl trace 'parse_*' new p
	ctl trace p trigger stop after 1 '/!entry && retval == 42/'
	ctl trace p on
	ctl start
	run devtrace run -- "$X/fl_parse" '1+2*3+40+42+7'
	assert_success
	assert_output 96
	run named parse
	assert_output - <<-'END'
	X parse_num 0000000000000001
	X parse_term 0000000000000001
	E parse_term 0000000000000002
	E parse_num 0000000000000002
	X parse_num 0000000000000002
	E parse_num 0000000000000004
	X parse_num 0000000000000003
	X parse_term 0000000000000006
	E parse_term 0000000000000006
	E parse_num 0000000000000006
	X parse_num 0000000000000028
	X parse_term 0000000000000028
	E parse_term 0000000000000009
	E parse_num 0000000000000009
	X parse_num 000000000000002a
	X parse_term 000000000000002a
	END
	run triggered parse
	assert_output '#triggered p parse_num'
	run statelines stop start
	assert_output stop
	assert_equal "$(counter untriggered)" 0
}

@test "trigger stop after 1: before it fires the ring holds the newest 16 records, in order; start lets records through again" {
	needlib
	start
	ctl size 4
	ctl trace 'parse_*' new p
	ctl trace p trigger stop after 1 '/!entry && retval == 998/'
	ctl trace p on
	ctl start
	run devtrace run -- "$X/fl_parse" '1+2*3'
	assert_success
	run named parse
	assert_output - <<-'END'
	E parse_expr 0000000000000000
	E parse_term 0000000000000000
	E parse_num 0000000000000000
	X parse_num 0000000000000001
	X parse_term 0000000000000001
	E parse_term 0000000000000002
	E parse_num 0000000000000002
	X parse_num 0000000000000002
	E parse_num 0000000000000004
	X parse_num 0000000000000003
	X parse_term 0000000000000006
	X parse_expr 0000000000000007
	END
	run triggered parse
	assert_output ''
	run statelines stop start
	assert_output start
	# (read: the records above are gone) fires at parse_num's 998, keeps parse_term's after it, and stops: the 5 after are not written (nor counted: not in flight)
	run devtrace run -- "$X/fl_parse" '998+2'
	assert_success
	run named parse
	assert_output - <<-'END'
	E parse_expr 0000000000000000
	E parse_term 0000000000000000
	E parse_num 0000000000000000
	X parse_num 00000000000003e6
	X parse_term 00000000000003e6
	END
	run triggered parse
	assert_output '#triggered p parse_num'
	run statelines stop start
	assert_output stop
	# start again: the trigger stays fired, records pass
	ctl start
	run devtrace run -- "$X/fl_parse" '5'
	assert_success
	run named parse
	assert_output - <<-'END'
	E parse_expr 0000000000000000
	E parse_term 0000000000000000
	E parse_num 0000000000000000
	X parse_num 0000000000000005
	X parse_term 0000000000000005
	X parse_expr 0000000000000005
	END
	run statelines stop start
	assert_output start
}

@test "trigger start: no record before the firing hit's, that one and every later one written, the held-back counted" {
	needlib
	start
	ctl trace 'parse_*' new p
	ctl trace p trigger start '/entry && arg0 == 4/'
	ctl trace p on
	ctl start
	run devtrace run -- "$X/fl_parse" '1+2*3'
	assert_success
	assert_output 7
	run named parse
	assert_output - <<-'END'
	E parse_num 0000000000000004
	X parse_num 0000000000000003
	X parse_term 0000000000000006
	X parse_expr 0000000000000007
	END
	run triggered parse
	assert_output '#triggered p parse_num'
	assert_equal "$(counter untriggered)" 8
}

@test "speculation committed by return value under two threads: only the committed calls, each E then X, and the counters exact" {
	needlib
	start
	ctl trace fl_work new w
	ctl trace w speculate /entry/
	ctl trace w commit '/!entry && retval >= 1000007/'
	ctl trace w discard '/!entry && retval < 1000007/'
	ctl trace w on
	ctl start
	run devtrace run -- "$X/fl_threads" 2 10
	assert_success
	assert_output 10000090
	run named threads -6
	assert_output - <<-'END'
	E fl_work 0000000000000001 0000000000000007
	X fl_work 00000000000f4247 0000000000000000
	E fl_work 0000000000000001 0000000000000008
	X fl_work 00000000000f4248 0000000000000000
	E fl_work 0000000000000001 0000000000000009
	X fl_work 00000000000f4249 0000000000000000
	END
	assert_equal "$(counter specheld)" 40
	assert_equal "$(counter speccommitted)" 6
	assert_equal "$(counter specdiscarded)" 34
	assert_equal "$(counter specnoroom)" 0
}

@test "a speculation on the older of two overlapping patterns takes its function's hits (the oldest trace selects, however often it changed)" {
	needlib
	start
	ctl size 16
	ctl trace parse_expr new e
	ctl trace 'parse_*' new p
	ctl trace e on
	ctl trace p on
	ctl trace e speculate /entry/
	ctl trace e commit '/!entry && retval > 100/'
	ctl trace e discard '/!entry && retval <= 100/'
	ctl start
	run devtrace run -- "$X/fl_parse" '1+2'
	assert_success
	run devtrace run -- "$X/fl_parse" '50*3'
	assert_success
	run named parse
	assert_output - <<-'END'
	E parse_expr 0000000000000000
	E parse_term 0000000000000000
	E parse_num 0000000000000000
	X parse_num 0000000000000032
	E parse_num 0000000000000003
	X parse_num 0000000000000003
	X parse_term 0000000000000096
	X parse_expr 0000000000000096
	END
	assert_equal "$(counter specheld)" 18
	assert_equal "$(counter speccommitted)" 8
	assert_equal "$(counter specdiscarded)" 10
}
