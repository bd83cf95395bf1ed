# tests/viewers: the traces that scripts/traceevents, scripts/folded and
# devtrace dump write, opened in a real viewer: speedscope in headless
# Chromium, the Perfetto UI's trace processor under node; each must list
# the functions and times of the fixture exactly.  Not part of `make
# test`: it needs tools/install-viewers (a browser and npm packages, not
# in tools/install-deps) and takes about 30 s.  Run it with
# `make check-viewers`; it fails, not skips, when the viewers are absent.
check-viewers:
	@mkdir -p $(B)/tap
	@bats --tap tests/viewers > $(B)/tap/viewers.tap 2> $(B)/tap/viewers.err || true
	@tests/tapsum $(B)/tap viewers

.PHONY: check-viewers
