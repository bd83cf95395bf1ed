# dev/: the device, built freestanding into one archive every host links.
# the device's files, and its parts' folders (pred/, agg/, ring/, act/)
DEV_SRC = $(wildcard dev/*.c dev/*/*.c)
DEV_HDR = $(wildcard dev/*.h dev/*/*.h)
DEV_OBJ = $(DEV_SRC:%.c=$(B)/%.o)
LIBDEV = $(B)/libdev.a

$(B)/dev/%.o: dev/%.c
	@mkdir -p $(dir $@)
	$(CC) $(DEV_CFLAGS) -MMD -MP -c -o $@ $<

$(LIBDEV): $(DEV_OBJ)
	rm -f $@ && ar rcs $@ $^

PROGS += $(LIBDEV)

# The device may call only its host (host*) and what GCC may emit for
# freestanding code (mem*): anything else would not link into a kernel.
SUITES += freestanding
check-freestanding: $(LIBDEV)
	@tests/freestanding $(LIBDEV) > $(B)/tap/freestanding.tap 2> $(B)/tap/freestanding.err || true
