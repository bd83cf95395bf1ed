/* cycles.h: the cycle counter on amd64: rdtsc, invariant on machines with constant_tsc. */
#ifndef DEVTRACE_CYCLES_H
#define DEVTRACE_CYCLES_H
#include <stdint.h>

static inline uint64_t
cycles(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/* the TSC's rate is not given architecturally everywhere: 0, measure it (host/shm.c) */
static inline uint64_t
cycleshz(void)
{
	return 0;
}

static inline void
cpurelax(void)
{
	__asm__ __volatile__("pause");
}
#endif
