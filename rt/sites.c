/*
 * sites.c: making an object's sites.  Each new object with sites gets
 * a stub page within a call's reach, and its NOP sleds become off-state
 * skip-branches (arch/arch.h), before any thread but this one runs.
 */
#include <stdint.h>
#include <sys/mman.h>
#include "rt/rt.h"

/* a stub page that every site of o can call */
static uint8_t *
stubsnear(Obj *o, size_t size)
{
	uintptr_t lo = UINTPTR_MAX, hi = 0, a;
	int s, k;
	void *p;

	for (s = 0; s < o->nseg; s++) {
		if (!(o->seg[s].prot & PROT_EXEC))
			continue;
		if (o->seg[s].lo < lo)
			lo = o->seg[s].lo;
		if (o->seg[s].hi > hi)
			hi = o->seg[s].hi;
	}
	size = pgup(size);
	for (k = 0; k < 4096; k++) {
		/* alternately after and before the object, 1MB further each time */
		uintptr_t step = (uintptr_t)(k / 2) << 20;
		if (k % 2 == 0)
			a = pgup(hi) + step + (1 << 16);
		else if (lo > step + size + (1 << 16))
			a = pgdown(lo - step - size - (1 << 16));
		else
			continue;
		p = mmap((void *)a, size, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED_NOREPLACE, -1, 0);
		if (p == MAP_FAILED)
			continue;
		if (archreach(lo + Sledlen, (uintptr_t)p + size) && archreach(hi, (uintptr_t)p))
			return p;
		munmap(p, size);
	}
	return NULL;
}

static int
growsites(uint32_t n)
{
	uint32_t c;

	for (c = rt.nsite >> Chunklog; c <= (rt.nsite + n) >> Chunklog; c++) {
		if (c >= Maxchunk)
			return -1;
		if (rt.chunk[c] == NULL) {
			void *p = mmap(NULL, Chunk * sizeof(Site), PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
			if (p == MAP_FAILED)
				return -1;
			ast(&rt.chunk[c], (Site *)p);
		}
	}
	return 0;
}

/* probe p of o as a site, if its bytes are a fresh sled: 1, else 0 */
static int
probesite(Obj *o, const Probe *p, Site *s)
{
	Seg *g;

	if ((g = segof(o, p->sled, Sledlen)) == NULL || !(g->prot & PROT_EXEC) || !archsledfresh((uint8_t *)p->sled)) {
		rtdebug("%s: %#lx: probe %s is not a NOP sled", o->path, (unsigned long)p->sled, p->name);
		return 0;
	}
	s->pc = p->sled;
	s->sled = (uint8_t *)p->sled;
	s->name = p->name;
	s->obj = rt.nobj;
	s->on = 0;
	s->nval = p->nval;
	return 1;
}

/*
 * make o's sites, its functions' (ent) then its probes': stubs first,
 * then the sleds become skip-branches (off)
 */
void
sitesmake(Obj *o, uint64_t *ent, size_t n, const Probe *probe, size_t np)
{
	uint32_t k = 0, kp = 0, i, j, first = rt.nsite;
	uintptr_t a, pc, lo, hi;
	const Sym *sym;
	uint8_t code[Sledlen], *stub;
	size_t size;
	Site *s;
	Seg *g;
	int pad;

	if (n + np == 0 || growsites(n + np) < 0)
		return;
	for (i = 0; i < n; i++) {
		a = ent[i];
		if (a == 0 || (i > 0 && ent[i - 1] == a))
			continue;
		if ((g = segof(o, a, Sledlen)) == NULL || !(g->prot & PROT_EXEC))
			continue;
		if (!archsledfresh((uint8_t *)a)) {
			rtdebug("%s: %#lx: not a NOP sled", o->path, (unsigned long)a);
			continue;
		}
		pc = a;
		sym = symof(o, a);
		if (sym == NULL && (pad = archpad((uint8_t *)a, g->lo)) > 0) {
			pc = a - pad;
			sym = symof(o, pc);
		}
		if (sym == NULL && o->nsym > 0) {
			/* not at an entry (-fpatchable-function-entry=N,M with M>0?): leave it */
			rtdebug("%s: %#lx: no function starts at the sled", o->path, (unsigned long)a);
			continue;
		}
		s = siteat(first + k);
		s->pc = pc;
		s->sled = (uint8_t *)a;
		s->name = sym ? sym->name : NULL;
		s->obj = rt.nobj;
		s->on = 0;
		k++;
	}
	for (i = 0; i < np; i++)
		kp += probesite(o, &probe[i], siteat(first + k + kp));
	if (k + kp == 0)
		return;
	size = Stubhdr + (size_t)k * Stublen + (size_t)kp * Probestublen;
	if ((o->stubs = stubsnear(o, size)) == NULL) {
		rtdebug("%s: no room for stubs near the object", o->path);
		return;
	}
	archstubs(o->stubs, first, k, (uintptr_t)devtrace_entry, (uintptr_t)devtrace_probe);
	for (i = 0; i < kp; i++) {
		s = siteat(first + k + i);
		stub = o->stubs + Stubhdr + (size_t)k * Stublen + (size_t)i * Probestublen;
		archprobestub(stub, o->stubs, first + k + i, (uintptr_t)s->sled + Sledlen);
	}
	archicache(o->stubs, size);
	mprotect(o->stubs, pgup(size), PROT_READ|PROT_EXEC);
	o->first = first;
	o->nsite = k + kp;
	/* the sleds, a run of sites in address order on adjacent pages of one segment under one mprotect */
	for (i = 0; i < k + kp; i = j) {
		s = siteat(first + i);
		g = segof(o, (uintptr_t)s->sled, Sledlen);
		lo = pgdown((uintptr_t)s->sled);
		hi = pgup((uintptr_t)s->sled + Sledlen);
		for (j = i + 1; j < k + kp; j++) {
			a = (uintptr_t)siteat(first + j)->sled;
			if (a < (uintptr_t)siteat(first + j - 1)->sled || pgdown(a) > hi || segof(o, a, Sledlen) != g)
				break;
			hi = pgup(a + Sledlen);
		}
		if (codeopen(lo, hi, g->prot) < 0)
			continue;
		for (; i < j; i++) {
			s = siteat(first + i);
			stub = o->stubs + Stubhdr + (i < k ? (size_t)i * Stublen : (size_t)k * Stublen + (size_t)(i - k) * Probestublen);
			if (i < k)
				archsledmake(code, (uintptr_t)s->sled, (uintptr_t)stub);
			else
				archprobemake(code, (uintptr_t)s->sled, (uintptr_t)stub);
			codestore(s->sled, code, Sledlen);
		}
		codeclose(lo, hi, g->prot);
	}
	ast(&rt.nsite, first + k + kp);
}
