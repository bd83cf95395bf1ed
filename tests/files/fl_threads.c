/*
 * fl_threads nthread n [ms]: nthread threads, each n calls of fl_work(thread, i),
 * all of them at once (no thread starts its calls before all are up, none
 * ends before all are done: each holds its ring the whole time), each then
 * alive ms more (a reader's lookups in /proc find them); prints the sum
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { Maxthread = 64 };

static long n, ms;
static long sums[Maxthread];
static pthread_barrier_t up, done;

__attribute__((noinline)) long
fl_work(long id, long i)
{
	return id * 1000000 + i;
}

static void *
run(void *arg)
{
	long id = (long)arg, i, sum = 0;

	pthread_barrier_wait(&up);
	for (i = 0; i < n; i++)
		sum += fl_work(id, i);
	sums[id] = sum;
	pthread_barrier_wait(&done);
	usleep(ms * 1000);
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t t[Maxthread];
	long nt, i, sum = 0;

	if (argc < 3 || argc > 4 || (nt = atol(argv[1])) < 1 || nt > Maxthread) {
		fprintf(stderr, "usage: fl_threads nthread n [ms]\n");
		return 2;
	}
	n = atol(argv[2]);
	ms = argc > 3 ? atol(argv[3]) : 0;
	pthread_barrier_init(&up, NULL, nt);
	pthread_barrier_init(&done, NULL, nt);
	for (i = 0; i < nt; i++)
		pthread_create(&t[i], NULL, run, (void *)i);
	for (i = 0; i < nt; i++) {
		pthread_join(t[i], NULL);
		sum += sums[i];
	}
	printf("%ld\n", sum);
	return 0;
}
