/*
 * fx_jmp: frames skipped by longjmp and siglongjmp.  N times: a(i)
 * calls b, which calls c, which jumps back to main (longjmp), or raises
 * a signal whose handler jumps (siglongjmp).  Then done(N) returns
 * normally.  With a small shadow stack, frames the jumps left behind
 * must not fill it.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static jmp_buf jb;
static sigjmp_buf sjb;
static volatile int viasignal;

__attribute__((noinline)) void
c(long i)
{
	if (viasignal)
		raise(SIGUSR1);
	longjmp(jb, (int)i + 1);
}

__attribute__((noinline)) long
b(long i)
{
	c(i);
	return 0;
}

__attribute__((noinline)) long
a(long i)
{
	return b(i) + 1;
}

__attribute__((noinline)) long
done(long n)
{
	return n * 2;
}

static void
onsig(int sig)
{
	(void)sig;
	siglongjmp(sjb, 1);
}

int
main(int argc, char **argv)
{
	volatile long i, n = argc > 1 ? atol(argv[1]) : 100, sum = 0;

	for (i = 0; i < n; i++)
		if (setjmp(jb) == 0)
			a(i);
		else
			sum++;
	signal(SIGUSR1, onsig);
	viasignal = 1;
	for (i = 0; i < n; i++)
		if (sigsetjmp(sjb, 1) == 0)
			a(i);
		else
			sum++;
	printf("jumps %ld done %ld\n", sum, done(n));
	return 0;
}
