/*
 * host.c: the host functions the predicate tests link, with the
 * fixture's values, counting the calls of those a predicate may make.
 */
#include <stddef.h>
#include <string.h>
#include "dev/host.h"
#include "tests/pred/fixture.h"

int nhostcalls;	/* ppid, uid, cpu and execname asked */
const char *testexecname = Fexecname;	/* a test may point it elsewhere, nil included */

uint64_t hostticks(void) { return Fticks; }
uint64_t hostnsec(void) { return 0; }
void hostclock(uint64_t *ticks, uint64_t *ns) { *ticks = Fticks; *ns = 0; }
void hostwait(uint64_t nsec) { (void)nsec; }
void hostzero(void *p, size_t n) { memset(p, 0, n); }
int hostfaultin(void *p, size_t n) { (void)p; (void)n; return 0; }	/* the device's own touch of each page is what wring_test checks */
int hostalive(uint32_t tid) { (void)tid; return 1; }
int hostdescends(uint32_t pid, uint32_t anc) { (void)pid; (void)anc; return 0; }
uint32_t hostppid(void) { nhostcalls++; return Fppid; }
uint32_t hostuid(void) { nhostcalls++; return Fuid; }
uint32_t hostcpu(void) { nhostcalls++; return Fcpu; }

/* the host's promise: 16 bytes, NUL-padded; a nil testexecname is a host that cannot tell */
const char *
hostexecname(void)
{
	static char name[16];
	int i;

	nhostcalls++;
	for (i = 0; i < 16; i++)
		name[i] = testexecname && i < 15 && (i == 0 || name[i - 1]) ? testexecname[i] : 0;
	return name;
}
