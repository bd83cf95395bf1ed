/*
 * retpred.c: what a redirected return costs in return-stack
 * mispredictions, with no hardware counters (a ratio of times).  A leaf
 * called from a middle function in a loop either returns as it was
 * called or has its return slot replaced, as devtrace_return does, by a
 * trampoline that goes on to the true return address
 *   - by an indirect jmp (devtrace's trampoline): the leaf's own ret
 *     mispredicts once;
 *   - by a second ret (push the address, ret): that ret takes its
 *     caller's return-stack entry, mispredicts too, and leaves the
 *     return stack one entry off for the middle function's ret.
 * Every leaf does the same loads and stores of its return slot; only
 * the target differs.  Rounds interleaved, medians of the differences.
 * The leaves are assembly, arch/ARCH/retleaf.S: built where there is one.
 *   retpred [CALLS] [ROUNDS]
 * prints (name value unit rounds):
 *   retpred-plain   ns per loop iteration, the return not redirected
 *   retpred-jmp     ns per iteration, redirected, back by jmp
 *   retpred-ret     ns per iteration, redirected, back by ret
 *   retpred-miss    jmp - plain: a redirected return's misprediction
 *   retpred-missret ret - plain
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* the ISA's leaves and trampolines: arch/ARCH/retleaf.S */
long	leaf_plain(long), leaf_redir(long);
void	back_jmp(void), back_ret(void);
uintptr_t retsaved, retback;

static long (*volatile leaf)(long);

__attribute__((noinline)) static long
mid(long x)
{
	return leaf(x) * 3 + 1;	/* not a tail call: mid's own ret follows the leaf's */
}

__attribute__((noinline)) static double
loop(long n)
{
	struct timespec t0, t1;
	long i, s = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++)
		s += mid(i);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	__asm__ __volatile__("" : : "r"(s));
	return ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / n;
}

static double
run(int mode, long n)
{
	leaf = mode == 0 ? leaf_plain : leaf_redir;
	retback = mode == 1 ? (uintptr_t)back_jmp : (uintptr_t)back_ret;
	return loop(n);
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
med(double *a, int n)
{
	qsort(a, n, sizeof a[0], cmp);
	return a[n / 2];
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000000;
	int r = argc > 2 ? atoi(argv[2]) : 9, i, j, m;
	double t[3][64], dj[64], dr[64];

	if (r > 64)
		r = 64;
	for (i = 0; i < r; i++) {
		for (j = 0; j < 3; j++) {	/* the order rotates */
			m = (i + j) % 3;
			t[m][i] = run(m, n);
		}
		dj[i] = t[1][i] - t[0][i];
		dr[i] = t[2][i] - t[0][i];
	}
	printf("retpred-plain\t%.2f\tns\t%d\n", med(t[0], r), r);
	printf("retpred-jmp\t%.2f\tns\t%d\n", med(t[1], r), r);
	printf("retpred-ret\t%.2f\tns\t%d\n", med(t[2], r), r);
	printf("retpred-miss\t%.2f\tns\t%d\n", med(dj, r), r);
	printf("retpred-missret\t%.2f\tns\t%d\n", med(dr, r), r);
	return 0;
}
