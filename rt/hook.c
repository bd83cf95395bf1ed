/*
 * hook.c: what runs when a hook fires.
 *
 * devtrace_hook (from devtrace_entry, tramp.S) writes the E record and,
 * if the hit passed the filters that do not depend on the predicate
 * (started, trace on, watched), redirects the function's return through
 * devtrace_return, keeping the true return address on the thread's
 * shadow stack.  devtrace_unhook finds it again and writes the X record.
 * The classic hooks (__cyg_profile_func_*) write E and X records with
 * no arguments and no return value.
 *
 * Shadow stack rules, every one of them keeping the program's returns
 * right first and its records right second:
 *  - a return finds the topmost frame whose slot is its own; frames
 *    above it were skipped by longjmp (or a signal handler's jump) and
 *    are dropped with no X record;
 *  - a call whose return slot already holds devtrace_return is a tail
 *    call: its frame shares the slot (and the true return address) and
 *    all frames of the slot get their X record when it returns;
 *  - a fresh call through a slot proves every older frame of that slot
 *    gone (the slot holds a real address again): they are dropped;
 *  - a full stack first drops frames a later frame of the same slot
 *    proves gone; still full, the frame is not followed (no E, no X)
 *    and counted.
 *
 * Per-thread state is a Thr: taken lazily from a list that is never
 * freed (the control side reads it), its shadow stack mapped on first
 * use and unmapped at thread exit.  Thr.seq is odd while the thread is
 * in the runtime: a hook that finds it odd is a hook inside the runtime
 * (a signal handler's) and is skipped and counted; the control side
 * waits for even-or-changed before freeing a View (grace).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "dev/host.h"
#include "rt/rt.h"

#define GONE	((Thr *)1)	/* the thread's Thr was given back: it is exiting */
#define fence()	__atomic_signal_fence(__ATOMIC_SEQ_CST)

enum {
	Forgetwin = 8,		/* frames a fresh call looks at for older frames of its slot */
	Compactwin = 16,	/* frames above a frame that may prove it gone */
};

static __thread Thr *me __attribute__((tls_model("initial-exec")));
static pthread_key_t thrkey;

static void
threxit(void *arg)
{
	Thr *t = arg;

	if (t == NULL || t == GONE)
		return;
	me = GONE;
	devwriterdone(&t->w);
	if (t->stk)
		munmap(t->stk, (size_t)t->max * sizeof(Frame));
	t->stk = NULL;
	t->n = 0;
	if (t->seq & 1)
		rst(&t->seq, t->seq + 1);
	ast(&t->state, Tfree);
}

void
thrinit(void)
{
	pthread_key_create(&thrkey, threxit);
}

static Thr *
thrnew(void)
{
	uint32_t no;
	Thr *t, *p, *head;
	int i, n;

	for (t = ald(&rt.thrs); t; t = t->next) {
		no = Tfree;
		if (rld(&t->state) == Tfree &&
		    __atomic_compare_exchange_n(&t->state, &no, Tlive, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			goto found;
	}
	/* a page more of them; the first is ours */
	p = mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	n = 4096 / sizeof(Thr);
	for (i = 0; i < n - 1; i++)
		p[i].next = &p[i + 1];
	p[0].state = Tlive;
	head = ald(&rt.thrs);
	do
		p[n - 1].next = head;
	while (!__atomic_compare_exchange_n(&rt.thrs, &head, p, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
	t = p;
found:
	t->tid = syscall(SYS_gettid);
	t->n = 0;
	t->depth = 0;
	t->stk = NULL;
	t->max = rt.shadow;
	memset(&t->w, 0, sizeof t->w);
	me = t;
	pthread_setspecific(thrkey, t);
	return t;
}

/* the child of fork: the other threads are gone, this one has a new id */
void
thrforked(void)
{
	Thr *t;

	for (t = ald(&rt.thrs); t; t = t->next) {
		if (t == me || t->state != Tlive)
			continue;
		if (t->stk)
			munmap(t->stk, (size_t)t->max * sizeof(Frame));
		t->stk = NULL;
		t->n = 0;
		t->seq += t->seq & 1;
		t->state = Tfree;
	}
	if (me && me != GONE) {
		me->tid = syscall(SYS_gettid);
		memset(&me->w, 0, sizeof me->w);	/* the parent's shard stays the parent's */
	}
}

/*
 * Wait until every thread that was in the runtime when the View changed
 * has left it: after the membarrier, a thread either sees the new View
 * or shows an odd seq here.  0 if one stays in for a second.
 */
int
grace(void)
{
	Thr *t;
	uint32_t s;
	int i;

	syncall();
	for (t = ald(&rt.thrs); t; t = t->next) {
		if (ald(&t->state) != Tlive || !((s = ald(&t->seq)) & 1))
			continue;
		for (i = 0; ald(&t->seq) == s && ald(&t->state) == Tlive; i++) {
			if (i == 1000)
				return 0;
			usleep(1000);
		}
	}
	return 1;
}

static void
reentered(void)
{
	View *v = ald(&rt.view);

	if (v && v->d)
		devcount(v->d, Creentered);
}

/*
 * Into the runtime.  An odd seq means the thread is in it already: a
 * signal handler's hook, skipped; unless the runtime frame that made it
 * odd was abandoned (a handler jumped out of it and jmp.c did not see
 * the jump): then we are at or above it on the same stack, since a
 * handler's frames are below the frame it interrupted.
 */
static inline int
enter(Thr *t)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	stack_t ss;

	if (t->seq & 1) {
		if (sp < t->busysp || (sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_ONSTACK))) {
			reentered();
			return 0;
		}
		rst(&t->seq, t->seq + 1);
	}
	t->busysp = sp;
	fence();
	rst(&t->seq, t->seq + 1);
	fence();
	return 1;
}

int
rtinside(void)
{
	Thr *t = me;

	return t && t != GONE && (t->seq & 1);
}

uintptr_t
rtbusysp(void)
{
	return me->busysp;
}

void
rtleft(void)
{
	fence();
	rst(&me->seq, me->seq + 1);
}

static inline void
leave(Thr *t)
{
	fence();
	rst(&t->seq, t->seq + 1);
}

static Frame *
findslot(Thr *t, uintptr_t *slot)
{
	uint32_t i;

	for (i = t->n; i > 0; i--)
		if (t->stk[i - 1].slot == slot)
			return &t->stk[i - 1];
	return NULL;
}

/* a fresh call through slot: older frames of the slot are gone */
static void
forget(Thr *t, uintptr_t *slot)
{
	uint32_t i, j, lo;

	/* above us on our stack, or on another stack: look at them all */
	lo = t->stk[t->n - 1].slot <= slot || t->n <= Forgetwin ? 0 : t->n - Forgetwin;
	for (i = lo; i < t->n && t->stk[i].slot != slot; i++)
		;
	if (i == t->n)
		return;
	for (j = i; i < t->n; i++)
		if (t->stk[i].slot != slot)
			t->stk[j++] = t->stk[i];
	t->n = j;
}

/* full: drop frames that a later frame of the same slot (not a tail call of it) proves gone */
static int
compact(Thr *t)
{
	uint32_t i, j, k, r, n = t->n;
	int gone;

	for (i = j = 0; i < n; i++) {
		/* frames i..r share a slot: a tail-call chain, kept together */
		for (r = i; r + 1 < n && t->stk[r + 1].slot == t->stk[i].slot; r++)
			;
		gone = 0;
		for (k = r + 1; k < n && k <= r + Compactwin && !gone; k++)
			gone = t->stk[k].slot == t->stk[i].slot;
		if (!gone)
			t->stk[j++] = t->stk[i];
	}
	t->n = j;
	return j < n;
}

/* this thread's Thr, entered into the runtime; nil if the hook must not run */
static Thr *
hookenter(void)
{
	Thr *t = me;

	if (t == NULL && (t = thrnew()) == NULL)
		return NULL;
	if (t == GONE || !enter(t))
		return NULL;
	return t;
}

void
devtrace_hook(uint32_t idx, uintptr_t *slot, uint64_t *regs)
{
	uint64_t ticks = hostticks();
	Thr *t;
	View *v;
	Dev *d;
	Tsel *sel;
	Frame *f;
	uintptr_t real;
	Hit h;
	int k, r;

	if ((t = hookenter()) == NULL)
		return;
	v = ald(&rt.view);
	if (v == NULL || v->d == NULL || idx >= v->nsite || (k = v->slot[idx]) < 0 || !v->has[k])
		goto out;
	d = v->d;
	sel = &v->sel[k];
	h.pc = siteat(idx)->pc;
	h.ticks = ticks;
	h.a[0] = regs[Rarg0];
	h.a[1] = regs[Rarg0 + 1];
	h.a[2] = regs[Rarg0 + 2];
	h.a[3] = regs[Rarg0 + 3];
	h.tid = t->tid;
	h.pid = rt.pid;
	h.depth = t->n;
	h.exit = 0;
	h.w = &t->w;
	if (!((r = devfilter(d, sel, &h)) & Hfollow))
		goto out;	/* dropped, or the exit decided already */
	if (t->stk == NULL) {
		t->stk = mmap(NULL, (size_t)t->max * sizeof(Frame), PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
		if (t->stk == MAP_FAILED) {
			t->stk = NULL;
			goto out;
		}
	}
	real = *slot;
	if (real == (uintptr_t)devtrace_return) {
		if ((f = findslot(t, slot)) == NULL)
			goto out;	/* not ours to follow */
		real = f->real;
	} else if (t->n > 0)
		forget(t, slot);
	if (t->n >= t->max && !compact(t)) {
		devcount(d, Cdeep);
		goto out;
	}
	f = &t->stk[t->n];
	f->slot = slot;
	f->real = real;
	f->site = idx;
	f->depth = t->n;
	h.depth = t->n;
	fence();
	t->n++;
	fence();
	*slot = (uintptr_t)devtrace_return;
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
	uint32_t i, lo;
	uintptr_t real;
	View *v;
	Frame *f;
	Hit h;
	int rec, k;

	if (t == NULL || t == GONE || t->stk == NULL)
		lost();
	rec = enter(t);
	for (i = t->n; i > 0 && t->stk[i - 1].slot != slot; i--)
		;
	if (i == 0)
		lost();
	i--;
	real = t->stk[i].real;
	for (lo = i; lo > 0 && t->stk[lo - 1].slot == slot; lo--)
		;
	v = rec ? ald(&rt.view) : NULL;
	if (v && v->d) {
		h.ticks = ticks;
		h.a[0] = regs[Rret];
		h.a[1] = h.a[2] = h.a[3] = 0;
		h.tid = t->tid;
		h.pid = rt.pid;
		h.exit = 1;
		h.w = &t->w;
		for (k = i; k >= (int)lo; k--) {
			f = &t->stk[k];
			if (f->site >= v->nsite || v->slot[f->site] < 0 || !v->has[v->slot[f->site]])
				continue;
			h.pc = siteat(f->site)->pc;
			h.depth = f->depth;
			devhit(v->d, &v->sel[v->slot[f->site]], &h);
		}
	}
	fence();
	t->n = lo;
	if (rec)
		leave(t);
	return real;
}

/* classic mode: a small cache of pc -> trace, tagged with the View's epoch */
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
	if (spare && (pc >> 47) == 0)
		rst(spare, key | tag | (uint64_t)(k + 1));
	return k;
}

static __attribute__((noinline)) void
classic(void *fn, int exit)
{
	uint64_t ticks = hostticks();
	Thr *t;
	View *v;
	Hit h;
	int k;

	if ((t = hookenter()) == NULL)
		return;
	if (exit && t->depth > 0)
		t->depth--;
	v = ald(&rt.view);
	if (v && v->active && (k = cselect(v, (uintptr_t)fn)) >= 0 && v->has[k]) {
		h.pc = (uintptr_t)fn;
		h.ticks = ticks;
		h.a[0] = h.a[1] = h.a[2] = h.a[3] = 0;
		h.tid = t->tid;
		h.pid = rt.pid;
		h.depth = t->depth;
		h.exit = exit;
		h.w = &t->w;
		devhit(v->d, &v->sel[k], &h);
	}
	if (!exit)
		t->depth++;
	leave(t);
}

__attribute__((visibility("default"))) void
__cyg_profile_func_enter(void *fn, void *callsite)
{
	View *v = ald(&rt.view);

	(void)callsite;
	if (v && v->active)	/* else not traced: return before making a frame */
		classic(fn, 0);
}

__attribute__((visibility("default"))) void
__cyg_profile_func_exit(void *fn, void *callsite)
{
	View *v = ald(&rt.view);

	(void)callsite;
	if (v && v->active)
		classic(fn, 1);
}
