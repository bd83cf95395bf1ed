/* testhost.h: the knobs of the unit tests' host */
extern uint64_t testticks, testnsec, testnsecstep, testwaits;
extern uint32_t testdead;
void	testmade(const void *d, uint32_t logmax);	/* d was made with logmax: hostlogmax says so */
