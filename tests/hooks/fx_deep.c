/* fx_deep: recursion deeper than the shadow stack: deep(n) = n + deep(n-1). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long
deep(long n)
{
	if (n == 0)
		return 0;
	return n + deep(n - 1);
}

int
main(int argc, char **argv)
{
	printf("deep %ld\n", deep(argc > 1 ? atol(argv[1]) : 200));
	return 0;
}
