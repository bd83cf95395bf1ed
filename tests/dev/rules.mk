# tests/dev: the device's unit tests (cmocka): control, errors (every one of dev/error.h),
# ring, writers, the buffer policies, a block other processes scribbled on (hostile), the aggregation tables (agg), and its stress test,
# also under ThreadSanitizer; the host's lock against a holder that never lets go, and its hostzero (lock).
DEVTEST_HOST = $(B)/tests/dev/host.o
DEVTESTS = ctl error ring writer policy stress hostile lock
DEVTESTS += raw agg wring sess act predargs whole

$(B)/tests/dev/%: $(B)/tests/dev/%_test.o $(DEVTEST_HOST) $(LIBDEV)
	$(CC) $(LDFLAGS) -o $@ $^ -lcmocka -lpthread

# the lock is the real host's: linked with it, not with the tests' host
$(B)/tests/dev/lock: $(B)/tests/dev/lock_test.o $(HOST_OBJ) $(LIBDEV)
	$(CC) -o $@ $^ -lcmocka -lpthread

# ThreadSanitizer wants every racing access instrumented: build the device into the binary.
$(B)/tests/dev/stress-tsan: tests/dev/stress_test.c tests/dev/host.c $(DEV_SRC)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) -O1 -g -fsanitize=thread -Wno-tsan -I. -o $@ $^ -lcmocka -lpthread

SUITES += $(DEVTESTS:%=dev-%) dev-stress-tsan

check-dev-%: $(B)/tests/dev/%
	@CMOCKA_MESSAGE_OUTPUT=TAP $< > $(B)/tap/dev-$*.tap 2> $(B)/tap/dev-$*.err || true

check-dev-stress-tsan: $(B)/tests/dev/stress-tsan
	@TSAN_OPTIONS=halt_on_error=1 CMOCKA_MESSAGE_OUTPUT=TAP $< > $(B)/tap/dev-stress-tsan.tap 2> $(B)/tap/dev-stress-tsan.err || true

# check-tsan, with the ring and writer tests too: tests/sanitize/rules.mk
