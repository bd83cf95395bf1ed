#!/usr/bin/env bats
# A predicate that reads only what an entry knows (arguments, named or
# not, pid, depth, ...) keeps or drops whole calls: a kept call's exit
# is recorded with its return value, in each session that kept its
# entry and in no other; one that reads retval decides at each hit.
# fl_whole calls fl_step(flags) for flags 1..6, returning flags * 10 + 1.
load helper

setup_file() {
	buildfl whole
}

# the flow without the columns that vary (tid, time, duration)
calls() {
	cut -c36- "$1"
}

# a record file's calls, a line a record: "E arg0" or "X retval", in decimal
records() {
	awk '{ print $1, strtonum("0x" $5) }' "$1"
}

@test "run -p on a named argument keeps the whole calls it passes: entries, exits, return values" {
	needlib
	run devtrace run -t fl_step -p 'flags > 3' -- "$X/fl_whole"
	assert_success
	printf '%s\n' "$output" > "$O/out"
	run calls "$O/out"
	assert_output - <<-'END'
	
	FUNCTION
	-> fl_step(flags=4)
	<- fl_step = 41
	-> fl_step(flags=5)
	<- fl_step = 51
	-> fl_step(flags=6)
	<- fl_step = 61
	END
	run head -1 "$O/out"
	assert_output 216
}

@test "two sessions on one function with different entry predicates: each gets exactly its own whole calls" {
	needlib
	start
	exec 5<>"$D/clone"
	read -r a <&5
	# session a: flags 1, 2 and 6; devtrace run's own session: 4, 5 and 6
	printf '%s\n' 'trace fl_step new w' 'trace w pred /arg0 <= 2 || arg0 == 6/' 'trace w on' 'start' >&5
	run devtrace run -t fl_step -p 'flags > 3' -- "$X/fl_whole"
	assert_success
	printf '%s\n' "$output" > "$O/out"
	run calls "$O/out"
	assert_output - <<-'END'
	
	FUNCTION
	-> fl_step(flags=4)
	<- fl_step = 41
	-> fl_step(flags=5)
	<- fl_step = 51
	-> fl_step(flags=6)
	<- fl_step = 61
	END
	cat "$D/$a/trace" > "$O/a"
	run records "$O/a"
	assert_output - <<-'END'
	E 1
	X 11
	E 2
	X 21
	E 6
	X 61
	END
	# a: three calls dropped whole at their entries, two hits each
	run awk '$1 == "#filtered" { print $2 }' "$D/$a/ctl"
	assert_output 6
	exec 5<&-
}

@test "run -p on retval decides at each hit: the exits that pass, with no entries" {
	needlib
	run devtrace run -t fl_step -p 'retval > 40' -- "$X/fl_whole"
	assert_success
	printf '%s\n' "$output" > "$O/out"
	run calls "$O/out"
	assert_output - <<-'END'
	
	FUNCTION
	<- fl_step = 41 (no entry)
	<- fl_step = 51 (no entry)
	<- fl_step = 61 (no entry)
	END
}
