/* host.c: a host for the device's unit tests: time and liveness the tests set. */
#include <sched.h>
#include <stdint.h>
#include "dev/host.h"
#include "tests/dev/testhost.h"

uint64_t testticks = 1000;
uint64_t testnsec;
uint64_t testnsecstep;	/* each hostnsec() call advances the clock this much */
uint32_t testdead;	/* a thread id hostalive() reports gone */

uint64_t hostticks(void) { return __atomic_add_fetch(&testticks, 1, __ATOMIC_RELAXED); }
uint64_t hostnsec(void) { return __atomic_add_fetch(&testnsec, testnsecstep, __ATOMIC_RELAXED); }
void hostpause(void) { sched_yield(); }
int hostalive(uint32_t tid) { return tid != testdead; }
uint32_t hostppid(void) { return 1; }
uint32_t hostuid(void) { return 1000; }
uint32_t hostcpu(void) { return 0; }
const char *hostexecname(void) { return "unit\0\0\0\0\0\0\0\0\0\0\0"; }	/* 16 bytes, NUL-padded */
