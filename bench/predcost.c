/*
 * predcost.c: the device's cost of one hit, with and without a
 * predicate, in process: no hooks, one thread, cache-hot; with "eval",
 * the cost of predeval alone on the trace's copy of the predicate.
 *   cc -O2 -I. -o build/predcost bench/predcost.c build/libdev.a build/host/linux.o
 *   build/predcost [PREDICATE|-] [HITS] [eval]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "dev/pred/pred.h"
#include "bench/devbench.h"
#include "host/linux.h"

int
main(int argc, char **argv)
{
	Dev *d = calloc(1, devsize(16, Nringdef));
	Writer w = { 0 };	/* as the runtime keeps one per thread */
	Hit h = { .pc = 0x1000, .a = { 1, 2, 3, 4 }, .tid = 5, .pid = 5, .w = &w };
	long i, n = argc > 2 ? atol(argv[2]) : 50000000, k = 0;
	char line[600];
	double t0;
	Tsel sel;

	devinit(d, 16, Nringdef, 1);
	devmapped(d, 16, Nringdef, 0);	/* the block is this process's own calloc */
	hostrefresh();
	ctl(d, "trace 1000 2000 new a\ntrace a on\nstart\nsize 16", "predcost");
	if (argc > 1 && strcmp(argv[1], "-") != 0) {
		snprintf(line, sizeof line, "trace a pred /%s/", argv[1]);
		ctl(d, line, "predcost");
	}
	devtsel(d, 0, &sel);
	if (argc > 3 && strcmp(argv[3], "eval") == 0 && sel.haspred == 1) {
		t0 = now();
		for (i = 0; i < n; i++) {
			h.ticks = i;
			k += predeval(&sel.pred, &h);
		}
		printf("%s: %.2f ns/eval, %ld true\n", argv[1], (now() - t0) / n * 1e9, k);
		return 0;
	}
	t0 = now();
	for (i = 0; i < n; i++) {
		h.ticks = i;
		k += devhit(d, &sel, &h);
	}
	printf("%s: %.2f ns/hit, %ld written\n", argc > 1 ? argv[1] : "-", (now() - t0) / n * 1e9, k);
	return 0;
}
