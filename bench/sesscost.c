/*
 * sesscost.c: the device's cost of one hit selected by one session and
 * by several (dev/sess.c: a record in each session's own ring), on the
 * runtime's path: hitplain and devputfast (dev/hitfast.h) on each
 * session's Dev with the thread's Writer and the site's Tsel for it,
 * devhit when that is not the usual hit.  In process, one thread,
 * cache-hot, no hooks; the sessions are a real block's (devblocksize).
 *   make build/bench/sesscost; build/bench/sesscost WHICH HITS
 * WHICH: the sessions that select the site, as digits (0 the top
 * level): 0, 1, 01, 012.  Prints ns per hit; bench/sesscost runs it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "dev/dat.h"
#include "dev/hitfast.h"
#include "bench/devbench.h"
#include "host/linux.h"

enum { Log = 16, Nsessbench = 2 };

static Dev *top;

int
main(int argc, char **argv)
{
	Dev *dv[1 + Nsessbench];
	Tsel sel[1 + Nsessbench];
	Writer w[1 + Nsessbench];
	Hit h = { .pc = 0x1000, .a = { 1, 2, 3, 4 }, .tid = 5, .pid = 5 };
	int on[1 + Nsessbench], non = 0, k, i;
	long n, hit;
	const char *c;
	double t;

	if (argc != 3 || strspn(argv[1], "012") != strlen(argv[1]) || (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: sesscost 0|1|01|012 HITS\n");
		return 2;
	}
	top = calloc(1, devblocksize(Log, Nringdef, Nsessbench));
	devinit(top, Log, Nringdef, 1000000000);
	devsessinit(top, Nsessbench);
	devmapped(top, Log, Nringdef, Nsessbench);	/* the block is this process's own calloc */
	memset(w, 0, sizeof w);
	for (k = 0; k <= Nsessbench; k++) {
		if (k > 0 && devclone(top, 1000, getpid()) != k) {
			fprintf(stderr, "sesscost: %s\n", deverr(top));
			return 1;
		}
		dv[k] = devsess(top, k);
	}
	for (c = argv[1]; *c; c++) {
		k = *c - '0';
		ctl(dv[k], "trace 1000 2000 new t\ntrace t on\nstart", "sesscost");
		devtsel(dv[k], 0, &sel[k]);
		on[non++] = k;
	}
	t = now();
	for (hit = 0; hit < n; hit++)
		for (i = 0; i < non; i++) {
			k = on[i];
			if (!(hitplain(dv[k], &sel[k], &w[k]) &&
			    devputfast(dv[k], &w[k], 5, 0, 0x1000, hit, 1, 2, 3, 4))) {
				h.ticks = hit;
				h.w = &w[k];
				devhit(dv[k], &sel[k], &h);	/* the first hit decides and claims */
			}
		}
	t = now() - t;
	printf("%.2f ns/hit\n", t / n * 1e9);
	return 0;
}
