/* fl_spin usec: call fl_spin for ever, asleep usec between calls (0: flat out) */
#include <stdlib.h>
#include <time.h>

__attribute__((noinline)) long
fl_spin(long i)
{
	return i + 1;
}

int
main(int argc, char **argv)
{
	struct timespec ts = { 0, 0 };
	long i = 0;

	/* asleep, not busy: the processes under test leave the CPUs to the device's */
	ts.tv_nsec = argc > 1 ? atol(argv[1]) * 1000 : 0;
	for (;;) {
		i = fl_spin(i);
		if (ts.tv_nsec)
			nanosleep(&ts, NULL);
	}
}
