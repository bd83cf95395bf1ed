#!/usr/bin/env bats
# The commands README and the manual pages show run as shown: rundoc
# runs each document's "$ " lines in one shell, not as root, with a
# device of its own, and compares their output by shape (normal.awk).
load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
R=$BATS_TEST_DIRNAME/rundoc

# doc NAME: a document in the test's directory, from standard input
doc() {
	cat > "$BATS_TEST_TMPDIR/$1"
	printf '%s\n' "$BATS_TEST_TMPDIR/$1"
}

@test "rundoc: numbers are not compared, the order of lines is not, words are" {
	f=$(doc ok.md <<-'END'
	Text.

	    $ echo hello 42 0000000000401136
	    hello 7 00000000004011ff
	    $ printf 'a\nb\n'
	    b
	    a
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
