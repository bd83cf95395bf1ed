# tests/files: the device's files and commands, used as a user does (bats).
# Tests with instrumented programs skip until lib/libdevtrace.so exists.
SUITES += files
check-files: bin/devtraced bin/devtrace $(B)/tests/hooks/devshm
	@mkdir -p $(B)/tap
	@bats --tap tests/files > $(B)/tap/files.tap 2> $(B)/tap/files.err || true
