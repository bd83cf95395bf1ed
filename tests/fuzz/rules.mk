# tests/fuzz: libFuzzer harnesses (clang, ASan, UBSan) and the awk
# scripts' termination fuzzer.  Each is a suite of `make test` with a
# bounded run of FUZZ_TIME seconds, replaying tests/fuzz/regress/NAME
# first (runfuzz, awkfuzz say what each TAP line means):
#   fuzz-ctl   the control language through devctl, devstate, devread
#   fuzz-glob  the device's symbol-name pattern matcher (dev/lib.c)
#   fuzz-block the readers and writers of a scribbled shared block
#   fuzz-shm   the host's mapping of a scribbled device file (host/shmmap.c)
#   fuzz-elf   the runtime's reading of a hostile object file (rt/elftab.c),
#              seeded with fixture binaries built here (plain, --classic,
#              stripped) besides tests/fuzz/corpus/elf
#   fuzz-cap   the reader of a hostile recording (cmd/capfile.c), and
#              its packing read back the same, seeded with a recording
#              bench/mkrec makes here
#   fuzz-awk   every script of scripts/ under mawk and gawk ends in time
# `make fuzz` runs each for FUZZ_LONG seconds (and fuzz-pred, for
# PREDFUZZ_LONG).  New corpus entries and findings stay in build/fuzz/.
FUZZ_B = $(B)/fuzz
FUZZ_TIME = 15
FUZZ_LONG = 600
FUZZCC ?= clang
FUZZ_CFLAGS = -std=c11 -g -O1 -Wall -Wextra -I. -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all
FUZZ_OPTS_ctl = -dict=tests/fuzz/ctl.dict -max_len=2048 -timeout=10
FUZZ_OPTS_glob = -dict=tests/fuzz/glob.dict -max_len=256 -timeout=5
FUZZ_OPTS_block = -dict=tests/fuzz/block.dict -max_len=1024 -timeout=10
FUZZ_OPTS_shm = -dict=tests/fuzz/block.dict -max_len=512 -timeout=10
FUZZ_OPTS_elf = -dict=tests/fuzz/elf.dict -max_len=65536 -timeout=10
FUZZ_OPTS_cap = -max_len=4096 -timeout=10

# the whole device, so the harness follows it however dev/ is split
FUZZ_CTL_SRC = tests/fuzz/fuzz_ctl.c tests/dev/host.c $(DEV_SRC)
$(FUZZ_B)/fuzz_ctl: $(FUZZ_CTL_SRC) $(DEV_HDR) tests/dev/testhost.h
	@mkdir -p $(dir $@)
	$(FUZZCC) $(FUZZ_CFLAGS) -o $@ $(FUZZ_CTL_SRC)

FUZZ_BLOCK_SRC = tests/fuzz/fuzz_block.c tests/dev/host.c $(DEV_SRC)
$(FUZZ_B)/fuzz_block: $(FUZZ_BLOCK_SRC) $(DEV_HDR) tests/dev/testhost.h
	@mkdir -p $(dir $@)
	$(FUZZCC) $(FUZZ_CFLAGS) -o $@ $(FUZZ_BLOCK_SRC)

FUZZ_SHM_SRC = tests/fuzz/fuzz_shm.c $(HOST_SRC) $(DEV_SRC)
$(FUZZ_B)/fuzz_shm: $(FUZZ_SHM_SRC) $(DEV_HDR) $(wildcard host/*.h) $(wildcard arch/$(ARCH)/*.h)
	@mkdir -p $(dir $@)
	$(FUZZCC) $(FUZZ_CFLAGS) -D_GNU_SOURCE -Iarch/$(ARCH) -o $@ $(FUZZ_SHM_SRC) -lpthread

$(FUZZ_B)/fuzz_glob: tests/fuzz/fuzz_glob.c dev/lib.c dev/lib.h
	@mkdir -p $(dir $@)
	$(FUZZCC) $(FUZZ_CFLAGS) -o $@ tests/fuzz/fuzz_glob.c dev/lib.c

# the reader alone (no runtime state), libelf uninstrumented
FUZZ_ELF_SRC = tests/fuzz/fuzz_elf.c rt/elftab.c
$(FUZZ_B)/fuzz_elf: $(FUZZ_ELF_SRC) rt/elftab.h rt/rt.h arch/$(ARCH)/site.h
	@mkdir -p $(dir $@)
	$(FUZZCC) $(FUZZ_CFLAGS) -D_GNU_SOURCE -Iarch/$(ARCH) -o $@ $(FUZZ_ELF_SRC) -lelf

# seeds built here, not committed: fx_basic with sites, with classic hooks, and stripped
FUZZ_SEEDS_elf = $(FUZZ_B)/elf/corpus/seed-sites $(FUZZ_B)/elf/corpus/seed-classic \
	$(FUZZ_B)/elf/corpus/seed-stripped
$(FUZZ_B)/elf/corpus/seed-sites: tests/hooks/fx_basic.c bin/devtrace-cc
	@mkdir -p $(dir $@)
	bin/devtrace-cc -O1 -o $@ $<
$(FUZZ_B)/elf/corpus/seed-classic: tests/hooks/fx_basic.c bin/devtrace-cc
	@mkdir -p $(dir $@)
	bin/devtrace-cc --classic -O1 -o $@ $<
$(FUZZ_B)/elf/corpus/seed-stripped: $(FUZZ_B)/elf/corpus/seed-sites
	strip -o $@ $<

$(FUZZ_B)/fuzz_cap: tests/fuzz/fuzz_cap.c cmd/capfile.c cmd/capfile.h dev/devtrace.h
	@mkdir -p $(dir $@)
	$(FUZZCC) $(FUZZ_CFLAGS) -D_GNU_SOURCE -o $@ tests/fuzz/fuzz_cap.c cmd/capfile.c

# a seed made here, not committed: a recording of a few threads' calls
FUZZ_SEEDS_cap = $(FUZZ_B)/cap/corpus/seed-cut
$(FUZZ_B)/cap/corpus/seed-cut: tests/fixtures/traces/cut.lines $(B)/bench/mkrec
	@mkdir -p $(dir $@)
	$(B)/bench/mkrec -o $@ < $<

SUITES += fuzz-ctl fuzz-glob fuzz-block fuzz-shm fuzz-elf fuzz-cap fuzz-awk

# check-fuzz-NAME: build (a failed build is one failed test), then runfuzz
check-fuzz-ctl check-fuzz-glob check-fuzz-block check-fuzz-shm check-fuzz-elf check-fuzz-cap: check-fuzz-%:
	@mkdir -p $(B)/tap $(FUZZ_B)/$*
	@if $(MAKE) --no-print-directory $(FUZZ_B)/fuzz_$* $(FUZZ_SEEDS_$*) > $(B)/tap/fuzz-$*.err 2>&1; then \
		tests/fuzz/runfuzz $* $(FUZZ_B)/fuzz_$* $(FUZZ_TIME) $(FUZZ_B)/$* $(FUZZ_OPTS_$*) \
			> $(B)/tap/fuzz-$*.tap 2>> $(B)/tap/fuzz-$*.err; \
	else printf '1..1\nnot ok 1 - fuzz_%s builds\n' $* > $(B)/tap/fuzz-$*.tap; fi; true

check-fuzz-awk:
	@mkdir -p $(B)/tap
	@tests/fuzz/awkfuzz $(FUZZ_TIME) $(FUZZ_B)/awk > $(B)/tap/fuzz-awk.tap 2> $(B)/tap/fuzz-awk.err || true

# the long runs: their TAP on the terminal, libFuzzer's output in build/fuzz/NAME.log
fuzz-ctl fuzz-glob fuzz-block fuzz-shm fuzz-elf fuzz-cap: fuzz-%: $(FUZZ_B)/fuzz_%
	tests/fuzz/runfuzz $* $< $(FUZZ_LONG) $(FUZZ_B)/$* $(FUZZ_OPTS_$*) 2> $(FUZZ_B)/$*.log

fuzz-elf: $(FUZZ_SEEDS_elf)
fuzz-cap: $(FUZZ_SEEDS_cap)

fuzz-awk:
	tests/fuzz/awkfuzz $(FUZZ_LONG) $(FUZZ_B)/awk

fuzz: fuzz-ctl fuzz-glob fuzz-block fuzz-shm fuzz-elf fuzz-cap fuzz-awk fuzz-pred

.PHONY: check-fuzz-ctl check-fuzz-glob check-fuzz-block check-fuzz-shm check-fuzz-elf check-fuzz-cap check-fuzz-awk fuzz-ctl fuzz-glob fuzz-block fuzz-shm fuzz-elf fuzz-cap fuzz-awk fuzz
