# tests/files: the device's files and commands, used as a user does (bats).
# FILES_RT: the runtime and devtrace-cc its instrumented programs need;
# check-asan builds them without sanitizers first and passes FILES_RT= .
SUITES += files
FILES_RT = $(RTLIB) $(CCWRAP)
check-files: bin/devtraced bin/devtrace $(B)/bench/mkrec $(B)/tests/hooks/devshm $(FILES_RT)
	@mkdir -p $(B)/tap
	@bats --tap tests/files > $(B)/tap/files.tap 2> $(B)/tap/files.err || true
