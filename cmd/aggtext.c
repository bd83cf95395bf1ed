/*
 * aggtext.c: the aggregations as text, for devtraced's aggs and aggraw
 * files and for devtrace aggs.  The device merges and prints
 * (dev/agg/aggfmt.c) under the device's lock; the host lends it the work
 * area, names functions from the symbol file ("<pc> <name> <object>"
 * lines the attached processes appended) and types the keys that are
 * arguments or return values through aggkeytyper (keytypes.c's, set
 * by devtraced and devtrace aggs).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host/shm.h"
#include "cmd/cmd.h"

typedef struct Sym Sym;
struct Sym {
	uint64_t pc;
	char *name;
};

typedef struct Syms Syms;
struct Syms {
	Sym *s;
	size_t n;
};

static int
bypc(const void *a, const void *b)
{
	const Sym *x = a, *y = b;

	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static void
loadsyms(Syms *t, const char *path)
{
	char line[4096], name[4096];
	unsigned long long pc;
	size_t cap = 0;
	Sym *p;
	FILE *f;

	memset(t, 0, sizeof *t);
	if (path == NULL || (f = fopen(path, "r")) == NULL)
		return;
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "%llx %4095s", &pc, name) != 2)
			continue;
		if (t->n == cap) {
			cap = cap ? 2 * cap : 1024;
			if ((p = realloc(t->s, cap * sizeof *p)) == NULL)
				break;
			t->s = p;
		}
		if ((t->s[t->n].name = strdup(name)) == NULL)
			break;
		t->s[t->n++].pc = pc;
	}
	fclose(f);
	if (t->n > 0)
		qsort(t->s, t->n, sizeof *t->s, bypc);
}

static void
freesyms(Syms *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->s[i].name);
	free(t->s);
}

typedef struct Names Names;
struct Names {
	Syms syms;
	Keytypes *types;	/* nil: no typer, or no memory */
};

const Keytyper *aggkeytyper;

static const char *
symname(uint64_t pc, void *arg)
{
	Syms *t = &((Names *)arg)->syms;
	Sym key = { pc, NULL }, *s;

	if (t->n == 0 || (s = bsearch(&key, t->s, t->n, sizeof *t->s, bypc)) == NULL)
		return NULL;
	return s->name;
}

static const char *
typed(const char *glob, int word, uint64_t v, void *arg)
{
	Names *t = arg;

	return t->types ? aggkeytyper->text(t->types, glob, word, v) : NULL;
}

char *
aggtext(Shm *s, const char *syms, int form, size_t *len)
{
	size_t cap = 64 * 1024, n;
	char *buf = NULL, *p;
	void *work;
	Names t;
	Aggnames an = { symname, typed, &t };
	int e;

	if ((work = malloc(devaggwork())) == NULL)
		return NULL;
	loadsyms(&t.syms, syms);
	t.types = aggkeytyper ? aggkeytyper->open(syms) : NULL;
	for (;;) {
		if ((p = realloc(buf, cap)) == NULL) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = p;
		if ((e = shmlock(s)) != 0) {
			free(buf);
			buf = NULL;
			errno = e;
			break;
		}
		n = devaggsnamed(shmdev(s), work, buf, cap, form, &an);
		shmunlock(s);
		/* keys asked for types: the signatures read outside the lock, then again */
		if (t.types && aggkeytyper->load(t.types))
			continue;
		if (n < cap) {
			*len = n;
			break;
		}
		cap = n + n / 2 + 1;	/* results grew between the calls: room to spare */
	}
	freesyms(&t.syms);
	if (t.types)
		aggkeytyper->close(t.types);
	free(work);
	return buf;
}
