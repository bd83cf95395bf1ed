# kernel/: devtrace.ko, the device as a module of Debian 12's Linux (6.1),
# built out of tree against the headers of the kernel linux-image-amd64
# installs (KDIR), not the running one.  Not part of `make`: it needs
# those headers.  `make kernel-module` builds it; `make test-kernel`
# installs what it needs, builds it, boots that kernel under QEMU with
# it and checks the session (tests/kernel/), TAP in $(B)/tap/kernel.tap.
KDIR = /usr/src/linux-headers-$(shell tools/kernel-version)
KMOD = $(B)/kernel/devtrace.ko
KSRC = $(wildcard kernel/*.c kernel/*.h kernel/Kbuild kernel/compat/*.h dev/*.c dev/*.h)

$(KMOD): $(KSRC)
	tools/kernel-build $(KDIR) $(B)/kernel

kernel-module: $(KMOD)

# the suite's TAP must say ok for every line: make fails otherwise
test-kernel:
	tools/install-kernel-deps
	$(MAKE) --no-print-directory kernel-module
	@mkdir -p $(B)/tap $(B)/kernel-test
	tests/kernel/run $(KMOD) $(B)/kernel-test/console.log
	@tests/kernel/check $(B)/kernel-test/console.log tests/kernel/expected > $(B)/tap/kernel.tap 2> $(B)/kernel-test/figures
	@echo "test-kernel: under $$(cat $(B)/kernel-test/accel); figures:"; cat $(B)/kernel-test/figures
	@cat $(B)/tap/kernel.tap | grep -v '^#'
	@! grep -q '^not ok' $(B)/tap/kernel.tap

.PHONY: kernel-module test-kernel
