/*
 * fx_tail: tail calls (built with -O2: each of f and g ends in a jmp).
 * f(x) -> g(x+1) -> h(x+2), each by a jump; h returns (x+2)*3.
 */
#include <stdio.h>

__attribute__((noinline)) long
h(long x)
{
	return x * 3;
}

__attribute__((noinline)) long
g(long x)
{
	return h(x + 1);
}

__attribute__((noinline)) long
f(long x)
{
	return g(x + 1);
}

int
main(void)
{
	long r = f(5);

	printf("f %ld\n", r);
	printf("g %ld\n", g(10));
	return 0;
}
