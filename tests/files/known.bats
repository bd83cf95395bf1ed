#!/usr/bin/env bats
# Times a user can trust: fl_known's calls measure their own time (the
# clock at their first and last statement), three threads one after
# another; what run -t, replay and report show of the same calls, the
# first of each thread included, and the outer calls' self times, must
# be within Tol ns of it: the hooks' own part of a call is about 100 ns
# here; a runtime set-up, a page fault (27 us on a VM here) or a wait
# for the reader inside a call is far past it.  Best of 3 runs: a
# preemption between a hook's clock and the function's own (seen under a
# parallel build) fails one run, a cost of the tracer's fails all three.
load helper

Tol=1500

setup_file() {
	buildfl known
}

# the flow's exits (TID TIME DUR <- FN) against the program's own lines
# (TID FN NS), pairing the k-th of each thread and function; an outer
# call's self time is its duration less its inner call's.  Prints each
# miss and the count of calls compared; exits 1 on a miss or a count
# other than 30 (3 threads, 5 outer and 5 inner calls each).
againstflow() {
	awk -v tol="$Tol" '
	FNR == NR { k = $1 SUBSEP $2; own[k, ++nown[k]] = $3; next }
	$4 == "<-" && NF == 5 {
		k = $1 SUBSEP $5; i = ++nseen[k]; n++
		if (!((k, i) in own)) { print "call " i " of " $5 " in " $1 ": the program knows no such call"; bad = 1; next }
		d = $3 - own[k, i]
		if (d > tol || d < -tol) { print $5 " call " i " of thread " $1 ": shown " $3 " ns, its own " own[k, i]; bad = 1 }
		dur[k, i] = $3
		if ($5 == "fl_outer") {
			ik = $1 SUBSEP "fl_inner"
			d = ($3 - dur[ik, i]) - (own[k, i] - own[ik, i])
			if (d > tol || d < -tol) { print "fl_outer call " i " of thread " $1 ": self " ($3 - dur[ik, i]) " ns, its own " (own[k, i] - own[ik, i]); bad = 1 }
		}
	}
	END { print n + 0 " calls compared"; exit bad || n != 30 }' "$1" "$2"
}

# report's rows (FUNCTION CALLS TOTAL SELF MIN AVG MAX) against the
# program's own: MIN and MAX within Tol, TOTAL and SELF within Tol a call
againstreport() {
	awk -v tol="$Tol" '
	FNR == NR {
		f = $2; n[f]++; tot[f] += $3
		if (!(f in mn) || $3 < mn[f]) mn[f] = $3
		if ($3 > mx[f]) mx[f] = $3
		next
	}
	$1 == "fl_outer" || $1 == "fl_inner" {
		f = $1; rows++
		self = f == "fl_outer" ? tot[f] - tot["fl_inner"] : tot[f]
		if ($2 != n[f]) { print f ": " $2 " calls, the program made " n[f]; bad = 1 }
		if ($3 - tot[f] > tol * n[f] || tot[f] - $3 > tol * n[f]) { print f ": TOTAL " $3 ", its own " tot[f]; bad = 1 }
		if ($4 - self > tol * n[f] || self - $4 > tol * n[f]) { print f ": SELF " $4 ", its own " self; bad = 1 }
		if ($5 - mn[f] > tol || mn[f] - $5 > tol) { print f ": MIN " $5 ", its own " mn[f]; bad = 1 }
		if ($7 - mx[f] > tol || mx[f] - $7 > tol) { print f ": MAX " $7 ", its own " mx[f]; bad = 1 }
	}
	END { print rows + 0 " functions compared"; exit bad || rows != 2 }' "$1" "$2"
}

# besttry CMD: CMD runs fl_known and compares once; passes when one of 3 runs does
besttry() {
	local i
	for i in 1 2 3; do
		echo "run $i:" >> "$O/tries"
		"$1" >> "$O/tries" 2>&1 && return 0
	done
	fail "in each of 3 runs a shown time was more than $Tol ns from the call's own:
$(cat "$O/tries")"
}

runt() {
	devtrace run -t 'fl_*' -- "$X/fl_known" > "$O/out" || return 1
	grep -v -e '->' -e '<-' -e 'TID' "$O/out" > "$O/own"
	againstflow "$O/own" "$O/out"
}

replayed() {
	rm -f "$O/rec"
	devtrace record -t 'fl_*' -o "$O/rec" -- "$X/fl_known" > "$O/own" 2> /dev/null || return 1
	devtrace replay "$O/rec" > "$O/out" || return 1
	againstflow "$O/own" "$O/out"
}

reported() {
	rm -f "$O/rec"
	devtrace record -t 'fl_*' -o "$O/rec" -- "$X/fl_known" > "$O/own" 2> /dev/null || return 1
	devtrace report "$O/rec" > "$O/out" || return 1
	againstreport "$O/own" "$O/out"
}

# A thread's first call is where a cost of the runtime's lands: a whole
# 4 MiB ring faulted in at the thread's first hit evicts the caches and
# the TLB its first call then refills (0.8-2.1 us over here), hence the
# ring's steps (NOTES rt/, "Time belongs to the call").  Known failure
# (tests/tapsum: TODO): on a quiet machine or beside one CPU hog each
# passes; beside a second make test (make test-fresh runs two at once)
# the process's first call, cold code and data of the hook path, was
# 1.6-2.0 us over in each of 3 replay runs.
@test "run -t: every call within 1.5 us of its own time, each thread's first and the callers' self times included # TODO the process's first call 1.6-2.0 us over beside a second make test" {
	needlib
	besttry runt
}

@test "replay: every call within 1.5 us of its own time, each thread's first and the callers' self times included # TODO the process's first call 1.6-2.0 us over beside a second make test" {
	needlib
	besttry replayed
}

@test "report: CALLS exact, MIN, MAX within 1.5 us, TOTAL and SELF within 1.5 us a call of the calls' own" {
	needlib
	besttry reported
}
