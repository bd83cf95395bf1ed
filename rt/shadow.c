/* shadow.c: the shadow stack's rare paths (shadow.h). */
#include <sys/mman.h>
#include "rt/rt.h"
#include "rt/thr.h"
#include "rt/shadow.h"

enum {
	Compactwin = 16,	/* frames above a frame that may prove it gone */
};

/* its first pages faulted in now, not in the calls it follows (as thr.c's thrwarm does a ring's) */
int
shadowmap(Thr *t)
{
	size_t len = (size_t)t->max * sizeof(Frame), i;

	t->stk = mmap(NULL, len, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
	if (t->stk == MAP_FAILED) {
		t->stk = NULL;
		return -1;
	}
	for (i = 0; i < len && i < Warmbytes; i += 4096)
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
