# tests/predicates: predicates end to end (bats).  A fixture (fx_io.c,
# built by the tests with bin/devtrace-cc) calls io() with known
# arguments and return values; each test attaches a predicate through
# tracectl on a FUSE server of its own and checks the records exactly.
SUITES += predicates
check-predicates: bin/devtraced bin/devtrace bin/devtrace-cc lib/libdevtrace.so
	@mkdir -p $(B)/tap
	@bats --tap tests/predicates > $(B)/tap/predicates.tap 2> $(B)/tap/predicates.err || true

.PHONY: check-predicates
