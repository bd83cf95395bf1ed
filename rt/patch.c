/*
 * patch.c: storing to code: a made site's bytes (sites.c), or the
 * switch of many sites (apply.c).  The page is made writable for the
 * store and write-protected again.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include "rt/rt.h"

/* store n bytes at p, within one object's segment of protection prot */
int
poke(uint8_t *p, const uint8_t *v, size_t n, int prot)
{
	uintptr_t lo = pgdown((uintptr_t)p), hi = pgup((uintptr_t)p + n);
	size_t i;

	if (mprotect((void *)lo, hi - lo, prot | PROT_WRITE) < 0) {
		rtdebug("mprotect %p: %s", (void *)p, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++)
		__atomic_store_n(p + i, v[i], __ATOMIC_RELAXED);
	archicache(p, n);
	mprotect((void *)lo, hi - lo, prot);
	return 0;
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
		if (mprotect((void *)lo, hi - lo, g->prot | PROT_WRITE) < 0) {
			rtdebug("mprotect %p: %s", (void *)lo, strerror(errno));
			bad++;
			continue;
		}
		for (; i < j; i++) {
			s = siteat(idx[i]);
			archflip(s->sled, val[i]);
			archicache(s->sled + Flipoff, Fliplen);
			s->on = val[i];
		}
		mprotect((void *)lo, hi - lo, g->prot);
	}
	syncall();
	return bad ? -1 : 0;
}
