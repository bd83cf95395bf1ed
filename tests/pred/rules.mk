# tests/pred: the predicate compiler, validator and machine (issue 5).
#   check-pred      predtest (errors, validator, host calls)
#   check-predtab   predtab (hundreds of expressions against the C++ compiler's answers)
#   check-predfuzz  libFuzzer with ASan and UBSan for PREDFUZZ_TIME seconds
#   fuzz-pred       the same for PREDFUZZ_LONG seconds
# The tests link the predicate objects and the two they need (error, lib), not all of libdev.

PRED_B = $(B)/tests/pred
PRED_DEV = $(B)/dev/pred/pred.o $(B)/dev/pred/predterms.o $(B)/dev/pred/predvm.o $(B)/dev/error.o $(B)/dev/lib.o
# random expressions in the table, besides those of cases.txt
PRED_NRAND = 1500
# random && || ! trees of single tests: the term tables' shape
PRED_NLOGIC = 1500
FUZZCC = clang
PREDFUZZ_TIME = 30
PREDFUZZ_LONG = 600

# the table: gen writes a C++ program from cases.txt, which prints table.h
$(PRED_B)/gen: tests/pred/gen.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $<

$(PRED_B)/truth.cc: $(PRED_B)/gen tests/pred/cases.txt tests/pred/rules.mk
	$(PRED_B)/gen tests/pred/cases.txt $(PRED_NRAND) $(PRED_NLOGIC) > $@.tmp && mv $@.tmp $@

# -w: the expressions lean on precedence and mix kinds on purpose
$(PRED_B)/truth: $(PRED_B)/truth.cc tests/pred/truth.hh tests/pred/fixture.h
	$(CXX) -std=c++11 -O1 -w -I. -o $@ $<

$(PRED_B)/table.h: $(PRED_B)/truth
	$(PRED_B)/truth > $@.tmp && mv $@.tmp $@

$(PRED_B)/predtab.o: $(PRED_B)/table.h
$(PRED_B)/predtab.o: ALL_CFLAGS += -I$(PRED_B)

$(PRED_B)/predtab: $(PRED_B)/predtab.o $(PRED_B)/host.o $(PRED_DEV)
	$(CC) $(LDFLAGS) -o $@ $^ -lcmocka

$(PRED_B)/predtest: $(PRED_B)/predtest.o $(PRED_B)/host.o $(PRED_DEV)
	$(CC) $(LDFLAGS) -o $@ $^ -lcmocka

# a TAP file each: a program that dies before its plan leaves its own empty (tapsum fails it)
SUITES += pred predtab
check-pred: $(PRED_B)/predtest
	@mkdir -p $(B)/tap
	@CMOCKA_MESSAGE_OUTPUT=TAP $(PRED_B)/predtest > $(B)/tap/pred.tap 2> $(B)/tap/pred.err || true
check-predtab: $(PRED_B)/predtab
	@mkdir -p $(B)/tap
	@CMOCKA_MESSAGE_OUTPUT=TAP $(PRED_B)/predtab > $(B)/tap/predtab.tap 2> $(B)/tap/predtab.err || true

# the fuzzer compiles the predicate sources itself, with clang and the sanitizers
PRED_FUZZ_SRC = tests/pred/fuzz_pred.c tests/pred/host.c dev/pred/pred.c dev/pred/predterms.c dev/pred/predvm.c dev/error.c dev/lib.c
$(PRED_B)/fuzz_pred: $(PRED_FUZZ_SRC) dev/pred/pred.h dev/devtrace.h dev/dat.h dev/error.h dev/lib.h dev/host.h tests/pred/fixture.h
	@mkdir -p $(dir $@)
	$(FUZZCC) -std=c11 -g -O1 -Wall -Wextra -I. -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -o $@ $(PRED_FUZZ_SRC)

# new inputs go to a corpus in build/; tests/pred/corpus holds the seeds
PRED_FUZZ_RUN = $(PRED_B)/fuzz_pred -dict=tests/pred/pred.dict -max_len=600 -timeout=10 \
	-artifact_prefix=$(PRED_B)/ $(PRED_B)/corpus tests/pred/corpus

SUITES += predfuzz
check-predfuzz:
	@mkdir -p $(B)/tap $(PRED_B)/corpus
	@{ echo 1..1; \
	if ! $(MAKE) --no-print-directory $(PRED_B)/fuzz_pred > $(B)/tap/predfuzz.err 2>&1; then \
		echo "not ok 1 - fuzz harness builds"; \
	elif $(PRED_FUZZ_RUN) -max_total_time=$(PREDFUZZ_TIME) >> $(B)/tap/predfuzz.err 2>&1; then \
		echo "ok 1 - fuzz $(PREDFUZZ_TIME)s no crash"; \
	else \
		echo "not ok 1 - fuzz $(PREDFUZZ_TIME)s no crash: see $(B)/tap/predfuzz.err and $(PRED_B)/crash-*"; \
	fi; } > $(B)/tap/predfuzz.tap || true

fuzz-pred: $(PRED_B)/fuzz_pred
	@mkdir -p $(PRED_B)/corpus
	$(PRED_FUZZ_RUN) -max_total_time=$(PREDFUZZ_LONG) -print_final_stats=1

.PHONY: check-pred check-predtab check-predfuzz fuzz-pred
