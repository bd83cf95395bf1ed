/*
 * fl_first n: n calls of fl_step(i) in the main thread, then n in a new
 * thread; each call the same loop, so every call of a thread has the
 * same shape and its first should take as long as the others.  Prints
 * the sum.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { Loop = 20000 };

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

static void *
calls(void *arg)
{
	long i, *sum = arg;

	for (i = 0; i < n; i++)
		*sum += fl_step(i);
	return NULL;
}

int
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
