# kernel/: devtrace.ko, the device as a module of Linux, built out of
# tree against the headers of a kernel Debian installs (KDIR), not the
# running one.  Two kernels: KSER=6.1 (Debian 12's linux-image-amd64,
# the default; the module in $(B)/kernel) and KSER=6.12 (from
# bookworm-backports, Debian 13's series; in $(B)/kernel-6.12).  Not
# part of `make`: it needs those headers.  `make kernel-module [KSER=]`
# builds it; `make test-kernel` installs what it needs and, for each
# kernel, builds it, boots that kernel under QEMU with it and checks
# the session (tests/kernel/), TAP in $(B)/tap/kernel-SERIES.tap.
KSERIES = 6.1 6.12
KSER = 6.1
KVER = $(shell tools/kernel-version $(KSER))
KDIR = /usr/src/linux-headers-$(KVER)
KOBJ = $(B)/kernel$(if $(filter 6.1,$(KSER)),,-$(KSER))
KMOD = $(KOBJ)/devtrace.ko
KSRC = $(wildcard kernel/*.c kernel/*.h kernel/Kbuild kernel/compat/*.h $(DEV_SRC) $(DEV_HDR))
KTEST = $(B)/kernel-test-$(KSER)

$(KMOD): $(KSRC)
	tools/kernel-build $(KDIR) $(KOBJ)

kernel-module: $(KMOD)

# each kernel in turn; the suite's TAP must say ok for every line: make fails otherwise
test-kernel:
	tools/install-kernel-deps
	@for s in $(KSERIES); do $(MAKE) --no-print-directory test-kernel-one KSER=$$s || exit 1; done

test-kernel-one: kernel-module
	@mkdir -p $(B)/tap $(KTEST)
	tests/kernel/run $(KMOD) $(KTEST)/console.log $(KVER)
	@tests/kernel/check $(KTEST)/console.log tests/kernel/expected > $(B)/tap/kernel-$(KSER).tap 2> $(KTEST)/figures
	@echo "test-kernel $(KVER): under $$(cat $(KTEST)/accel); figures:"; cat $(KTEST)/figures
	@cat $(B)/tap/kernel-$(KSER).tap | grep -v '^#'
	@tests/tapsum $(B)/tap kernel-$(KSER)

.PHONY: kernel-module test-kernel test-kernel-one
