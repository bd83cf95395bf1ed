/* ticker.c: host A's traced program in the remote test: tick(i) for i = 0..N-1, MS ms apart, so host B reads while it runs. */
#include <stdlib.h>
#include <time.h>

volatile int sink;

__attribute__((noinline)) int
tick(int i)
{
	sink += i;
	return i;
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10, ms = argc > 2 ? atoi(argv[2]) : 10, i;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	for (i = 0; i < n; i++) {
		tick(i);
		if (ms > 0)
			nanosleep(&ts, NULL);
	}
	return 0;
}
