/* shadow.c: the shadow stack's rare paths (shadow.h). */
#include <sys/mman.h>
#include "rt/rt.h"
#include "rt/thr.h"
#include "rt/shadow.h"

enum {
	Compactwin = 16,	/* frames above a frame that may prove it gone */
	Stackahead = 32 * 1024,	/* of the thread's own stack below the first hook, written now */
	Shadowwarm = 64 * 1024,	/* of the shadow stack faulted in at its map: a default one (1024 frames) whole */
};

/*
 * The thread's stack below its first hook written now, a byte a page,
 * from the top down as a growing stack is: the hooks' frames and the
 * trampoline's save area lie below the program's own, and a page the
 * stack had never reached would fault inside a call.
 */
static __attribute__((noinline)) void
stackahead(void)
{
	volatile char below[Stackahead] __attribute__((unused));
	size_t i;

	for (i = Stackahead; i >= 4096; i -= 4096)
		below[i - 1] = 0;
}

/*
 * The shadow stack, its first Shadowwarm bytes faulted in now (populated,
 * then each page written: a page the kernel populated still cost 4 us at
 * its first store on a VM here), not in the calls it follows, as thr.c's
 * thrwarm does a ring; and the thread's own stack ahead (stackahead).
 */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
int
shadowmap(Thr *t)
{
	size_t len = (size_t)t->max * sizeof(Frame), warm = len < Shadowwarm ? len : Shadowwarm, i;

	stackahead();
	t->stk = mmap(NULL, len, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
	if (t->stk == MAP_FAILED) {
		t->stk = NULL;
		return -1;
	}
	(void)madvise(t->stk, warm, MADV_POPULATE_WRITE);	/* refused (before Linux 5.14): the stores fault them in */
	for (i = 0; i < warm; i += 4096)
		((volatile char *)t->stk)[i] = 0;
	return 0;
}

/* full: drop frames that a later frame of the same slot (not a tail call of it) proves gone */
int
shadowcompact(Thr *t)
{
	uint32_t i, j, k, r, n = t->n;
	int gone;

	for (i = j = 0; i < n; i++) {
		/* frames i..r share a slot: a tail-call chain, kept together */
		for (r = i; r + 1 < n && t->stk[r + 1].slot == t->stk[i].slot; r++)
			;
		gone = 0;
		for (k = r + 1; k < n && k <= r + Compactwin && !gone; k++)
			gone = t->stk[k].slot == t->stk[i].slot;
		if (!gone)
			t->stk[j++] = t->stk[i];
	}
	t->n = j;
	return j < n;
}
