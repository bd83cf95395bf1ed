/* linux.c: the device's host functions (dev/host.h) for user space on Linux. */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
#include "dev/host.h"
#include "cycles.h"

uint64_t
hostticks(void)
{
	return cycles();
}

uint64_t
hostnsec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

void
hostpause(void)
{
	sched_yield();
}

int
hostalive(uint32_t tid)
{
	return kill((pid_t)tid, 0) == 0 || errno == EPERM;
}

uint32_t
hostppid(void)
{
	return getppid();
}

uint32_t
hostuid(void)
{
	return getuid();
}

uint32_t
hostcpu(void)
{
	int c = sched_getcpu();

	return c < 0 ? 0 : c;
}

const char *
hostexecname(void)
{
	static __thread char name[16];

	if (name[0] == 0)
		prctl(PR_GET_NAME, name);
	return name;
}
