# helper.bash: what the predicate tests share.  Each test has its own
# device directory and server (FUSE, as a user has it); teardown kills
# what it started in the background, stops its server, and fails the
# test if a mount is left behind.
bats_require_minimum_version 1.5.0
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
export PATH=$ROOT/bin:$PATH

# the fixture, built once per run of the file, and two copies of it
# under other names for execname
setup_file() {
	local x=$BATS_FILE_TMPDIR
	"$ROOT/bin/devtrace-cc" -O1 -g -Wall -Wextra -Werror -o "$x/fx_io" "$BATS_TEST_DIRNAME/fx_io.c"
	cp "$x/fx_io" "$x/fxa"
	cp "$x/fx_io" "$x/fxb"
}

setup() {
	export DEVTRACE_DIR=$BATS_TEST_TMPDIR/dev
	D=$DEVTRACE_DIR
	T=$BATS_TEST_TMPDIR
	# shellcheck disable=SC2034 # for the tests
	X=$BATS_FILE_TMPDIR
	BGPIDS=
	NSPAWN=0
	[ -e "$ROOT/lib/libdevtrace.so" ] || skip "needs lib/libdevtrace.so"
}

teardown() {
	local p
	for p in $BGPIDS; do kill -9 "$p" 2>/dev/null || true; done
	devtrace stop 2>/dev/null || true
	if mounted "$D"; then
		umount -l "$D" 2>/dev/null || fusermount3 -u -z "$D" 2>/dev/null || true
		echo "stale mount left on $D" >&2
		return 1
	fi
}

mounted() {
	awk -v d="$1" '$2 == d { f = 1 } END { exit !f }' /proc/mounts
}

# a server with the trace io on and started
server() {
	devtraced -n
	ctl trace io new io
	ctl trace io on
	ctl start
}

# one command line, as echo does
ctl() {
	echo "$*" > "$D/tracectl"
}

# the predicate of trace io: pred /EXPR/ (or nothing: remove it)
pred() {
	if [ $# -eq 0 ]; then
		ctl trace io pred
	else
		printf 'trace io pred /%s/\n' "$1" > "$D/tracectl"
	fi
}

counter() {
	awk -v k="#$1" '$1 == k { print $2 }' "$D/tracectl"
}

# the state's command lines, without the counters
commands() {
	grep -v '^#' "$D/tracectl"
}

# a record line: E or X, seven fields of 16 lowercase hex digits
wellformed() {
	awk 'length($0) != 120 || $0 !~ /^[EX]( [0-9a-f]{16}){7}$/ { bad++ } END { exit bad > 0 }' "$@"
}

# run the fixture attached: fx [devtrace run args...], its output in $T/out
fx() {
	devtrace run "$@" > "$T/out" 3>&-
}

# spawn VAR PROG ARG...: a process that waits for $T/go and then becomes
# devtrace run PROG ARG... (exec all the way: VAR gets the pid its records
# will carry, known before it attaches, so a predicate can name it
# before the process reads the device's state)
spawn() {
	local var=$1
	shift
	NSPAWN=$((NSPAWN + 1))
	bash -c 'while ! [ -e "$1" ]; do sleep 0.005; done; shift; exec devtrace run "$@"' \
		_ "$T/go" "$@" > "$T/out.$NSPAWN" 3>&- &
	BGPIDS="$BGPIDS $!"
	printf -v "$var" %d $!
}

# let the spawned processes go; wait for each and check it ran to the end
go() {
	local p st=0
	touch "$T/go"
	for p in $BGPIDS; do
		wait "$p" || st=1
	done
	BGPIDS=
	rm -f "$T/go"
	return $st
}

# the records, consumed from trace, raw in $T/raw, decoded in $T/recs:
#   E TID NAME ARG0 ARG1 ARG2 ARG3
#   X TID NAME RETVAL        (the other three fields are 0; else all shown)
# in decimal, NAME from the symbol file (the pc when not found there)
records() {
	cat "$D/trace" > "$T/raw"
	cat "$D/syms" > "$T/syms"
	wellformed "$T/raw"
	awk '
		function h(s,  i, v) {
			v = 0
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v
		}
		NR == FNR { name[$1] = $2; next }
		{
			n = ($2 in name) ? name[$2] : $2
			if ($1 == "E" || $6 $7 $8 != z)
				printf "%s %d %s %d %d %d %d\n", $1, h($4), n, h($5), h($6), h($7), h($8)
			else
				printf "X %d %s %d\n", h($4), n, h($5)
		}' z=000000000000000000000000000000000000000000000000 "$T/syms" "$T/raw" > "$T/recs"
}

# the records a fixture run makes for io: want PID FD [SIZE...] ; E and X
# of each size in order (every size when none is given)
all() {
	local p=$1 fd=$2 i=0 s
	for s in 1 100 4095 4096 5000 65536; do
		echo "E $p io $fd $s 65 $i"
		echo "X $p io $((s * 2))"
		i=$((i + 1))
	done
}

# only the E records of all, or only the X records
ents() { all "$@" | grep '^E'; }
exits() { all "$@" | grep '^X'; }
