/*
 * fx_bench: the cost of a hook site.  Calls work() N (argv[1]) times in
 * a loop and prints the time per call to stderr.  With -DPROBE, work
 * has no function site but a static probe of its value (fx_bench_probe):
 * the cost of a probe.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef PROBE
#include <devtrace/probe.h>

__attribute__((noinline, patchable_function_entry(0, 0))) long
work(long x)
{
	DEVTRACE_PROBE(work, x);
	return x ^ (x >> 3);
}
#else
__attribute__((noinline)) long
work(long x)
{
	return x ^ (x >> 3);
}
#endif

int
main(int argc, char **argv)
{
	long i, n = argc > 1 ? atol(argv[1]) : 100000000, s = 0;
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++)
		s += work(i);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%ld\n", s);
	fprintf(stderr, "%.2f ns/call\n", ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / n);
	return 0;
}
