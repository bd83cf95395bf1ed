/*
 * code.c: amd64 cross-modifying code (see arch/arch.h).
 *
 * x86 keeps instruction fetch coherent with stores: a CPU that stored
 * to code runs the new bytes (archicache has nothing to do), and
 * another CPU does too once the store is visible to it, provided the
 * change is one store of a whole instruction's part that both old and
 * new decode from (the flip byte: Intel SDM vol. 3, 8.1.3).  Without
 * membarrier's core serialisation, a full fence is all the fallback
 * needs.
 */
#include "arch/arch.h"

void
archicache(void *p, size_t n)
{
	(void)p;
	(void)n;
}

void
archxsync(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}
