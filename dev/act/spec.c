/*
 * spec.c: speculations' held records, per thread (DTrace's speculative
 * tracing).  A thread that began one (act.c) owns a Spec of the block:
 * its records are held there instead of written (spechold, from
 * record.c), until a commit writes them or a discard drops them
 * (act.c).  The owner alone writes its Spec; a record that finds no
 * room, or no Spec free, is counted (Knoroom), never silently lost.
 * What the block says is checked before use: any process may write it.
 */
#include "dev/dat.h"
#include "dev/fns.h"
#include "dev/host.h"

/* the thread's speculation, or nil: the Writer's note checked against the block, else a search by thread */
Spec *
specof(Dev *d, const Writer *w, uint32_t tid)
{
	Spec *s;
	uint32_t i;

	if (w && w->d == d && w->spec >= 1 && w->spec <= Nspec && ald(&d->spec[w->spec - 1].tid) == tid)
		return d->spec[w->spec - 1].flushing ? 0 : &d->spec[w->spec - 1];
	if (w && w->d == d && (w->spec == 0 || w->spec == Specnone))
		return 0;	/* the Writer says none: no search at each record */
	for (i = 0; i < Nspec; i++)
		if (ald(&(s = &d->spec[i])->tid) == tid)
			return s->flushing ? 0 : s;
	return 0;
}

/* a Spec for tid: its own, a free one, or a dead owner's (its records counted discarded); nil if none */
Spec *
specclaim(Dev *d, uint32_t tid)
{
	Spec *s;
	uint32_t i, o, n;

	for (i = 0; i < Nspec; i++)
		if (ald(&d->spec[i].tid) == tid)
			return &d->spec[i];
	for (i = 0; i < Nspec; i++) {
		s = &d->spec[i];
		o = ald(&s->tid);
		if (o != 0 && hostalive(o))
			continue;
		if (__atomic_compare_exchange_n(&s->tid, &o, tid, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			if ((n = rld(&s->n)) != 0)
				aadd(&d->actcount[Kdiscarded], n <= Specrec ? n : Specrec);
			rst(&s->n, 0);
			s->flushing = 0;
			return s;
		}
	}
	return 0;
}

/* a record, if its thread speculates: held, or counted for want of room (1); else 0, it is written */
int
specrecord(Dev *d, const Hit *h)
{
	const Writer *w = h->w;
	Spec *s;
	uint32_t n;
	Rec *r;

	if (w && w->d == d && w->spec == Specnone) {
		aadd(&d->actcount[Knoroom], 1);
		return 1;
	}
	if ((s = specof(d, w, h->tid)) == 0)
		return 0;
	if ((n = rld(&s->n)) >= Specrec) {
		aadd(&d->actcount[Knoroom], 1);
		return 1;
	}
	r = &s->rec[n];
	r->pc = h->pc;
	r->ticks = h->ticks;
	r->tid = h->tid;
	r->exit = h->exit;
	r->a[0] = h->a[0];
	r->a[1] = h->exit == Kexit ? 0 : h->a[1];
	r->a[2] = h->exit == Kexit ? 0 : h->a[2];
	r->a[3] = h->exit == Kexit ? 0 : h->a[3];
	rst(&s->n, n + 1);
	aadd(&d->actcount[Kheld], 1);
	return 1;
}

/* the speculation ends: its Spec is free again; how many records it held (at most Specrec) */
uint32_t
specend(Spec *s)
{
	uint32_t n = rld(&s->n);

	if (n > Specrec)
		n = Specrec;
	rst(&s->n, 0);
	s->flushing = 0;
	ast(&s->tid, 0);
	return n;
}
