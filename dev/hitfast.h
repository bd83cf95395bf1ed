/*
 * hitfast.h: inline helpers for a host's hook path, the common case of
 * devfilter, devhit and devrecord (hit.c, record.c) in one test each: a
 * trace with no predicate, no aggregation and records on (Tsel.plain),
 * the site on, the thread's watch decision made at this control
 * generation and true (hitplain), its own ring under the ring policy
 * (devputfast).  Anything else the caller hands to the out-of-line
 * function, which decides as before: the result is the same whichever
 * path runs.  writerfast and wringputfast are the same for a host that
 * decides per site when the control state changes (rt/apply.c): one
 * compare of the control generation stands for all of hitplain's and
 * devputfast's.  Needs dat.h (the Dev's layout) and slot.h: for hosts
 * that are built with the device.
 */
#ifndef DEVTRACE_HITFAST_H
#define DEVTRACE_HITFAST_H

#include "dev/ring/slot.h"

/* started, the site's trace on at its generation, the thread watched now, no predicate, no aggregation */
static inline __attribute__((always_inline)) int
hitplain(Dev *d, const Tsel *sel, const Writer *w)
{
	const Trace *t;

	if (!sel->plain || !ald(&d->started) || sel->slot >= Ntrace)
		return 0;
	t = &d->trace[sel->slot];
	if (rld(&t->gen) != sel->gen || !rld(&t->on))
		return 0;
	return w != 0 && w->d == d && w->gen == ald(&d->ctlgen) + 1 && w->watched;
}

/*
 * devrecord's common case with no Hit: the record's fields in registers,
 * written if the writer has its own ring under the ring policy (1); 0:
 * nothing written, the caller fills a Hit and calls devrecord.
 */
static inline __attribute__((always_inline)) int
devputfast(Dev *d, const Writer *w, uint32_t tid, uint32_t exit, uint64_t pc, uint64_t ticks,
	uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	uint32_t log = rld(&d->log);
	Wring *r;
	uint64_t t;

	if (__builtin_expect(!(w->d == d && log <= w->ringlim && w->wr != 0), 0))
		return 0;
	r = w->wr;
	t = rld(&r->head);
	slotput(&w->ws[t & ((1ull << log) - 1)], t, tid, exit, pc, ticks, a0,
		exit == Kexit ? 0 : a1, exit == Kexit ? 0 : a2, exit == Kexit ? 0 : a3);
	ast(&r->head, t + 1);
	return 1;
}

/*
 * For a host that decides per site when it follows the control state
 * (rt/apply.c): a site it found on for a plain trace at gen (1 + the
 * control generation it read first) is still so if the generation has
 * not moved since (every control change moves it after changing the
 * state), and the thread's Writer decided at gen that such a record
 * goes straight to its own ring (hit.c: decide).  Then hitplain and
 * devputfast would both say yes: one load of the Dev, none of the
 * trace, no compare of the policy or the log at the hit.
 */
static inline __attribute__((always_inline)) int
writerfast(Dev *d, const Writer *w, uint32_t gen)
{
	return w->fast == gen && w->d == d && ald(&d->ctlgen) == gen - 1;
}

/*
 * devputfast once writerfast said yes: the record (its arguments at a,
 * an exit's retval alone), then the head; 1.  Under fill and block the
 * tail is loaded (the reader's line) only when the room it last gave is
 * used up: still full, 0, nothing written, and devrecord does what the
 * policy says.  A ring still warming (Writer.warm) sends the record at
 * warm to devrecord too, which faults the next pages in.
 */
static inline __attribute__((always_inline)) int
wringputfast(Writer *w, uint32_t tid, uint32_t exit, uint64_t pc, uint64_t ticks, const uint64_t *a)
{
	Wring *r = w->wr;
	uint64_t t = rld(&r->head), tail;

	if (__builtin_expect(t >= w->room, 0)) {
		/* wringrecord's test of room, a tail past head (damage) and the ring's next pages (warm) left to it */
		tail = ald(&r->tail);
		if (tail > t || t - tail > w->mask || (w->warm != 0 && t >= w->warm))
			return 0;
		w->room = w->warm != 0 && w->warm < tail + w->mask + 1 ? w->warm : tail + w->mask + 1;
	}
	slotputargs(&w->ws[t & w->mask], t, tid, exit, pc, ticks, a);
	ast(&r->head, t + 1);
	return 1;
}

#endif
