# bench/: the benchmarks (issue 7).  make bench: the full run, minutes, prints
# the table and writes bench/results.tsv; make bench-quick: seconds.  bench/run
# builds the workloads itself (the Lua ones from Debian's source, fetched at
# run time by tools/fetch-lua); here only its two helpers.
# dev/ and host/ rules come after ours, so their names are spelled out here.
# retpred's leaves are the ISA's (arch/ARCH/retleaf.S): built where there are some
RETLEAF = $(wildcard arch/$(ARCH)/retleaf.S)
BENCH_TOOLS = $(B)/bench/timeit $(B)/bench/writers $(B)/bench/floor $(if $(RETLEAF),$(B)/bench/retpred)

$(B)/bench/timeit: $(B)/bench/timeit.o
	$(CC) $(CFLAGS) -o $@ $^

# the floor of a traced call, and a redirected return's misprediction
$(B)/bench/floor: $(B)/bench/floor.o
	$(CC) $(CFLAGS) -o $@ $^

$(B)/bench/retpred: $(B)/bench/retpred.o $(RETLEAF)
	$(CC) $(CFLAGS) -o $@ $^

$(B)/bench/writers: $(B)/bench/writers.o $(HOST_OBJ) $(B)/libdev.a
	$(CC) $(CFLAGS) -o $@ $^ -lpthread

# a hit selected by one session and by two: its block its own calloc (devmapped), linux.o alone of the host
$(B)/bench/sesscost: $(B)/bench/sesscost.o $(B)/host/linux.o $(B)/libdev.a
	$(CC) $(CFLAGS) -o $@ $^

# whatever else fails to build, measure what did build.  The full run
# also prints the cost of an aggregated hit next to a record's (issue 16),
# each buffer policy's loss under a live capture (issue 13) and the cost
# of a hit selected by one session and by two
bench: $(BENCH_TOOLS) $(B)/bench/mkrec $(B)/tests/hooks/fx_bench $(B)/tests/hooks/fx_bench_plain $(B)/tests/hooks/fx_bench_classic $(B)/tests/hooks/fx_bench_probe $(B)/tests/hooks/devshm $(B)/bench/sesscost
	@$(MAKE) -k --no-print-directory build-all || true
	CC='$(CC)' B=$(B) bench/run
	B=$(B) bench/aggcost
	bench/loss $(LOSS_ARGS)
	B=$(B) bench/sesscost
	B=$(B) bench/callsrate
	bench/threads
	tests/hooks/bench.sh 10000000

bench-quick: $(BENCH_TOOLS)
	@$(MAKE) -k --no-print-directory build-all || true
	CC='$(CC)' B=$(B) bench/run --quick

SUITES += bench-quick
check-bench-quick: $(BENCH_TOOLS)
	@CC='$(CC)' B=$(B) bench/run --quick --tap $(B)/tap/bench-quick.tap > $(B)/bench/quick.txt 2> $(B)/tap/bench-quick.err || true

.PHONY: bench bench-quick check-bench-quick

# make bench-threads: the threads table of issue 36 (T = 1 2 16 17 32 64: the
# hooks alone, devtrace record -t, uftrace record), bench/RESULTS; with
# FUNTRACE=DIR (funtrace's source, fetched by hand) funtrace's hooks too
bench-threads:
	@$(MAKE) --no-print-directory build-all
	bench/threads

.PHONY: bench-threads

# the cost of an aggregated hit next to a record's, in instructions per call
# (callgrind): bench/aggcost prints the table (issue 16)
bench-aggs: $(B)/tests/hooks/fx_bench $(B)/tests/hooks/devshm lib/libdevtrace.so
	B=$(B) bench/aggcost

.PHONY: bench-aggs

# the device's cost of a hit selected by one session and by two or three,
# instructions (callgrind) and ns per hit: bench/sesscost prints the table
bench-sessions: $(B)/bench/sesscost
	B=$(B) bench/sesscost

.PHONY: bench-sessions

# make bench-loss: every function of bench/calls.c traced with a live capture
# (devtrace record, cat tracepipe) under each policy: records expected, saved, lost
bench-loss:
	@$(MAKE) --no-print-directory build-all
	bench/loss $(LOSS_ARGS)

.PHONY: bench-loss

# a recording made without a device: tests/files/calls.bats's fixtures and
# the rate of devtrace report and graph (bench/RESULTS)
$(B)/bench/mkrec: $(B)/bench/mkrec.o $(B)/cmd/capfile.o
	$(CC) $(CFLAGS) -o $@ $^
PROGS += $(B)/bench/mkrec

# make bench-calls: the records a second devtrace report and graph read (issue 37)
bench-calls: $(B)/bench/mkrec bin/devtrace
	B=$(B) bench/callsrate

.PHONY: bench-calls
