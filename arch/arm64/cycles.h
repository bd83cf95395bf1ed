/* cycles.h: the cycle counter on arm64: the virtual counter, readable from EL0. */
#ifndef DEVTRACE_CYCLES_H
#define DEVTRACE_CYCLES_H
#include <stdint.h>

static inline uint64_t
cycles(void)
{
	uint64_t v;

	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v));
	return v;
}

static inline void
cpurelax(void)
{
	__asm__ __volatile__("yield");
}
#endif
