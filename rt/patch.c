/*
 * patch.c: storing to code: made sites' bytes (sites.c), or the switch
 * of many sites (apply.c).  The pages are made writable for the stores
 * and write-protected again, a run of them under one mprotect, not a
 * site: thousands of sites cost two system calls a page, not a site.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include "rt/rt.h"

/* pages [lo, hi) of a segment of protection prot made writable: 0, or -1 (said) */
int
codeopen(uintptr_t lo, uintptr_t hi, int prot)
{
	if (mprotect((void *)lo, hi - lo, prot | PROT_WRITE) < 0) {
		rtdebug("mprotect %p: %s", (void *)lo, strerror(errno));
		return -1;
	}
	return 0;
}

/* and write-protected again */
void
codeclose(uintptr_t lo, uintptr_t hi, int prot)
{
	mprotect((void *)lo, hi - lo, prot);
}

/* n bytes stored at p in a page codeopen made writable, a byte at a time (a thread may run them) */
void
codestore(uint8_t *p, const uint8_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		__atomic_store_n(p + i, v[i], __ATOMIC_RELAXED);
	archicache(p, n);
}

/*
 * Flip sites idx[0..n) to val[]: one store each, a page's worth under
 * one mprotect, then one sync so that every thread runs the new code.
 */
int
patch(uint32_t *idx, uint8_t *val, int n)
{
	int i, j, bad = 0;
	uintptr_t pg, lo, hi;
	Site *s;
	Seg *g;

	for (i = 0; i < n; i = j) {
		s = siteat(idx[i]);
		pg = pgdown((uintptr_t)s->sled + Flipoff);
		g = segof(rt.obj[s->obj], (uintptr_t)s->sled, Sledlen);
		for (j = i + 1; j < n && pgdown((uintptr_t)siteat(idx[j])->sled + Flipoff) == pg &&
		    siteat(idx[j])->obj == s->obj; j++)
			;
		lo = pg;
		hi = pg + rt.pagesz;
		if (codeopen(lo, hi, g->prot) < 0) {
			bad++;
			continue;
		}
		for (; i < j; i++) {
			s = siteat(idx[i]);
			archflip(s->sled, val[i]);
			archicache(s->sled + Flipoff, Fliplen);
			s->on = val[i];
		}
		codeclose(lo, hi, g->prot);
	}
	syncall();
	return bad ? -1 : 0;
}
