/*
 * report.c: devtrace report FILE, per function of a recording its
 * calls and their total, self, min, avg and max times, as
 * scripts/report prints them from the text (the same columns, rows and
 * footer), read from the binary through calls.c: tens of millions of
 * records a second, where the text pipeline does a few hundred
 * thousand.  TOTAL counts a recursive function's outermost calls only
 * (its inner ones are inside them); AVG, MIN and MAX are of every call.
 * --threads: a row per thread and function; --diff G: FILE and G side
 * by side, by function name.  Times are on the program's clock
 * (calls.h): the tracer's waits are taken out, and a last line
 * says how much that was (none: no line, as scripts/report).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/client.h"
#include "cmd/calls.h"

enum { Ktotal, Kself, Kcalls, Kmin, Kavg, Kmax, Kname, Nkey };

static const char *keyname[Nkey] = { "total", "self", "calls", "min", "avg", "max", "name" };

static const char Usage[] =
	"usage: devtrace report [-s KEY] [--threads] [--diff G] FILE\n"
	"  per function of FILE (a recording of devtrace record): CALLS, and TOTAL, SELF,\n"
	"  MIN, AVG and MAX time (ns through its #hz), as scripts/report prints them\n"
	"  -s KEY      sort by total (the default), self, calls, min, avg, max (largest\n"
	"              first) or name\n"
	"  --threads   a row per thread and function, by thread\n"
	"  --diff G    FILE and the recording G side by side: each of TOTAL, SELF and\n"
	"              CALLS in FILE (1) and G (2), the change and its percent; a function\n"
	"              in one alone: '-' in the other, 'new' or 'gone'; sorted by the\n"
	"              change of KEY, largest first\n"
	"  times on the program's clock: a thread's tracer waits (for the reader\n"
	"  under policy block, for its ring's next pages) taken out; a last line\n"
	"  says how much was waited\n";

typedef struct Stat Stat;
struct Stat {
	uint32_t tid, fn;
	int probe;		/* a static probe's hits, not calls */
	uint64_t calls;		/* returned calls, or hits */
	uint64_t tot, sum, self, min, max;	/* ticks; tot: outermost calls only */
	const char *name;
};

typedef struct Tab Tab;
struct Tab {
	Calls *c;
	int threads;
	double scale;		/* ns a tick */
	Stat *s;
	size_t n, max;
	uint32_t *ix;		/* index + 1, by key's hash */
	size_t ixcap;
	uint32_t *byfn;		/* without --threads: a function's row index + 1, by its number (no hash) */
	uint32_t nbyfn;
	uint64_t unfinished, orphans;
};

static uint64_t
keyhash(uint32_t tid, uint32_t fn, int probe)
{
	uint64_t x = ((uint64_t)tid << 32 | fn) * 0x9e3779b97f4a7c15ull;

	return (x ^ x >> 29) + probe;
}

static size_t
slot(Tab *t, uint32_t tid, uint32_t fn, int probe)
{
	size_t i;
	Stat *s;

	for (i = keyhash(tid, fn, probe) & (t->ixcap - 1); t->ix[i] != 0; i = (i + 1) & (t->ixcap - 1)) {
		s = &t->s[t->ix[i] - 1];
		if (s->tid == tid && s->fn == fn && s->probe == probe)
			break;
	}
	return i;
}

static int
grow(Tab *t)
{
	size_t k;

	free(t->ix);
	t->ixcap = t->ixcap ? 2 * t->ixcap : 1024;
	if ((t->ix = calloc(t->ixcap, sizeof *t->ix)) == NULL)
		return -1;
	for (k = 0; k < t->n; k++)
		t->ix[slot(t, t->s[k].tid, t->s[k].fn, t->s[k].probe)] = k + 1;
	return 0;
}

/* room in byfn for fn */
static int
byfn(Tab *t, uint32_t fn)
{
	uint32_t n, *v;

	if (fn < t->nbyfn)
		return 0;
	for (n = t->nbyfn ? t->nbyfn : 256; n <= fn; n *= 2)
		;
	if ((v = realloc(t->byfn, n * sizeof *v)) == NULL)
		return -1;
	memset(v + t->nbyfn, 0, (n - t->nbyfn) * sizeof *v);
	t->byfn = v;
	t->nbyfn = n;
	return 0;
}

/* the row of fn (in tid, with --threads), made if new; nil out of memory */
static Stat *
row(Tab *t, uint32_t tid, uint32_t fn, int probe)
{
	size_t i;
	Stat *s;

	if (!t->threads)
		tid = 0;
	if (!t->threads && !probe && fn < t->nbyfn && t->byfn[fn] != 0)
		return &t->s[t->byfn[fn] - 1];
	if (2 * (t->n + 1) > t->ixcap && grow(t) < 0)
		return NULL;
	if (t->ix[i = slot(t, tid, fn, probe)] != 0)
		return &t->s[t->ix[i] - 1];
	if (!t->threads && !probe && byfn(t, fn) < 0)
		return NULL;
	if (t->n == t->max) {
		t->max = t->max ? 2 * t->max : 256;
		if ((s = realloc(t->s, t->max * sizeof *s)) == NULL)
			return NULL;
		t->s = s;
	}
	t->s[t->n] = (Stat){ .tid = tid, .fn = fn, .probe = probe, .min = ~0ull };
	t->ix[i] = ++t->n;
	if (!t->threads && !probe)
		t->byfn[fn] = t->n;
	return &t->s[t->n - 1];
}

static int
add(Tab *t, const Call *k)
{
	Stat *s;

	switch (k->kind) {
	case Cnoexit:
		t->unfinished++;
		return 0;
	case Cnoentry:
		t->orphans++;
		return 0;
	case Cprobe:
		if ((s = row(t, k->tid, k->fn, 1)) == NULL)
			return -1;
		s->calls++;
		return 0;
	case Cexit:
		if ((s = row(t, k->tid, k->fn, 0)) == NULL)
			return -1;
		s->calls++;
		s->sum += k->dur;
		s->self += k->self;
		if (k->outer)
			s->tot += k->dur;
		if (k->dur < s->min)
			s->min = k->dur;
		if (k->dur > s->max)
			s->max = k->dur;
	}
	return 0;
}

/* FILE read whole into t: 0, or 1 (told) */
static int
readtab(Tab *t, const char *path, int threads)
{
	Call k;
	size_t i;
	int rc;

	memset(t, 0, sizeof *t);
	t->threads = threads;
	if ((t->c = callsopen(path, "devtrace report")) == NULL)
		return 1;
	t->scale = callns(t->c, 1);
	while ((rc = callnext(t->c, &k)) > 0)
		if (add(t, &k) < 0) {
			fprintf(stderr, "devtrace report: out of memory\n");
			return 1;
		}
	for (i = 0; i < t->n; i++)
		t->s[i].name = callname(t->c, t->s[i].fn);
	return rc < 0 || callsend(t->c);
}

static void
freetab(Tab *t)
{
	callsclose(t->c);
	free(t->s);
	free(t->ix);
	free(t->byfn);
}

/* a stat's value under a sort key, in ticks (avg: a mean) */
static double
value(const Stat *s, int key)
{
	switch (key) {
	case Ktotal: return s->tot;
	case Kself: return s->self;
	case Kcalls: return s->calls;
	case Kmin: return s->min;
	case Kavg: return (double)s->sum / s->calls;
	case Kmax: return s->max;
	}
	return 0;
}

static int sortkey;

/* by thread (--threads), probes after functions, then largest first (names: a to z), then by name */
static int
bykey(const void *a, const void *b)
{
	const Stat *x = a, *y = b;
	double u, v;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->probe != y->probe)
		return x->probe - y->probe;
	u = x->probe ? x->calls : value(x, sortkey);
	v = y->probe ? y->calls : value(y, sortkey);
	if (sortkey != Kname && u != v)
		return u > v ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* a table of cells, columns as wide as their widest; align: 'l' or 'r' a column */
typedef struct Table Table;
struct Table {
	char **cell;
	size_t ncol, nrow, max;
	const char *align;
};

/* cells are added a row at a time: n counts them */
static int
cells(Table *tb, size_t *n, const char *s)
{
	char **v;

	if (*n == tb->max) {
		tb->max = tb->max ? 2 * tb->max : 256;
		if ((v = realloc(tb->cell, tb->max * sizeof *v)) == NULL)
			return -1;
		tb->cell = v;
	}
	if ((tb->cell[*n] = strdup(s)) == NULL)
		return -1;
	++*n;
	if (*n % tb->ncol == 0)
		tb->nrow++;
	return 0;
}

static void
tableprint(Table *tb)
{
	size_t w[16] = { 0 }, r, j, l;
	char *s;

	for (r = 0; r < tb->nrow; r++)
		for (j = 0; j < tb->ncol; j++)
			if ((l = strlen(tb->cell[r * tb->ncol + j])) > w[j])
				w[j] = l;
	for (r = 0; r < tb->nrow; r++)
		for (j = 0; j < tb->ncol; j++) {
			s = tb->cell[r * tb->ncol + j];
			l = j + 1 == tb->ncol && tb->align[j] == 'l' ? 0 : w[j];	/* no trailing blanks */
			printf(tb->align[j] == 'l' ? "%-*s%s" : "%*s%s", (int)l, s, j + 1 < tb->ncol ? "  " : "\n");
		}
	for (r = 0; r < tb->nrow * tb->ncol; r++)
		free(tb->cell[r]);
	free(tb->cell);
}

static void
ns(char *buf, size_t n, double ticks, double scale)
{
	snprintf(buf, n, "%.0f", ticks * scale);
}

/* the waits taken out of t's times, a line after the table's; none: nothing (scripts/report's line) */
static void
waits(Tab *t, const char *which)
{
	uint64_t n, w = callwaited(t->c, &n);
	char v[32];

	if (n == 0)
		return;
	ns(v, sizeof v, w, t->scale);
	printf("# %swaited %s %s in %llu tracer wait%s, taken out of the times\n",
		which, v, callunit(t->c), (unsigned long long)n, n == 1 ? "" : "s");
}

/* the rows of one recording, scripts/report's columns (a TID first with --threads) */
static int
report(Tab *t)
{
	static const char *hdr[] = { "TID", "FUNCTION", "CALLS", "TOTAL", "SELF", "MIN", "AVG", "MAX" };
	Table tb = { .ncol = t->threads ? 8 : 7, .align = t->threads ? "rlrrrrrr" : "lrrrrrr" };
	char v[8][32];
	size_t i, j, n = 0;
	Stat *s;
	int bad = 0;

	if (t->n == 0 && t->unfinished == 0 && t->orphans == 0)
		return 0;
	qsort(t->s, t->n, sizeof t->s[0], bykey);
	for (j = !t->threads; j < 8; j++)
		bad |= cells(&tb, &n, hdr[j]);
	for (i = 0; i < t->n; i++) {
		s = &t->s[i];
		snprintf(v[0], sizeof v[0], "%u", s->tid);
		snprintf(v[2], sizeof v[2], "%llu", (unsigned long long)s->calls);
		if (s->probe)
			for (j = 3; j < 8; j++)
				strcpy(v[j], "-");
		else {
			ns(v[3], sizeof v[3], s->tot, t->scale);
			ns(v[4], sizeof v[4], s->self, t->scale);
			ns(v[5], sizeof v[5], s->min, t->scale);
			ns(v[6], sizeof v[6], (double)s->sum / s->calls, t->scale);
			ns(v[7], sizeof v[7], s->max, t->scale);
		}
		for (j = !t->threads; j < 8; j++)
			bad |= cells(&tb, &n, j == 1 ? s->name : v[j]);
	}
	if (bad) {
		fprintf(stderr, "devtrace report: out of memory\n");
		return 1;
	}
	tableprint(&tb);
	printf("# times in %s", callunit(t->c));
	if (t->unfinished || t->orphans)
		printf("; not counted: unfinished calls %llu, exits without entry %llu",
			(unsigned long long)t->unfinished, (unsigned long long)t->orphans);
	printf("\n");
	waits(t, "");
	return 0;
}

/* one function's values in both, for --diff; a side it is not in: nil */
typedef struct Pair Pair;
struct Pair {
	const Stat *a, *b;
};

static double
change(const Pair *p, int key)
{
	return (p->b ? value(p->b, key) : 0) - (p->a ? value(p->a, key) : 0);
}

static int
bychange(const void *x, const void *y)
{
	const Pair *p = x, *q = y;
	const char *n = p->a ? p->a->name : p->b->name, *m = q->a ? q->a->name : q->b->name;
	double u, v;

	if (sortkey != Kname) {
		u = change(p, sortkey);
		v = change(q, sortkey);
		u = u < 0 ? -u : u;
		v = v < 0 ? -v : v;
		if (u != v)
			return u > v ? -1 : 1;
	}
	return strcmp(n, m);
}

static int
byname(const void *a, const void *b)
{
	const Stat *x = a, *y = b;

	if (x->probe != y->probe)
		return x->probe - y->probe;
	return strcmp(x->name, y->name);
}

/* a value of one side as text: ns (calls: a count), "-" if absent */
static void
side(char *buf, size_t n, const Stat *s, int key, double scale)
{
	if (s == NULL)
		snprintf(buf, n, "-");
	else if (key == Kcalls)
		snprintf(buf, n, "%llu", (unsigned long long)s->calls);
	else
		ns(buf, n, value(s, key), scale);
}

static void
delta(char *d, char *pct, size_t n, const Pair *p, int key, double sa, double sb)
{
	double a = p->a ? value(p->a, key) * (key == Kcalls ? 1 : sa) : 0;
	double b = p->b ? value(p->b, key) * (key == Kcalls ? 1 : sb) : 0;

	snprintf(d, n, "%+.0f", b - a);
	if (p->a == NULL)
		snprintf(pct, n, "new");
	else if (p->b == NULL)
		snprintf(pct, n, "gone");
	else if (a == 0)
		snprintf(pct, n, "%s", b == 0 ? "+0.0%" : "-");
	else
		snprintf(pct, n, "%+.1f%%", (b - a) / a * 100);
}

/* the functions of a and b, matched by name */
static Pair *
pairs(Tab *a, Tab *b, size_t *np)
{
	size_t i = 0, j = 0, n = 0;
	Pair *p;
	int c;

	if ((p = calloc(a->n + b->n + 1, sizeof *p)) == NULL)
		return NULL;
	qsort(a->s, a->n, sizeof a->s[0], byname);
	qsort(b->s, b->n, sizeof b->s[0], byname);
	while (i < a->n || j < b->n) {
		if (i == a->n)
			c = 1;
		else if (j == b->n)
			c = -1;
		else if ((c = a->s[i].probe - b->s[j].probe) == 0)
			c = strcmp(a->s[i].name, b->s[j].name);
		p[n].a = c <= 0 ? &a->s[i++] : NULL;
		p[n].b = c >= 0 ? &b->s[j++] : NULL;
		if (!(p[n].a ? p[n].a : p[n].b)->probe)
			n++;
	}
	*np = n;
	return p;
}

static int
diff(Tab *a, Tab *b, const char *fa, const char *fb)
{
	static const char *hdr[] = { "FUNCTION", "TOTAL1", "TOTAL2", "DIFF", "%", "SELF1", "SELF2", "DIFF", "%", "CALLS1", "CALLS2", "DIFF", "%" };
	static const int keys[] = { Ktotal, Kself, Kcalls };
	Table tb = { .ncol = 13, .align = "lrrrrrrrrrrrr" };
	char v1[32], v2[32], d[32], pct[32];
	size_t i, j, np, n = 0;
	Pair *p;
	int bad = 0;

	if ((p = pairs(a, b, &np)) == NULL) {
		fprintf(stderr, "devtrace report: out of memory\n");
		return 1;
	}
	qsort(p, np, sizeof *p, bychange);
	for (j = 0; j < 13; j++)
		bad |= cells(&tb, &n, hdr[j]);
	for (i = 0; i < np; i++) {
		bad |= cells(&tb, &n, p[i].a ? p[i].a->name : p[i].b->name);
		for (j = 0; j < 3; j++) {
			side(v1, sizeof v1, p[i].a, keys[j], a->scale);
			side(v2, sizeof v2, p[i].b, keys[j], b->scale);
			delta(d, pct, sizeof d, &p[i], keys[j], a->scale, b->scale);
			bad |= cells(&tb, &n, v1) | cells(&tb, &n, v2) | cells(&tb, &n, d) | cells(&tb, &n, pct);
		}
	}
	free(p);
	if (bad) {
		fprintf(stderr, "devtrace report: out of memory\n");
		return 1;
	}
	tableprint(&tb);
	printf("# times in %s; 1: %s, 2: %s\n", callunit(a->c), fa, fb);
	waits(a, "1: ");
	waits(b, "2: ");
	return 0;
}

static int
parsekey(const char *s)
{
	int k;

	for (k = 0; k < Nkey; k++)
		if (strcmp(s, keyname[k]) == 0)
			return k;
	fprintf(stderr, "devtrace report: unknown sort key '%s': one of total, self, calls, min, avg, max, name\n", s);
	return -1;
}

int
xreport(Cmd *c, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "sort", required_argument, NULL, 's' },
		{ "threads", no_argument, NULL, 'T' },
		{ "diff", required_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	const char *other = NULL;
	int ch, threads = 0, rc;
	Tab a, b;

	(void)c;
	opterr = 0;
	sortkey = Ktotal;
	while ((ch = getopt_long(argc, argv, "hs:", lo, NULL)) != -1)
		switch (ch) {
		case 'h':
			printf("%s", Usage);
			return 0;
		case 's':
			if ((sortkey = parsekey(optarg)) < 0)
				return 2;
			break;
		case 'T':
			threads = 1;
			break;
		case 'D':
			other = optarg;
			break;
		default:
			return badopt("devtrace report", "s", Usage, argv);
		}
	if (optind + 1 != argc) {
		fprintf(stderr, "devtrace report: %s\n%s", optind == argc ? "no FILE (a recording of devtrace record)" : "one FILE only (two: FILE --diff G)", Usage);
		return 2;
	}
	if (threads && other != NULL) {
		fprintf(stderr, "devtrace report: --threads and --diff: one at a time\n%s", Usage);
		return 2;
	}
	rc = readtab(&a, argv[optind], threads);
	if (rc == 0 && other == NULL)
		rc = report(&a);
	else if (rc == 0) {
		rc = readtab(&b, other, 0);
		if (rc == 0)
			rc = diff(&a, &b, argv[optind], other);
		freetab(&b);
	}
	freetab(&a);
	return rc;
}
