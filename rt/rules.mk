# rt/: the hooks' runtime, lib/libdevtrace.so, and the compiler wrapper bin/devtrace-cc.
# The runtime is never built with hooks (whatever CFLAGS say) and exports
# only dlopen, the longjmp family and the classic hooks (rt/libdevtrace.map).
# the runtime's files, callers first (rt/rt.h); tests/layers checks that no file calls back up
RT_FILES = init dl ctl apply syms scan elf elftab sites grace patch sync hook classic jmp shadow thr obj rt
RT_OBJ = $(RT_FILES:%=$(B)/rt/%.o) $(ARCH_OBJ)
# where the runtime and the wrapper go: lib/ and bin/, or a cross build's own (tests/arm64)
LIBDIR = lib
BINDIR = bin
RTLIB = $(LIBDIR)/libdevtrace.so
CCWRAP = $(BINDIR)/devtrace-cc
RT_NOHOOKS = -DDEVTRACE_RUNTIME -fno-instrument-functions -fpatchable-function-entry=0,0 -fvisibility=hidden

$(RT_OBJ): ALL_CFLAGS += $(RT_NOHOOKS)

$(RTLIB): $(RT_OBJ) $(HOST_OBJ) $(LIBDEV) rt/libdevtrace.map
	@mkdir -p $(LIBDIR)
	$(CC) $(CFLAGS) -shared -Wl,--version-script=rt/libdevtrace.map -Wl,-z,nodelete -Wl,-z,now \
		-o $@ $(RT_OBJ) $(HOST_OBJ) $(LIBDEV) -lelf -lpthread

# the compiler wrapper gets the ISA's site flags from arch/ARCH/siteflags
SITEFLAGS = arch/$(ARCH)/siteflags
$(CCWRAP): cmd/devtrace-cc.sh $(SITEFLAGS)
	@mkdir -p $(BINDIR)
	sed -e "s|@GCC_SITEFLAGS@|$$(sed -n 's/^gcc //p' $(SITEFLAGS))|" \
	    -e "s|@CLANG_SITEFLAGS@|$$(sed -n 's/^clang //p' $(SITEFLAGS))|" $< > $@.tmp
	chmod +x $@.tmp && mv $@.tmp $@

PROGS += $(RTLIB) $(CCWRAP)
