/*
 * fx_tick: a long-running traced program, for the device going away and
 * coming back: tick(i) every 20ms for N (argv[1]) ticks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) long
tick(long i)
{
	return i;
}

int
main(int argc, char **argv)
{
	long i, n = argc > 1 ? atol(argv[1]) : 100, s = 0;

	for (i = 0; i < n; i++) {
		s += tick(i);
		usleep(20000);
	}
	printf("ticks %ld\n", s);
	return 0;
}
