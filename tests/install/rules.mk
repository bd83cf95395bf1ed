# tests/install: make install into a temporary DESTDIR and the demo's
# pipeline run from there; the manual pages through mandoc -T lint;
# tools/install-deps and make test as root and not (bats; setpriv).
SUITES += install
check-install: bin/devtraced bin/devtrace bin/devtrace-cc lib/libdevtrace.so
	@mkdir -p $(B)/tap
	@bats --tap tests/install > $(B)/tap/install.tap 2> $(B)/tap/install.err || true

.PHONY: check-install
