/*
 * dumpwalk.c: what devtrace dump's writers share (dump.h): the
 * functions' names and FILE.sigs' signatures, ticks as ns, and the
 * walk, the file's calls (calls.h: paired as flow pairs them, named by
 * FILE.syms) as steps pulled one at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/dump.h"

void *
xalloc(void *p, size_t n)
{
	if ((p = realloc(p, n)) == NULL) {
		fprintf(stderr, "devtrace dump: out of memory\n");
		exit(1);
	}
	return p;
}

char *
strsave(const char *s)
{
	return strcpy(xalloc(NULL, strlen(s) + 1), s);
}

/* the id of s among the n names (1 + its index), added if new: few names (a program's argument names), so a scan */
uint32_t
intern(char ***names, size_t *n, const char *s)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (strcmp((*names)[i], s) == 0)
			return (uint32_t)i + 1;
	*names = xalloc(*names, (*n + 1) * sizeof **names);
	(*names)[(*n)++] = strsave(s);
	return (uint32_t)*n;
}

static int
sigcmp(const void *a, const void *b)
{
	return strcmp(((const Sig *)a)->name, ((const Sig *)b)->name);
}

/* FILE.sigs: "NAME RET ARG..."; a name of two different lines stays untyped, as sigs.awk has it */
void
loadsigs(Dump *d)
{
	char path[4096], line[8192], *p, *w;
	FILE *f;
	Sig *s, *o;
	size_t i, k;

	snprintf(path, sizeof path, "%s.sigs", d->path);
	if ((f = fopen(path, "r")) == NULL)
		return;		/* no signatures: calls without arguments */
	while (fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = 0;
		if (line[0] == '#' || (p = strchr(line, ' ')) == NULL)
			continue;
		*p = 0;
		d->sig = xalloc(d->sig, (d->nsig + 1) * sizeof *d->sig);
		s = &d->sig[d->nsig++];
		memset(s, 0, sizeof *s);
		s->name = strsave(line);
		s->ret = strsave(p + 1);	/* the whole rest until every line is read */
	}
	fclose(f);
	/* sorted by name, a name's lines together: one kept, marked if another differs */
	qsort(d->sig, d->nsig, sizeof *d->sig, sigcmp);
	for (i = k = 0; i < d->nsig; i++) {
		o = k > 0 ? &d->sig[k - 1] : NULL;
		if (o != NULL && strcmp(o->name, d->sig[i].name) == 0) {
			o->twice |= strcmp(o->ret, d->sig[i].ret) != 0;
			continue;
		}
		d->sig[k++] = d->sig[i];
	}
	d->nsig = k;
	/* each line cut into its words */
	for (i = 0; i < d->nsig; i++) {
		s = &d->sig[i];
		for (w = strtok(s->ret, " "); (w = strtok(NULL, " ")) != NULL && s->narg < 8;)
			s->arg[s->narg++] = w;
	}
}

/* the signature of a function named name, or nil */
static Sig *
sigof(Dump *d, const char *name)
{
	Sig key = { .name = (char *)name }, *s;

	if (d->nsig == 0 || (s = bsearch(&key, d->sig, d->nsig, sizeof *d->sig, sigcmp)) == NULL)
		return NULL;
	return s->twice || strcmp(s->ret, "-") == 0 ? NULL : s;
}

uint64_t
ns(Dump *d, uint64_t ticks)
{
	if (ticks >= d->t0)
		return d->ns0 + (uint64_t)((unsigned __int128)(ticks - d->t0) * 1000000000u / d->hz);
	return d->ns0 - (uint64_t)((unsigned __int128)(d->t0 - ticks) * 1000000000u / d->hz);
}

/* the function numbered fn in c, its id given at its first use */
static Fn *
fnof(Dump *d, Calls *c, uint32_t fn)
{
	Fn *f;

	if (fn >= d->nfn) {
		d->fn = xalloc(d->fn, (fn + 1) * sizeof *d->fn);
		memset(d->fn + d->nfn, 0, (fn + 1 - d->nfn) * sizeof *d->fn);
		d->nfn = fn + 1;
	}
	f = &d->fn[fn];
	if (f->id == 0) {
		f->id = intern(&d->name, &d->nname, callname(c, fn));
		f->sig = sigof(d, callname(c, fn));
	}
	return f;
}

/* the thread numbered i in c (calls.h: they come in order), 1 in *isnew at its first event */
static Thr *
throf(Dump *d, const Call *k, int *isnew)
{
	Thr *t;

	*isnew = k->thread >= d->nthr;
	if (*isnew) {
		d->thr = xalloc(d->thr, (k->thread + 1) * sizeof *d->thr);
		d->nthr = k->thread + 1;
		t = &d->thr[k->thread];
		t->tid = k->tid;
		t->first = t->last = k->rec->ticks;
	}
	t = &d->thr[k->thread];
	if (k->rec != NULL)	/* nil in a call ended with no exit */
		t->last = k->rec->ticks;
	return t;
}

/*
 * The file's calls (calls.h: paired as flow pairs them): an exit with
 * no call open (Cnoentry) has no slice; a call an exit passed over, or
 * open at the end, ends at that exit's ticks, or at its thread's last
 * record.
 */
int
walkopen(Dump *d)
{
	return (d->calls = callsopen(d->path, "devtrace dump")) == NULL;
}

/* every event numbers its function and thread, also those of the threads left out, so the ids keep one order */
int
walknext(Dump *d, Step *s, int only, uint32_t tid)
{
	Call k;
	int rc;

	while ((rc = callnext(d->calls, &k)) > 0) {
		s->f = fnof(d, d->calls, k.fn);
		s->t = throf(d, &k, &s->isnew);
		if (only && k.tid != tid)
			continue;
		s->kind = k.kind;
		s->end = k.end;
		s->r = k.kind == Cnoexit ? NULL : k.rec;
		return 1;
	}
	return rc;
}

int
walkclose(Dump *d, int rc)
{
	rc = rc < 0 ? 1 : callsend(d->calls);
	callsclose(d->calls);
	d->calls = NULL;
	return rc;
}
