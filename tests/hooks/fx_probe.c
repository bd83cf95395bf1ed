/*
 * fx_probe: static probes (DEVTRACE_PROBE) with 0 to 4 values, inside
 * functions whose own sites are traced too: a bounded queue that
 * reports when it is full, and each push.
 *	fx_probe N	pushes 0..N-1 into a queue of 4, emptied when full
 */
#include <stdio.h>
#include <stdlib.h>
#include <devtrace/probe.h>

struct queue {
	long n, cap, dropped;
};

__attribute__((noinline)) int
push(struct queue *q, long v)
{
	if (q->n == q->cap) {
		q->dropped++;
		DEVTRACE_PROBE(queue_full, v, q->n, q->dropped);
		return -1;
	}
	q->n++;
	DEVTRACE_PROBE(pushed, v, q->n, v * 3, -v);
	return 0;
}

int
main(int argc, char **argv)
{
	struct queue q = { 0, 4, 0 };
	long i, n = argc > 1 ? atol(argv[1]) : 10;

	for (i = 0; i < n; i++)
		if (push(&q, i) < 0)
			q.n = 0;
	DEVTRACE_PROBE(done);
	printf("queue %ld %ld\n", q.n, q.dropped);
	return 0;
}
