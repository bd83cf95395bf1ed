/*
 * aggtext.c: the aggregations as text, for devtraced's aggs and aggraw
 * files and for devtrace aggs.  The device merges and prints
 * (dev/agg/aggfmt.c) under the device's lock, in two calls: the keys
 * the text may name (aggkeys), then the text from a table of their
 * texts (aggprint).  Between them, without the lock, this names the
 * func keys from the symbol file ("<pc> <name> <object>" lines the
 * attached processes appended) and keytypes.c, above, types the keys
 * that are arguments or return values (aggtyped); aggtext leaves them
 * numbers (tests' devshm, which links no libdw).
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

/* the text of pc's function, a copy; nil: not in the symbol file (or no memory) */
static char *
symname(const Syms *t, uint64_t pc)
{
	Sym key = { pc, NULL }, *s;

	if (t->n == 0 || (s = bsearch(&key, t->s, t->n, sizeof *t->s, bypc)) == NULL)
		return NULL;
	return strdup(s->name);
}

/* the device's call under its lock; e: shmlock's error */
static size_t
lockedkeys(Shm *s, void *work, Aggkey *k, size_t n, int form, int *e)
{
	size_t got = 0;

	if ((*e = shmlock(s)) == 0) {
		got = devaggkeys(shmdev(s), work, k, n, form);
		shmunlock(s);
	}
	return got;
}

/* its texts, its table, the work area */
static void
aggkeysfree(Aggkeys *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		free((char *)k->k[i].text);
	free(k->k);
	free(k->work);
	memset(k, 0, sizeof *k);
}

int
aggkeys(Shm *s, const char *syms, int form, Aggkeys *k)
{
	size_t cap = 256, n, i;
	Aggkey *p;
	Syms t;
	int e;

	memset(k, 0, sizeof *k);
	k->form = form;
	if ((k->work = malloc(devaggwork())) == NULL)
		return -1;
	for (;;) {
		if ((p = realloc(k->k, cap * sizeof *p)) == NULL) {
			aggkeysfree(k);
			return -1;
		}
		k->k = p;
		n = lockedkeys(s, k->work, k->k, cap, form, &e);
		if (e != 0) {
			aggkeysfree(k);
			errno = e;
			return -1;
		}
		if (n <= cap)
			break;
		cap = n;
	}
	k->n = n;
	loadsyms(&t, syms);
	for (i = 0; i < n; i++)
		if (k->k[i].word == Aggfunc)
			k->k[i].text = symname(&t, k->k[i].v);
	freesyms(&t);
	return 0;
}

char *
aggprint(Shm *s, Aggkeys *k, size_t *len)
{
	size_t cap = 64 * 1024, n;
	char *buf = NULL, *p;
	int e = 0;

	for (;;) {
		if ((p = realloc(buf, cap)) == NULL || (e = shmlock(s)) != 0) {
			free(p ? p : buf);
			buf = NULL;
			break;
		}
		buf = p;
		n = devaggs(shmdev(s), k->work, buf, cap, k->form, k->k, k->n);
		shmunlock(s);
		if (n < cap) {
			*len = n;
			break;
		}
		cap = n + n / 2 + 1;	/* results grew between the calls: room to spare */
	}
	aggkeysfree(k);
	if (e != 0)
		errno = e;
	return buf;
}

char *
aggtext(Shm *s, const char *syms, int form, size_t *len)
{
	Aggkeys k;

	return aggkeys(s, syms, form, &k) == 0 ? aggprint(s, &k, len) : NULL;
}
