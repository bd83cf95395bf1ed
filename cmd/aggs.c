/*
 * aggs.c: devtrace aggs, the aggregations as cat aggs (or, -m, aggraw)
 * prints them.  With -t, a session of its own (ownsess.c) whose traces
 * (one a -t) aggregate by -a's definitions, writing no records, while
 * the program it starts runs; then that session's aggregations are
 * printed and the session ends: the top level's are not touched.  An
 * aggregation belongs to one trace: an -a is the -t's before it (the
 * first -t's if none came before).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/client.h"

enum { Naggopt = 16 };	/* -a options: the device's aggregations */

#define Usage "usage: devtrace aggs [-m] [-t GLOB -a DEF [-a DEF ...] ... [-p EXPR] [--] prog [arg ...]]\n"

static void
usage(FILE *f)
{
	fprintf(f, Usage
"Print the aggregations as cat aggs prints them: each one's definition, then\n"
"a line a key, or a distribution drawn bucket by bucket.\n"
"  -m, --machine      one line a key and bucket, as cat aggraw prints them\n"
"  -t, --trace GLOB   a session of aggs' own: a trace of the functions whose\n"
"                     names match GLOB (as devtrace run -t), watching prog\n"
"                     alone, aggregating and writing no records; prog runs,\n"
"                     then the session's aggregations are printed;\n"
"                     repeatable: a trace each\n"
"  -a, --agg DEF      an aggregation of the -t before it (of the first, if\n"
"                     none came before), as `agg' takes it:\n"
"                     entry|exit @NAME[KEY, ...] = FUNC(ARGS); repeatable, up\n"
"                     to %d, at least one a -t\n"
"  -p, --pred EXPR    with -t: only the hits for which EXPR is true count\n"
"  -h, --help         this text\n"
"Without -t it prints the device's top level as a server serves it.  With\n"
"-t it starts a server if none runs, and stops it at the end.  Exit status:\n"
"0 (with -t: prog's, 128+N if signal N ended it); 127 if prog is not found;\n"
"1 if no server serves the device, the lock was not had, or a definition or\n"
"GLOB is refused; 2 for bad usage.\n", Naggopt);
}

/* the aggregations of s, to standard output: 0, or 1 (told) */
static int
show(Shm *s, int form)
{
	char syms[PATH_MAX], *buf;
	size_t n;

	buf = aggtyped(s, shmpath(clientdir(), ".syms", syms, sizeof syms) < 0 ? NULL : syms, form, &n);
	if (buf == NULL) {
		fprintf(stderr, "devtrace aggs: %s\n", errno == ENOMEM ? strerror(errno) : shmbusy(errno));
		return 1;
	}
	n = writeall(1, buf, n) < 0;
	free(buf);
	return n;
}

/* -t: the session made, prog run in it, its aggregations shown, the session ended */
static int
session(Ownsess *o, char **argv, int form)
{
	int rc, bad;

	if ((rc = owncheck(o)) != 0)
		return rc;
	if ((rc = ownopen(o, argv[0])) == Owndamaged) {
		fprintf(stderr, "devtrace aggs: the device of %s looks damaged (bad header)\n", o->dir);
		rc = 1;
	}
	if (rc == 0 && (owntraces(o) < 0 || ownstart(o, argv) < 0))
		rc = 1;
	/* the watched program's end is the aggregations' end: no hit comes after */
	if (rc == 0) {
		rc = ownwait(o, 1);
		bad = show(o->s, form);
		bad |= ownnomatch(o);
		if (rc == 0)
			rc = bad;
	}
	if (ownstop(o) != 0 && rc == 0)
		rc = 1;
	ownclose(o);
	return rc;
}

int
xaggs(Cmd *c, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "machine", no_argument, NULL, 'm' },
		{ "trace", required_argument, NULL, 't' },
		{ "agg", required_argument, NULL, 'a' },
		{ "pred", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	static Ownsess own = { .who = "devtrace aggs" };
	static char *agg[Naggopt];
	static int aggt[Naggopt];
	Ownsess *o = &own;
	int ch, rc, i, form = Aprinta;
	Shm *s;

	(void)c;
	opterr = 0;
	o->agg = agg;
	o->aggt = aggt;
	while ((ch = getopt_long(argc, argv, "+hmt:a:p:", lo, NULL)) != -1)
		switch (ch) {
		case 'h':
			usage(stdout);
			return 0;
		case 'm':
			form = Amachine;
			break;
		case 't':
			if (ownglob(o, optarg) != 0)
				return 2;
			break;
		case 'a':
			if (o->nagg == Naggopt) {
				fprintf(stderr, "devtrace aggs: more than %d -a\n", Naggopt);
				return 2;
			}
			o->aggt[o->nagg] = o->nglob > 0 ? o->nglob - 1 : 0;
			o->agg[o->nagg++] = optarg;
			break;
		case 'p':
			o->pred = optarg;
			break;
		default:
			return badopt("devtrace aggs", "tap", Usage, argv);
		}
	/* a trace of no aggregation would write records nobody reads */
	for (i = 0; i < o->nglob; i++) {
		for (rc = 0; rc < o->nagg && o->aggt[rc] != i; rc++)
			;
		if (rc == o->nagg) {
			fprintf(stderr, "devtrace aggs: -t '%s' needs an -a: what to aggregate\n%s", o->glob[i], Usage);
			return 2;
		}
	}
	if (o->nglob > 0 && optind == argc) {
		fprintf(stderr, "devtrace aggs: -t needs a program to watch: -- prog\n%s", Usage);
		return 2;
	}
	if (o->nglob > 0)
		return session(o, argv + optind, form);
	if ((rc = owncheck(o)) != 0)
		return rc;
	if (optind < argc) {
		fprintf(stderr, "devtrace aggs: unexpected argument '%s'\n%s", argv[optind], Usage);
		return 2;
	}
	s = attach();
	rc = show(s, form);
	shmunmap(s);
	return rc;
}
