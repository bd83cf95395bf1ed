/* host.c: a host for the device's unit tests: time and liveness the tests set. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* nanosleep, when a harness compiles this file with -std=c11 alone */
#endif
#include <sched.h>
#include <time.h>
#include <stdint.h>
#include "dev/devtrace.h"
#include "dev/host.h"
#include "tests/dev/testhost.h"

uint64_t testticks = 1000;
uint64_t testnsec;
uint64_t testnsecstep;	/* each hostnsec() call advances the clock this much */
uint64_t testwaits;	/* hostwait() calls */
uint32_t testdead;	/* a thread id hostalive() reports gone */

uint64_t hostticks(void) { return __atomic_add_fetch(&testticks, 1, __ATOMIC_RELAXED); }
uint64_t testclockticks, testclockns;	/* what hostclock() answers */
void hostclock(uint64_t *ticks, uint64_t *ns) { *ticks = testclockticks; *ns = testclockns; }
uint64_t hostnsec(void) { return __atomic_add_fetch(&testnsec, testnsecstep, __ATOMIC_RELAXED); }
/* a writer's wait takes its time on the test clock, and really sleeps: a reader thread gets to run */
void
hostwait(uint64_t nsec)
{
	struct timespec ts = { 0, (long)(nsec % 1000000000ull) };

	__atomic_add_fetch(&testnsec, nsec, __ATOMIC_RELAXED);
	__atomic_add_fetch(&testwaits, 1, __ATOMIC_RELAXED);
	nanosleep(&ts, NULL);
}
int hostalive(uint32_t tid) { return tid != testdead; }
uint32_t testchild, testparent;	/* hostdescends: testchild descends from testparent */
int hostdescends(uint32_t pid, uint32_t anc) { return pid == testchild && anc == testparent; }
uint32_t hostppid(void) { return 1; }
uint32_t hostuid(void) { return 1000; }
uint32_t hostcpu(void) { return 0; }
/* the devices newdev made, with the size each was made with: what hostlogmax answers */
static struct {
	const void *d;
	uint32_t logmax;
	uint32_t nring;
	uint32_t nsess;
} made[256];

void
testmaden(const void *d, uint32_t logmax, uint32_t nring)
{
	unsigned i;

	for (i = 0; i < sizeof made / sizeof made[0]; i++)
		if (made[i].d == 0 || made[i].d == d) {
			made[i].logmax = logmax;
			made[i].nring = nring;
			made[i].nsess = 0;
			made[i].d = d;
			return;
		}
	made[0].d = d;	/* full: a test leaks devices; reuse */
	made[0].logmax = logmax;
	made[0].nring = nring;
	made[0].nsess = 0;
}

/* d holds nsess sessions after it: each is made too, as a session's Dev */
void
testmadesess(const void *d, uint32_t logmax, uint32_t nring, uint32_t nsess)
{
	unsigned i, n;

	testmaden(d, logmax, nring);
	for (i = 0; i < sizeof made / sizeof made[0]; i++)
		if (made[i].d == d)
			made[i].nsess = nsess;
	for (n = 1; n <= nsess; n++)
		testmaden((const char *)d + devsessoff(logmax, nring, n), devsesslog(logmax), nring);
}

void
testmade(const void *d, uint32_t logmax)
{
	testmaden(d, logmax, Testnring);
}

/* d's entry in made[], or the empty one past them (all zero) */
static unsigned
mapped(const struct Dev *d)
{
	unsigned i;

	for (i = 0; i < sizeof made / sizeof made[0] && made[i].d != d; i++)
		;
	return i < sizeof made / sizeof made[0] ? i : 0;
}

uint32_t hostnring(const struct Dev *d) { unsigned i = mapped(d); return made[i].d == d ? made[i].nring : 0; }
uint32_t hostnsess(const struct Dev *d) { unsigned i = mapped(d); return made[i].d == d ? made[i].nsess : 0; }
uint32_t hostlogmax(const struct Dev *d) { unsigned i = mapped(d); return made[i].d == d ? made[i].logmax : 0; }

const char *hostexecname(void) { return "unit\0\0\0\0\0\0\0\0\0\0\0"; }	/* 16 bytes, NUL-padded */
