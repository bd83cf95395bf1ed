/*
 * classic.c: the classic hooks (__cyg_profile_func_*, from
 * -finstrument-functions): E and X records with no arguments and no
 * return value, the trace found by the function's address through a
 * small cache of pc -> trace, tagged with the View's epoch; a
 * session's (devtrace run -t) by a look-up at every hit.
 */
#include "dev/host.h"
#include "rt/rt.h"
#include "rt/thr.h"

enum {
	Cpcbits = 48,	/* the cache keeps a pc's low 48 bits (pc<<16): a pc above is looked up every time */
};

static uint32_t
chash(uintptr_t pc)
{
	return (uint32_t)(((uint64_t)pc * 0x9e3779b97f4a7c15ull) >> (64 - Clog));
}

static int
cselect(View *v, uintptr_t pc)
{
	uint64_t key = (uint64_t)pc << 16, tag = (uint64_t)(v->epoch & 0x1ff) << 7, w, *e, *spare = NULL;
	uint32_t h = chash(pc), i;
	const Sym *sym;
	Obj *o;
	int k;

	for (i = 0; i < 8; i++) {
		e = &rt.classic[(h + i) & ((1 << Clog) - 1)];
		w = rld(e);
		if ((w & ~0xffffull) == key) {
			if ((w & 0xff80) == tag)
				return (int)(w & 0x7f) - 1;
			spare = e;
			break;
		}
		if (spare == NULL && (w == 0 || (w & 0xff80) != tag))
			spare = e;
		if (w == 0)
			break;
	}
	o = objof(pc);
	sym = o ? symof(o, pc) : NULL;
	k = devselect(v->d, pc, o ? pc - o->bias : pc, o ? o->inmain : 0, sym ? sym->name : NULL);
	if (spare && ((uint64_t)pc >> Cpcbits) == 0)
		rst(spare, key | tag | (uint64_t)(k + 1));
	return k;
}

/*
 * Session n's trace of fn, looked up at every hit: a session's traces
 * are not in the cache (its epoch is the top level's); classic builds
 * under a session are the rare case.
 */
static void
classicsess(View *v, Thr *t, uint32_t n, uintptr_t fn, uint64_t ticks, int exit)
{
	Vsess *p = v->sess[n];
	const Sym *sym;
	Obj *o;
	Hit h;
	int k;

	if (p == NULL)
		return;
	o = objof(fn);
	sym = o ? symof(o, fn) : NULL;
	k = devselect(p->d, fn, o ? fn - o->bias : fn, o ? o->inmain : 0, sym ? sym->name : NULL);
	if (k < 0 || !p->has[k])
		return;
	hitfill(&h, t, fn, ticks, t->depth, exit);
	h.w = &t->ws[n];
	devhit(p->d, &p->sel[k], &h);
}

static __attribute__((noinline)) void
classic(void *fn, int exit)
{
	uint64_t ticks = cycles();	/* hostticks, inline */
	Writer *w[Nsess + 1];
	uint32_t m, n, late = 0;
	Thr *t;
	View *v;
	Hit h;
	int k;

	if ((t = hookenter()) == NULL)
		return;
	if (exit && t->depth > 0)
		t->depth--;
	v = ald(&rt.view);
	/* the Writers decided before the clock is read again: the set-up is not the call's (hook.c does so too) */
	w[0] = &t->w;
	if (v && v->active && devwriterready(v->d, w[0], rt.pid, t->tid))
		late = 1;
	for (m = v ? v->sessactive : 0; m != 0; m &= m - 1) {
		n = __builtin_ctz(m);
		w[n + 1] = &t->ws[n];
		if (v->sess[n] && devwriterready(v->sess[n]->d, w[n + 1], rt.pid, t->tid))
			late |= 1u << (n + 1);
	}
	if (late)
		ticks = thrwarm(w, late);
	if (v && v->active && (k = cselect(v, (uintptr_t)fn)) >= 0 && v->has[k]) {
		hitfill(&h, t, (uintptr_t)fn, ticks, t->depth, exit);
		devhit(v->d, &v->sel[k], &h);
	}
	for (m = v ? v->sessactive : 0; m != 0; m &= m - 1)
		classicsess(v, t, __builtin_ctz(m), (uintptr_t)fn, ticks, exit);
	if (!exit)
		t->depth++;
	leave(t);
}

__attribute__((visibility("default"))) void
__cyg_profile_func_enter(void *fn, void *callsite)
{
	View *v = ald(&rt.view);

	(void)callsite;
	if (v && (v->active || v->sessactive))	/* else not traced: return before making a frame */
		classic(fn, 0);
}

__attribute__((visibility("default"))) void
__cyg_profile_func_exit(void *fn, void *callsite)
{
	View *v = ald(&rt.view);

	(void)callsite;
	if (v && (v->active || v->sessactive))
		classic(fn, 1);
}
