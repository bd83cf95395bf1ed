/*
 * fx_fork: the child keeps running, its records carry its own pid.
 * The parent calls f(1) and, after the child exits, f(3); the child
 * calls f(2) and exits 3.  Both print their pid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) long
f(long x)
{
	return x * 10;
}

int
main(void)
{
	int st;
	pid_t p;

	printf("parent %d f %ld\n", (int)getpid(), f(1));
	fflush(stdout);
	if ((p = fork()) == 0) {
		printf("child %d f %ld\n", (int)getpid(), f(2));
		exit(3);
	}
	waitpid(p, &st, 0);
	printf("status %d f %ld\n", WEXITSTATUS(st), f(3));
	return 0;
}
