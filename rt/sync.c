/*
 * sync.c: making every thread of the process see a change: new code
 * bytes (patch.c) or a new View (grace.c).  membarrier's sync-core
 * command serialises every CPU running one of our threads; without it,
 * the ISA's own rules (archxsync) are all there is.
 */
#include <sys/syscall.h>
#include <linux/membarrier.h>
#include <unistd.h>
#include "rt/rt.h"

/* at start-up and in a fork's child: registration is per process */
void
syncinit(void)
{
	long r = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);

	rt.membar = r > 0 && (r & MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE) &&
		syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0) == 0;
	if (!rt.membar)
		rtdebug("no membarrier sync-core: relying on the ISA's cross-modifying code rules");
}

void
syncall(void)
{
	if (rt.membar)
		syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0);
	else
		archxsync();
}
