/*
 * threads.c: the threads workload of bench/threads (issue 36): THREADS
 * threads, each the same CALLS calls of small functions, started
 * together.  usage: threads THREADS CALLS
 * Prints "threads T calls C" (C: the calls each thread made, its own
 * function included) once all have ended.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long ncalls;
static pthread_barrier_t go;

__attribute__((noinline)) static long
leaf(long x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 3 + 1;
}

__attribute__((noinline)) static long
pair(long x)
{
	return leaf(x) ^ leaf(x + 1);
}

/* each turn calls pair and leaf twice: 3 calls */
static void *
work(void *arg)
{
	long i, s = 0;

	pthread_barrier_wait(&go);
	for (i = 0; i < ncalls / 3; i++)
		s += pair(i);
	*(long *)arg = s;
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t *t;
	long *sum, n, i;

	if (argc != 3 || (n = atol(argv[1])) < 1 || n > 4096 || (ncalls = atol(argv[2])) < 3) {
		fprintf(stderr, "usage: threads THREADS CALLS\n");
		return 2;
	}
	t = calloc(n, sizeof *t);
	sum = calloc(n, sizeof *sum);
	if (t == NULL || sum == NULL || pthread_barrier_init(&go, NULL, n) != 0)
		return 1;
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, work, &sum[i]) != 0) {
			perror("threads: pthread_create");
			return 1;
		}
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("threads %ld calls %ld\n", n, ncalls / 3 * 3 + 1);
	return 0;
}
