# tests/sanitize: suites again under sanitizers, each in a copy of the
# sources (DIR/src, with its own build/, bin/ and lib/), so the normal
# build is untouched and every object, the device's included, is built
# with the sanitizer.  Both are suites of `make test` (TAP in
# build/tap/asan.tap and tsan.tap: the suites' tests, one stream), so
# .ci/run runs them; each also prints its suites' sums.
#   check-asan  ASan + UBSan: the device's unit tests (sessions too), the predicate
#               tests, the commands (files suite: devtraced, devtrace)
#   check-tsan  ThreadSanitizer: the ring, writer, policy and stress tests
# The preloaded runtime under ASan: see NOTES.
ASAN_DIR = build-asan
TSAN_DIR = build-tsan
ASAN_CFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
TSAN_CFLAGS = -O1 -g -fsanitize=thread -Wno-tsan
ASAN_SUITES = dev-ctl dev-agg dev-ring dev-writer dev-policy dev-stress dev-wring dev-sess pred files
TSAN_SUITES = dev-ring dev-writer dev-policy dev-stress dev-wring
# lsan.supp: leaks found, reported and not fixed yet, one by one with the reason
SAN_ENV = ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitize/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

# sanitize DIR CFLAGS SUITES NAME: copy, build and run the suites, sum
# their TAP, and leave it as the one suite NAME's
define sanitize
	@tests/sanitize/copytree $(1)/src
	@mkdir -p $(1)/src/build/tap && rm -f $(1)/src/build/tap/*
	@env $(SAN_ENV) $(MAKE) --no-print-directory -C $(1)/src -k CC=$(CC) CFLAGS="$(2)" LDFLAGS="$(2)" \
		$(addprefix check-,$(3)) > $(1)/make.log 2>&1 || true
	@mkdir -p $(B)/tap && tests/sanitize/mergetap $(1)/src/build/tap $(3) > $(B)/tap/$(4).tap
	@tests/tapsum $(1)/src/build/tap $(3)
endef

SUITES += asan tsan
check-asan:
	$(call sanitize,$(ASAN_DIR),$(ASAN_CFLAGS),$(ASAN_SUITES),asan)

check-tsan:
	$(call sanitize,$(TSAN_DIR),$(TSAN_CFLAGS),$(TSAN_SUITES),tsan)

.PHONY: check-asan check-tsan

clean-sanitize:
	rm -rf $(ASAN_DIR) $(TSAN_DIR)
clean: clean-sanitize
.PHONY: clean-sanitize
