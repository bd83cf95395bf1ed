/*
 * fx_io: the predicates' fixture.  fx_io [-r READY] [-g GO] FD [PROG ARG...]
 * Calls io(FD, size, 'A', i) for the six sizes below, i = 0..5; io
 * returns size * 2.  Then done(FD, sum).  Prints "PID FD SUM".
 * -r: create the file READY once running (the runtime is attached by
 * then: its constructor ran before main); -g: wait for the file GO
 * before the calls.  With PROG, exec it with ARG... after the calls,
 * in the same process (same pid, a new command name).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <fcntl.h>

static const long sizes[] = { 1, 100, 4095, 4096, 5000, 65536 };

__attribute__((noinline)) long
io(long fd, long size, long flags, long x)
{
	__asm__ volatile("" : : "r"(fd), "r"(flags), "r"(x) : "memory");
	return size * 2;
}

__attribute__((noinline)) long
done(long fd, long sum)
{
	__asm__ volatile("" : : "r"(fd) : "memory");
	return sum;
}

int
main(int argc, char **argv)
{
	char *ready = NULL, *go = NULL;
	long fd, sum = 0;
	int c, i;

	while ((c = getopt(argc, argv, "+r:g:")) != -1) {
		switch (c) {
		case 'r':
			ready = optarg;
			break;
		case 'g':
			go = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (optind >= argc)
		goto usage;
	fd = atol(argv[optind]);
	if (ready != NULL)
		close(open(ready, O_WRONLY | O_CREAT, 0644));
	if (go != NULL)
		while (access(go, F_OK) != 0)
			usleep(1000);
	for (i = 0; i < 6; i++)
		sum += io(fd, sizes[i], 'A', i);
	printf("%d %ld %ld\n", (int)getpid(), fd, done(fd, sum));
	fflush(stdout);
	if (optind + 1 < argc) {
		execv(argv[optind + 1], argv + optind + 1);
		perror(argv[optind + 1]);
		return 1;
	}
	return 0;
usage:
	fprintf(stderr, "usage: fx_io [-r ready] [-g go] fd [prog arg...]\n");
	return 2;
}
