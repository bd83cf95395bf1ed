/*
 * shadow.h: the shadow stack, where a followed call keeps its true
 * return address while its return slot holds devtrace_return.  Inline:
 * every followed call pushes and every redirected return pops; the
 * rare paths are in shadow.c.
 *
 * The rules, every one of them keeping the program's returns right
 * first and its records right second:
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
 */
enum {
	Forgetwin = 8,		/* frames a fresh call looks at for older frames of its slot */
};

int	shadowmap(Thr *t) HIDDEN;	/* the stack, at a thread's first site hook (hook.c) */
int	shadowcompact(Thr *t) HIDDEN;	/* full: make room if frames are provably gone */

/* the topmost frame of slot, or nil */
static inline Frame *
shadowtop(Thr *t, uintptr_t *slot)
{
	uint32_t i = t->n;

	if (likely(i > 0 && t->stk[i - 1].slot == slot))
		return &t->stk[i - 1];	/* the usual return: no jump skipped frames */
	for (; i > 0; i--)
		if (t->stk[i - 1].slot == slot)
			return &t->stk[i - 1];
	return NULL;
}

/* the lowest frame of f's tail-call chain: the frames that share its slot */
static inline Frame *
shadowchain(Thr *t, Frame *f)
{
	while (f > t->stk && f[-1].slot == f->slot)
		f--;
	return f;
}

/* a fresh call through slot: older frames of the slot are gone */
static inline void
shadowforget(Thr *t, uintptr_t *slot)
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

/* a frame of one level (sess: its bit) for a fresh call (real is not devtrace_return), room checked: shadowpush's usual case */
static inline __attribute__((always_inline)) Frame *
shadowpushfresh(Thr *t, uintptr_t *slot, uintptr_t real, uint32_t site, uint32_t sess)
{
	Frame *f;

	if (t->n > 0)
		shadowforget(t, slot);
	f = &t->stk[t->n];
	f->slot = slot;
	f->real = real;
	f->site = site;
	f->sess = sess;
	f->depth = t->n;
	fence();
	t->n++;
	fence();
	*slot = (uintptr_t)devtrace_return;
	return f;
}

/*
 * Follow a call of site whose return is at slot: a frame with the true
 * return address and the sessions that follow it (Frame.sess), then
 * devtrace_return in the slot.  Nil if the call is not followed.
 */
static inline __attribute__((always_inline)) Frame *
shadowpush(Thr *t, Dev *d, uintptr_t *slot, uint32_t site, uint32_t sess)
{
	uintptr_t real;
	Frame *f;

	if (unlikely(t->stk == NULL))
		return NULL;	/* devtrace_hook maps it; it could not */
	real = *slot;
	if (real == (uintptr_t)devtrace_return) {
		if ((f = shadowtop(t, slot)) == NULL)
			return NULL;	/* not ours to follow */
		real = f->real;
	} else if (t->n > 0)
		shadowforget(t, slot);
	if (unlikely(t->n >= t->max) && !shadowcompact(t)) {
		devcount(d, Cdeep);
		return NULL;
	}
	f = &t->stk[t->n];
	f->slot = slot;
	f->real = real;
	f->site = site;
	f->sess = sess;
	f->depth = t->n;
	fence();
	t->n++;
	fence();
	*slot = (uintptr_t)devtrace_return;
	return f;
}

/* the frames from f up have returned (or were jumped over) */
static inline void
shadowpop(Thr *t, Frame *f)
{
	fence();
	t->n = f - t->stk;
}
