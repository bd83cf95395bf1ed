# tests/uses: tools/uses end to end (bats): Lua 5.4 fetched with apt-get
# source and built with devtrace-cc, traced, the scripts and the plots.
# Needs the network the first time (the source is cached in build/lua);
# without it the suite fails, it does not skip.  About 30-60 s.
SUITES += uses
check-uses: bin/devtraced bin/devtrace bin/devtrace-cc lib/libdevtrace.so
	@mkdir -p $(B)/tap
	@bats --tap tests/uses > $(B)/tap/uses.tap 2> $(B)/tap/uses.err || true

.PHONY: check-uses
