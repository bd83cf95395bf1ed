/*
 * obj.c: the table of the process's objects (scan.c adds them),
 * looked up by address.  Objects are only ever added: hooks read the
 * list without a lock.
 */
#include "rt/rt.h"

Obj *
objof(uintptr_t pc)
{
	uint32_t i, n = ald(&rt.nobj);
	Obj *o;
	int s;

	for (i = 0; i < n; i++) {
		o = rt.obj[i];
		for (s = 0; s < o->nseg; s++)
			if (pc >= o->seg[s].lo && pc < o->seg[s].hi)
				return o;
	}
	return NULL;
}

const Sym *
symof(Obj *o, uintptr_t pc)
{
	uint32_t lo = 0, hi = o->nsym, m;

	while (lo < hi) {
		m = (lo + hi) / 2;
		if (o->sym[m].pc == pc)
			return &o->sym[m];
		if (o->sym[m].pc < pc)
			lo = m + 1;
		else
			hi = m;
	}
	return NULL;
}

/* the segment of o that holds [a, a+n) */
Seg *
segof(Obj *o, uintptr_t a, size_t n)
{
	int s;

	for (s = 0; s < o->nseg; s++)
		if (a >= o->seg[s].lo && a + n <= o->seg[s].hi)
			return &o->seg[s];
	return NULL;
}
