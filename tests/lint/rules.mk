# tests/lint: lint of the test scripts themselves (bats): ShellCheck
# (Debian: shellcheck) over the .bats, .bash and .sh files, and
# unchecked.awk, which finds checks that cannot fail a bats test, with
# its self-test (unchecked.cases); tapsum.bats: tests/tapsum, which
# judges every suite's TAP, on fake TAP.  A few seconds.
SUITES += lint
check-lint:
	@mkdir -p $(B)/tap
	@bats --tap tests/lint > $(B)/tap/lint.tap 2> $(B)/tap/lint.err || true

.PHONY: check-lint
