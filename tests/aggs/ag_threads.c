/* ag_threads n: thread k (1..n) calls ag_work 10*k times; each prints "tid count" */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_mutex_t out = PTHREAD_MUTEX_INITIALIZER;

__attribute__((noinline)) long ag_work(long k) { return k; }

static void *
thread(void *arg)
{
	long k = (long)arg, i, s = 0;

	for (i = 0; i < 10 * k; i++)
		s += ag_work(k);
	pthread_mutex_lock(&out);
	printf("%d %ld\n", gettid(), 10 * k);
	pthread_mutex_unlock(&out);
	return (void *)s;
}

int
main(int argc, char **argv)
{
	pthread_t t[64];
	long n = argc > 1 ? atol(argv[1]) : 4, k;

	if (n < 1 || n > 64)
		return 2;
	for (k = 1; k <= n; k++)
		pthread_create(&t[k - 1], NULL, thread, (void *)k);
	for (k = 1; k <= n; k++)
		pthread_join(t[k - 1], NULL);
	return 0;
}
