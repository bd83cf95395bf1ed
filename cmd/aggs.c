/* aggs.c: devtrace aggs, the aggregations as cat aggs (or, -m, aggraw) prints them */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/client.h"

int
xaggs(Cmd *c, int argc, char **argv)
{
	char syms[PATH_MAX], *buf;
	size_t n;
	Shm *s;
	int form = Aprinta;

	while (nextopt(c, argc, argv, "+m") != -1)
		form = Amachine;
	if (optind < argc) {
		fprintf(stderr, "devtrace aggs: unexpected argument '%s'\n", argv[optind]);
		cmdusage(c, stderr);
		return 2;
	}
	s = attach();
	buf = aggtext(s, shmpath(clientdir(), ".syms", syms, sizeof syms) < 0 ? NULL : syms, form, &n);
	shmunmap(s);
	if (buf == NULL) {
		fprintf(stderr, "devtrace aggs: %s\n", errno == ENOMEM ? strerror(errno) : shmbusy(errno));
		return 1;
	}
	n = writeall(1, buf, n) < 0;
	free(buf);
	return n;
}
