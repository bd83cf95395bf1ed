/*
 * argnames.c: the signatures a control write hands the device (dev/
 * devtrace.h: Devsigs), for predicates and aggregations by argument
 * name and typed values: the lines of dwarf.c for the objects the
 * device's symbol file names, and those given before (the program
 * devtrace run is about to run); a function of an object without debug
 * information as "NAME -" (its words stay words).  The device matches
 * them to a trace's pattern by its own rule (dev/pred/predargs.c), the
 * kernel's too.  Gathered before the device's lock is taken, and only
 * for a write that may name an argument (pred, agg, or a line left
 * from the write before); each object's lines are kept, by path, until
 * its size or time changes, so a large program's DWARF is read once.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cmd/cmd.h"
#include "host/shm.h"

enum {
	Nobj = 8,	/* objects given besides the symbol file's */
	Nsymobj = 64,	/* objects read in all, as symsigs reads them */
};

typedef struct Objsigs Objsigs;
struct Objsigs {
	char *path;
	struct stat st;	/* as it was read: a change reads it again */
	char *text;	/* its lines */
	size_t n;
};

static char syms[PATH_MAX];
static char *objs[Nobj];
static int nobj;
static Objsigs cache[Nsymobj];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;	/* the server writes from several threads */

/* control writes name arguments from dir's symbol file from now on */
void
argnamesdir(const char *dir)
{
	if (shmpath(dir, ".syms", syms, sizeof syms) < 0)
		syms[0] = 0;
}

/* and from path's signatures */
void
argnamesobj(const char *path)
{
	if (nobj < Nobj)
		objs[nobj++] = strdup(path);
}

/* the objects whose functions a pattern may match: the symbol file's (its third column), then those given; each once */
static int
objects(char **obj, int max)
{
	char line[4096], path[4096];
	int n = 0, i, k;
	FILE *f;

	if (syms[0] && (f = fopen(syms, "r")) != NULL) {
		while (n < max && fgets(line, sizeof line, f))
			if (sscanf(line, "%*s %*s %4095s", path) == 1) {
				for (i = 0; i < n && strcmp(obj[i], path) != 0; i++)
					;
				if (i == n && (obj[n] = strdup(path)) != NULL)
					n++;
			}
		fclose(f);
	}
	for (k = 0; k < nobj && n < max; k++) {
		for (i = 0; i < n && strcmp(obj[i], objs[k]) != 0; i++)
			;
		if (i == n && (obj[n] = strdup(objs[k])) != NULL)
			n++;
	}
	return n;
}

/* path's lines, read now: its signatures, or its functions as "NAME -" where it has no debug information */
static char *
readsigs(const char *path, size_t *len)
{
	char *buf = NULL, *funcs = NULL, *p, *e;
	size_t flen = 0;
	FILE *m, *fm;
	int rc;

	if ((m = open_memstream(&buf, len)) == NULL)
		return NULL;
	rc = objsigs(path, m, "devtrace");
	if (rc == 1 && (fm = open_memstream(&funcs, &flen)) != NULL) {
		if (objfuncs(path, fm) == 0 && fflush(fm) == 0)
			for (p = funcs; p && *p; p = *e ? e + 1 : e) {
				e = p + strcspn(p, "\n");
				if (e > p)
					fprintf(m, "%.*s -\n", (int)(e - p), p);
			}
		fclose(fm);
		free(funcs);
	}
	if (fclose(m) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int
same(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
		a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* path's lines, from the cache or read again; under lock */
static const Objsigs *
sigsof(const char *path)
{
	struct stat st;
	Objsigs *o, *free1 = NULL;

	if (stat(path, &st) != 0)
		return NULL;
	for (o = cache; o < cache + Nsymobj; o++) {
		if (o->path == NULL) {
			if (free1 == NULL)
				free1 = o;
			continue;
		}
		if (strcmp(o->path, path) != 0)
			continue;
		if (same(&o->st, &st))
			return o;
		free1 = o;	/* changed: read again, here */
		break;
	}
	if ((o = free1) == NULL)
		o = &cache[st.st_ino % Nsymobj];	/* full: one goes */
	free(o->path);
	free(o->text);
	o->path = strdup(path);
	o->st = st;
	if ((o->text = readsigs(path, &o->n)) == NULL || o->path == NULL) {
		free(o->text);
		free(o->path);
		o->path = o->text = NULL;
		return NULL;
	}
	return o;
}

/* the write's lines may name an argument: a predicate, an aggregation, or a line an earlier write left */
static int
wanted(const char *buf, size_t n, const Ctlfile *f)
{
	return memmem(buf, n, "pred", 4) != NULL || memmem(buf, n, "agg", 3) != NULL || (f && devctlpending(f));
}

Devsigs *
argnamessigs(const char *buf, size_t n, const Ctlfile *f)
{
	char *obj[Nsymobj], *text = NULL;
	size_t len = 0;
	const Objsigs *o;
	Devsigs *s = NULL;
	FILE *m;
	int i, nob;

	if (!wanted(buf, n, f) || (m = open_memstream(&text, &len)) == NULL)
		return NULL;
	nob = objects(obj, Nsymobj);
	pthread_mutex_lock(&lock);
	for (i = 0; i < nob; i++) {
		if ((o = sigsof(obj[i])) != NULL)
			fwrite(o->text, 1, o->n, m);
		free(obj[i]);
	}
	pthread_mutex_unlock(&lock);
	if (fclose(m) != 0 || len == 0 || (s = calloc(1, sizeof *s)) == NULL || (s->work = malloc(devsigswork())) == NULL) {
		free(s);
		free(text);
		return NULL;
	}
	s->text = text;
	s->n = len;
	return s;
}

void
argnamesfree(Devsigs *s)
{
	if (s == NULL)
		return;
	free((char *)s->text);
	free(s->work);
	free(s);
}
