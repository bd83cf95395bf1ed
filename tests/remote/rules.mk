# make test-remote: a device read and controlled from another host over
# 9P, and two hosts' records merged (tools/test-remote: Debian's kernel
# under QEMU, two network namespaces of one guest).  Not part of make
# test: it needs root, a kernel image and minutes of emulation; .ci/run
# runs it.  TAP in $(B)/tap/remote.tap; make fails unless every line is ok.
test-remote: build-all
	tools/install-remote-deps
	tools/test-remote

.PHONY: test-remote

# devtrace merge and the scripts on its stream, without QEMU: in make test
SUITES += merge
check-merge:
	@mkdir -p $(B)/tap
	@bats --tap tests/remote/merge.bats > $(B)/tap/merge.tap 2> $(B)/tap/merge.err || true

.PHONY: check-merge
