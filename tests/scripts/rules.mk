# tests/scripts: the awk scripts (scripts/) and gnuplot plots (plots/),
# every one under mawk and gawk, with golden outputs; needs bats,
# bats-support and bats-assert (Debian: bats, bats-support, bats-assert).
SUITES += scripts
check-scripts:
	@mkdir -p $(B)/tap
	@bats --tap tests/scripts > $(B)/tap/scripts.tap 2> $(B)/tap/scripts.err || true

.PHONY: check-scripts
