/*
 * thr.h: the runtime's per-thread state (thr.c), and going into and
 * out of the runtime, inline: every hook does it.
 *
 * A Thr is taken lazily from a list that is never freed (the control
 * side reads it: grace.c), its shadow stack (shadow.h) mapped on first
 * use and unmapped at thread exit.  Thr.seq is odd while the thread is
 * in the runtime: a hook that finds it odd is a hook inside the runtime
 * (a signal handler's) and is skipped and counted; the control side
 * waits for even-or-changed before freeing a View.
 */
#include <signal.h>
#include "cycles.h"

#define GONE	((Thr *)1)	/* the thread's Thr was given back: it is exiting */
#define fence()	__atomic_signal_fence(__ATOMIC_SEQ_CST)

/* a redirected return */
struct Frame {
	uintptr_t *slot;	/* where the return address was */
	uintptr_t real;		/* what it was */
	uint32_t site;
	uint32_t depth;
	uint64_t ticks;		/* at its entry: the exit's Hit.dur */
	uint32_t sess;		/* the sessions that follow it: bit 0 the top level, bit n session n */
};

struct Thr {
	uint32_t seq;		/* odd while the thread is in the runtime */
	uint32_t state;		/* Tfree, Tlive */
	uint32_t tid;
	uint32_t depth;		/* classic mode's call depth */
	uintptr_t busysp;	/* stack pointer when seq went odd (or just above it: the hook's trampoline's save area) */
	Frame *stk;		/* shadow stack */
	uint32_t n, max;
	Writer w;		/* what the device keeps of this thread */
	Writer ws[Nsess];	/* and each session's Dev: session n's at n-1 */
	Thr *next;		/* every Thr ever made */
};

enum { Tfree, Tlive };

extern __thread Thr *me HIDDEN __attribute__((tls_model("initial-exec")));

void	thrinit(void) HIDDEN;
void	thrforked(void) HIDDEN;	/* in a fork's child */
Thr	*thrnew(void) HIDDEN;
void	reentered(void) HIDDEN;
int	rtinside(void) HIDDEN;		/* this thread is marked inside the runtime */
uintptr_t	rtbusysp(void) HIDDEN;	/* where it went in */
void	rtleft(void) HIDDEN;		/* it left for good: a jump out of a handler */

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

int	enterodd(Thr *t, uintptr_t sp) HIDDEN;	/* thr.c: enter's rare path */
Thr	*hookenterslow(uintptr_t sp) HIDDEN;	/* thr.c: hookenter's rare paths */
uint64_t	thrwarm(Writer *const *w, uint32_t m) HIDDEN;	/* thr.c: the rings of w[i], each bit i of m, faulted in; then the clock */

/* seq goes odd, the stack pointer it went odd at kept */
static inline void
enterset(Thr *t, uintptr_t sp)
{
	t->busysp = sp;
	fence();
	rst(&t->seq, t->seq + 1);
	fence();
}

/*
 * Into the runtime.  An odd seq means the thread is in it already: a
 * signal handler's hook, skipped; unless the runtime frame that made it
 * odd was abandoned (a handler jumped out of it and jmp.c did not see
 * the jump): then we are at or above it on the same stack, since a
 * handler's frames are below the frame it interrupted.  The odd case
 * is out of line (enterodd): every hook runs this.
 */
static inline int
enter(Thr *t)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);

	if (unlikely(t->seq & 1))
		return enterodd(t, sp);
	enterset(t, sp);
	return 1;
}

static inline void
leave(Thr *t)
{
	fence();
	rst(&t->seq, t->seq + 1);
}

/*
 * This thread's Thr, entered into the runtime; nil if the hook must not
 * run.  The usual case inline: a Thr, outside the runtime; the first
 * hook of a thread, an exiting thread and a hook inside the runtime
 * out of line (hookenterslow).
 */
static inline Thr *
hookenter(void)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	Thr *t = me;

	if (unlikely((uintptr_t)t <= (uintptr_t)GONE || (t->seq & 1)))
		return hookenterslow(sp);
	enterset(t, sp);
	return t;
}

/* the Hit of thread t, the same for every kind of hook; the caller sets what differs */
static inline void
hitfill(Hit *h, Thr *t, uint64_t pc, uint64_t ticks, uint32_t depth, int exit)
{
	h->pc = pc;
	h->ticks = ticks;
	h->a[0] = h->a[1] = h->a[2] = h->a[3] = 0;
	h->tid = t->tid;
	h->pid = rt.pid;
	h->depth = depth;
	h->exit = exit;
	h->dur = 0;
	h->w = &t->w;
}
