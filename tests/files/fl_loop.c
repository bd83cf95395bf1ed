/* fl_loop id n go usec: wait for the file go ("-": don't), then n calls of fl_work, usec apart */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) long
fl_work(long id, long i)
{
	return id * 1000 + i;
}

int
main(int argc, char **argv)
{
	long id, n, i, us, sum = 0;

	if (argc != 5) {
		fprintf(stderr, "usage: fl_loop id n go usec\n");
		return 2;
	}
	id = atol(argv[1]);
	n = atol(argv[2]);
	us = atol(argv[4]);
	if (strcmp(argv[3], "-") != 0)
		while (access(argv[3], F_OK) != 0)
			usleep(1000);
	for (i = 0; i < n; i++) {
		sum += fl_work(id, i);
		if (us)
			usleep(us);
	}
	printf("%ld %ld\n", id, sum);
	return 0;
}
