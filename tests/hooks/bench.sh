#!/bin/sh
# bench.sh: the cost of a hook site, as bench/RESULTS ("Hook cost") reports it.
#   make build/tests/hooks/fx_bench build/tests/hooks/fx_bench_plain \
#	build/tests/hooks/fx_bench_classic build/tests/hooks/fx_bench_probe \
#	build/tests/hooks/devshm lib/libdevtrace.so
#   tests/hooks/bench.sh [N]
# Prints ns per call of a tiny function (median of 5 runs) and, with
# valgrind, instructions per call, for: no hooks, NOP sleds, sites off
# (attached, skip-branch), one site on (E+X), and the classic hooks; a
# static probe in a function without a site, off (attached) and on (P);
# then the same site selected by one session alone, and by the top level
# and one or two sessions.
root=$(cd "$(dirname "$0")/../.." && pwd)
H=$root/build/tests/hooks
L=$root/lib/libdevtrace.so
n=${1:-100000000}
export DEVTRACE_DIR="${TMPDIR:-/tmp}/devtrace-bench.$$"
"$H/devshm" "$DEVTRACE_DIR" create 16
trap '"$H/devshm" "$DEVTRACE_DIR" destroy' EXIT

fresh=:	# run before every run of a row
ns() {	# median ns/call of 5 runs
	for _ in 1 2 3 4 5; do $fresh; "$@" 2>&1 >/dev/null | awk '{ print $1 }'; done | sort -n | sed -n 3p
}
ir() {	# instructions per call: the difference of two run lengths
	$fresh
	a=$(valgrind --tool=callgrind --trace-children=yes --smc-check=all --callgrind-out-file=/dev/null "$@" 100000 2>&1 | awk '/refs/ { gsub(",", "", $NF); print $NF }' | tail -1)
	$fresh
	b=$(valgrind --tool=callgrind --trace-children=yes --smc-check=all --callgrind-out-file=/dev/null "$@" 200000 2>&1 | awk '/refs/ { gsub(",", "", $NF); print $NF }' | tail -1)
	echo "$a $b" | awk '{ printf "%.1f\n", ($2 - $1) / 100000 }'
}
row() {	# name, quick N, command...
	name=$1 m=$2; shift 2
	t=$(ns "$@" "$m")
	i=-; command -v valgrind >/dev/null && i=$(ir "$@")
	printf '%-34s %8s ns/call %6s instructions/call\n' "$name" "$t" "$i"
}

row "no hooks (plain cc)" "$n" "$H/fx_bench_plain"
row "NOP sleds, no runtime" "$n" "$H/fx_bench"
row "sites off (attached, jmp .+7)" "$n" env LD_PRELOAD="$L" "$H/fx_bench"
row "a probe off (attached, jmp .+7)" "$n" env LD_PRELOAD="$L" "$H/fx_bench_probe"
row "classic, glibc's empty hooks" "$n" "$H/fx_bench_classic"
row "classic, attached, stopped" "$n" env LD_PRELOAD="$L" "$H/fx_bench_classic"
"$H/devshm" "$DEVTRACE_DIR" ctl trace work new w
"$H/devshm" "$DEVTRACE_DIR" ctl trace w on
"$H/devshm" "$DEVTRACE_DIR" ctl start
row "one site on: E+X per call" $((n / 10)) env LD_PRELOAD="$L" "$H/fx_bench"
row "classic on: E+X per call" $((n / 10)) env LD_PRELOAD="$L" "$H/fx_bench_classic"
"$H/devshm" "$DEVTRACE_DIR" ctl trace w pred /arg0 == 1/
row "one site on, predicate false" $((n / 10)) env LD_PRELOAD="$L" "$H/fx_bench"
"$H/devshm" "$DEVTRACE_DIR" ctl trace probe:work new p
"$H/devshm" "$DEVTRACE_DIR" ctl trace p on
row "a probe on: P per call" $((n / 10)) env LD_PRELOAD="$L" "$H/fx_bench_probe"
# the same site selected by sessions too (devtrace(4) "Sessions"): a record in each;
# first by one session alone, the top level stopped (devtrace record's, run -t's case)
"$H/devshm" "$DEVTRACE_DIR" ctl trace w pred
for k in 1 2; do
	s=$("$H/devshm" "$DEVTRACE_DIR" clone $$)
	"$H/devshm" "$DEVTRACE_DIR" sessctl "$s" trace work new w
	"$H/devshm" "$DEVTRACE_DIR" sessctl "$s" trace w on
	"$H/devshm" "$DEVTRACE_DIR" sessctl "$s" start
	if [ $k = 1 ]; then
		"$H/devshm" "$DEVTRACE_DIR" ctl stop
		row "one session alone, top level off" $((n / 10)) env LD_PRELOAD="$L" "$H/fx_bench"
		"$H/devshm" "$DEVTRACE_DIR" ctl start
	fi
	row "one site on, and in $k session(s)" $((n / 10)) env LD_PRELOAD="$L" "$H/fx_bench"
done
# policy block (devtrace(4) "policy"), as make bench's lossless full trace
# runs it, on a device of its own whose rings hold every record of a run
# (no reader here: a ring that filled would measure the wait); each run
# starts on empty rings (size empties them).
B=$DEVTRACE_DIR.block
"$H/devshm" "$B" create 20
trap '"$H/devshm" "$DEVTRACE_DIR" destroy; "$H/devshm" "$B" destroy' EXIT
"$H/devshm" "$B" ctl size 20
"$H/devshm" "$B" ctl policy block
"$H/devshm" "$B" ctl trace work new w
"$H/devshm" "$B" ctl trace w on
"$H/devshm" "$B" ctl start
empty() { "$H/devshm" "$B" ctl size 20; }
fresh=empty
row "one site on, policy block" 200000 env DEVTRACE_DIR="$B" LD_PRELOAD="$L" "$H/fx_bench"
