/*
 * jmp.c: a signal handler that jumps out of the runtime.
 *
 * A handler that interrupts a hook and then longjmps (or siglongjmps)
 * back into the program abandons the hook's frame with the thread
 * still marked as inside the runtime: every later hook of the thread
 * would be skipped as re-entered.  The runtime's longjmp family sees
 * the jump first: a jump, made while the thread is marked inside, to a
 * stack pointer above the hook's frame on the same stack leaves the
 * runtime for good, and the mark goes.  (A jump within the handler, or
 * within its alternate stack, leaves it.)  thr.h's enter() catches the
 * rest: a hook at or above the abandoned frame.  Where the jump buffer
 * keeps the stack pointer, and how, arch/ knows (archjmpsp).
 */
#include <dlfcn.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include "rt/rt.h"
#include "rt/thr.h"

typedef void (*Jmpfn)(void *, int);

static Jmpfn real[4];
static const char *names[4] = { "longjmp", "_longjmp", "siglongjmp", "__longjmp_chk" };

/* at start-up: dlsym is no call for a signal handler */
void
jmpinit(void)
{
	int k;

	for (k = 0; k < 4; k++)
		if (real[k] == NULL)
			real[k] = (Jmpfn)dlsym(RTLD_NEXT, names[k]);
}

static int
onstack(const stack_t *ss, uintptr_t p)
{
	return !(ss->ss_flags & SS_DISABLE) && p >= (uintptr_t)ss->ss_sp && p < (uintptr_t)ss->ss_sp + ss->ss_size;
}

static __attribute__((noreturn)) void
jump(int k, void *jb, int val)
{
	stack_t ss;
	uintptr_t sp;
	int a, b;

	if (real[k] == NULL)
		real[k] = (Jmpfn)dlsym(RTLD_NEXT, names[k]);
	if (real[k] == NULL)
		abort();
	if (rtinside()) {
		sp = archjmpsp(jb);
		if (sigaltstack(NULL, &ss) < 0)
			ss.ss_flags = SS_DISABLE;
		a = onstack(&ss, sp);
		b = onstack(&ss, rtbusysp());
		/* above the hook's frame on its stack, or from the alternate stack to the thread's */
		if ((a == b && sp > rtbusysp()) || (b && !a))
			rtleft();
	}
	real[k](jb, val);
	abort();
}

__attribute__((visibility("default"), noreturn)) void
longjmp(jmp_buf jb, int val)
{
	jump(0, jb, val);
}

__attribute__((visibility("default"), noreturn)) void
_longjmp(jmp_buf jb, int val)
{
	jump(1, jb, val);
}

__attribute__((visibility("default"), noreturn)) void
siglongjmp(sigjmp_buf jb, int val)
{
	jump(2, jb, val);
}

__attribute__((visibility("default"), noreturn)) void
__longjmp_chk(jmp_buf jb, int val)
{
	jump(3, jb, val);
}
