/*
 * hook.c: what runs when a site fires.
 *
 * devtrace_hook (from devtrace_entry, arch/) writes the E record and,
 * if the hit passed the filters that do not depend on the predicate
 * (started, trace on, watched), redirects the function's return through
 * devtrace_return, keeping the true return address on the thread's
 * shadow stack (shadow.h).  devtrace_unhook finds it again and writes
 * the X record.
 */
#include <stdlib.h>
#include <unistd.h>
#include "dev/host.h"
#include "rt/rt.h"
#include "rt/thr.h"
#include "rt/shadow.h"

void	devtrace_hook(uint32_t site, uintptr_t *slot, uint64_t *regs) HIDDEN;
uintptr_t	devtrace_unhook(uintptr_t *slot, uint64_t *regs) HIDDEN;

void
devtrace_hook(uint32_t idx, uintptr_t *slot, uint64_t *regs)
{
	uint64_t ticks = hostticks();
	Thr *t;
	View *v;
	Dev *d;
	Frame *f;
	Hit h;
	int k, r;

	if ((t = hookenter()) == NULL)
		return;
	v = ald(&rt.view);
	if (v == NULL || v->d == NULL || idx >= v->nsite || (k = v->slot[idx]) < 0 || !v->has[k])
		goto out;
	d = v->d;
	hitfill(&h, t, siteat(idx)->pc, ticks, t->n, 0);
	h.a[0] = regs[Rarg0];
	h.a[1] = regs[Rarg0 + 1];
	h.a[2] = regs[Rarg0 + 2];
	h.a[3] = regs[Rarg0 + 3];
	if (!((r = devfilter(d, &v->sel[k], &h)) & Hfollow))
		goto out;	/* dropped, or the exit decided already */
	if ((f = shadowpush(t, d, slot, idx)) == NULL)
		goto out;
	h.depth = f->depth;
	f->ticks = ticks;
	if (r & Hrecord)
		devrecord(d, &h);
out:
	leave(t);
}

static void
lost(void)
{
	static const char msg[] = "devtrace: a redirected return has no shadow stack frame\n";

	if (write(2, msg, sizeof msg - 1) < 0)
		abort();
	abort();
}

uintptr_t
devtrace_unhook(uintptr_t *slot, uint64_t *regs)
{
	uint64_t ticks = hostticks();
	Thr *t = me;
	uintptr_t real;
	View *v;
	Frame *top, *lo, *f;
	Hit h;
	int rec;

	if (t == NULL || t == GONE || t->stk == NULL)
		lost();
	rec = enter(t);
	if ((top = shadowtop(t, slot)) == NULL)
		lost();
	real = top->real;
	lo = shadowchain(t, top);
	v = rec ? ald(&rt.view) : NULL;
	if (v && v->d) {
		hitfill(&h, t, 0, ticks, 0, 1);
		h.a[0] = regs[Rret];
		for (f = top; f >= lo; f--) {
			if (f->site >= v->nsite || v->slot[f->site] < 0 || !v->has[v->slot[f->site]])
				continue;
			h.pc = siteat(f->site)->pc;
			h.depth = f->depth;
			h.dur = ticks - f->ticks;
			devhit(v->d, &v->sel[v->slot[f->site]], &h);
		}
	}
	shadowpop(t, lo);
	if (rec)
		leave(t);
	return real;
}
