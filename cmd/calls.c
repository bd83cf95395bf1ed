/*
 * calls.c: a recording as whole calls (calls.h).  Two tables make it
 * fast: the pcs' function numbers (open addressing, the last pc kept,
 * since a run of records is mostly one function's) and the threads
 * (the same).  A thread's stack is an array of frames; an exit scans
 * it from the top, as lib.awk's callfind does, and is found at once in
 * a trace that lost nothing.  The program's clock (calls.h) is kept
 * here alone, so that every command reading calls has it: a thread
 * keeps the sum of its waits, and a record of a thread that has waited
 * is copied with its ticks less that sum (one that never waited costs
 * a compare).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/calls.h"
#include "cmd/capfile.h"
#include "dev/lib.h"

enum {
	Nbatch = 4096,	/* records taken from the reader at once */
	Hexlen = 17,	/* an unnamed pc's name: 16 hex digits */
};

typedef struct Frame Frame;
struct Frame {
	uint32_t fn;
	uint64_t start;
	uint64_t sc;		/* its returned callees' ticks */
	uint64_t aux;
};

typedef struct Thread Thread;
struct Thread {
	uint32_t tid;
	Frame *f;
	int n, max;
	int base;		/* the depth of frame 0 */
	uint32_t num;		/* its number + 1, given at its first event (a wait is none); 0: none yet */
	uint64_t waited;	/* its waits' ticks so far: its records' ticks less this are the program's clock */
	uint64_t last;		/* its last record's ticks (a wait's not): where its open calls end at the end */
	uint32_t *act;		/* per function, its calls open in this thread */
	uint32_t nact;
};

struct Calls {
	Capfile *f;
	const char *who;
	double scale;		/* ns a tick; 1 without #hz */
	/* names, numbered; the pcs' numbers */
	char **name;
	uint32_t nname, maxname;
	uint32_t *nameix;	/* a name's number + 1 by its hash; 0 free */
	uint32_t nameixcap;
	uint64_t *pc;		/* pc + 1; 0 free */
	uint32_t *pcfn;
	uint32_t npc, pccap;
	uint64_t lastpc;
	uint32_t lastfn;
	/* threads, in the order first seen; their numbers by tid */
	Thread *t;
	uint32_t nt, maxt;
	uint32_t *tix;		/* a thread's index + 1 by tid's hash; 0 free */
	uint32_t tixcap;
	uint32_t lasttid, lastt;
	uint32_t nnum;		/* threads numbered so far */
	/* the tracer's waits (Kwait): their ticks, their number */
	uint64_t waited, nwait;
	/* the records */
	const Rec *r;
	size_t nr, ri;
	Rec shifted;		/* the record being read, on the program's clock, when its thread has waited */
	/* an exit being matched: frames above pk go first */
	int pend;
	const Rec *prec;
	Thread *pt;
	int pk;
	/* the end: threads' open calls, thread by thread */
	int ending;
	uint32_t endt;
	/* the last event: its thread's frames below it (callcallers) */
	Thread *lt;
	int below;
};

static uint64_t
mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static int
nomem(Calls *c)
{
	fprintf(stderr, "%s: out of memory\n", c->who);
	return -1;
}

/* the name's number, made if new: -1 out of memory */
static int64_t
nameid(Calls *c, const char *s)
{
	uint32_t i, *ix, cap, k;
	char *d;
	char **v;

	if (2 * (c->nname + 1) > c->nameixcap) {
		cap = c->nameixcap ? 2 * c->nameixcap : 1024;
		if ((ix = calloc(cap, sizeof *ix)) == NULL)
			return -1;
		for (k = 0; k < c->nname; k++) {
			for (i = strhash(c->name[k]) & (cap - 1); ix[i] != 0; i = (i + 1) & (cap - 1))
				;
			ix[i] = k + 1;
		}
		free(c->nameix);
		c->nameix = ix;
		c->nameixcap = cap;
	}
	for (i = strhash(s) & (c->nameixcap - 1); c->nameix[i] != 0; i = (i + 1) & (c->nameixcap - 1))
		if (strcmp(c->name[c->nameix[i] - 1], s) == 0)
			return c->nameix[i] - 1;
	if (c->nname == c->maxname) {
		c->maxname = c->maxname ? 2 * c->maxname : 256;
		if ((v = realloc(c->name, c->maxname * sizeof *v)) == NULL)
			return -1;
		c->name = v;
	}
	if ((d = strdup(s)) == NULL)
		return -1;
	c->name[c->nname] = d;
	c->nameix[i] = c->nname + 1;
	return c->nname++;
}

/* the slot of pc in the table, its own or the free one it would take */
static uint32_t
pcslot(Calls *c, uint64_t pc)
{
	uint32_t i;

	for (i = mix(pc) & (c->pccap - 1); c->pc[i] != 0 && c->pc[i] != pc + 1; i = (i + 1) & (c->pccap - 1))
		;
	return i;
}

static int
pcgrow(Calls *c)
{
	uint64_t *pc = c->pc;
	uint32_t *fn = c->pcfn, cap = c->pccap, i, j;

	c->pccap = cap ? 2 * cap : 1024;
	c->pc = calloc(c->pccap, sizeof *c->pc);
	c->pcfn = calloc(c->pccap, sizeof *c->pcfn);
	if (c->pc == NULL || c->pcfn == NULL)
		return -1;
	for (i = 0; i < cap; i++)
		if (pc[i] != 0) {
			j = pcslot(c, pc[i] - 1);
			c->pc[j] = pc[i];
			c->pcfn[j] = fn[i];
		}
	free(pc);
	free(fn);
	return 0;
}

/* pc named fn (a later line for the same pc wins, as scripts/name has it) */
static int
pcset(Calls *c, uint64_t pc, uint32_t fn)
{
	uint32_t i;

	if (2 * (c->npc + 1) > c->pccap && pcgrow(c) < 0)
		return -1;
	i = pcslot(c, pc);
	if (c->pc[i] == 0)
		c->npc++;
	c->pc[i] = pc + 1;
	c->pcfn[i] = fn;
	return 0;
}

/* pc's function: its name's, else its hex's: -1 out of memory */
static int64_t
pcfn(Calls *c, uint64_t pc)
{
	char hex[Hexlen];
	int64_t fn;
	uint32_t i;

	if (pc == c->lastpc && c->npc > 0)
		return c->lastfn;
	if (c->pccap > 0 && c->pc[i = pcslot(c, pc)] != 0)
		fn = c->pcfn[i];
	else {
		snprintf(hex, sizeof hex, "%016llx", (unsigned long long)pc);
		if ((fn = nameid(c, hex)) < 0 || pcset(c, pc, fn) < 0)
			return -1;
	}
	c->lastpc = pc;
	c->lastfn = fn;
	return fn;
}

/* PATH.syms: "pc name object" lines; none is no error (pcs stay hex) */
static int
readsyms(Calls *c, const char *path)
{
	char *p, *line = NULL, *nm;
	unsigned long long pc;
	size_t cap = 0;
	int at;
	int64_t fn;
	FILE *f;
	int rc = 0;

	if ((p = malloc(strlen(path) + 6)) == NULL)
		return nomem(c);
	sprintf(p, "%s.syms", path);
	if ((f = fopen(p, "r")) == NULL) {
		if (errno != ENOENT) {
			fprintf(stderr, "%s: %s: %s\n", c->who, p, strerror(errno));
			rc = -1;
		}
		free(p);
		return rc;
	}
	while (rc == 0 && getline(&line, &cap, f) > 0) {
		/* the name whole, however long (C++'s): scripts/name's */
		at = 0;
		if (line[0] == '#' || sscanf(line, "%llx %n", &pc, &at) != 1 || at == 0)
			continue;
		nm = line + at;
		nm[strcspn(nm, " \t\n")] = 0;
		if (*nm == 0)
			continue;
		if ((fn = nameid(c, nm)) < 0 || pcset(c, pc, fn) < 0)
			rc = nomem(c);
	}
	free(line);
	fclose(f);
	free(p);
	return rc;
}

Calls *
callsopen(const char *path, const char *who)
{
	Calls *c;

	if ((c = calloc(1, sizeof *c)) == NULL) {
		fprintf(stderr, "%s: out of memory\n", who);
		return NULL;
	}
	c->who = who;
	if ((c->f = capopen(path, who)) == NULL || readsyms(c, path) < 0) {
		callsclose(c);
		return NULL;
	}
	c->scale = caphz(c->f) ? 1e9 / (double)caphz(c->f) : 1;
	return c;
}

static uint32_t
tidslot(Calls *c, uint32_t tid)
{
	uint32_t i;

	for (i = mix(tid) & (c->tixcap - 1); c->tix[i] != 0 && c->t[c->tix[i] - 1].tid != tid; i = (i + 1) & (c->tixcap - 1))
		;
	return i;
}

static int
tidgrow(Calls *c)
{
	uint32_t k;

	free(c->tix);
	c->tixcap = c->tixcap ? 2 * c->tixcap : 256;
	if ((c->tix = calloc(c->tixcap, sizeof *c->tix)) == NULL)
		return -1;
	for (k = 0; k < c->nt; k++)
		c->tix[tidslot(c, c->t[k].tid)] = k + 1;
	return 0;
}

/* tid's thread, made if new; nil out of memory */
static Thread *
thread(Calls *c, uint32_t tid)
{
	uint32_t i;
	Thread *t;

	if (c->nt > 0 && tid == c->lasttid)
		return &c->t[c->lastt];
	if (2 * (c->nt + 1) > c->tixcap && tidgrow(c) < 0)
		return NULL;
	if (c->tix[i = tidslot(c, tid)] == 0) {
		if (c->nt == c->maxt) {
			c->maxt = c->maxt ? 2 * c->maxt : 64;
			if ((t = realloc(c->t, c->maxt * sizeof *t)) == NULL)
				return NULL;
			c->t = t;
		}
		memset(&c->t[c->nt], 0, sizeof c->t[0]);
		c->t[c->nt].tid = tid;
		c->tix[i] = ++c->nt;
	}
	c->lasttid = tid;
	c->lastt = c->tix[i] - 1;
	return &c->t[c->lastt];
}

static int
push(Thread *t, uint32_t fn, const Rec *r)
{
	uint32_t n, *a;
	Frame *f;

	if (t->n == t->max) {
		t->max = t->max ? 2 * t->max : 64;
		if ((f = realloc(t->f, t->max * sizeof *f)) == NULL)
			return -1;
		t->f = f;
	}
	if (fn >= t->nact) {
		for (n = t->nact ? t->nact : 64; n <= fn; n *= 2)
			;
		if ((a = realloc(t->act, n * sizeof *a)) == NULL)
			return -1;
		memset(a + t->nact, 0, (n - t->nact) * sizeof *a);
		t->act = a;
		t->nact = n;
	}
	t->act[fn]++;
	t->f[t->n++] = (Frame){ fn, r->ticks, 0, 0 };
	return 0;
}

/* the top frame of t popped into k: by the exit r, or with none (nil), ended at the ticks end */
static void
pop(Calls *c, Thread *t, const Rec *r, uint64_t end, Call *k)
{
	Frame *f = &t->f[--t->n];

	/* field by field: a compound literal would clear the whole Call each time, a fifth of the cost */
	k->kind = r ? Cexit : Cnoexit;
	k->fn = f->fn;
	k->tid = t->tid;
	k->thread = t->num - 1;
	k->depth = t->base + t->n;
	k->outer = --t->act[f->fn] == 0;
	k->start = f->start;
	k->rec = r;
	k->aux = &f->aux;
	k->upaux = t->n > 0 ? t->f[t->n - 1].aux : 0;
	k->bottom = t->n == 0;
	k->end = end;
	k->atend = c->ending;
	if (r != NULL) {
		k->dur = r->ticks - f->start;
		k->self = k->dur - f->sc;
		if (t->n > 0)
			t->f[t->n - 1].sc += k->dur;
	}
	c->lt = t;
	c->below = t->n;
}

/* the frame of fn nearest the top, or -1 */
static int
find(Thread *t, uint32_t fn)
{
	int i;

	if (fn >= t->nact || t->act[fn] == 0)
		return -1;
	for (i = t->n - 1; t->f[i].fn != fn; i--)
		;
	return i;
}

/* one record as its first event, or the first of its exit's pops; a wait, none: 0, its ticks added to its thread's */
static int
record(Calls *c, const Rec *r, Call *k)
{
	int64_t fn;
	Thread *t;

	if ((t = thread(c, r->tid)) == NULL)
		return nomem(c);
	if (r->exit == Kwait) {
		t->waited += r->a[0];
		c->waited += r->a[0];
		c->nwait++;
		return 0;
	}
	if (t->waited != 0) {
		c->shifted = *r;
		c->shifted.ticks -= t->waited;
		r = &c->shifted;
	}
	if ((fn = pcfn(c, r->pc)) < 0)
		return nomem(c);
	if (t->num == 0)
		t->num = ++c->nnum;
	k->fn = fn;
	k->tid = r->tid;
	k->thread = t->num - 1;
	k->rec = r;
	t->last = r->ticks;
	k->start = r->ticks;
	c->lt = t;
	if (r->exit == Kentry) {
		if (push(t, fn, r) < 0)
			return nomem(c);
		k->kind = Centry;
		k->depth = t->base + t->n - 1;
		k->aux = &t->f[t->n - 1].aux;
		k->upaux = t->n > 1 ? t->f[t->n - 2].aux : 0;
		k->bottom = t->n == 1;
		c->below = t->n - 1;
		return 1;
	}
	c->below = t->n;
	if (r->exit == Kprobe) {
		k->kind = Cprobe;
		k->depth = t->base + t->n;
		k->upaux = t->n > 0 ? t->f[t->n - 1].aux : 0;
		return 1;
	}
	if ((c->pk = find(t, fn)) < 0) {
		k->kind = Cnoentry;
		k->start = 0;
		k->end = r->ticks;
		k->depth = t->n == 0 ? --t->base : t->base - 1;
		return 1;
	}
	c->pend = 1;
	c->prec = r;
	c->pt = t;
	return 0;
}

int
callnext(Calls *c, Call *k)
{
	int rc;

	for (;;) {
		if (c->pend) {
			if (c->pt->n > c->pk + 1) {
				pop(c, c->pt, NULL, c->prec->ticks, k);
				return 1;
			}
			c->pend = 0;
			pop(c, c->pt, c->prec, c->prec->ticks, k);
			return 1;
		}
		if (c->ending) {
			for (; c->endt < c->nt; c->endt++)
				if (c->t[c->endt].n > 0) {
					pop(c, &c->t[c->endt], NULL, c->t[c->endt].last, k);
					return 1;
				}
			return 0;
		}
		if (c->ri == c->nr) {
			c->ri = 0;
			if ((c->r = caprun(c->f, Nbatch, &c->nr)) == NULL) {
				c->nr = 0;
				c->ending = 1;
				continue;
			}
		}
		if ((rc = record(c, &c->r[c->ri++], k)) != 0)
			return rc;
	}
}

int
callcallers(Calls *c, uint32_t *fn, int max)
{
	int i, n = 0;

	if (c->lt == NULL)
		return 0;
	for (i = c->below - 1; i >= 0; i--, n++)
		if (n < max)
			fn[n] = c->lt->f[i].fn;
	return n;
}

const char *
callname(Calls *c, uint32_t fn)
{
	return fn < c->nname ? c->name[fn] : "?";
}

uint32_t
callnfn(Calls *c)
{
	return c->nname;
}

double
callns(Calls *c, uint64_t ticks)
{
	return (double)ticks * c->scale;
}

uint64_t
callwaited(Calls *c, uint64_t *n)
{
	*n = c->nwait;
	return c->waited;
}

uint64_t
callhz(Calls *c)
{
	return caphz(c->f);
}

const char *
callunit(Calls *c)
{
	return caphz(c->f) ? "ns" : "ticks";
}

int
callsend(Calls *c)
{
	return captruncated(c->f) != 0;
}

void
callsclose(Calls *c)
{
	uint32_t i;

	if (c == NULL)
		return;
	if (c->f != NULL)
		capclose(c->f);
	for (i = 0; i < c->nname; i++)
		free(c->name[i]);
	for (i = 0; i < c->nt; i++) {
		free(c->t[i].f);
		free(c->t[i].act);
	}
	free(c->name);
	free(c->nameix);
	free(c->pc);
	free(c->pcfn);
	free(c->t);
	free(c->tix);
	free(c);
}
