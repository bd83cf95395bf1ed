/*
 * graph.c: devtrace graph FILE [GLOB], the call graph of a recording
 * as uftrace graph draws it: every path of calls from a root, the
 * calls on it merged, each with its count and total time.  The roots
 * are the calls of the functions GLOB matches that no root encloses,
 * or without GLOB each thread's bottom calls; a root function's calls
 * are one tree, whatever thread made them.  --callers GLOB: the
 * backtraces to GLOB's functions, each distinct one with its calls
 * and their time.  A node is made when a call enters (its count is of
 * calls entered); its time is of the calls that returned.  A call's
 * node (or backtrace) rides in its word of calls.c's (Call.aux).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/client.h"
#include "cmd/calls.h"
#include "dev/lib.h"

static const char Usage[] =
	"usage: devtrace graph [--callers] FILE [GLOB]\n"
	"  the call graph of FILE (a recording of devtrace record): each path of calls\n"
	"  below the functions GLOB matches (without GLOB: from each thread's bottom\n"
	"  calls), with its calls and their total time (ns through its #hz), indented\n"
	"  as uftrace graph draws it\n"
	"  --callers   the backtraces to GLOB's functions instead: each distinct chain\n"
	"              of callers with its calls and their time, most time first\n";

typedef struct Node Node;
struct Node {
	uint32_t fn;
	uint32_t parent;	/* index + 1; 0: a root */
	uint32_t child, last, next;	/* index + 1: the first and last child, the next sibling */
};

/* what each call of a node reads and counts, apart from the rest: half a cache line */
typedef struct Hits Hits;
struct Hits {
	uint32_t hit[2], hitfn[2];	/* the children found last and before (index + 1), and their functions: see seen */
	uint64_t calls, ticks;
};

/* a backtrace: the function, then its callers innermost first, in Graph.path */
typedef struct Trace Trace;
struct Trace {
	size_t off, len;
	uint64_t calls, ticks;
	size_t order;
};

typedef struct Graph Graph;
struct Graph {
	Calls *c;
	const char *glob;	/* nil: from each thread's bottom calls */
	signed char *match;	/* per function: 1 GLOB matches it, 0 not, -1 not known yet */
	uint32_t nmatch;
	Node *n;
	Hits *h;		/* per node */
	size_t nn, maxn;
	uint32_t *ix;		/* node or trace index + 1, by hash */
	size_t ixcap;
	uint32_t root, rootlast;	/* the first and last root, index + 1 */
	uint32_t *rootof;	/* per function: its root's node, index + 1 */
	uint32_t nrootof;
	Trace *t;
	size_t nt, maxt;
	uint32_t *path, *stack;
	size_t npath, maxpath, maxstack;
	uint64_t unfinished, orphans;
};

static int
nomem(void)
{
	fprintf(stderr, "devtrace graph: out of memory\n");
	return -1;
}

static int
matches(Graph *g, uint32_t fn)
{
	signed char *m;
	uint32_t n;

	if (fn >= g->nmatch) {
		n = callnfn(g->c) + 64;
		if ((m = realloc(g->match, n)) == NULL)
			return nomem();
		memset(m + g->nmatch, -1, n - g->nmatch);
		g->match = m;
		g->nmatch = n;
	}
	if (g->match[fn] < 0)
		g->match[fn] = globmatch(g->glob, callname(g->c, fn));
	return g->match[fn];
}

static uint64_t
hash(uint32_t parent, uint32_t fn)
{
	uint64_t x = ((uint64_t)parent << 32 | fn) * 0x9e3779b97f4a7c15ull;

	return x ^ x >> 31;
}

static size_t
nodeslot(Graph *g, uint32_t parent, uint32_t fn)
{
	size_t i;
	Node *n;

	for (i = hash(parent, fn) & (g->ixcap - 1); g->ix[i] != 0; i = (i + 1) & (g->ixcap - 1)) {
		n = &g->n[g->ix[i] - 1];
		if (n->parent == parent && n->fn == fn)
			break;
	}
	return i;
}

static int
nodegrow(Graph *g)
{
	size_t k;

	free(g->ix);
	g->ixcap = g->ixcap ? 2 * g->ixcap : 1024;
	if ((g->ix = calloc(g->ixcap, sizeof *g->ix)) == NULL)
		return -1;
	for (k = 0; k < g->nn; k++)
		g->ix[nodeslot(g, g->n[k].parent, g->n[k].fn)] = k + 1;
	return 0;
}

/*
 * fn's child of p (index + 1) if it is one of the two found last, kept
 * most recent first, else 0: a loop calls one or two functions again
 * and again, and the hash's probe misses the caches on a graph of many
 * nodes (most of the whole graph's time, bench/RESULTS).  Their
 * functions are kept here, so the child's node is not waited for.
 */
static uint32_t
seen(Hits *p, uint32_t fn)
{
	uint32_t k;

	if (p->hitfn[0] == fn && p->hit[0] != 0)
		return p->hit[0];
	if (p->hitfn[1] != fn || (k = p->hit[1]) == 0)
		return 0;
	p->hit[1] = p->hit[0];
	p->hitfn[1] = p->hitfn[0];
	p->hit[0] = k;
	p->hitfn[0] = fn;
	return k;
}

static void
remember(Hits *p, uint32_t k, uint32_t fn)
{
	p->hit[1] = p->hit[0];
	p->hitfn[1] = p->hitfn[0];
	p->hit[0] = k;
	p->hitfn[0] = fn;
}

/* fn's slot in rootof (its root's node, index + 1, or 0), grown to hold it: nil out of memory */
static uint32_t *
rootslot(Graph *g, uint32_t fn)
{
	uint32_t *r, n;

	if (fn >= g->nrootof) {
		n = callnfn(g->c) + 64;
		if ((r = realloc(g->rootof, n * sizeof *r)) == NULL)
			return NULL;
		memset(r + g->nrootof, 0, (n - g->nrootof) * sizeof *r);
		g->rootof = r;
		g->nrootof = n;
	}
	return &g->rootof[fn];
}

/* fn's node under parent (index + 1, 0 a root), made if new, appended to its siblings: index + 1, 0 out of memory */
static uint32_t
node(Graph *g, uint32_t parent, uint32_t fn)
{
	uint32_t *first, *last, *root = NULL, k;
	size_t i;
	Node *n;
	Hits *h;

	if (parent == 0 && (root = rootslot(g, fn)) == NULL)
		return 0;
	if ((k = parent ? seen(&g->h[parent - 1], fn) : *root) != 0)
		return k;
	if (2 * (g->nn + 1) > g->ixcap && nodegrow(g) < 0)
		return 0;
	if ((k = g->ix[i = nodeslot(g, parent, fn)]) != 0) {
		remember(&g->h[parent - 1], k, fn);	/* found: not a root (rootof has them all) */
		return k;
	}
	if (g->nn == g->maxn) {
		g->maxn = g->maxn ? 2 * g->maxn : 1024;
		if ((n = realloc(g->n, g->maxn * sizeof *n)) == NULL)
			return 0;
		g->n = n;
		if ((h = realloc(g->h, g->maxn * sizeof *h)) == NULL)
			return 0;
		g->h = h;
	}
	g->n[g->nn] = (Node){ .fn = fn, .parent = parent };
	g->h[g->nn] = (Hits){ { 0, 0 }, { 0, 0 }, 0, 0 };
	k = g->ix[i] = ++g->nn;
	first = parent ? &g->n[parent - 1].child : &g->root;
	last = parent ? &g->n[parent - 1].last : &g->rootlast;
	if (*first == 0)
		*first = k;
	else
		g->n[*last - 1].next = k;
	*last = k;
	if (parent != 0)
		remember(&g->h[parent - 1], k, fn);
	else
		*root = k;
	return k;
}

/* a call entered: its node, if it is in the graph */
static int
enter(Graph *g, const Call *k)
{
	uint32_t parent = k->upaux, n;
	int m = 0;
	Hits *h;

	if (parent == 0 && g->glob != NULL && (m = matches(g, k->fn)) <= 0)
		return m;
	if (parent == 0 && g->glob == NULL && !k->bottom)
		return 0;
	if ((n = node(g, parent, k->fn)) == 0)
		return nomem();
	*k->aux = n;
	h = &g->h[n - 1];
	h->calls++;
	/* its next call is likely one of these: fetched while the records between are read */
	if (h->hit[0] != 0)
		__builtin_prefetch(&g->h[h->hit[0] - 1], 1);
	if (h->hit[1] != 0)
		__builtin_prefetch(&g->h[h->hit[1] - 1], 1);
	return 0;
}

static uint64_t
pathhash(const uint32_t *p, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

/* --callers: the backtrace of a call of GLOB's function, made if new: index + 1, 0 out of memory */
static uint32_t
trace(Graph *g, const Call *k)
{
	uint64_t h;
	size_t len, i, j;
	uint32_t *v;
	Trace *t;
	int n;

	while ((n = callcallers(g->c, g->stack + 1, g->maxstack - 1)) >= (int)g->maxstack - 1 || g->maxstack == 0) {
		g->maxstack = 2 * (n + 1) + 64;
		if ((v = realloc(g->stack, g->maxstack * sizeof *v)) == NULL)
			return 0;
		g->stack = v;
	}
	g->stack[0] = k->fn;
	len = n + 1;
	h = pathhash(g->stack, len);
	if (2 * (g->nt + 1) > g->ixcap) {
		free(g->ix);
		g->ixcap = g->ixcap ? 2 * g->ixcap : 1024;
		if ((g->ix = calloc(g->ixcap, sizeof *g->ix)) == NULL)
			return 0;
		for (j = 0; j < g->nt; j++) {
			for (i = pathhash(&g->path[g->t[j].off], g->t[j].len) & (g->ixcap - 1); g->ix[i] != 0; i = (i + 1) & (g->ixcap - 1))
				;
			g->ix[i] = j + 1;
		}
	}
	for (i = h & (g->ixcap - 1); g->ix[i] != 0; i = (i + 1) & (g->ixcap - 1)) {
		t = &g->t[g->ix[i] - 1];
		if (t->len == len && memcmp(&g->path[t->off], g->stack, len * sizeof *g->stack) == 0)
			return g->ix[i];
	}
	if (g->nt == g->maxt) {
		g->maxt = g->maxt ? 2 * g->maxt : 256;
		if ((t = realloc(g->t, g->maxt * sizeof *t)) == NULL)
			return 0;
		g->t = t;
	}
	if (g->npath + len > g->maxpath) {
		g->maxpath = 2 * (g->npath + len) + 1024;
		if ((v = realloc(g->path, g->maxpath * sizeof *v)) == NULL)
			return 0;
		g->path = v;
	}
	memcpy(&g->path[g->npath], g->stack, len * sizeof *g->stack);
	g->t[g->nt] = (Trace){ .off = g->npath, .len = len, .order = g->nt };
	g->npath += len;
	g->ix[i] = ++g->nt;
	return g->nt;
}

static int
callers(Graph *g, const Call *k)
{
	uint32_t t;
	int m;

	if ((m = matches(g, k->fn)) <= 0)
		return m;
	if ((t = trace(g, k)) == 0)
		return nomem();
	g->t[t - 1].calls++;
	*k->aux = t;
	return 0;
}

/* one event into the graph (or the backtraces): 0, or -1 out of memory (told) */
static int
take(Graph *g, const Call *k, int bt)
{
	switch (k->kind) {
	case Centry:
		return bt ? callers(g, k) : enter(g, k);
	case Cexit:
		if (*k->aux == 0)
			return 0;
		if (bt)
			g->t[*k->aux - 1].ticks += k->dur;
		else
			g->h[*k->aux - 1].ticks += k->dur;
		return 0;
	case Cnoexit:
		g->unfinished += *k->aux != 0;
		return 0;
	case Cnoentry:
		g->orphans++;
		return 0;
	}
	return 0;
}

/* node n (index + 1) and below: "TIME : PREFIX+-(CALLS) NAME" */
static void
draw(Graph *g, uint32_t n, char *prefix, size_t len, size_t max)
{
	Node *v = &g->n[n - 1];
	uint32_t k;

	printf("%14.0f : %.*s%s(%llu) %s\n", callns(g->c, g->h[n - 1].ticks), (int)len, prefix, v->parent ? "+-" : "",
		(unsigned long long)g->h[n - 1].calls, callname(g->c, v->fn));
	if (len + 2 >= max)
		return;
	for (k = v->child; k != 0; k = g->n[k - 1].next) {
		/* below a node with a later sibling: its line goes on */
		memcpy(prefix + len, v->parent == 0 ? " " : v->next ? "| " : "  ", v->parent == 0 ? 1 : 2);
		draw(g, k, prefix, len + (v->parent == 0 ? 1 : 2), max);
	}
}

static int
bytime(const void *a, const void *b)
{
	const Trace *x = a, *y = b;

	if (x->ticks != y->ticks)
		return x->ticks > y->ticks ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void
footer(Graph *g)
{
	printf("# times in %s", callunit(g->c));
	if (g->unfinished || g->orphans)
		printf("; calls without exit %llu (counted, no time), exits without entry %llu (not drawn)",
			(unsigned long long)g->unfinished, (unsigned long long)g->orphans);
	printf("\n");
}

static void
backtraces(Graph *g)
{
	size_t i, j;
	Trace *t;

	qsort(g->t, g->nt, sizeof *g->t, bytime);
	for (i = 0; i < g->nt; i++) {
		t = &g->t[i];
		printf("backtrace #%zu: calls %llu, time %.0f\n", i, (unsigned long long)t->calls, callns(g->c, t->ticks));
		for (j = 0; j < t->len; j++)
			printf("  [%zu] %s\n", j, callname(g->c, g->path[t->off + j]));
	}
	footer(g);
}

static void
graph(Graph *g)
{
	static char prefix[4096];
	uint32_t r;

	printf("%14s : %s\n", "TOTAL TIME", "FUNCTION");
	for (r = g->root; r != 0; r = g->n[r - 1].next) {
		if (r != g->root)
			printf("%14s :\n", "");
		draw(g, r, prefix, 0, sizeof prefix);
	}
	footer(g);
}

int
xgraph(Cmd *c, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "callers", no_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	Graph g = { 0 };
	int ch, bt = 0, rc;
	Call k;

	(void)c;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "h", lo, NULL)) != -1)
		switch (ch) {
		case 'h':
			printf("%s", Usage);
			return 0;
		case 'C':
			bt = 1;
			break;
		default:
			return badopt("devtrace graph", "", Usage, argv);
		}
	if (optind == argc || argc - optind > 2 || (bt && argc - optind != 2)) {
		fprintf(stderr, "devtrace graph: %s\n%s", optind == argc ? "no FILE (a recording of devtrace record)" :
			bt && argc - optind == 1 ? "--callers needs a GLOB: the functions to trace back from" : "FILE and one GLOB at most", Usage);
		return 2;
	}
	g.glob = argc - optind == 2 ? argv[optind + 1] : NULL;
	if ((g.c = callsopen(argv[optind], "devtrace graph")) == NULL)
		return 1;
	while ((rc = callnext(g.c, &k)) > 0)
		if ((rc = take(&g, &k, bt)) < 0)
			break;
	if (rc == 0 && g.glob != NULL && g.nn == 0 && g.nt == 0) {
		fprintf(stderr, "devtrace graph: no call of a function matching '%s' in %s\n", g.glob, argv[optind]);
		rc = 1;
	} else if (rc == 0) {
		if (bt)
			backtraces(&g);
		else
			graph(&g);
		rc = callsend(g.c);
	} else
		rc = 1;
	callsclose(g.c);
	free(g.match);
	free(g.n);
	free(g.h);
	free(g.ix);
	free(g.rootof);
	free(g.t);
	free(g.path);
	free(g.stack);
	return rc;
}
