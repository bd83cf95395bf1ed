/* testhost.h: the knobs of the unit tests' host */
extern uint64_t testticks, testnsec, testnsecstep;
extern uint32_t testdead;
