/*
 * merge.c: devtrace merge, several hosts' records in one time line.
 * Each host comes as three arguments: its name, its state (a copy of
 * its tracectl, for #hz and #clock; or several copies, one after the
 * other) and its records (trace lines, as cat trace gives them, named
 * or not).  A record's ticks become real time through its host's
 * first clock pair, ns = CLOCKNS + (ticks - CLOCKTICKS) * 1e9 / rate:
 * the rate between its first and last pairs when the state holds two
 * a while apart (measured over that while), else its #hz (the device's
 * own calibration, over 25 ms in user space).  Its thread is marked with its host: the
 * host's number (1, 2, ... in the order given) in the top 16 bits of
 * the thread field.  The stream is the records of every host, sorted by
 * that time (a tie keeps the input order), after a header of comment
 * lines: "#host N NAME" for each, "#hz 1000000000" (the ticks are ns).
 * So every script reads it as one trace, each host's threads apart.
 * A wait's ticks (W) become ns as well.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/client.h"

enum {
	Maxhosts = 65535,	/* the 16 bits over the thread */
	Hostshift = 48,
	Minspan = 100000000,	/* ns between two pairs for their rate to be used: 0.1 s */
	Mlinemax = 4096,
};

typedef struct Mrec Mrec;
struct Mrec {
	uint64_t ns;	/* real time, converted */
	size_t seq;	/* input order, for ties */
	char *line;	/* the record with its ticks and thread rewritten */
};

typedef struct Clock Clock;
struct Clock {
	long double hz;	/* ticks a second */
	unsigned long long ticks, ns;	/* the first pair */
};

static Mrec *recs;
static size_t nrecs, caprecs;

static FILE *
openin(const char *path)
{
	FILE *f = fopen(path, "r");

	if (f == NULL)
		fprintf(stderr, "devtrace merge: %s: %s\n", path, strerror(errno));
	return f;
}

/* the host's first #clock pair and its rate (above), from its state file; -1 if missing */
static int
readclock(const char *path, Clock *c)
{
	char line[Mlinemax];
	unsigned long long hz = 0, t, n, lastt = 0, lastn = 0;
	FILE *f;
	int have = 0;

	if ((f = openin(path)) == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "#hz %llu", &hz) == 1 || sscanf(line, "#clock %llu %llu", &t, &n) != 2)
			continue;
		if (!have++) {
			c->ticks = t;
			c->ns = n;
		}
		lastt = t;
		lastn = n;
	}
	fclose(f);
	if (hz == 0 || !have) {
		fprintf(stderr, "devtrace merge: %s: no %s line\n", path, hz == 0 ? "#hz" : "#clock");
		return -1;
	}
	c->hz = hz;
	if (lastn >= c->ns + Minspan && lastt > c->ticks)
		c->hz = (long double)(lastt - c->ticks) * 1e9L / (long double)(lastn - c->ns);
	return 0;
}

static int
hex16(const char *s, uint64_t *v)
{
	char *e;

	if (strspn(s, "0123456789abcdefABCDEF") != 16)
		return 0;
	errno = 0;
	*v = strtoull(s, &e, 16);
	return errno == 0 && e == s + 16;
}

/* ticks as real time: the distance from the clock pair, in ns, signed */
static uint64_t
realns(const Clock *c, uint64_t ticks)
{
	long double d = (long double)(int64_t)(ticks - c->ticks) * 1e9L / c->hz;

	return c->ns + (int64_t)(d < 0 ? d - 0.5L : d + 0.5L);
}

/*
 * one record line of host h kept, rewritten; other lines are dropped
 * (0), a bad record is an error (-1).  A wait (W: its thread waited for
 * the reader; the word after the thread its ticks) has that word made
 * ns too, else the scripts would take ticks out of ns (lib.awk's
 * program's clock).
 */
static int
addrec(char *line, unsigned h, const Clock *c)
{
	char kind[2], fn[Mlinemax], ticks[17], tid[17], waited[17], wns[18] = "";
	int rest = 0;
	uint64_t t, id, w;
	long double d;
	size_t n;
	Mrec *r;

	if (line[0] != 'E' && line[0] != 'X' && line[0] != 'W')
		return 0;
	if (sscanf(line, "%1[EXW] %4095s %16s %16s %n", kind, fn, ticks, tid, &rest) != 4 || rest == 0
	    || !hex16(ticks, &t) || !hex16(tid, &id) || id >> Hostshift != 0)
		return -1;
	if (kind[0] == 'W') {
		if (sscanf(line + rest, "%16s", waited) != 1 || !hex16(waited, &w))
			return -1;
		d = (long double)w * 1e9L / c->hz;
		snprintf(wns, sizeof wns, "%016llx", (unsigned long long)(d + 0.5L));
		rest += 16;
	}
	if (nrecs == caprecs) {
		caprecs = caprecs ? 2 * caprecs : 4096;
		if ((recs = realloc(recs, caprecs * sizeof *recs)) == NULL)
			return -1;
	}
	r = &recs[nrecs];
	r->ns = realns(c, t);
	r->seq = nrecs++;
	n = strlen(kind) + strlen(fn) + strlen(wns) + strlen(line + rest) + 2 * 17 + 8;
	if ((r->line = malloc(n)) == NULL)
		return -1;
	snprintf(r->line, n, "%s %s %016llx %016llx %s%s", kind, fn, (unsigned long long)r->ns,
		(unsigned long long)((uint64_t)h << Hostshift | id), wns, line + rest);
	return 0;
}

static int
readhost(const char *path, unsigned h, const Clock *c)
{
	char line[Mlinemax];
	FILE *f;
	long no = 0;

	if ((f = openin(path)) == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL) {
		no++;
		line[strcspn(line, "\n")] = 0;
		if (addrec(line, h, c) < 0) {
			fprintf(stderr, "devtrace merge: %s:%ld: not a record: %s\n", path, no, line);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	return 0;
}

static int
bytime(const void *a, const void *b)
{
	const Mrec *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int
xmerge(Cmd *c, int argc, char **argv)
{
	Clock clk;
	unsigned h;
	size_t i;

	while (nextopt(c, argc, argv, "+") != -1)
		;
	argc -= optind;
	argv += optind;
	if (argc == 0 || argc % 3 != 0 || argc / 3 > Maxhosts) {
		cmdusage(c, stderr);
		return 2;
	}
	for (h = 1; h <= (unsigned)argc / 3; h++) {
		const char *name = argv[3 * h - 3];

		if (name[0] == 0 || strpbrk(name, " \t\n") != NULL) {
			fprintf(stderr, "devtrace merge: a host's name is one word: '%s'\n", name);
			return 2;
		}
		if (readclock(argv[3 * h - 2], &clk) < 0 || readhost(argv[3 * h - 1], h, &clk) < 0)
			return 1;
		printf("#host %u %s\n", h, name);
	}
	printf("#hz 1000000000\n");
	qsort(recs, nrecs, sizeof *recs, bytime);
	for (i = 0; i < nrecs; i++)
		printf("%s\n", recs[i].line);
	return fflush(stdout) != 0 || ferror(stdout);
}
