/*
 * fl_probe: static probes inside a function and in main, for the call
 * flow of devtrace run: probe:sq(i, i*i) in each step, probe:done(sum).
 */
#include <devtrace/probe.h>

__attribute__((noinline)) long
step(long i)
{
	DEVTRACE_PROBE(sq, i, i * i);
	return i;
}

int
main(void)
{
	long i, s = 0;

	for (i = 1; i <= 2; i++)
		s += step(i);
	DEVTRACE_PROBE(done, s);
	return 0;
}
