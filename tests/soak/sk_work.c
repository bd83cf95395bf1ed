/*
 * sk_work id nthreads ncalls pause: the soak's traced program.  Each of
 * nthreads threads makes ncalls calls of sk_step (which calls sk_mix),
 * sleeping pause microseconds after every 100, so a soak's record rate
 * is bounded; it prints one checksum line per thread and a total, the
 * same whether or not the program is traced.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { Maxthreads = 16 };

static long id, ncalls, pause_us;
static unsigned long sums[Maxthreads];

__attribute__((noinline)) unsigned long
sk_mix(unsigned long h, long v)
{
	return (h ^ (unsigned long)v) * 0x100000001b3UL;
}

__attribute__((noinline)) unsigned long
sk_step(long t, long i, unsigned long h)
{
	return sk_mix(h, id * 1000003 + t * 10007 + i);
}

static void *
worker(void *arg)
{
	long t = (long)arg, i;
	unsigned long h = 0xcbf29ce484222325UL;

	for (i = 0; i < ncalls; i++) {
		h = sk_step(t, i, h);
		if (pause_us && i % 100 == 99)
			usleep(pause_us);
	}
	sums[t] = h;
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t th[Maxthreads];
	unsigned long total = 0;
	long n, t;

	if (argc != 5 || (n = atol(argv[2])) < 1 || n > Maxthreads) {
		fprintf(stderr, "usage: sk_work id nthreads(1-%d) ncalls pause\n", Maxthreads);
		return 2;
	}
	id = atol(argv[1]);
	ncalls = atol(argv[3]);
	pause_us = atol(argv[4]);
	for (t = 0; t < n; t++)
		if (pthread_create(&th[t], NULL, worker, (void *)t) != 0) {
			perror("sk_work: pthread_create");
			return 1;
		}
	for (t = 0; t < n; t++) {
		pthread_join(th[t], NULL);
		printf("%ld %ld %016lx\n", id, t, sums[t]);
		total ^= sums[t];
	}
	printf("%ld total %016lx\n", id, total);
	return 0;
}
