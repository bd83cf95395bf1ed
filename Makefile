# devtrace.  `make` builds everything; `make test` runs every suite and
# ends with one line "N passed, N failed".  Each folder adds its own
# rules in its rules.mk (FOLDER/rules.mk or FOLDER/SUB/rules.mk); a test suite is a target check-NAME that leaves its
# TAP output in build/tap/NAME.tap, and is named in SUITES.
# `make install` (PREFIX, DESTDIR) installs the commands, the runtime, <devtrace/probe.h>,
# the scripts and plots, and the manual pages; `make uninstall` removes them.

CC      = cc
CFLAGS  = -O2 -g
WARN    = -Wall -Wextra
ARCH   := $(shell uname -m | sed 's/x86_64/amd64/; s/aarch64/arm64/')
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -fPIC -I. -Iarch/$(ARCH)
# dev/ must build without libc: it goes into the kernel module (kernel/) too.
DEV_CFLAGS = -std=c11 $(WARN) $(CFLAGS) -ffreestanding -fno-stack-protector -fPIC -I.

B = build
SUITES =
PROGS =

# make test and make demo install the Debian packages they need first
# (as root).  Not root, they stop before building with the one line
# install-deps prints (which packages, which command); it runs here, while
# the Makefile is read, so that line is all make prints, and so the
# pkg-config calls in the rules.mk below see what it installed.
# Packagers who provide the dependencies themselves: INSTALL_DEPS=:
INSTALL_DEPS = tools/install-deps
ifneq ($(filter test demo,$(MAKECMDGOALS)),)
deps_error := $(shell $(INSTALL_DEPS) 3>&2 2>&1 1>&3)
ifneq ($(.SHELLSTATUS),0)
$(error $(deps_error))
endif
endif

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
	rm -rf $(B) bin lib include

.PHONY: all build-all test clean
.SECONDARY:
-include $(shell find $(B) -name '*.d' 2>/dev/null)

# the README's first command: set up, trace a real program, show records and a plot
demo:
	tools/demo
.PHONY: demo

# the README's Quick start in two fresh Debian 12 systems (debootstrap;
# as root): make test then make demo, and make demo first.  .ci/run runs it.
test-fresh:
	tools/test-fresh
.PHONY: test-fresh

# make install: a tree like the checkout's, under PREFIX.  devtrace run
# and devtrace-cc find the runtime at ../lib beside their bin/, and the
# scripts and plots find their helpers (scripts/lib, plots/*.gp, *.awk)
# beside themselves, so those keep their folders under share/devtrace;
# each command among them gets a bin/devtrace-NAME that runs it from
# there, found relative to itself so that DESTDIR installs run too, and
# a devtrace-NAME(1), a link to devtrace-scripts(1).
PREFIX  = /usr/local
DESTDIR =
bindir   = $(DESTDIR)$(PREFIX)/bin
libdir   = $(DESTDIR)$(PREFIX)/lib
includedir = $(DESTDIR)$(PREFIX)/include
sharedir = $(DESTDIR)$(PREFIX)/share/devtrace
mandir   = $(DESTDIR)$(PREFIX)/share/man
INSTALL_BIN = bin/devtrace bin/devtraced bin/devtrace-cc
MANPAGES = $(wildcard man/*.[1-8])
# whole folders, so scripts and plots added later come along
SHARE_FILES = $(filter-out plots/examples/%,$(shell find scripts plots -type f))

install: build-all
	install -d $(bindir) $(libdir)
	install -m 755 $(INSTALL_BIN) $(bindir)
	install -m 755 lib/libdevtrace.so $(libdir)
	install -D -m 644 arch/probe.h $(includedir)/devtrace/probe.h
	@for f in $(SHARE_FILES); do \
		if [ -x $$f ]; then m=755; else m=644; fi; \
		install -D -m $$m $$f $(sharedir)/$$f || exit 1; \
	done
	@for m in $(MANPAGES); do \
		s=$${m##*.}; install -D -m 644 $$m $(mandir)/man$$s/$${m##*/} || exit 1; \
	done
	@for f in scripts/* plots/*; do \
		n=$${f##*/}; \
		case $$n in *.*) continue;; esac; \
		[ -f $$f ] && [ -x $$f ] || continue; \
		printf '#!/bin/sh\n# devtrace-%s: %s of devtrace, installed in ../share/devtrace (devtrace-scripts(1))\nexec "$$(dirname -- "$$(readlink -f -- "$$0")")/../share/devtrace/%s" "$$@"\n' \
			$$n $$f $$f > $(bindir)/devtrace-$$n && chmod 755 $(bindir)/devtrace-$$n || exit 1; \
		ln -sf devtrace-scripts.1 $(mandir)/man1/devtrace-$$n.1 || exit 1; \
	done

# the wrappers are those of the scripts and plots that were installed
uninstall:
	@for f in $(sharedir)/scripts/* $(sharedir)/plots/*; do \
		[ -f "$$f" ] && rm -f $(bindir)/devtrace-$${f##*/} $(mandir)/man1/devtrace-$${f##*/}.1; \
	done; true
	rm -f $(addprefix $(bindir)/,$(notdir $(INSTALL_BIN))) $(libdir)/libdevtrace.so $(includedir)/devtrace/probe.h
	-rmdir $(includedir)/devtrace 2>/dev/null
	rm -rf $(sharedir)
	rm -f $(foreach m,$(MANPAGES),$(mandir)/man$(subst .,,$(suffix $(m)))/$(notdir $(m)))
.PHONY: install uninstall
