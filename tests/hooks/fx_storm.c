/*
 * fx_storm: a timer signal every 20us while traced functions run, so
 * that handlers land inside the runtime too.  The handler calls
 * inh(); with "jump" it also siglongjmps back to the loop every 7th
 * time, out of wherever it landed (inside a hook or the runtime too).
 * Prints what the program computed, which tracing must not change.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static volatile long nsig;
static volatile int jump, armed;
static sigjmp_buf back;

__attribute__((noinline)) long
inh(long x)
{
	return x + 1;
}

__attribute__((noinline)) long
leaf(long x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) long
work(long x)
{
	return leaf(x) - leaf(x - 1);
}

static void
onalarm(int sig)
{
	(void)sig;
	nsig = inh(nsig);
	if (jump && armed && nsig % 7 == 0) {
		armed = 0;
		siglongjmp(back, 1);
	}
}

int
main(int argc, char **argv)
{
	struct itimerval it = { { 0, 20 }, { 0, 20 } };
	volatile long i, n = argc > 1 ? atol(argv[1]) : 200000, s = 0, jumps = 0, r;
	struct sigaction sa;

	jump = argc > 2 && strcmp(argv[2], "jump") == 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = onalarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	for (i = 0; i < n; i++) {
		if (sigsetjmp(back, 1) != 0) {
			jumps++;
			continue;	/* this i's call was cut short */
		}
		armed = 1;
		r = work(i);
		armed = 0;	/* no jump past here: s counts only whole calls */
		s += r;
	}
	it.it_value.tv_usec = it.it_interval.tv_usec = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	/* each completed work() adds 3 */
	printf("%s\n", s == 3 * (n - jumps) ? "sums right" : "sums WRONG");
	fprintf(stderr, "signals %ld jumps %ld\n", nsig, jumps);
	return 0;
}
