# tests/aggs: aggregations (the agg command, the aggs and aggraw files,
# devtrace aggs) on instrumented programs with known calls (bats).
SUITES += aggs
check-aggs: bin/devtraced bin/devtrace lib/libdevtrace.so bin/devtrace-cc
	@mkdir -p $(B)/tap
	@bats --tap tests/aggs > $(B)/tap/aggs.tap 2> $(B)/tap/aggs.err || true
