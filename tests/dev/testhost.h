/* testhost.h: the knobs of the unit tests' host */
extern uint64_t testticks, testnsec, testnsecstep, testwaits;
extern uint32_t testdead;
extern uint32_t testchild, testparent;
extern uint64_t testclockticks, testclockns;
enum { Testnring = 4 };	/* newdev's writers' rings: few, so a test can use them all up */
void	testmade(const void *d, uint32_t logmax);	/* d was made with logmax and Testnring rings: hostlogmax says so */
void	testmaden(const void *d, uint32_t logmax, uint32_t nring);	/* and hostnring says nring */
void	testmadesess(const void *d, uint32_t logmax, uint32_t nring, uint32_t nsess);	/* and nsess sessions after it (hostnsess), each made */
