/*
 * fx_signal: signal handlers that run traced functions, on the thread's
 * stack (SIGUSR1) and on an alternate stack (SIGUSR2).  outer(n) raises
 * the signal n times from inside itself; each handler calls handled().
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile long got;

__attribute__((noinline)) long
handled(long sig)
{
	return sig * 2;
}

__attribute__((noinline)) void
onsig(int sig)
{
	got += handled(sig);
}

__attribute__((noinline)) long
outer(long sig, long n)
{
	long i;

	for (i = 0; i < n; i++)
		raise(sig);
	return n;
}

int
main(void)
{
	struct sigaction sa;
	stack_t ss;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = onsig;
	sigaction(SIGUSR1, &sa, NULL);
	ss.ss_sp = malloc(1 << 16);
	ss.ss_size = 1 << 16;
	ss.ss_flags = 0;
	sigaltstack(&ss, NULL);
	sa.sa_flags = SA_ONSTACK;
	sigaction(SIGUSR2, &sa, NULL);
	printf("outer %ld\n", outer(SIGUSR1, 3));
	printf("outer %ld\n", outer(SIGUSR2, 2));
	printf("got %ld\n", got);
	return 0;
}
