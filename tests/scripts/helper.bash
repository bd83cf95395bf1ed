# helper.bash: loaded by every test of scripts/ and plots/.
load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
S=$ROOT/scripts
P=$ROOT/plots
F=$ROOT/tests/fixtures/traces
G=$BATS_TEST_DIRNAME/golden
AWKS="mawk gawk"

# golden NAME CMD...: under each awk, CMD exits 0, writes nothing on
# stderr, and its output is golden/NAME.  UPDATE_GOLDEN=1 rewrites the
# file from gawk's output (then read it and check it by hand).
golden() {
	local name=$1 a rc order=$AWKS
	shift
	[ -z "$UPDATE_GOLDEN" ] || order="gawk mawk"
	for a in $order; do
		rc=0
		AWK=$a "$@" > "$BATS_TEST_TMPDIR/out" 2> "$BATS_TEST_TMPDIR/err" || rc=$?
		[ $rc -eq 0 ] || fail "AWK=$a: exit $rc: $(cat "$BATS_TEST_TMPDIR/err")"
		[ ! -s "$BATS_TEST_TMPDIR/err" ] || fail "AWK=$a: stderr: $(cat "$BATS_TEST_TMPDIR/err")"
		if [ -n "$UPDATE_GOLDEN" ] && [ "$a" = gawk ]; then cp "$BATS_TEST_TMPDIR/out" "$G/$name"; fi
		diff -u "$G/$name" "$BATS_TEST_TMPDIR/out" >&2 || fail "AWK=$a: output differs from golden/$name"
	done
}

# pipe 'SHELL COMMAND': run a pipeline, for golden; $S, $P and $F are set
pipe() { S=$S P=$P F=$F sh -c "$1"; }

# fails STATUS MESSAGE CMD...: under each awk, CMD exits STATUS and says MESSAGE on stderr
fails() {
	local want=$1 msg=$2 a rc
	shift 2
	for a in $AWKS; do
		rc=0
		AWK=$a "$@" > /dev/null 2> "$BATS_TEST_TMPDIR/err" || rc=$?
		[ $rc -eq "$want" ] || fail "AWK=$a: exit $rc, not $want"
		grep -q -- "$msg" "$BATS_TEST_TMPDIR/err" || fail "AWK=$a: stderr lacks '$msg': $(cat "$BATS_TEST_TMPDIR/err")"
	done
}
