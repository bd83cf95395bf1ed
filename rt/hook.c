/*
 * hook.c: what runs when a site fires.
 *
 * devtrace_hook (from devtrace_entry, arch/) writes the E record and,
 * if the hit passed the filters that do not depend on the predicate
 * (started, trace on, watched), redirects the function's return through
 * devtrace_return, keeping the true return address on the thread's
 * shadow stack (shadow.h).  devtrace_unhook finds it again and writes
 * the X record.  devtrace_hookfast is devtrace_hook's usual case, for
 * trampolines that save less when they can (amd64: no vector registers;
 * arch/amd64/hookflags): it leaves every other case to devtrace_hook.
 * devtrace_probehook (from devtrace_probe) writes a static probe's P
 * record.  This file and shadow.c are built with those flags.
 */
#include <stdlib.h>
#include <unistd.h>
#include "dev/host.h"
#include "rt/rt.h"
#include "dev/hitfast.h"
#include "rt/thr.h"
#include "rt/shadow.h"

void	devtrace_hook(uint32_t site, uintptr_t *slot, uint64_t *regs) HIDDEN;
void	devtrace_probehook(uint32_t site, uint64_t *regs) HIDDEN;
int	devtrace_hookfast(uint32_t site, uintptr_t *slot, uint64_t *regs) HIDDEN;
uintptr_t	devtrace_unhook(uintptr_t *slot, uint64_t *regs) HIDDEN;

/*
 * The writer waited for the reader (policy block: the device marked it
 * in the ring, Kwait): the wait taken out of every open call's time.
 * The frames' entry ticks move on by it, so an exit's dur (predicates,
 * aggregations) is the program's time alone.  Rare: out of line.
 */
static __attribute__((noinline, cold)) void
waitshift(Thr *t, uint64_t waited)
{
	uint32_t i;

	for (i = 0; i < t->n; i++)
		t->stk[i].ticks += waited;
}

/* devrecord, and the wait it may have made taken out of the open calls */
static __attribute__((noinline)) void
recordwaiting(Thr *t, Dev *d, const Hit *h)
{
	uint64_t before = h->w ? h->w->waited : 0;

	devrecord(d, h);
	if (unlikely(h->w && h->w->waited != before))
		waitshift(t, h->w->waited - before);
}

/* a hit that is not the usual one (hitplain): the device decides, with a whole Hit */
static inline __attribute__((always_inline)) void
hookslow(Thr *t, Dev *d, const Tsel *sel, uint32_t idx, uint64_t pc, uintptr_t *slot, uint64_t *regs, uint64_t ticks)
{
	Frame *f;
	Hit h;
	uint32_t gen = t->w.gen;	/* moved by devfilter if it decided the Writer */
	int r;

	hitfill(&h, t, pc, ticks, t->n, 0);
	h.a[0] = regs[Rarg0];
	h.a[1] = regs[Rarg0 + 1];
	h.a[2] = regs[Rarg0 + 2];
	h.a[3] = regs[Rarg0 + 3];
	if (!((r = devfilter(d, sel, &h)) & Hfollow))
		return;	/* dropped, or the exit decided already */
	if (unlikely((f = shadowpush(t, d, slot, idx, 1)) == NULL))
		return;
	h.depth = f->depth;
	if (unlikely(t->w.gen != gen))
		h.ticks = ticks = thrwarm((Writer *[]){ &t->w }, 1);
	f->ticks = ticks;
	if (r & Hrecord)
		recordwaiting(t, d, &h);
}

/* the usual hit's E record went past the writer's own ring: a Hit for devrecord */
static __attribute__((noinline)) void
recslow(Thr *t, Dev *d, Writer *w, uint64_t pc, uint64_t ticks, uint32_t depth, int exit, const uint64_t *a, uint64_t dur)
{
	Hit h;

	hitfill(&h, t, pc, ticks, depth, exit);
	h.w = w;
	h.a[0] = a[0];
	if (!exit) {
		h.a[1] = a[1];
		h.a[2] = a[2];
		h.a[3] = a[3];
	}
	h.dur = dur;
	recordwaiting(t, d, &h);
}

/*
 * Session n's part at a site (n 0: the top level): its Dev, the Tsel of
 * its trace that selects the site and the thread's Writer for its Dev;
 * 0 if it selects nothing there.
 */
static inline __attribute__((always_inline)) int
part(Thr *t, View *v, uint32_t n, uint32_t site, Dev **d, const Tsel **sel, Writer **w)
{
	Vsess *p;
	int k;

	if (n == 0) {
		if (v->d == NULL || (k = v->slot[site]) < 0 || !v->has[k])
			return 0;
		*d = v->d;
		*sel = &v->sel[k];
		*w = &t->w;
		return 1;
	}
	if ((p = v->sess[n - 1]) == NULL || (k = p->slot[site]) < 0 || !p->has[k])
		return 0;
	*d = p->d;
	*sel = &p->sel[k];
	*w = &t->ws[n - 1];
	return 1;
}

/*
 * A hit of a site that sessions select: each session (and the top level)
 * decides on its own Dev as hookslow does; the call is followed once if
 * any of them follows it, its Frame saying which, and each of those
 * writes its own E record in its own rings.
 */
static __attribute__((noinline)) void
hookmany(Thr *t, View *v, uint32_t idx, uintptr_t *slot, uint64_t *regs, uint64_t ticks)
{
	Hit h[Nsess + 1];
	Dev *d[Nsess + 1];
	Writer *w[Nsess + 1];
	const Tsel *sel;
	uint32_t n, m, gen, late = 0, follow = 0, plain = 0, rec = 0;
	uint64_t pc = siteat(idx)->pc;
	Frame *f;
	int r;

	/* the sessions that want the site, and the top level if this process is its to trace (bit 0) */
	for (m = (uint32_t)sitemask(v)[idx] << 1 | (v->active != 0); m != 0; m &= m - 1) {
		n = __builtin_ctz(m);
		if (!part(t, v, n, idx, &d[n], &sel, &w[n]))
			continue;
		if (hitplain(d[n], sel, w[n])) {
			follow |= 1u << n;
			plain |= 1u << n;
			continue;
		}
		hitfill(&h[n], t, pc, ticks, t->n, 0);
		h[n].w = w[n];
		h[n].a[0] = regs[Rarg0];
		h[n].a[1] = regs[Rarg0 + 1];
		h[n].a[2] = regs[Rarg0 + 2];
		h[n].a[3] = regs[Rarg0 + 3];
		gen = w[n]->gen;
		r = devfilter(d[n], sel, &h[n]);
		late |= w[n]->gen != gen;
		if (!(r & Hfollow))
			continue;
		follow |= 1u << n;
		if (r & Hrecord)
			rec |= 1u << n;
	}
	if (follow == 0 || (f = shadowpush(t, d[__builtin_ctz(follow)], slot, idx, follow)) == NULL)
		return;
	if (unlikely(late))
		ticks = thrwarm(w, follow);	/* as hookslow's */
	f->ticks = ticks;
	for (m = plain | rec; m != 0; m &= m - 1) {
		n = __builtin_ctz(m);
		if (!(plain & (1u << n))) {
			h[n].depth = f->depth;
			h[n].ticks = ticks;
			recordwaiting(t, d[n], &h[n]);
		} else if (!devputfast(d[n], w[n], t->tid, 0, pc, ticks, regs[Rarg0], regs[Rarg0 + 1], regs[Rarg0 + 2], regs[Rarg0 + 3]))
			recslow(t, d[n], w[n], pc, ticks, f->depth, 0, regs + Rarg0, 0);
	}
}

/*
 * A hit of site idx by thread t, in the runtime already: its E record,
 * its return followed.  The usual hit (hitplain: no predicate, no
 * aggregation, watched, dev/hitfast.h) fills no Hit: its record goes
 * from registers to the writer's own ring; anything else is hookslow's.
 */
static inline __attribute__((always_inline)) void
hookbody(Thr *t, View *v, uint32_t idx, uintptr_t *slot, uint64_t *regs, uint64_t ticks)
{
	Dev *d;
	const Tsel *sel;
	Frame *f;
	uint64_t pc;
	int k;

	if (unlikely(v == NULL || idx >= v->nsite))
		return;
	if (unlikely(sitemask(v)[idx] != 0)) {
		hookmany(t, v, idx, slot, regs, ticks);
		return;
	}
	if (unlikely((d = v->d) == NULL || (k = v->slot[idx]) < 0 || !v->has[k]))
		return;
	sel = &v->sel[k];
	pc = v->pc[idx] & ~Pcslow;
	if (unlikely(!hitplain(d, sel, &t->w))) {
		hookslow(t, d, sel, idx, pc, slot, regs, ticks);
		return;
	}
	if (unlikely((f = shadowpush(t, d, slot, idx, 1)) == NULL))
		return;
	f->ticks = ticks;
	if (unlikely(!devputfast(d, &t->w, t->tid, 0, pc, ticks, regs[Rarg0], regs[Rarg0 + 1], regs[Rarg0 + 2], regs[Rarg0 + 3])))
		recslow(t, d, &t->w, pc, ticks, f->depth, 0, regs + Rarg0, 0);
}

/* the thread's Writer on the fast path's level (apply.c: fastlevel) */
static inline __attribute__((always_inline)) Writer *
fastwriter(Thr *t, const View *v)
{
	return (Writer *)((char *)t + v->fwoff);
}

/*
 * The usual hit: a thread with a Thr and a shadow stack, outside the
 * runtime.  Anything else (the thread's first hook, an exiting thread, a
 * hook inside the runtime) returns 1 + idx having done nothing, and the
 * trampoline calls devtrace_hook: on ISAs whose hookflags keep this path
 * off some registers, the trampoline saves those only then.  A site the
 * View decided is a plain record (apply.c: fastsites), while nothing
 * changed since (writerfast), is followed and recorded here, in the
 * top level or in the one session that traces the process alone
 * (apply.c: fastlevel); any other hit is hookbody's.
 */
int
devtrace_hookfast(uint32_t idx, uintptr_t *slot, uint64_t *regs)
{
	uint64_t ticks = cycles();	/* hostticks, inline: the runtime is user space on Linux */
	Thr *t = me;
	View *v;
	uintptr_t real;
	Writer *w;
	Frame *f;
	uint64_t pc;

	if (unlikely((uintptr_t)t <= (uintptr_t)GONE || (t->seq & 1) || t->stk == NULL))
		return idx + 1;	/* the site back: the trampoline keeps no copy */
	enterset(t, (uintptr_t)regs);	/* the trampoline's save area, just above this frame: no frame pointer to set up */
	v = ald(&rt.view);
	if (unlikely(v == NULL || idx >= v->nsite || (pc = v->pc[idx]) & Pcslow || !writerfast(v->fd, w = fastwriter(t, v), v->gen) ||
	    (real = *slot) == (uintptr_t)devtrace_return || t->n >= t->max)) {
		hookbody(t, v, idx, slot, regs, ticks);
		leave(t);
		return 0;
	}
	f = shadowpushfresh(t, slot, real, idx, v->fsess);
	f->ticks = ticks;
	if (unlikely(!wringputfast(w, t->tid, 0, pc, ticks, regs + Rarg0)))
		recslow(t, v->fd, w, pc, ticks, f->depth, 0, regs + Rarg0, 0);	/* fill or block, full */
	leave(t);
	return 0;
}

/* every hit, whatever the thread's state */
void
devtrace_hook(uint32_t idx, uintptr_t *slot, uint64_t *regs)
{
	uint64_t ticks = cycles();
	Thr *t;

	if (unlikely((t = hookenter()) == NULL))
		return;
	if (t->stk == NULL) {
		shadowmap(t);	/* here, where the C library may run: devtrace_hookfast needs it */
		ticks = cycles();	/* the thread's set-up is not the call's time */
	}
	hookbody(t, ald(&rt.view), idx, slot, regs, ticks);
	leave(t);
}

/*
 * A probe's hit (from devtrace_probe, arch/): one P record of its four
 * values in the top level and in each session that selects the site,
 * each deciding on its own (predicate, aggregations, actions).  Nothing
 * is followed: a probe has no exit.
 */
void
devtrace_probehook(uint32_t idx, uint64_t *regs)
{
	uint64_t ticks = cycles();
	const Tsel *sel;
	uint64_t a[4] = { 0, 0, 0, 0 };
	Writer *w;
	uint32_t n, m, i;
	View *v;
	Dev *d;
	Thr *t;
	Hit h;

	if (unlikely((t = hookenter()) == NULL))
		return;
	v = ald(&rt.view);
	if (unlikely(v == NULL || idx >= v->nsite)) {
		leave(t);
		return;
	}
	for (i = 0; i < siteat(idx)->nval; i++)
		a[i] = regs[Rarg0 + i];	/* registers the probe did not load hold the function's values */
	/* as hookmany: the sessions that want the site, and the top level if this process is its to trace */
	for (m = (uint32_t)sitemask(v)[idx] << 1 | (v->active != 0); m != 0; m &= m - 1) {
		n = __builtin_ctz(m);
		if (!part(t, v, n, idx, &d, &sel, &w))
			continue;
		hitfill(&h, t, siteat(idx)->pc, ticks, t->n, Kprobe);
		h.w = w;
		__builtin_memcpy(h.a, a, sizeof a);
		devhit(d, sel, &h);
	}
	leave(t);
}

__attribute__((noreturn, noinline, cold)) static void
lost(void)
{
	static const char msg[] = "devtrace: a redirected return has no shadow stack frame\n";

	if (write(2, msg, sizeof msg - 1) < 0)
		abort();
	abort();
}

/* the X record of frame f, returning ret, in one session's Dev: the usual hit inline, as hookbody's */
static inline __attribute__((always_inline)) void
exitrec(Thr *t, View *v, Dev *d, const Tsel *sel, Writer *w, Frame *f, uint64_t ret, uint64_t ticks)
{
	uint64_t pc = v->pc[f->site] & ~Pcslow, before;
	Hit h;

	if (likely(hitplain(d, sel, w))) {
		if (unlikely(!devputfast(d, w, t->tid, 1, pc, ticks, ret, 0, 0, 0)))
			recslow(t, d, w, pc, ticks, f->depth, 1, &ret, ticks - f->ticks);
		return;
	}
	hitfill(&h, t, pc, ticks, f->depth, 1);
	h.w = w;
	h.a[0] = ret;
	h.dur = ticks - f->ticks;
	before = w->waited;
	devexit(d, sel, &h);	/* a whole predicate passed at the entry */
	if (unlikely(w->waited != before))
		waitshift(t, w->waited - before);
}

/* a frame that sessions follow: an X record for each that still selects the site */
static __attribute__((noinline)) void
exitmany(Thr *t, View *v, Frame *f, uint64_t ret, uint64_t ticks)
{
	const Tsel *sel;
	Writer *w;
	uint32_t n, m;
	Dev *d;

	for (m = f->sess; m != 0; m &= m - 1) {
		n = __builtin_ctz(m);
		if (n <= Nsess && part(t, v, n, f->site, &d, &sel, &w))
			exitrec(t, v, d, sel, w, f, ret, ticks);
	}
}

/* the X record of frame f: the top level's alone, the usual case, inline */
static inline __attribute__((always_inline)) void
exitone(Thr *t, View *v, Frame *f, uint64_t ret, uint64_t ticks)
{
	int k;

	if (f->site >= v->nsite)
		return;
	if (unlikely(f->sess != 1)) {
		exitmany(t, v, f, ret, ticks);
		return;
	}
	if (v->d == NULL || (k = v->slot[f->site]) < 0 || !v->has[k])
		return;
	exitrec(t, v, v->d, &v->sel[k], &t->w, f, ret, ticks);
}

/* devtrace_unhook's every case: a tail-call chain, sessions, a trace not plain, a hook inside the runtime */
static __attribute__((noinline)) uintptr_t
unhookrest(Thr *t, uintptr_t *slot, uint64_t *regs, uint64_t ticks)
{
	uintptr_t real;
	View *v;
	Frame *top, *lo, *f;
	int rec;

	rec = enter(t);
	if (unlikely((top = shadowtop(t, slot)) == NULL))
		lost();	/* no frame: no stack either */
	real = top->real;
	lo = shadowchain(t, top);
	v = rec ? ald(&rt.view) : NULL;
	if (likely(v != NULL))
		for (f = top; f >= lo; f--)	/* a tail-call chain: one X per frame; usually one frame */
			exitone(t, v, f, regs[Rret], ticks);
	shadowpop(t, lo);
	if (rec)
		leave(t);
	return real;
}

/*
 * A redirected return: the X record of its frame and the true return
 * address.  The usual one (outside the runtime, the top frame alone in
 * its slot, followed by the fast path's level alone, a site the View
 * decided is a plain record while nothing changed: writerfast) inline;
 * the rest is unhookrest's.
 */
uintptr_t
devtrace_unhook(uintptr_t *slot, uint64_t *regs)
{
	uint64_t ticks = cycles();
	Thr *t = me;
	uint32_t n;
	uint64_t pc;
	Writer *w;
	View *v;
	Frame *f;

	if (unlikely((uintptr_t)t <= (uintptr_t)GONE))
		lost();
	n = t->n;
	f = &t->stk[n - 1];
	if (unlikely((t->seq & 1) || n == 0 || f->slot != slot || (n > 1 && f[-1].slot == slot)))
		return unhookrest(t, slot, regs, ticks);
	enterset(t, (uintptr_t)regs);
	v = ald(&rt.view);
	if (unlikely(v == NULL || f->sess != v->fsess || f->site >= v->nsite || (pc = v->pc[f->site]) & Pcslow ||
	    !writerfast(v->fd, w = fastwriter(t, v), v->gen))) {
		leave(t);
		return unhookrest(t, slot, regs, ticks);
	}
	if (unlikely(!wringputfast(w, t->tid, Kexit, pc, ticks, regs + Rret))) {
		leave(t);	/* nothing done: fill's or block's ring is full, devrecord decides */
		return unhookrest(t, slot, regs, ticks);
	}
	pc = f->real;	/* before the pop: a signal's hook may push over the frame then */
	fence();
	t->n = n - 1;	/* shadowpop(t, f) */
	leave(t);
	return pc;
}
