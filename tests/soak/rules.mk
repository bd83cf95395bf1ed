# tests/soak: load and faults, as tests (issue 12, build item 5).
# `make soak` runs tests/soak/soak for SOAK_TIME seconds (default 300;
# SOAK_SCRIBBLE=1 also scribbles on the shared block); the suite soak of
# make test runs it for SOAK_SHORT seconds, then faults.bats (a full
# disk and a closed pipe on the reader's side, the server under valgrind),
# with the known failures that tests/soak/known lists marked TODO.
SOAK_B = $(B)/tests/soak
SOAK_TIME = 300
SOAK_SHORT = 15
SOAK_SCRIBBLE = 0
SOAK_SHORT_SCRIBBLE = 1
SOAK_DEPS = bin/devtraced bin/devtrace bin/devtrace-cc lib/libdevtrace.so $(SOAK_B)/sk_work

# -O1: sk_step and sk_mix stay calls
$(SOAK_B)/sk_work: tests/soak/sk_work.c bin/devtrace-cc
	@mkdir -p $(dir $@)
	bin/devtrace-cc -O1 -g $(WARN) -o $@ $< -lpthread

soak: $(SOAK_DEPS)
	@mkdir -p $(B)/tap
	B=$(abspath $(B)) SOAK_TIME=$(SOAK_TIME) SOAK_SCRIBBLE=$(SOAK_SCRIBBLE) tests/soak/soak | tee $(B)/tap/soak-long.tap
	@tests/tapsum $(B)/tap soak-long

# a TAP file each: a program that dies before its plan leaves its own empty (tapsum fails it)
SUITES += soak soak-bats
check-soak: $(SOAK_DEPS)
	@mkdir -p $(B)/tap
	@B=$(abspath $(B)) SOAK_TIME=$(SOAK_SHORT) SOAK_SCRIBBLE=$(SOAK_SHORT_SCRIBBLE) tests/soak/soak \
		> $(B)/tap/soak.tap 2> $(B)/tap/soak.err || true
check-soak-bats: $(SOAK_DEPS)
	@mkdir -p $(B)/tap
	@B=$(abspath $(B)) bats --tap tests/soak | awk -f tests/soak/todo.awk tests/soak/known - \
		> $(B)/tap/soak-bats.tap 2> $(B)/tap/soak-bats.err || true

.PHONY: soak check-soak check-soak-bats
