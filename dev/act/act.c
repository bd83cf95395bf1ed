/*
 * act.c: a trace's actions, the hook side: at a hit that passed its
 * trace's predicate, before the hit's record is written, each action
 * of the trace whose own predicate holds does its one thing (a table,
 * by kind).  A trigger fires once (its pc, ticks and thread kept for
 * the state) and sets trig.c's counts; a speculation's steps move the
 * thread's held records (spec.c).  The block's actions are read
 * checked: the kind against the table, the predicate run by predrun.
 */
#include "dev/dat.h"
#include "dev/fns.h"

/* the actions of the trace in slot: bits for Tsel.act */
uint32_t
actsel(Dev *d, int slot)
{
	uint32_t m = 0, i;

	for (i = 0; i < Nact; i++)
		if (ald(&d->act[i].gen) != 0 && rld(&d->act[i].tslot) == (uint32_t)slot)
			m |= 1u << i;
	return m;
}

/* the Writer decides again at its next hit (hit.c: decide), the fast path's bound with it */
static void
redecide(Dev *d, Hit *h)
{
	if (h->w && h->w->d == d) {
		h->w->gen = 0;
		h->w->fast = 0;
		h->w->ringlim = 0;	/* this hit's own record goes by record.c's slow path */
	}
}

/* once: 1 if this hit fired it */
static int
fire(Act *a, const Hit *h)
{
	uint32_t z = 0;

	if (!__atomic_compare_exchange_n(&a->fired, &z, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return 0;
	rst(&a->pc, h->pc);
	rst(&a->ticks, h->ticks);
	rst(&a->tid, h->tid);
	return 1;
}

/*
 * Once: stop keeps this record and after more, then stops the device;
 * start lets records through from this one on.  Every writer decides
 * again (the control generation), so their records come to trig.c.
 */
static int
trigger(Dev *d, Act *a, Hit *h)
{
	if (!fire(a, h))
		return 0;
	if (rld(&a->kind) == Atrigstop) {
		ast(&d->trigleft, rld(&a->after) + 1);
		ast(&d->trigcount, 1);
	} else
		ast(&d->trigwait, 0);
	redecide(d, h);
	ctlchanged(d);
	return 0;
}

/* hold the thread's records from this one on; what it held already is discarded */
static int
speculate(Dev *d, Act *a, Hit *h)
{
	Spec *s = specclaim(d, h->tid);
	uint32_t n;

	(void)a;
	if (s && (n = rld(&s->n)) != 0) {
		aadd(&d->actcount[Kdiscarded], n <= Specrec ? n : Specrec);
		rst(&s->n, 0);
	}
	if (h->w && h->w->d == d)
		h->w->spec = s ? (uint32_t)(s - d->spec) + 1 : Specnone;
	redecide(d, h);
	return 0;
}

/*
 * The thread's speculation ends with this hit, held last; its Spec, or
 * nil if it had none (the hit is then written as any other).
 */
static Spec *
unspeculate(Dev *d, Hit *h)
{
	Spec *s = specof(d, h->w, h->tid);

	if (s)
		specrecord(d, h);
	if (h->w && h->w->d == d)
		h->w->spec = 0;
	redecide(d, h);
	return s;
}

/* its held records written, in order, this hit's last: 1 if it had them */
static int
commit(Dev *d, Act *a, Hit *h)
{
	Spec *s = unspeculate(d, h);
	uint32_t n, i;
	Hit r;

	(void)a;
	if (s == 0)
		return 0;
	s->flushing = 1;	/* its records are written, not held again */
	if ((n = rld(&s->n)) > Specrec)
		n = Specrec;
	r = *h;
	for (i = 0; i < n; i++) {
		r.pc = s->rec[i].pc;
		r.ticks = s->rec[i].ticks;
		r.tid = h->tid;	/* the owner's, whatever the block says */
		r.exit = s->rec[i].exit < Nkind ? s->rec[i].exit : Kexit;	/* the block is anyone's */
		__builtin_memcpy(r.a, s->rec[i].a, sizeof r.a);
		devrecord(d, &r);
	}
	aadd(&d->actcount[Kcommitted], n);
	specend(s);
	return 1;
}

/* its held records dropped, and this hit's, whether or not the thread speculated (devtrace(4)) */
static int
discard(Dev *d, Act *a, Hit *h)
{
	Spec *s = unspeculate(d, h);

	(void)a;
	if (s != 0)
		aadd(&d->actcount[Kdiscarded], specend(s));
	return 1;
}

/* each returns 1 if the hit's own record was taken (a speculation's last) */
static int (*const acts[Nactkind])(Dev *, Act *, Hit *) = {
	[Atrigstop] = trigger,
	[Atrigstart] = trigger,
	[Aspec] = speculate,
	[Acommit] = commit,
	[Adiscard] = discard,
};

/* the actions of a hit that passed its trace's predicate, before its record: 1 if they took the record */
int
acthit(Dev *d, const Tsel *sel, Hit *h)
{
	uint32_t m = sel->act, i, k;
	uint64_t v;
	Act *a;
	int took = 0;

	for (; m; m &= m - 1) {
		a = &d->act[i = __builtin_ctz(m)];
		if (ald(&a->gen) == 0 || rld(&a->tslot) != sel->slot || (k = rld(&a->kind)) >= Nactkind)
			continue;	/* changed since the host copied the trace, or damaged */
		if (rld(&a->haspred) && (predrun(&a->pred, h, &v) != 0 || v == 0))
			continue;
		took |= acts[k](d, a, h);
	}
	return took;
}
