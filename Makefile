# devtrace.  `make` builds everything; `make test` runs every suite and
# ends with one line "N passed, N failed".  Each folder adds its own
# rules in its rules.mk (FOLDER/rules.mk or FOLDER/SUB/rules.mk); a test suite is a target check-NAME that leaves its
# TAP output in build/tap/NAME.tap, and is named in SUITES.

CC      = cc
CFLAGS  = -O2 -g
WARN    = -Wall -Wextra
ARCH   := $(shell uname -m | sed 's/x86_64/amd64/; s/aarch64/arm64/')
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -fPIC -I. -Iarch/$(ARCH)
# dev/ must build without libc: it goes into a kernel module later.
DEV_CFLAGS = -std=c11 $(WARN) $(CFLAGS) -ffreestanding -fno-stack-protector -fPIC -I.

B = build
SUITES =
PROGS =

all: build-all

# the device and the host first: other folders' rules use LIBDEV and HOST_OBJ
CORE_MK = dev/rules.mk host/rules.mk
include $(CORE_MK) $(filter-out $(CORE_MK),$(sort $(wildcard */rules.mk */*/rules.mk)))

build-all: $(PROGS)

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

test: build-all
	@rm -rf $(B)/tap && mkdir -p $(B)/tap
	@$(MAKE) -k --no-print-directory $(addprefix check-,$(SUITES)) || true
	@tests/tapsum $(B)/tap $(SUITES)

clean:
	rm -rf $(B) bin lib

.PHONY: all build-all test clean
.SECONDARY:
-include $(shell find $(B) -name '*.d' 2>/dev/null)

# the README's first command: set up, trace a real program, show records and a plot
demo:
	tools/demo
.PHONY: demo
