/*
 * fl_fork n ms: n calls of fl_work(0, i), then a child by fork that makes
 * n calls of fl_work(1, i) and stays ms more (record sees it while it
 * runs; 0: gone at once), while the parent waits for it; prints "child PID"
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) long
fl_work(long id, long i)
{
	return id * 1000000 + i;
}

int
main(int argc, char **argv)
{
	long n, ms, i, sum = 0;
	pid_t pid;

	if (argc != 3 || (n = atol(argv[1])) < 1 || (ms = atol(argv[2])) < 0) {
		fprintf(stderr, "usage: fl_fork n ms\n");
		return 2;
	}
	for (i = 0; i < n; i++)
		sum += fl_work(0, i);
	fflush(stdout);
	if ((pid = fork()) < 0) {
		perror("fl_fork: fork");
		return 1;
	}
	if (pid == 0) {
		for (i = 0; i < n; i++)
			sum += fl_work(1, i);
		if (ms > 0)
			usleep(ms * 1000);
		exit(sum == 0);
	}
	if (waitpid(pid, NULL, 0) != pid) {
		perror("fl_fork: waitpid");
		return 1;
	}
	printf("child %d\n", (int)pid);
	return 0;
}
