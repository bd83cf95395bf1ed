# rt/: the hooks' runtime, lib/libdevtrace.so, and the compiler wrapper bin/devtrace-cc.
# The runtime is never built with hooks (whatever CFLAGS say) and exports
# only dlopen, the longjmp family and the classic hooks (rt/libdevtrace.map).
RT_OBJ = $(B)/rt/obj.o $(B)/rt/ctl.o $(B)/rt/hook.o $(B)/rt/dl.o $(B)/rt/jmp.o \
	$(B)/arch/$(ARCH)/site.o $(B)/arch/$(ARCH)/tramp.o
RT_NOHOOKS = -DDEVTRACE_RUNTIME -fno-instrument-functions -fpatchable-function-entry=0,0 -fvisibility=hidden

$(RT_OBJ): ALL_CFLAGS += $(RT_NOHOOKS)

$(B)/arch/%.o: arch/%.S
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

lib/libdevtrace.so: $(RT_OBJ) $(HOST_OBJ) $(LIBDEV) rt/libdevtrace.map
	@mkdir -p lib
	$(CC) $(CFLAGS) -shared -Wl,--version-script=rt/libdevtrace.map -Wl,-z,nodelete -Wl,-z,now \
		-o $@ $(RT_OBJ) $(HOST_OBJ) $(LIBDEV) -lelf -lpthread

bin/devtrace-cc: cmd/devtrace-cc.sh
	@mkdir -p bin
	cp $< $@ && chmod +x $@

PROGS += lib/libdevtrace.so bin/devtrace-cc
