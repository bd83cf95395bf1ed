# tests/layers: the folders' layering and arch/'s monopoly on the ISA.
#   layers: no two files of a folder call each other, directly or round
#	a loop (tests/layers/loops, on the object files, with nm), in
#	dev/, host/, cmd/ and rt/ (kernel/: layers-kernel, below);
#	and dev/ calls through no pointer that upcalls.allow does not list
#	(tests/layers/upcalls, on dev/'s objects built without jump
#	tables or sibling calls, so that each indirect call is the C's);
#	and nothing outside dev/ includes a private header of it
#	(tests/layers/privhdr; tests/ and bench/ may);
#   arch-only: no C or assembly outside arch/ names an ISA's specifics
#	(tests/layers/archonly).
# Each with self-tests that show the checker catches what it is for.
# kernel/'s objects come from the module's build against Debian's kernel
# headers, which make test does not need (it needs no root and no
# kernel): make test-kernel checks them first (layers-kernel).
SUITES += layers arch-only
LAYERS_RT = $(filter $(B)/rt/%,$(RT_OBJ))
UPCALL_OBJ = $(DEV_SRC:%.c=$(B)/tests/layers/upcalls/%.o)
$(B)/tests/layers/upcalls/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(DEV_CFLAGS) -fno-jump-tables -fno-optimize-sibling-calls -c -o $@ $<
check-layers: $(LAYERS_RT) $(DEV_OBJ) $(HOST_OBJ) $(CMD_OBJ) $(UPCALL_OBJ)
	@mkdir -p $(B)/tap
	@RTOBJ="$(abspath $(LAYERS_RT))" DEVOBJ="$(abspath $(DEV_OBJ))" HOSTOBJ="$(abspath $(HOST_OBJ))" \
		CMDOBJ="$(abspath $(CMD_OBJ))" UPCALLOBJ="$(abspath $(UPCALL_OBJ))" \
		bats --tap tests/layers/loops.bats tests/layers/upcalls.bats tests/layers/privhdr.bats > $(B)/tap/layers.tap 2> $(B)/tap/layers.err || true

check-arch-only:
	@mkdir -p $(B)/tap
	@bats --tap tests/layers/archonly.bats > $(B)/tap/arch-only.tap 2> $(B)/tap/arch-only.err || true

# before test-kernel's own steps, so it installs what the module needs itself
KERNEL_LAYERS_OBJ = $(patsubst kernel/%.c,$(B)/kernel/%.o,$(wildcard kernel/*.c))
test-kernel: check-layers-kernel
check-layers-kernel:
	tools/install-kernel-deps
	$(MAKE) --no-print-directory kernel-module
	@mkdir -p $(B)/tap
	@KERNELOBJ="$(abspath $(KERNEL_LAYERS_OBJ))" bats --tap tests/layers/kernel.bats > $(B)/tap/layers-kernel.tap 2> $(B)/tap/layers-kernel.err || true
	@cat $(B)/tap/layers-kernel.tap
	@tests/tapsum $(B)/tap layers-kernel

.PHONY: check-layers check-arch-only check-layers-kernel
