#!/usr/bin/env bats
# The commands README and the manual pages show run as shown: rundoc
# runs each document's "$ " lines in one shell, not as root, with a
# device of its own, and compares their output with the output shown
# (figures.awk): the lines by shape, in any order; the figures by kind:
# counts, sizes, arguments and every other number exact; times (a call
# flow's TIME and DURATION, a table's TIME, DURATION, TOTAL, SELF, MIN,
# AVG and MAX columns) within a factor of 10 either way, under 100
# counting as 100, a command out only by its times run again in a new
# run of the document, twice at most; tids, pids, ticks, #hz, #clock
# and 0x addresses not compared.  The synopses of the manual pages are
# compared with the commands' --help usage (flags.awk).
load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
R=$BATS_TEST_DIRNAME/rundoc

# doc NAME: a document in the test's directory, from standard input
doc() {
	cat > "$BATS_TEST_TMPDIR/$1"
	printf '%s\n' "$BATS_TEST_TMPDIR/$1"
}

@test "rundoc: lines in any order; a count exact, a time within a factor of 10, a tid or an address not compared" {
	f=$(doc ok.md <<-'END'
	Text.

	    $ echo hello 42 0000000000401136
	    hello 42 0000000000401136
	    $ printf 'a\nb\n'
	    b
	    a
	    $ printf '    TID       TIME(ns)   DURATION  FUNCTION\n   4242              0             -> f(p=0x7ffd1234)\n   4242           3000       3000  <- f = 2\n'
	        TID       TIME(ns)   DURATION  FUNCTION
	       9999              0             -> f(p=0x5555abcd)
	       9999          29000        300  <- f = 2
	END
	)
	run "$R" "$f"
	assert_success
	assert_output ''
}

@test "rundoc: a count or a size that differs fails, and names the command and the figure" {
	f=$(doc count.md <<-'END'
	    $ echo 'devtrace record: 6 records saved, 0 lost'
	    devtrace record: 7 records saved, 0 lost
	END
	)
	run "$R" "$f"
	assert_failure
	assert_line --partial "output differs from what is shown: echo 'devtrace record: 6 records saved, 0 lost'"
	assert_line --partial '(7 shown, 6 printed)'
}

@test "rundoc: a time out by more than a factor of 10 fails in each of three runs; in one run only, it passes" {
	f=$(doc time.md <<-'END'
	    $ printf 'FUNCTION  CALLS  TOTAL\nf             1   5000\n'
	    FUNCTION  CALLS  TOTAL
	    f             1 500000
	END
	)
	run "$R" "$f"
	assert_failure
	assert_line --partial '(times out in each of 3 runs)'
	assert_line --partial '(500000 shown, 5000 printed, a time out by more than a factor of 10)'
	# the first run's HOME is work1: an outlier there, not in the second
	f=$(doc outlier.md <<-'END'
	    $ case $HOME in *1) t=500000;; *) t=5000;; esac; printf 'FUNCTION  CALLS  TOTAL\nf 1 %s\n' $t
	    FUNCTION  CALLS  TOTAL
	    f             1   4000
	END
	)
	run "$R" "$f"
	assert_success
	assert_output ''
}

@test "rundoc: an output word that differs fails, and names the command" {
	f=$(doc words.md <<-'END'
	    $ echo hello world
	    hello there
	END
	)
	run "$R" "$f"
	assert_failure
	assert_line --partial 'output differs from what is shown: echo hello world'
}

@test "rundoc: a line more or less fails; '...' lets the real output hold more" {
	f=$(doc lines.md <<-'END'
	    $ printf 'a\nb\n'
	    a
	END
	)
	run "$R" "$f"
	assert_failure
	f=$(doc cut.md <<-'END'
	    $ printf 'a\nb\nc\n'
	    c
	    ...
	END
	)
	run "$R" "$f"
	assert_success
}

@test "rundoc: a command that fails fails the document; make lines are not run" {
	f=$(doc fails.md <<-'END'
	    $ make no-such-target
	    $ false
	END
	)
	run "$R" "$f"
	assert_failure
	assert_output --partial 'exit 1: false'
	refute_output --partial 'no-such-target'
}

@test "rundoc: fenced blocks are not run; a manual page's literal blocks are, its escapes undone" {
	f=$(doc fenced.md <<-'END'
	```
	$ false
	```

	    $ true
	END
	)
	run "$R" "$f"
	assert_success
	f=$(doc page.1 <<-'END'
	.Sh EXAMPLES
	.Bd -literal
	$ printf '%s\en' a\e\e.b
	a\e.b
	.Ed
	END
	)
	run "$R" "$f"
	assert_success
}

@test "rundoc: a manual page's escape that roff prints otherwise (a bare \\n) fails the document" {
	f=$(doc bare.1 <<-'END'
	.Sh EXAMPLES
	.Bd -literal
	$ printf 'a\n' > a.c
	.Ed
	END
	)
	run "$R" "$f"
	assert_failure
	assert_output "$f:3: the roff escape \\n does not print as the command the test runs; write \\e for a backslash"
}

# fusens MODE MAJOR:MINOR CMD...: CMD as root in a mount namespace of
# its own whose /dev/fuse is a node of the test's, MODE, root's (the
# machine's /dev/fuse is not touched); needs root.  Every mount it makes
# is under /dev, made private first: unshare's own --propagation private
# remounts /, which fails where / is not a mount point (a chroot, as in
# make test-fresh); the node sits on a tmpfs of its own over /dev/shm
# (the machine's is nodev)
fusens() {
	[ "$(id -u)" = 0 ] || skip "needs root: a mount namespace with a /dev/fuse of its own"
	unshare --mount --propagation unchanged sh -ec 'mode=$1 dev=$2; shift 2
		mount --make-rprivate /dev
		mount -t tmpfs -o mode=1777 tmpfs /dev/shm
		mknod -m "$mode" /dev/shm/fuse c "${dev%:*}" "${dev#*:}"
		mount --bind /dev/shm/fuse /dev/fuse
		exec "$@"' sh "$@"
}

# the machine's FUSE device's numbers, MAJOR:MINOR
fusedev() {
	printf '%d:%d\n' "0x$(stat -c %t /dev/fuse)" "0x$(stat -c %T /dev/fuse)"
}

# rundoc, then its exit status and /dev/fuse's ACL as it left it
rundoc_acl() {
	"$R" "$1"
	echo "rc $?"
	getfacl -cp /dev/fuse
}

@test "rundoc: /dev/fuse root's alone (0600): root lets games use it for the run by an ACL entry, gone after" {
	f=$(doc small.md <<-'END'
	    $ echo hello
	    hello
	END
	)
	run fusens 0600 "$(fusedev)" bash -c "$(declare -f rundoc_acl); R=$R rundoc_acl $f"
	assert_success
	assert_output "rc 0
user::rw-
group::---
other::---"
}

@test "rundoc: /dev/fuse not FUSE's: one line says devtraced mounted no files, the document does not run, the ACL is restored" {
	# a document that fails if it runs
	f=$(doc small.md <<-'END'
	    $ echo hello
	    bye
	END
	)
	# /dev/null's numbers: games can open it, the mount fails
	run fusens 0600 1:3 bash -c "$(declare -f rundoc_acl); R=$R rundoc_acl $f"
	assert_success
	assert_line --index 0 --regexp '^rundoc: devtraced, run as games, mounted no files \(no tracectl\): fusermount3: mount failed: Invalid argument; devtraced: cannot mount the files on /[^ ]*/probe/dev \(is fuse3 installed, /dev/fuse there\?\): serving the device without them, for devtrace ctl, cat and run$'
	assert_equal "${lines[*]:1}" "rc 2 user::rw- group::--- other::---"
}

@test "rundoc: not root, /dev/fuse root's alone (0600): one line names the cause and the way out" {
	d=$(mktemp -d)
	chmod 755 "$d"
	mkdir -p "$d/tests/docs"
	cp "$BATS_TEST_DIRNAME"/rundoc "$BATS_TEST_DIRNAME"/*.awk "$d/tests/docs/"
	printf '    $ echo hello\n    hello\n' > "$d/small.md"
	run fusens 0600 "$(fusedev)" setpriv --reuid=games --regid="$(id -g games)" --clear-groups \
		env -i PATH=/usr/bin:/bin "$d/tests/docs/rundoc" "$d/small.md"
	rm -rf "$d"
	assert_failure 2
	assert_output "rundoc: games cannot open /dev/fuse (crw------- root), so devtraced would serve no files: run the suite as root (it lets games use /dev/fuse for the run) or chmod 0666 /dev/fuse (udev's rule)"
}

@test "the manual pages: each command, as mandoc renders it, is the command the test runs" {
	mapfile -t f < <(find "$ROOT/man" -name '*.[1-8]' -type f | sort)
	[ "${#f[@]}" -ge 5 ]
	for p in "${f[@]}"; do
		# the overstrikes (bold, underline) taken out by sed: col(1) is not on a minimal system
		mandoc -T ascii -O width=1000 "$p" | sed "s/.\x08//g" | sed -n 's/^ *\$ /$ /p' > "$BATS_TEST_TMPDIR/shown"
		awk -f "$BATS_TEST_DIRNAME/extract.awk" "$p" | sed -n 's/^C\t/$ /p' > "$BATS_TEST_TMPDIR/run"
		run diff "$BATS_TEST_TMPDIR/shown" "$BATS_TEST_TMPDIR/run"
		assert_success
		assert_output ""
	done
	# the one that broke: devtrace(1)'s printf, with its newlines (not 0s)
	mandoc -T ascii -O width=1000 "$ROOT/man/devtrace.1" > "$BATS_TEST_TMPDIR/devtrace.1.txt"
	run grep -cF '); }\nint main(void) { return fib(2) != 1; }\n'"'"' > prog.c' "$BATS_TEST_TMPDIR/devtrace.1.txt"
	assert_output 1
}

# synopses: each form of PAGE's SYNOPSIS, a line each, as mandoc renders
# it (unwrapped)
synopses() {
	mandoc -T ascii -O width=1000 "$1" | sed "s/.\x08//g" |
		awk '/^SYNOPSIS/ { s = 1; next } /^[A-Z]/ { s = 0 } s && NF { sub(/^ +/, ""); print }'
}

# usages PROG [SUB]: the forms of PROG [SUB] --help's usage, a line each:
# the "usage: " line, the lines after it that go on with a "[" (joined
# to it) or begin with PROG's name (another form)
usages() {
	"$@" --help 2>&1 | awk -v p="${1##*/}" '
		NR == 1 { if (!sub(/^usage: /, "")) exit; f = $0; next }
		/^    +\[/ { sub(/^ +/, ""); f = f " " $0; next }
		$0 ~ "^ +" p "( |$)" { print f; sub(/^ +/, ""); f = $0; next }
		{ exit }
		END { if (f != "") print f }'
}

# the installed scripts: each executable without a dot in scripts/ and plots/
scriptpaths() {
	for f in "$ROOT"/scripts/* "$ROOT"/plots/*; do
		case ${f##*/} in *.*) continue;; esac
		if [ -f "$f" ] && [ -x "$f" ]; then printf '%s\n' "$f"; fi
	done
}

# flagdiff A B WHAT-A WHAT-B: the lines of flags.awk's lists A and B that
# one of them lacks, said
flagdiff() {
	comm -23 "$1" "$2" | awk -F '\t' -v a="$3" -v b="$4" '{ print $1 ": " ($2 == "" ? "the command" : $2) " in " a ", not in " b }'
	comm -13 "$1" "$2" | awk -F '\t' -v a="$3" -v b="$4" '{ print $1 ": " ($2 == "" ? "the command" : $2) " in " b ", not in " a }'
}

@test "the manual pages' SYNOPSIS names each command's options, and which take a value, as its --help usage does" {
	F=$BATS_TEST_DIRNAME/flags.awk
	for p in devtrace.1 devtraced.8 devtrace-cc.1 devtrace-scripts.1; do synopses "$ROOT/man/$p"; done |
		awk -f "$F" | sort -u > "$BATS_TEST_TMPDIR/man"
	{
		"$ROOT/bin/devtrace" --help | awk -v summary=1 -f "$F" | cut -f1 | sort -u | cut -d' ' -f2 |
			while read -r c; do usages "$ROOT/bin/devtrace" "$c"; done
		usages "$ROOT/bin/devtraced"
		usages "$ROOT/bin/devtrace-cc"
		scriptpaths | while read -r f; do usages "$f"; done
	} | awk -f "$F" | sort -u > "$BATS_TEST_TMPDIR/help"
	# option=: it takes a value
	run flagdiff "$BATS_TEST_TMPDIR/man" "$BATS_TEST_TMPDIR/help" "the SYNOPSIS" "--help's usage"
	assert_output ''
	# the lists are whole: every command is there, and the options found
	run grep -c . "$BATS_TEST_TMPDIR/help"
	[ "$output" -ge 80 ]
}

@test "devtrace --help's summary names each command's options as the command's --help usage does" {
	F=$BATS_TEST_DIRNAME/flags.awk
	# a bundle (-tpov) says no values: the names alone are compared
	"$ROOT/bin/devtrace" --help | awk -v summary=1 -f "$F" | sed 's/=$//' | sort -u > "$BATS_TEST_TMPDIR/summary"
	cut -f1 "$BATS_TEST_TMPDIR/summary" | sort -u | cut -d' ' -f2 |
		while read -r c; do usages "$ROOT/bin/devtrace" "$c"; done |
		awk -f "$F" | sed 's/=$//' | sort -u > "$BATS_TEST_TMPDIR/help"
	run flagdiff "$BATS_TEST_TMPDIR/summary" "$BATS_TEST_TMPDIR/help" "devtrace --help" "devtrace COMMAND --help"
	assert_output ''
	run cut -f1 "$BATS_TEST_TMPDIR/summary"
	assert_line 'devtrace run'
	assert_line 'devtrace stop'
}

@test "README: every command shown runs, with the output shown" {
	run "$R" "$ROOT/README"
	assert_success
	assert_output ''
}

@test "devtrace(1): every command shown runs, with the output shown" {
	run "$R" "$ROOT/man/devtrace.1"
	assert_success
	assert_output ''
}

@test "devtrace-cc(1): every command shown runs, with the output shown" {
	run "$R" "$ROOT/man/devtrace-cc.1"
	assert_success
	assert_output ''
}

@test "devtrace-scripts(1): every command shown runs, with the output shown" {
	run "$R" "$ROOT/man/devtrace-scripts.1"
	assert_success
	assert_output ''
}

@test "devtrace(4): every command shown runs, with the output shown" {
	run "$R" "$ROOT/man/devtrace.4"
	assert_success
	assert_output ''
}

@test "devtraced(8): every command shown runs, with the output shown" {
	run "$R" "$ROOT/man/devtraced.8"
	assert_success
	assert_output ''
}
