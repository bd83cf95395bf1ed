/*
 * timeit.c: run a program and report its wall time and peak memory.
 * usage: timeit RESULT PROG [ARG ...]
 * Writes "NS KIB STATUS" to the file RESULT: wall nanoseconds from fork
 * to exit, the peak resident set (ru_maxrss of the child and the children
 * it waited for, as /usr/bin/time's %M), and the exit status (128+N for
 * a signal).  The program's own output goes where timeit's goes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

static long long
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int
main(int argc, char **argv)
{
	struct rusage ru;
	long long t0, t1;
	int st, code;
	pid_t pid;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: timeit RESULT PROG [ARG ...]\n");
		return 2;
	}
	t0 = now();
	if ((pid = fork()) < 0) {
		perror("timeit: fork");
		return 1;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "timeit: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &st, 0, &ru) < 0)
		if (errno != EINTR) {
			perror("timeit: wait4");
			return 1;
		}
	t1 = now();
	code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if ((f = fopen(argv[1], "w")) == NULL) {
		perror(argv[1]);
		return 1;
	}
	fprintf(f, "%lld %ld %d\n", t1 - t0, ru.ru_maxrss, code);
	return fclose(f) != 0 || code != 0;
}
