/*
 * argnames.c: the argument names of the functions a trace's pattern
 * matches, for predicates by name (dev/pred.h, predargnames): from the
 * signatures (dwarf.c) of the objects the device's symbol file names,
 * and of those given before (the program devtrace run is about to run).
 * The rule that names them is dev/predargs.c's, the kernel's too.
 * The same lines type arg0..arg3 and retval; a matched function of an
 * object without debug information leaves them words.
 */
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/cmd.h"
#include "dev/pred.h"
#include "host/shm.h"

enum {
	Nobj = 8,	/* objects given besides the symbol file's */
	Nsymobj = 64,	/* objects read in all, as symsigs reads them */
};

static char syms[PATH_MAX];
static char *objs[Nobj];
static int nobj;

static const char *argnames(const char *glob);

/* predicates name arguments from dir's symbol file from now on */
void
argnamesdir(const char *dir)
{
	if (shmpath(dir, ".syms", syms, sizeof syms) < 0)
		syms[0] = 0;
	predargnames = argnames;
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

/* the text of f's output (NUL-terminated), or nil; f's value in *rc */
static char *
output(int (*f)(const char *, FILE *, const char *), int (*g)(const char *, FILE *), const char *path, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	*rc = -1;
	if ((m = open_memstream(&buf, &len)) == NULL)
		return NULL;
	*rc = f ? f(path, m, "devtrace") : g(path, m);
	if (fclose(m) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* the signature lines of sigs that glob matches, to a; a line seen before (two processes of one program) counts once */
static void
addsigs(Predargs *a, const char *glob, char *sigs, char **done, size_t *ndone)
{
	char *line, *next, *sp, *p;
	size_t n;
	int m;

	for (line = sigs; *line; line = next) {
		next = strchr(line, '\n');
		if (next == NULL)
			break;	/* a line cut short */
		*next++ = 0;
		if ((sp = strchr(line, ' ')) == NULL)
			continue;
		*sp = 0;
		m = fnmatch(glob, line, FNM_NOESCAPE);
		*sp = ' ';
		n = strlen(line) + 1;	/* with its NUL: no line is a prefix of another */
		if (m != 0 || (*done && memmem(*done, *ndone, line, n) != NULL))
			continue;
		if ((p = realloc(*done, *ndone + n)) == NULL)
			continue;
		*done = p;
		memcpy(p + *ndone, line, n);
		*ndone += n;
		predargsadd(a, line);
	}
}

/* a's arg0..retval stay words if glob matches a function of funcs, an object's without debug information */
static void
nosigs(Predargs *a, const char *glob, const char *funcs)
{
	const char *f, *e;
	char name[4096];
	size_t n;

	for (f = funcs; *f; f = *e ? e + 1 : e) {
		e = f + strcspn(f, "\n");
		n = e - f;
		if (n == 0 || n >= 4096)
			continue;
		memcpy(name, f, n);
		name[n] = 0;
		if (fnmatch(glob, name, FNM_NOESCAPE) == 0) {
			predargsnosig(a);
			return;
		}
	}
}

/* "$arg0=sB ... name=N[sB|uB] ..." (N: arg N, ? no word holds it as a number in all), or nil if no matched function has a signature */
static const char *
argnames(const char *glob)
{
	static char out[Predargtext];
	static Predargs a;
	char *obj[Nsymobj], *sigs, *funcs, *done = NULL;
	size_t ndone = 0;
	int i, n, rc, frc;

	predargsinit(&a);
	n = objects(obj, Nsymobj);
	for (i = 0; i < n; i++) {
		sigs = output(objsigs, NULL, obj[i], &rc);
		if (sigs)
			addsigs(&a, glob, sigs, &done, &ndone);
		/* an object with debug information types its functions; what its DWARF lacks (crt's) has no site */
		if (rc == 1 && (funcs = output(NULL, objfuncs, obj[i], &frc)) != NULL) {
			nosigs(&a, glob, funcs);
			free(funcs);
		}
		free(sigs);
		free(obj[i]);
	}
	free(done);
	return predargstext(&a, out, sizeof out);
}
