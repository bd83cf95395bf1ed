# tests/arm64: the arm64 port, cross-built and run under QEMU user mode.
# `make test-arm64` builds the runtime, devtrace-cc, the hooks' fixtures
# and devshm for arm64 in build-arm64/ (a make of this same tree with
# ARCH=arm64 and the cross compiler), then runs the hooks' suite
# (tests/hooks/hooks.bats) on them under qemu-aarch64, the device made
# and read by the amd64 devshm through the same shared memory; checks
# that the shared memory's layout is one on both ABIs (layout.bats); and
# that the same fixtures give the same records on both (same.bats); and
# reads the encodings back with the arm64 disassembler (enc.bats).
# The four suites are in SUITES: make test runs them too.
# make test-arm64 installs what it needs first, as make test does (tools/install-deps)
ifneq ($(filter test-arm64,$(MAKECMDGOALS)),)
ifneq ($(INSTALL_DEPS),:)
arm64_deps_error := $(shell tools/install-arm64-deps 3>&2 2>&1 1>&3)
ifneq ($(.SHELLSTATUS),0)
$(error $(arm64_deps_error))
endif
endif
endif

ARM64_CC = aarch64-linux-gnu-gcc
ARM64_B = build-arm64
ARM64_QEMU = qemu-aarch64-static -L /
ARM64_MAKE = $(MAKE) --no-print-directory ARCH=arm64 CC=$(ARM64_CC) B=$(ARM64_B) \
	LIBDIR=$(ARM64_B)/lib BINDIR=$(ARM64_B)/bin DEVTRACE_CC=$(ARM64_CC) \
	HOOKS_CLANG='clang --target=aarch64-linux-gnu'
# The runtime is preloaded by its bare name, found through LD_LIBRARY_PATH:
# the emulated programs load the arm64 one, the host's programs they
# start (system()'s sh, devshm) the amd64 one, as in the amd64 suite.
ARM64_ENV = B=$(abspath $(ARM64_B)) LIB=libdevtrace.so LIBFILE=$(abspath $(ARM64_B))/lib/libdevtrace.so \
	LD_LIBRARY_PATH=$(abspath $(ARM64_B))/lib:$(abspath $(LIBDIR)) \
	CCWRAP=$(abspath $(ARM64_B))/bin/devtrace-cc DEVSHM=$(abspath $(B))/tests/hooks/devshm \
	MAKER='$(ARM64_QEMU) $(abspath $(ARM64_B))/tests/hooks/devshm' \
	RUN='$(ARM64_QEMU)' ISA=arm64 OBJDUMP=aarch64-linux-gnu-objdump STORM=30000

# what the cross build makes (the target of the inner make); the hooks'
# rules.mk comes after this one, hence the second expansion
.SECONDEXPANSION:
arm64-bins: $$(RTLIB) $$(CCWRAP) $$(HOOKS_BINS) $(B)/tests/arm64/layout.o

$(B)/tests/arm64/layout.o: tests/arm64/layout.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -g -c -o $@ $<

# the cross build, every time: the inner make knows what is up to date
arm64-build:
	@mkdir -p $(B)/tap
	@$(ARM64_MAKE) arm64-bins > $(B)/tap/arm64-build.log 2>&1 || { tail -n 30 $(B)/tap/arm64-build.log; exit 1; }

# the encodings, built for the host: site.c is arithmetic on addresses
$(B)/tests/arm64/enc: tests/arm64/enc.c arch/arm64/site.c arch/arm64/site.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -I. -Iarch/arm64 -o $@ tests/arm64/enc.c arch/arm64/site.c

SUITES += hooks-arm64 layout-arm64 same-arm64 enc-arm64
check-enc-arm64: $(B)/tests/arm64/enc
	@mkdir -p $(B)/tap
	@ENC=$(abspath $(B))/tests/arm64/enc bats --tap tests/arm64/enc.bats > $(B)/tap/enc-arm64.tap 2> $(B)/tap/enc-arm64.err || true

check-hooks-arm64: arm64-build $$(HOOKS_BINS) $$(RTLIB)
	@mkdir -p $(B)/tap
	@$(ARM64_ENV) bats --tap tests/hooks/hooks.bats > $(B)/tap/hooks-arm64.tap 2> $(B)/tap/hooks-arm64.err || true

check-layout-arm64: arm64-build $(B)/tests/arm64/layout.o $(HOST_OBJ)
	@mkdir -p $(B)/tap
	@A_B=$(abspath $(B)) R_B=$(abspath $(ARM64_B)) CC_A='$(CC)' \
		bats --tap tests/arm64/layout.bats > $(B)/tap/layout-arm64.tap 2> $(B)/tap/layout-arm64.err || true

check-same-arm64: arm64-build $$(HOOKS_BINS)
	@mkdir -p $(B)/tap
	@$(ARM64_ENV) A=$(abspath $(B))/tests/hooks bats --tap tests/arm64/same.bats > $(B)/tap/same-arm64.tap 2> $(B)/tap/same-arm64.err || true

ARM64_SUITES = hooks-arm64 layout-arm64 same-arm64 enc-arm64
test-arm64: build-all
	@mkdir -p $(B)/tap
	@rm -f $(ARM64_SUITES:%=$(B)/tap/%.tap)
	@$(MAKE) -k --no-print-directory $(addprefix check-,$(ARM64_SUITES)) || true
	@tests/tapsum $(B)/tap $(ARM64_SUITES)

clean: clean-arm64
clean-arm64:
	rm -rf $(ARM64_B)

.PHONY: check-enc-arm64 clean-arm64 arm64-bins arm64-build check-hooks-arm64 check-layout-arm64 check-same-arm64 test-arm64
