/*
 * code.c: arm64 cross-modifying code (see arch/arch.h).
 *
 * Instruction fetch is not coherent with data stores on arm64: after a
 * store to code, the data cache line is cleaned to the point of
 * unification and the instruction cache line invalidated (dc cvau, ic
 * ivau, dsb ish: what __builtin___clear_cache emits, or a system call
 * on cores that need one), and then this CPU fetches the new bytes after
 * an isb.  The ic ivau is broadcast to every CPU of the inner shareable
 * domain, but another CPU may still run instructions it fetched before;
 * only a context synchronisation on that CPU ends that, and membarrier's
 * sync-core command is what gives it (sync.c).  Where that command is
 * missing (kernels before 4.16; QEMU user modes that do not pass the
 * system call on, which answer ENOSYS: 7.2 does pass it), sync.c falls
 * back on archxsync: a full barrier.  That is enough for a flip, since
 * the store is one word the architecture lets change under running
 * threads (B and NOP: the other CPUs see the old
 * or the new instruction, the new one soon); only the moment at which
 * every CPU sees it is left open.
 */
#include "arch/arch.h"

void
archicache(void *p, size_t n)
{
	__builtin___clear_cache((char *)p, (char *)p + n);
}

void
archxsync(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}
