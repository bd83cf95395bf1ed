/*
 * floor.c: the physical floor of a traced call on this machine, the
 * least any tracer that keeps an entry and an exit record of every call
 * must do: two cycle-counter reads and two one-cache-line slot writes
 * per call, into a ring as large as the device's (2^LOG slots of 64
 * bytes), against the same call loop untraced.  Rounds interleaved,
 * medians.
 *   floor [CALLS] [LOG] [ROUNDS]
 * prints, as bench/run's figures (name value unit):
 *   floor-plain   ns per untraced call
 *   floor-traced  ns per call with the two reads and two writes
 *   floor         the difference: ns per traced call that no tracer saves
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "cycles.h"

typedef struct {
	uint64_t pc, ticks, a[4];
	uint32_t tid, depth, seq, exit;
} __attribute__((aligned(64))) Slot;

static Slot *ring;
static uint64_t mask, head;

__attribute__((noinline)) static long
work(long x)
{
	__asm__ __volatile__("");
	return x ^ (x >> 3);
}

static inline void
put(uint64_t pc, uint64_t t, long a, int exit)
{
	Slot *s = &ring[head++ & mask];

	s->pc = pc;
	s->ticks = t;
	s->a[0] = a;
	s->a[1] = s->a[2] = s->a[3] = 0;
	s->tid = 1;
	s->depth = 0;
	s->exit = exit;
	__atomic_store_n(&s->seq, (uint32_t)head, __ATOMIC_RELEASE);
}

__attribute__((noinline)) static long
traced(long x)
{
	long r;

	put((uintptr_t)work, cycles(), x, 0);
	r = work(x);
	put((uintptr_t)work, cycles(), r, 1);
	return r;
}

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static double
run(int trace, long n)
{
	double t0 = now();
	long i, s = 0;

	for (i = 0; i < n; i++)
		s += trace ? traced(i) : work(i);
	__asm__ __volatile__("" : : "r"(s));
	return (now() - t0) / n;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000000;
	int log = argc > 2 ? atoi(argv[2]) : 20, r = argc > 3 ? atoi(argv[3]) : 9, i;
	double p[64], t[64], d[64];

	if (r > 64)
		r = 64;
	mask = (1ull << log) - 1;
	if ((ring = aligned_alloc(64, (mask + 1) * sizeof(Slot))) == NULL)
		return 1;
	for (i = 0; i <= (int)mask; i++)	/* the ring's pages exist, as a served device's do */
		ring[i].seq = 0;
	for (i = 0; i < r; i++) {
		if (i & 1) {
			t[i] = run(1, n);
			p[i] = run(0, n);
		} else {
			p[i] = run(0, n);
			t[i] = run(1, n);
		}
		d[i] = t[i] - p[i];
	}
	qsort(p, r, sizeof p[0], cmp);
	qsort(t, r, sizeof t[0], cmp);
	qsort(d, r, sizeof d[0], cmp);
	printf("floor-plain\t%.2f\tns\t%d\n", p[r / 2], r);
	printf("floor-traced\t%.2f\tns\t%d\n", t[r / 2], r);
	printf("floor\t%.2f\tns\t%d\n", d[r / 2], r);
	return 0;
}
