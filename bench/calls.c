/*
 * calls.c: the call-heavy microbenchmark: a tiny function called in a
 * loop, then a recursive one.  usage: calls [LOOPS [FIBN]]
 * Prints its results and the number of calls of the two functions,
 * which the benchmark uses to check the traced runs' record counts.
 */
#include <stdio.h>
#include <stdlib.h>

/* keep every call a real call: no inlining, no clones (tiny.constprop.0) */
#if defined(__clang__)
#define Keep __attribute__((noinline, optnone))
#else
#define Keep __attribute__((noinline, noipa))
#endif

Keep long
tiny(long x)
{
	return x + 1;
}

/* the barriers stop GCC from turning one of the two calls into a loop */
Keep long
fib(long n)
{
	long a, b;

	if (n < 2)
		return n;
	a = fib(n - 1);
	__asm__ volatile("" : "+r"(a));
	b = fib(n - 2);
	__asm__ volatile("" : "+r"(b));
	return a + b;
}

int
main(int argc, char **argv)
{
	long loops = argc > 1 ? atol(argv[1]) : 10000000;
	long n = argc > 2 ? atol(argv[2]) : 28;
	long i, s = 0, f, a = 1, b = 1, t;

	for (i = 0; i < loops; i++)
		s = tiny(s) ^ (i & 1);
	f = fib(n);
	for (i = 1; i < n; i++) {	/* fib(n) makes 2 fib(n+1) - 1 calls */
		t = a + b;
		a = b;
		b = t;
	}
	printf("tiny %ld -> %ld, fib(%ld) = %ld\n", loops, s, n, f);
	printf("calls tiny %ld fib %ld\n", loops, 2 * b - 1);
	return 0;
}
