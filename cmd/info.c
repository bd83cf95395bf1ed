/*
 * info.c: devtrace info FILE, what a recording is: the header's and the
 * trailer's text (capfile.h) as "FIELD VALUE" lines, with the records
 * counted from the file, and the tracer waits they hold.  A
 * field the file lacks says why: an older version did not store it, or
 * record did not finish (no trailer).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cmd/client.h"
#include "cmd/capfile.h"

enum { Any, Hdr, Tail };	/* where a field is: any version's header, the text of version 3's header, the trailer */

typedef struct Field Field;
struct Field {
	char *name;
	char *key;		/* its line in the file's text; nil: fmt makes the value */
	int where;
	char *none;		/* what its absence means in a file that could have it */
	void (*fmt)(Capfile *f, const char *v);	/* nil: the value as it is */
};

/* clock TICKS NS: the start in UTC, to the ns */
static void
fmtstart(Capfile *f, const char *v)
{
	unsigned long long t, ns;
	struct tm tm;
	time_t s;
	char buf[64];

	(void)f;
	if (sscanf(v, "%llu %llu", &t, &ns) != 2) {
		printf("%s\n", v);
		return;
	}
	s = ns / 1000000000;
	strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", gmtime_r(&s, &tm));
	printf("%s.%09llu UTC\n", buf, ns % 1000000000);
}

/* end TICKS NS: since the start's clock */
static void
fmtduration(Capfile *f, const char *v)
{
	unsigned long long t0, ns0, t1, ns1;
	const char *c = capinfo(f, "clock", 0);

	if (c == NULL || sscanf(c, "%llu %llu", &t0, &ns0) != 2 || sscanf(v, "%llu %llu", &t1, &ns1) != 2 || ns1 < ns0) {
		printf("unknown (no start or end clock)\n");
		return;
	}
	printf("%llu.%09llu s\n", (ns1 - ns0) / 1000000000, (ns1 - ns0) % 1000000000);
}

static void
fmtversion(Capfile *f, const char *v)
{
	(void)v;
	printf("%u\n", capversion(f));
}

static void
fmthz(Capfile *f, const char *v)
{
	(void)v;
	printf("%llu\n", (unsigned long long)caphz(f));
}

/* a wait's ticks: in s as duration gives time, in ticks without a #hz */
static void
fmtwaited(Capfile *f, uint64_t ticks, uint64_t n)
{
	unsigned __int128 ns;

	printf("%-9s ", "waited");
	if (caphz(f) == 0)
		printf("%llu ticks", (unsigned long long)ticks);
	else {
		ns = (unsigned __int128)ticks * 1000000000u / caphz(f);
		printf("%llu.%09llu s", (unsigned long long)(ns / 1000000000), (unsigned long long)(ns % 1000000000));
	}
	printf(" in %llu tracer wait%s\n", (unsigned long long)n, n == 1 ? "" : "s");
}

/*
 * counted from the chunks: what cat prints; then, if the program waited
 * for the tracer (Kwait records: the reader, the ring's pages), how long in all, what
 * report takes out of the times (calls.h), on a line of its own: none,
 * no line (a file of a device with no waits reads as before)
 */
static void
fmtrecords(Capfile *f, const char *v)
{
	unsigned long long n = 0;
	uint64_t waited = 0, nwait = 0;
	const Rec *r;
	size_t k, i;

	(void)v;
	while ((r = caprun(f, ~(size_t)0, &k)) != NULL) {
		n += k;
		for (i = 0; i < k; i++)
			if (r[i].exit == Kwait) {
				waited += r[i].a[0];
				nwait++;
			}
	}
	printf("%llu\n", n);
	if (nwait > 0)
		fmtwaited(f, waited, nwait);
}

/* their count, then one line each */
static void
fmtobjects(Capfile *f, const char *v)
{
	size_t i;

	for (i = 0; capinfo(f, "object", i) != NULL; i++)
		;
	printf("%zu\n", i);
	for (i = 0; (v = capinfo(f, "object", i)) != NULL; i++)
		printf("%-9s %s\n", "object", v);
}

static const Field fields[] = {
	{ "version", NULL, Any, NULL, fmtversion },
	{ "command", "command", Hdr, "none (no program: the device's records until SIGINT)", NULL },
	{ "pid", "pid", Hdr, "none", NULL },
	{ "trace", "trace", Hdr, "the device's top level (no -t)", NULL },
	{ "start", "clock", Hdr, "unknown (no #clock in the device's state)", fmtstart },
	{ "host", "host", Hdr, "unknown", NULL },
	{ "kernel", "kernel", Hdr, "unknown", NULL },
	{ "hz", NULL, Any, NULL, fmthz },
	{ "clock", "clock", Hdr, "unknown (no #clock in the device's state)", NULL },
	{ "records", NULL, Any, NULL, fmtrecords },
	{ "lost", "lost", Tail, "unknown (the device's lock was not had at the end)", NULL },
	{ "duration", "end", Tail, "unknown (the device's lock was not had at the end)", fmtduration },
	{ "objects", NULL, Tail, NULL, fmtobjects },
};

/* why a file has no field of this place at all, or nil if it could have it */
static const char *
lacks(Capfile *f, int where)
{
	static char why[96];

	if (where == Any)
		return NULL;
	if (capversion(f) < 3) {
		snprintf(why, sizeof why, "unknown (a version %u file: record did not store it then)", capversion(f));
		return why;
	}
	if (where == Tail && !capended(f))
		return "unknown (no trailer: record was killed, or is still running)";
	return NULL;
}

static void
field(Capfile *f, const Field *d)
{
	const char *v = d->key ? capinfo(f, d->key, 0) : NULL, *why = lacks(f, d->where);

	printf("%-9s ", d->name);
	if (why != NULL)
		printf("%s\n", why);
	else if (d->key == NULL)
		d->fmt(f, NULL);
	else if (v == NULL)
		printf("%s\n", d->none);
	else if (d->fmt != NULL)
		d->fmt(f, v);
	else
		printf("%s\n", v);
}

static int
info(const char *path)
{
	Capfile *f;
	size_t i;
	int rc;

	if ((f = capopen(path, "devtrace info")) == NULL)
		return 1;
	printf("%-9s %s\n", "file", path);
	for (i = 0; i < sizeof fields / sizeof fields[0]; i++)
		field(f, &fields[i]);
	rc = captruncated(f);
	capclose(f);
	return rc;
}

int
xinfo(Cmd *c, int argc, char **argv)
{
	int i, rc = 0;

	while (nextopt(c, argc, argv, "+") != -1)
		;
	if (optind == argc) {
		fprintf(stderr, "devtrace info: no FILE (a file devtrace record wrote)\n");
		cmdusage(c, stderr);
		return 2;
	}
	for (i = optind; i < argc; i++) {
		if (i > optind)
			putchar('\n');
		rc |= info(argv[i]);
	}
	return rc;
}
