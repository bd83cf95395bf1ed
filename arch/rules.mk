# arch/: the only ISA code.  arch/arch.h is what the runtime asks of an
# ISA; arch/$(ARCH)/ answers it (site.h: its constants).  Built as the
# runtime is, without hooks.
ARCH_OBJ = $(B)/arch/$(ARCH)/site.o $(B)/arch/$(ARCH)/code.o $(B)/arch/$(ARCH)/jmpbuf.o \
	$(B)/arch/$(ARCH)/tramp.o

$(B)/arch/%.o: arch/%.S
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<
