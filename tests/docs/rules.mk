# tests/docs: the commands README and the manual pages show, run as
# shown, their output compared by shape (rundoc; the convention is in
# NOTES, "Commands shown in the documents are tested"); bats.
SUITES += docs
check-docs: bin/devtraced bin/devtrace bin/devtrace-cc lib/libdevtrace.so
	@mkdir -p $(B)/tap
	@bats --tap tests/docs > $(B)/tap/docs.tap 2> $(B)/tap/docs.err || true

.PHONY: check-docs
