/*
 * fx_threads: threads come and go while traced.  Each of NT threads
 * (two waves, the second made after the first exited) calls work(t, i)
 * for i < NI, which calls inner(i).
 */
#include <pthread.h>
#include <stdio.h>

enum { NT = 4, NI = 50 };

__attribute__((noinline)) long
inner(long i)
{
	return i + 1;
}

__attribute__((noinline)) long
work(long t, long i)
{
	return t * 1000 + inner(i);
}

static void *
run(void *arg)
{
	long t = (long)arg, i, s = 0;

	for (i = 0; i < NI; i++)
		s += work(t, i);
	return (void *)s;
}

int
main(void)
{
	pthread_t th[NT];
	long w, t, total = 0;
	void *r;

	for (w = 0; w < 2; w++) {
		for (t = 0; t < NT; t++)
			pthread_create(&th[t], NULL, run, (void *)(w * NT + t + 1));
		for (t = 0; t < NT; t++) {
			pthread_join(th[t], &r);
			total += (long)r;
		}
	}
	printf("total %ld\n", total);
	return 0;
}
