# tests/hooks: the hooks' runtime on real programs.  Fixture programs
# built with bin/devtrace-cc, a device made without FUSE (devshm), and
# bats tests that check the records exactly.
HOOKS_B = $(B)/tests/hooks
HOOKS_FX = basic threads signal jmp fork exec dl off deep tick storm wide probe
HOOKS_BINS = $(HOOKS_FX:%=$(HOOKS_B)/fx_%) $(HOOKS_B)/fx_tail $(HOOKS_B)/fx_classic \
	$(HOOKS_B)/fx_linked $(HOOKS_B)/libfx.so $(HOOKS_B)/devshm $(HOOKS_B)/fx_cet \
	$(HOOKS_B)/fx_bench $(HOOKS_B)/fx_bench_plain $(HOOKS_B)/fx_bench_classic $(HOOKS_B)/fx_bench_probe \
	$(if $(shell command -v $(firstword $(HOOKS_CLANG))),$(HOOKS_B)/fx_clang)
HOOKS_CC = $(CCWRAP)
HOOKS_CLANG = clang

# -O1: the calls the tests count stay calls (no sibling calls, no tail recursion)
$(HOOKS_B)/fx_%: tests/hooks/fx_%.c $(CCWRAP)
	@mkdir -p $(dir $@)
	$(HOOKS_CC) -O1 -g $(WARN) -o $@ $< -lpthread

$(HOOKS_B)/fx_tail: tests/hooks/fx_tail.c $(CCWRAP)
	@mkdir -p $(dir $@)
	$(HOOKS_CC) -O2 -g $(WARN) -o $@ $<

$(HOOKS_B)/fx_classic: tests/hooks/fx_basic.c $(CCWRAP)
	@mkdir -p $(dir $@)
	$(HOOKS_CC) --classic -O1 -g $(WARN) -o $@ $<

# a landing pad first (the ISA's: arch/ARCH/siteflags), the sled after it:
# records still carry the symbol's address
HOOKS_PAD = $(shell sed -n 's/^pad //p' $(SITEFLAGS))
$(HOOKS_B)/fx_cet: tests/hooks/fx_basic.c $(CCWRAP)
	@mkdir -p $(dir $@)
	$(HOOKS_CC) -O1 -g $(HOOKS_PAD) $(WARN) -o $@ $<

# Clang leaves one 7-byte nopl instead of seven nops
$(HOOKS_B)/fx_clang: tests/hooks/fx_basic.c $(CCWRAP)
	@mkdir -p $(dir $@)
	DEVTRACE_CC='$(HOOKS_CLANG)' $(HOOKS_CC) -O1 -g $(WARN) -o $@ $<

# the cost of a site: uninstrumented, patchable (off, on), classic
$(HOOKS_B)/fx_bench: tests/hooks/fx_bench.c $(CCWRAP)
	@mkdir -p $(dir $@)
	$(HOOKS_CC) -O2 $(WARN) -o $@ $<

# the cost of a static probe: work without a site, a probe inside it
$(HOOKS_B)/fx_bench_probe: tests/hooks/fx_bench.c $(CCWRAP)
	@mkdir -p $(dir $@)
	$(HOOKS_CC) -O2 -DPROBE $(WARN) -o $@ $<

$(HOOKS_B)/fx_bench_plain: tests/hooks/fx_bench.c
	@mkdir -p $(dir $@)
	$(CC) -O2 $(WARN) -o $@ $<

$(HOOKS_B)/fx_bench_classic: tests/hooks/fx_bench.c $(CCWRAP)
	@mkdir -p $(dir $@)
	$(HOOKS_CC) --classic -O2 $(WARN) -o $@ $<

$(HOOKS_B)/fx_linked: tests/hooks/fx_basic.c $(CCWRAP) $(RTLIB)
	@mkdir -p $(dir $@)
	$(HOOKS_CC) -O1 -g $(WARN) -o $@ $< $$($(HOOKS_CC) --ldflags)

$(HOOKS_B)/libfx.so: tests/hooks/fx_lib.c $(CCWRAP)
	@mkdir -p $(dir $@)
	$(HOOKS_CC) -O1 -g $(WARN) -shared -fPIC -o $@ $<

$(HOOKS_B)/fx_dl: tests/hooks/fx_dl.c $(CCWRAP) $(HOOKS_B)/libfx.so
	@mkdir -p $(dir $@)
	$(HOOKS_CC) -O1 -g $(WARN) -o $@ $< -Wl,--enable-new-dtags -Wl,-rpath,'$$ORIGIN' -ldl

$(HOOKS_B)/devshm: $(B)/tests/hooks/devshm.o $(B)/cmd/aggtext.o $(HOST_OBJ) $(LIBDEV)
	$(CC) $(CFLAGS) -o $@ $^ -lpthread

SUITES += hooks
check-hooks: $(RTLIB) $(CCWRAP) $(HOOKS_BINS)
	@mkdir -p $(B)/tap
	@B=$(abspath $(B)) bats --tap tests/hooks/hooks.bats > $(B)/tap/hooks.tap 2> $(B)/tap/hooks.err || true

.PHONY: check-hooks
