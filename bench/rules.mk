# bench/: the benchmarks (issue 7).  make bench: the full run, minutes, prints
# the table and writes bench/results.tsv; make bench-quick: seconds.  bench/run
# builds the workloads itself (the Lua ones from Debian's source, fetched at
# run time by tools/fetch-lua); here only its two helpers.
# dev/ and host/ rules come after ours, so their names are spelled out here.
BENCH_TOOLS = $(B)/bench/timeit $(B)/bench/writers

$(B)/bench/timeit: $(B)/bench/timeit.o
	$(CC) $(CFLAGS) -o $@ $^

$(B)/bench/writers: $(B)/bench/writers.o $(B)/host/linux.o $(B)/host/shm.o $(B)/libdev.a
	$(CC) $(CFLAGS) -o $@ $^ -lpthread

# whatever else fails to build, measure what did build
bench bench-quick: $(BENCH_TOOLS)
	@$(MAKE) -k --no-print-directory build-all || true
	CC='$(CC)' B=$(B) bench/run $(if $(filter bench-quick,$@),--quick)

SUITES += bench-quick
check-bench-quick: $(BENCH_TOOLS)
	@CC='$(CC)' B=$(B) bench/run --quick --tap $(B)/tap/bench-quick.tap > $(B)/bench/quick.txt 2> $(B)/tap/bench-quick.err || true

.PHONY: bench bench-quick check-bench-quick

# make bench-loss: every function of bench/calls.c traced with a live capture
# (devtrace record, cat tracepipe) under each policy: records expected, saved, lost
bench-loss:
	@$(MAKE) --no-print-directory build-all
	bench/loss $(LOSS_ARGS)

.PHONY: bench-loss
