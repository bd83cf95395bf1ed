# rt/: the hooks' runtime, lib/libdevtrace.so, and the compiler wrapper bin/devtrace-cc.
# The runtime is never built with hooks (whatever CFLAGS say) and exports
# only dlopen, the longjmp family and the classic hooks (rt/libdevtrace.map).
# the runtime's files, callers first (rt/rt.h); tests/layers checks that no file calls back up
RT_FILES = init dl ctl apply syms scan elf elftab sites grace patch sync hook classic jmp shadow thr obj rt gprmem
RT_OBJ = $(RT_FILES:%=$(B)/rt/%.o) $(ARCH_OBJ)
# where the runtime and the wrapper go: lib/ and bin/, or a cross build's own (tests/arm64)
LIBDIR = lib
BINDIR = bin
RTLIB = $(LIBDIR)/libdevtrace.so
CCWRAP = $(BINDIR)/devtrace-cc
# <devtrace/probe.h> beside bin/, where devtrace-cc finds it (../include)
PROBEH = $(BINDIR)/../include/devtrace/probe.h
RT_NOHOOKS = -DDEVTRACE_RUNTIME -fno-instrument-functions -fpatchable-function-entry=0,0 -fvisibility=hidden

$(RT_OBJ): ALL_CFLAGS += $(RT_NOHOOKS)

# The usual hook path (hook.c, shadow.c and the device) is built as the ISA
# asks in arch/ARCH/hookflags (amd64: no vector registers, so that its
# trampoline need not save them), with the C library's mem* calls renamed
# to gprmem.c's; the runtime links its own copy of the device built so.
HOOKFLAGS := $(shell sed -n 's/^cc //p' arch/$(ARCH)/hookflags 2>/dev/null)
GPRSYMS = $(foreach f,memcpy memmove memset memcmp,--redefine-sym $(f)=gpr$(f))
ifneq ($(HOOKFLAGS),)
RT_HOOKOBJ = $(B)/rt/hook.o $(B)/rt/shadow.o
RT_DEVOBJ = $(DEV_OBJ:$(B)/dev/%=$(B)/rtdev/%)
RT_LIBDEV = $(B)/rtdev/libdev.a
$(RT_HOOKOBJ): $(B)/rt/%.o: rt/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(HOOKFLAGS) -MMD -MP -MF $(@:.o=.d) -MT $@ -c -o $@.raw $<
	objcopy $(GPRSYMS) $@.raw $@ && rm -f $@.raw
$(B)/rtdev/%.o: dev/%.c
	@mkdir -p $(dir $@)
	$(CC) $(DEV_CFLAGS) $(HOOKFLAGS) -MMD -MP -MF $(@:.o=.d) -MT $@ -c -o $@.raw $<
	objcopy $(GPRSYMS) $@.raw $@ && rm -f $@.raw
$(RT_LIBDEV): $(RT_DEVOBJ)
	rm -f $@ && ar rcs $@ $^
else
RT_LIBDEV = $(LIBDEV)
endif

$(RTLIB): $(RT_OBJ) $(HOST_OBJ) $(RT_LIBDEV) rt/libdevtrace.map
	@mkdir -p $(LIBDIR)
	$(CC) $(CFLAGS) -shared -Wl,--version-script=rt/libdevtrace.map -Wl,-z,nodelete -Wl,-z,now \
		-o $@ $(RT_OBJ) $(HOST_OBJ) $(RT_LIBDEV) -lelf -lpthread

# the compiler wrapper gets the ISA's site flags from arch/ARCH/siteflags
SITEFLAGS = arch/$(ARCH)/siteflags
$(CCWRAP): cmd/devtrace-cc.sh $(SITEFLAGS) $(PROBEH)
	@mkdir -p $(BINDIR)
	sed -e "s|@GCC_SITEFLAGS@|$$(sed -n 's/^gcc //p' $(SITEFLAGS))|" \
	    -e "s|@CLANG_SITEFLAGS@|$$(sed -n 's/^clang //p' $(SITEFLAGS))|" $< > $@.tmp
	chmod +x $@.tmp && mv $@.tmp $@

$(PROBEH): arch/probe.h
	@mkdir -p $(dir $@)
	cp $< $@

PROGS += $(RTLIB) $(CCWRAP) $(PROBEH)
