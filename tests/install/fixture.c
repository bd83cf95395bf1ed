/* fixture: a small program for the installed pipeline to build and
 * trace: outer calls inner twice, the flow the test expects. */
#include <stdio.h>

__attribute__((noinline)) long
work_inner(long n)
{
	__asm__ volatile("" : : "r"(n));
	return n * 2;
}

__attribute__((noinline)) long
work_outer(long n)
{
	return work_inner(n) + work_inner(n + 1);
}

int
main(void)
{
	printf("%ld\n", work_outer(20));
	return 0;
}
