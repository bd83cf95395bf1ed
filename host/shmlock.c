/*
 * shmlock.c: the header's futex words: the control side's lock, and
 * the wake-ups of processes waiting on the control generation.
 */
#include <errno.h>
#include <stdint.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "host/shm.h"
#include "host/shmdat.h"
#include "dev/host.h"

static long
futex(uint32_t *w, int op, uint32_t v, const struct timespec *ts)
{
	return syscall(SYS_futex, w, op, v, ts, NULL, 0);
}

/*
 * The control side's lock is one 32-bit word of the header, which every
 * attached process may write, so no value of it may hurt the caller:
 * it holds the tid of the thread that holds the lock, 0 when free.
 * Nothing is read through it, only compared and given to kill(2) after
 * a range check, so a scribble can make it look busy (a live tid: a
 * caller waits Lockms, then EAGAIN, as for a holder that never lets go),
 * free, or held by a dead thread or by no thread at all (taken over by
 * the next caller, as a robust mutex's dead owner was).  glibc's robust
 * mutex it replaces keeps its kind and its robust list in its bytes and
 * follows them: a scribbled kind aborted the server (fuzz_shm finding 9),
 * a scribbled list pointer is dereferenced at lock and unlock.
 *
 * A tid, not a pid: the runtime's control thread and a program's own
 * threads (tests/dev/lock_test.c) lock in one process, and a thread that
 * died holding it must free it as a process does; kill(tid, 0) answers
 * for a thread too (ESRCH once it has gone).  A holder whose tid is
 * reused before a caller looks makes the lock busy, not shared: pids
 * cycle through /proc/sys/kernel/pid_max (up to 2^22) first.
 */
enum {
	Lockms = 100,	/* the longest a caller waits */
	Lockslicems = 5,	/* one futex wait: then the holder's life is asked again */
	Pidmax = 1 << 22,	/* the kernel's PID_MAX_LIMIT: above it a word is no tid */
};

static uint32_t
mytid(void)
{
	return (uint32_t)syscall(SYS_gettid);
}

/* no thread holds the lock with o in its word: no tid, or a thread that has gone */
static int
ownergone(uint32_t o)
{
	return o == 0 || o > Pidmax || !hostalive(o);
}

int
shmlock(Shm *s)
{
	uint32_t me = mytid(), o = 0;
	uint64_t end = hostnsec() + Lockms * 1000000ull, t;
	struct timespec ts;

	/* held by this thread through this handle: relocking would deadlock */
	if (__atomic_load_n(&s->holder, __ATOMIC_RELAXED) == me)
		return errno = EAGAIN;
	for (;;) {
		if (__atomic_compare_exchange_n(&s->h->lock, &o, me, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			break;
		/*
		 * o is what the word holds: our own tid there is a scribble
		 * (we do not hold it), and a holder gone is replaced by a
		 * compare-and-swap on exactly o, so of two callers that found
		 * it gone one takes it
		 */
		if ((t = hostnsec()) >= end)	/* also for a word that keeps changing */
			return errno = EAGAIN;
		if (o == me || ownergone(o))
			continue;
		t = end - t;
		if (t > Lockslicems * 1000000ull)
			t = Lockslicems * 1000000ull;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)t;
		futex(&s->h->lock, FUTEX_WAIT, o, &ts);	/* shared between processes: not FUTEX_PRIVATE */
		o = 0;
	}
	__atomic_store_n(&s->holder, me, __ATOMIC_RELAXED);
	return errno = 0;
}

/* a word no longer ours was scribbled on or taken over: left as it is */
void
shmunlock(Shm *s)
{
	uint32_t me = mytid(), o = me;

	if (__atomic_load_n(&s->holder, __ATOMIC_RELAXED) == me)
		__atomic_store_n(&s->holder, 0, __ATOMIC_RELAXED);
	if (__atomic_compare_exchange_n(&s->h->lock, &o, 0, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		futex(&s->h->lock, FUTEX_WAKE, 1, NULL);
}

/* a session's change moves the top level's generation too: the runtime sleeps on that one (shmsess.c) */
void
shmwake(Shm *s)
{
	if (s->top != s->d) {
		devsesschanged(s->top);
		futex(devctlgen(s->top), FUTEX_WAKE, INT32_MAX, NULL);
	}
	futex(devctlgen(s->d), FUTEX_WAKE, INT32_MAX, NULL);
}

int
shmwait(Shm *s, uint32_t gen, int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	uint32_t *w = devctlgen(s->d);

	if (__atomic_load_n(w, __ATOMIC_ACQUIRE) != gen)
		return 0;
	futex(w, FUTEX_WAIT, gen, &ts);
	return __atomic_load_n(w, __ATOMIC_ACQUIRE) != gen ? 0 : -1;
}

const char *
shmbusy(int e)
{
	return e == EAGAIN ? "device busy: another process holds its lock" :
		"device lock damaged by a process";
}
