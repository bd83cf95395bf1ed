/*
 * fx_wide: every argument and return register in use, in two threads.
 * The first traced call of each thread reaches the runtime's complete
 * hook, later ones its usual path, which saves fewer registers and must
 * leave the others as they were (arch/amd64/hookflags).
 */
#include <pthread.h>
#include <stdio.h>

struct pair {
	double x, y;	/* passed and returned in two vector registers */
};

struct two {
	long a, b;	/* returned in two general registers */
};

__attribute__((noinline)) struct pair
swap(struct pair p)
{
	struct pair q = { p.y * 2, p.x * 3 };

	return q;
}

__attribute__((noinline)) struct two
both(long a, long b)
{
	struct two t = { a + b, a - b };

	return t;
}

/* eight vector and six general arguments: every argument register */
__attribute__((noinline)) double
wide(double a, double b, double c, double d, double e, double f, double g, double h,
	long i, long j, long k, long l, long m, long n)
{
	return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h +
		9 * i + 10 * j + 11 * k + 12 * l + 13 * m + 14 * n;
}

static void *
body(void *arg)
{
	struct pair p;
	struct two t;
	double w;
	int r;

	for (r = 0; r < 3; r++) {
		p = swap((struct pair){ 1.5 + r, 2.25 });
		t = both(10 + r, 3);
		w = wide(0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5 + r, 1, 2, 3, 4, 5, 6 + r);
		printf("%s %d swap %.2f %.2f both %ld %ld wide %.2f\n", (char *)arg, r, p.x, p.y, t.a, t.b, w);
	}
	return NULL;
}

int
main(void)
{
	pthread_t t;

	body("main");
	fflush(stdout);
	if (pthread_create(&t, NULL, body, "thread") != 0 || pthread_join(t, NULL) != 0)
		return 1;
	return 0;
}
