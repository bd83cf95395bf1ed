/*
 * devbench.h: what the in-process benchmarks of the device (predcost.c,
 * sesscost.c) share: the clock they time hits by, and a control line
 * that must be taken.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "dev/devtrace.h"

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* a refusal ends the benchmark, with the device's reason after who */
static void
ctl(Dev *d, const char *s, const char *who)
{
	if (devctl(d, s, strlen(s), 1) != 0) {
		fprintf(stderr, "%s: %s\n", who, deverr(d));
		exit(1);
	}
}
