/* ag_known: calls whose numbers, arguments and relative lengths are known (aggs.bats) */
#include <stdio.h>

__attribute__((noinline)) long ag_a(void) { return 1; }
__attribute__((noinline)) long ag_b(void) { return 2; }
__attribute__((noinline)) long ag_c(void) { return 3; }
/* a write: a descriptor and a size */
__attribute__((noinline)) long ag_size(long fd, long n) { return fd + n; }
/* one value, for the distributions: negative, zero and beyond the linear range too */
__attribute__((noinline)) long ag_val(long v) { return v; }

static __attribute__((noinline)) long
spin(long n)
{
	volatile long s = 0;
	long i;

	for (i = 0; i < n; i++)
		s += i;
	return s;
}

/* the same work, 1 and 50 times over: ordering, not absolute time */
__attribute__((noinline)) long ag_short(void) { return spin(2000); }
__attribute__((noinline)) long ag_long(void) { return spin(100000); }

int
main(void)
{
	long t = 0, i;

	for (i = 0; i < 3; i++)
		t += ag_a();
	for (i = 0; i < 5; i++)
		t += ag_b();
	for (i = 0; i < 7; i++)
		t += ag_c();
	for (i = 0; i < 100; i++)
		t += ag_size(i % 3, i);
	for (i = -2; i <= 101; i++)
		t += ag_val(i);
	for (i = 0; i < 10; i++)
		t += ag_short() + ag_long();
	printf("%ld\n", t != 0);
	return 0;
}
