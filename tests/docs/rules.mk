# tests/docs: the commands README and the manual pages show, run as
# shown, their output compared with the output shown: lines by shape,
# counts and sizes exact, times within a factor of 10, pids and
# addresses not (rundoc, figures.awk); the manual pages' synopses
# against the commands' --help (flags.awk).  The convention is in NOTES,
# "Commands shown in the documents are tested"; bats.
SUITES += docs
check-docs: bin/devtraced bin/devtrace bin/devtrace-cc lib/libdevtrace.so
	@mkdir -p $(B)/tap
	@bats --tap tests/docs > $(B)/tap/docs.tap 2> $(B)/tap/docs.err || true

# make docs-examples: the outputs README and the manual pages show, made
# again by running their commands (tests/docs/regen), where they no
# longer agree; ALL=1: everywhere; DEMO=1: also README's blocks of make
# demo's session, from a new run of tools/demo (minutes: it builds Lua),
# or DEMOLOG=FILE, from what an earlier run printed.  It prints the
# change as a diff; the documents are changed in place.
DOCS_DEMOLOG = $(or $(DEMOLOG),$(if $(DEMO),$(B)/demo/demo.log))
docs-examples: bin/devtraced bin/devtrace bin/devtrace-cc lib/libdevtrace.so
ifneq ($(DEMO),)
ifeq ($(DEMOLOG),)
	@mkdir -p $(B)/demo
	env -u DEVTRACE_DIR tools/demo > $(B)/demo/demo.log 2>&1 || { tail -20 $(B)/demo/demo.log; exit 1; }
endif
endif
	tests/docs/regen $(if $(ALL),-a) $(if $(DOCS_DEMOLOG),-d $(DOCS_DEMOLOG))

.PHONY: check-docs docs-examples
