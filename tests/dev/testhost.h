/* testhost.h: the knobs of the unit tests' host */
extern uint64_t testticks, testnsec, testnsecstep, testwaits;
extern uint32_t testdead;
extern uint32_t testchild, testparent;
extern uint64_t testclockticks, testclockns;
enum { Testnring = 4 };	/* newdev's writers' rings: few, so a test can use them all up */
