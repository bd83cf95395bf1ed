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
