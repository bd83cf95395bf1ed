/*
 * jmpbuf.c: the stack pointer in glibc's arm64 jmp_buf (see arch/arch.h).
 * glibc keeps it at JB_SP, xored with the pointer guard (PTR_MANGLE),
 * a value private to ld.so.  Rather than name that guard, the mangling
 * is learnt from a jump buffer whose stack pointer is known: this
 * function's own, since a leaf setjmp stores its caller's sp.  A C
 * library that does not mangle gives a guard of 0, and the answer stays
 * right.
 */
#include <setjmp.h>
#include "arch/arch.h"

enum { Jbsp = 13 };	/* glibc's JB_SP: x19..x30 (0..11), then sp */

uintptr_t
archjmpsp(const void *jb)
{
	sigjmp_buf me;
	uintptr_t sp, guard;

	__asm__ __volatile__("mov %0, sp" : "=r"(sp));
	if (sigsetjmp(me, 0) != 0)
		return 0;	/* nothing jumps to me */
	guard = ((const uintptr_t *)me)[Jbsp] ^ sp;
	return ((const uintptr_t *)jb)[Jbsp] ^ guard;
}
