/*
 * fl_known: calls that know their own times.  Three threads, run one
 * after another (each joined before the next starts), each make Ncalls
 * calls of fl_outer, which spins Outerus, calls fl_inner (which spins
 * Innerus) and spins Outerus again.  Each function reads the clock at
 * its first and its last statement, so it knows its own time without
 * any of the hooks' (only the clock's two reads are its own beside the
 * spin).  After the last thread, main prints one line a call, in each
 * thread's order of exits: "TID FUNCTION NS"; a tracer's durations of
 * the same calls, the first of each thread included, and the outer
 * calls' self times, should be the same within what the hooks add.
 * main and the thread bodies are not instrumented, so each thread's
 * first hook is fl_outer's, where any set-up the runtime does would land.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

enum { Nthread = 3, Ncalls = 5, Outerus = 30, Innerus = 20 };

typedef struct { long tid; const char *fn; long ns; } Known;

static Known known[Nthread * Ncalls * 2];
static int nknown;
static __thread long mytid;	/* read before the calls: a system call is microseconds on a VM */

static __attribute__((no_instrument_function)) long
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static __attribute__((no_instrument_function)) void
spin(long us)
{
	long end = now() + us * 1000;

	while (now() < end)
		;
}

static __attribute__((no_instrument_function)) void
note(const char *fn, long t0)
{
	long t1 = now();

	known[nknown].tid = mytid;
	known[nknown].fn = fn;
	known[nknown].ns = t1 - t0;
	nknown++;
}

__attribute__((noinline)) void
fl_inner(void)
{
	long t0 = now();

	spin(Innerus);
	note("fl_inner", t0);
}

__attribute__((noinline)) void
fl_outer(void)
{
	long t0 = now();

	spin(Outerus);
	fl_inner();
	spin(Outerus);
	note("fl_outer", t0);
}

static __attribute__((no_instrument_function)) void *
calls(void *arg)
{
	int i;

	(void)arg;
	mytid = syscall(SYS_gettid);
	for (i = 0; i < Ncalls; i++)
		fl_outer();
	return NULL;
}

__attribute__((no_instrument_function)) int
main(void)
{
	pthread_t t;
	int i;

	now();	/* the clock's own first use (the vDSO's pages faulted in) is not in a call */
	for (i = 0; i < Nthread; i++)
		if (pthread_create(&t, NULL, calls, NULL) != 0 || pthread_join(t, NULL) != 0)
			return 1;
	for (i = 0; i < nknown; i++)
		printf("%ld %s %ld\n", known[i].tid, known[i].fn, known[i].ns);
	return 0;
}
