/*
 * argnames.c: the argument names of the functions a trace's pattern
 * matches, for predicates by name (dev/pred.h, predargnames): from the
 * signatures (dwarf.c) of the objects the device's symbol file names,
 * and of those given before (the program devtrace run is about to run).
 * The rule that names them is dev/predargs.c's, the kernel's too.
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

/* "name=N[sB|uB] ..." (N: arg N, ? no word holds it as a number in all), or nil if no matched function has a signature */
static const char *
argnames(const char *glob)
{
	static char out[Npredarg * (Predargname + Predargval + 2)];
	static Predargs a;
	char *buf = NULL, *line, *next, *sp, *done, key[4096];
	size_t len = 0, n = 0;
	int i;
	FILE *f;

	if ((f = open_memstream(&buf, &len)) == NULL)
		return NULL;
	if (syms[0])
		symsigs(syms, 0, f, "devtrace");
	for (i = 0; i < nobj; i++)
		objsigs(objs[i], f, "devtrace");
	if (fclose(f) != 0 || buf == NULL)
		return NULL;
	predargsinit(&a);
	/* a function seen twice (two processes of one program) counts once: done holds "\nline\n..." */
	done = calloc(1, len + 2);
	if (done)
		done[n++] = '\n';
	for (line = buf; done && *line; line = next) {
		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		if ((size_t)(next - line) >= sizeof key - 1 || (sp = strchr(line, ' ')) == NULL || sp > next)
			continue;
		*sp = 0;
		i = fnmatch(glob, line, FNM_NOESCAPE);
		*sp = ' ';
		if (i != 0)
			continue;
		key[0] = '\n';
		memcpy(key + 1, line, next - line);
		key[next - line + 1] = 0;
		if (key[next - line] != '\n')
			continue;	/* a line cut short */
		if (memmem(done, n, key, next - line + 1) != NULL)
			continue;
		memcpy(done + n, line, next - line);
		n += next - line;
		key[next - line] = 0;
		predargsadd(&a, key + 1);
	}
	free(done);
	free(buf);
	return predargstext(&a, out, sizeof out);
}
