/*
 * thr.c: the runtime's threads (thr.h): a Thr for each thread that
 * runs a hook, given back at its exit, reset in a fork's child.
 */
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "rt/rt.h"
#include "rt/thr.h"

__thread Thr *me __attribute__((tls_model("initial-exec")));
static pthread_key_t thrkey;

static void
threxit(void *arg)
{
	Thr *t = arg;
	int i;

	if (t == NULL || t == GONE)
		return;
	me = GONE;
	devwriterdone(&t->w);
	for (i = 0; i < Nsess; i++)
		devwriterdone(&t->ws[i]);
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

Thr *
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
	memset(t->ws, 0, sizeof t->ws);
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
		memset(me->ws, 0, sizeof me->ws);
	}
}

/* enter (thr.h) found seq odd: a hook inside the runtime, or the frame that made it odd was abandoned */
int
enterodd(Thr *t, uintptr_t sp)
{
	stack_t ss;

	if (sp < t->busysp || (sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_ONSTACK))) {
		reentered();
		return 0;
	}
	rst(&t->seq, t->seq + 1);
	enterset(t, sp);
	return 1;
}

/* hookenter (thr.h), the rare cases: no Thr yet, an exiting thread, seq odd; sp: the hook's frame */
Thr *
hookenterslow(uintptr_t sp)
{
	Thr *t = me;

	if (t == NULL && (t = thrnew()) == NULL)
		return NULL;
	if (t == GONE)
		return NULL;
	if (t->seq & 1)
		return enterodd(t, sp) ? t : NULL;
	enterset(t, sp);
	return t;
}

/*
 * A Writer was decided at a hit (hook.c, classic.c): the thread's first,
 * or its first since a control change, where a ring may have been
 * claimed.  Its ring's first Ringwarm bytes from the head are faulted in
 * now, the next ones by the device a step at a time, each a marked wait
 * (dev/ring/writer.c), so that no record faults a page in unmarked
 * inside a call (a fault costs up to 30 us on a VM; NOTES rt/, "Time
 * belongs to the call"); and the clock is read again: the runtime's
 * set-up is not the call's time.  w[i] for each bit i of m.
 */
uint64_t
thrwarm(Writer *const *w, uint32_t m)
{
	uintptr_t p;

	for (; m != 0; m &= m - 1)
		devwriterwarm(w[__builtin_ctz(m)], Ringwarm);
	for (p = rt.text; p < rt.etext; p += 64)
		(void)*(volatile const char *)p;
	return cycles();
}

/* a hook inside the runtime (a signal handler's): skipped, counted */
void
reentered(void)
{
	View *v = ald(&rt.view);

	if (v && v->d)
		devcount(v->d, Creentered);
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
