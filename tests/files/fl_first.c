/*
 * fl_first n: n calls of fl_step(i) in the main thread, then n in a new
 * thread; each call the same loop, so every call of a thread has the
 * same shape and its first should take as long as the others.  Prints
 * the sum.  A call is about 100 us here: long beside the machine's own
 * first-call noise (a cold path, a vCPU's hiccup: 10 to 60 us, which
 * made a 10 us call's first 2 to 7 times its median in a fifth of
 * runs), short beside the runtime's set-up (about 500 us).  main and
 * calls are not instrumented, so that in a --classic build too each
 * thread's first hook is fl_step's, where that set-up would land.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { Loop = 200000 };

static long n;

__attribute__((noinline)) long
fl_step(long i)
{
	volatile long s = 0;
	long k;

	for (k = 0; k < Loop; k++)
		s += k ^ i;
	return s;
}

static __attribute__((no_instrument_function)) void *
calls(void *arg)
{
	long i, *sum = arg;

	for (i = 0; i < n; i++)
		*sum += fl_step(i);
	return NULL;
}

__attribute__((no_instrument_function)) int
main(int argc, char **argv)
{
	long a = 0, b = 0;
	pthread_t t;

	n = argc > 1 ? atol(argv[1]) : 21;
	calls(&a);
	if (pthread_create(&t, NULL, calls, &b) != 0 || pthread_join(t, NULL) != 0)
		return 1;
	printf("%ld\n", a + b);
	return 0;
}
