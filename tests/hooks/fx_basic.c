/*
 * fx_basic: arguments, return values, recursion, and the registers a
 * hook must leave alone (floating-point arguments, varargs' %al).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long
leaf(long a, long b, long c, long d)
{
	return a * 1000 + b * 100 + c * 10 + d;
}

/* fib(n) calls itself fib(n+1)+fib(n)-1 times more: not a tail recursion */
__attribute__((noinline)) long
fib(long n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) double
scale(double x, double y, int k)
{
	return (x + y) * k;
}

__attribute__((noinline)) double
vsum(int n, ...)
{
	va_list ap;
	double s = 0;
	int i;

	va_start(ap, n);
	for (i = 0; i < n; i++)
		s += va_arg(ap, double);
	va_end(ap);
	return s;
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 5;

	printf("leaf %ld\n", leaf(1, 2, 3, 4));
	printf("fib %ld\n", fib(n));
	printf("scale %.3f\n", scale(1.25, 2.5, 3));
	printf("vsum %.3f\n", vsum(4, 1.5, 2.25, 3.0, 4.125));
	return 7;
}
