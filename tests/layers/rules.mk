# tests/layers: the runtime's layering and arch/'s monopoly on the ISA.
#   rt-layers: no two files of rt/ call each other, directly or round a
#	loop (tests/layers/rtlayers, on the object files, with nm);
#   arch-only: no C or assembly outside arch/ names an ISA's specifics
#	(tests/layers/archonly).
# Each with self-tests that show the checker catches what it is for.
SUITES += rt-layers arch-only
check-rt-layers: $(filter $(B)/rt/%,$(RT_OBJ))
	@mkdir -p $(B)/tap
	@RTOBJ="$(abspath $^)" bats --tap tests/layers/rtlayers.bats > $(B)/tap/rt-layers.tap 2> $(B)/tap/rt-layers.err || true

check-arch-only:
	@mkdir -p $(B)/tap
	@bats --tap tests/layers/archonly.bats > $(B)/tap/arch-only.tap 2> $(B)/tap/arch-only.err || true

.PHONY: check-rt-layers check-arch-only
