# tests/sanitize: suites again under sanitizers, each in a copy of the
# sources (DIR/src, with its own build/, bin/ and lib/), so the normal
# build is untouched and every object, the device's included, is built
# with the sanitizer.  Both are suites of `make test` (TAP in
# build/tap/asan.tap and tsan.tap: the suites' tests, one stream), so
# .ci/run runs them; each also prints its suites' sums.
#   check-asan  ASan + UBSan: the device's unit tests (sessions too), the predicate
#               tests, the commands (files suite: devtraced, devtrace)
#               with the preloaded runtime and devtrace-cc built without
#               sanitizers (ASAN_PLAIN; why: NOTES, "The preloaded runtime under ASan")
#   check-tsan  ThreadSanitizer: the ring, writer, policy and stress tests
ASAN_DIR = build-asan
TSAN_DIR = build-tsan
ASAN_CFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
TSAN_CFLAGS = -O1 -g -fsanitize=thread -Wno-tsan
ASAN_SUITES = dev-ctl dev-agg dev-ring dev-writer dev-policy dev-stress dev-wring dev-sess pred predtab files
TSAN_SUITES = dev-ring dev-writer dev-policy dev-stress dev-wring
# built in the copy with the normal flags (B=build-plain), before the
# suites, whose rules then must not build them again (FILES_RT=)
ASAN_PLAIN = lib/libdevtrace.so bin/devtrace-cc
# lsan.supp: leaks found, reported and not fixed yet, one by one with the reason
# verify_asan_link_order=0: devtrace run passes its LD_PRELOAD (the plain
# runtime) on to the commands it starts (devtraced, devtrace): ASan comes second there
SAN_ENV = ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitize/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

# sanitize DIR CFLAGS SUITES NAME [PLAIN]: copy, build PLAIN without
# sanitizers, build and run the suites, sum their TAP, and leave it as
# the one suite NAME's
define sanitize
	@tests/sanitize/copytree $(1)/src
	@mkdir -p $(1)/src/build/tap && rm -f $(1)/src/build/tap/*
	@$(if $(5),$(MAKE) --no-print-directory -C $(1)/src CC=$(CC) B=build-plain $(5) > $(1)/plain.log 2>&1 \
		|| { tail -n 20 $(1)/plain.log; echo "$(4): the runtime without sanitizers did not build: $(1)/plain.log"; })
	@env $(SAN_ENV) $(MAKE) --no-print-directory -C $(1)/src -k CC=$(CC) CFLAGS="$(2)" LDFLAGS="$(2)" $(if $(5),FILES_RT=) \
		$(addprefix check-,$(3)) > $(1)/make.log 2>&1 || true
	@mkdir -p $(B)/tap && tests/sanitize/mergetap $(1)/src/build/tap $(3) > $(B)/tap/$(4).tap
	@tests/tapsum -g $(4) $(1)/src/build/tap $(3)
endef

SUITES += asan tsan
check-asan:
	$(call sanitize,$(ASAN_DIR),$(ASAN_CFLAGS),$(ASAN_SUITES),asan,$(ASAN_PLAIN))

check-tsan:
	$(call sanitize,$(TSAN_DIR),$(TSAN_CFLAGS),$(TSAN_SUITES),tsan)

.PHONY: check-asan check-tsan

clean-sanitize:
	rm -rf $(ASAN_DIR) $(TSAN_DIR)
clean: clean-sanitize
.PHONY: clean-sanitize
