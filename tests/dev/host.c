/* host.c: a host for the device's unit tests: time and liveness the tests set. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* nanosleep, when a harness compiles this file with -std=c11 alone */
#endif
#include <sched.h>
#include <string.h>
#include <time.h>
#include <stdint.h>
#include "dev/devtrace.h"
#include "dev/host.h"
#include "tests/dev/testhost.h"

uint64_t testticks = 1000;
uint64_t testnsec;
uint64_t testnsecstep;	/* each hostnsec() call advances the clock this much */
uint64_t testwaits;	/* hostwait() calls */
void hostzero(void *p, size_t n) { memset(p, 0, n); }
int hostfaultin(void *p, size_t n) { (void)p; (void)n; return 0; }	/* the device's own touch of each page is what wring_test checks */
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
const char *hostexecname(void) { return "unit\0\0\0\0\0\0\0\0\0\0\0"; }	/* 16 bytes, NUL-padded */
