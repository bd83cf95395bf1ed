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

/* the counter's rate as the system sets it (CNTFRQ_EL0): #hz needs no measuring */
static inline uint64_t
cycleshz(void)
{
	uint64_t f;

	__asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(f));
	return f;
}

static inline void
cpurelax(void)
{
	__asm__ __volatile__("yield");
}
#endif
