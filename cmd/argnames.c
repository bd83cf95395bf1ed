/*
 * argnames.c: the argument names of the functions a trace's pattern
 * matches, for predicates by name (dev/pred.h, predargnames): from the
 * signatures (dwarf.c) of the objects the device's symbol file names,
 * and of those given before (the program devtrace run is about to run).
 * A name is usable when every matched function with a signature has it
 * in the same record word.
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
	Nname = 64,	/* distinct argument names of one pattern's functions */
	Namemax = 64,
	Outmax = Nname * (Namemax + 4),
};

typedef struct Argname Argname;
struct Argname {
	char name[Namemax];
	char val[32];	/* as predcompileargs takes it, from the first function seen: N[sB|uB], or ? */
	int nfn;	/* functions that have it so */
	int bad;	/* one has it otherwise */
};

/* a class's width, for the predicate compiler: as the scripts read it, from its low bytes */
static const struct {
	const char *prefix;
	const char *sign;
	int bits;	/* 0: the digits after the prefix */
} widths[] = {
	{ "s", "s", 0 }, { "u", "u", 0 }, { "enum", "u", 0 }, { "char", "u", 8 }, { "bool", "u", 8 }, { "ptr", "", 64 }, { "other", "", 64 },
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

/* "N[sB|uB]" for class c in record word w, or "?" if no word holds it as a number */
static void
argval(const char *c, int w, char *val, size_t n)
{
	size_t i, k;
	int bits;

	snprintf(val, n, "?");
	if (w < 1 || w > 4)
		return;
	for (i = 0; i < sizeof widths / sizeof widths[0]; i++) {
		k = strlen(widths[i].prefix);
		if (strncmp(c, widths[i].prefix, k) != 0 || (widths[i].bits == 0 && (c[k] < '1' || c[k] > '9')))
			continue;
		bits = widths[i].bits ? widths[i].bits : atoi(c + k);
		if (bits >= 64)
			snprintf(val, n, "%d", w - 1);
		else
			snprintf(val, n, "%d%s%d", w - 1, widths[i].sign, bits);
		return;
	}
}

/* one signature line of a matched function into the table */
static void
addline(char *line, Argname *a, int *na)
{
	char *f, *save, *p, *q, val[32];
	int i;

	strtok_r(line, " \n", &save);	/* the name */
	strtok_r(NULL, " \n", &save);	/* the return class */
	while ((f = strtok_r(NULL, " \n", &save)) != NULL) {
		if ((p = strchr(f, ':')) == NULL || (q = strrchr(f, ':')) == p || p - f >= Namemax)
			continue;
		*p = *q = 0;
		argval(p + 1, atoi(q + 1), val, sizeof val);
		for (i = 0; i < *na && strcmp(a[i].name, f) != 0; i++)
			;
		if (i == *na) {
			if (*na == Nname)
				continue;
			snprintf(a[i].name, Namemax, "%s", f);
			snprintf(a[i].val, sizeof a[i].val, "%s", val);
			a[i].nfn = 0;
			a[i].bad = 0;
			(*na)++;
		}
		if (strcmp(a[i].val, val) == 0)
			a[i].nfn++;
		else
			a[i].bad = 1;
	}
}

/* "name=N[sB|uB] ..." (N: arg N, ? no word holds it as a number in all), or nil if no matched function has a signature */
static const char *
argnames(const char *glob)
{
	static char out[Outmax];
	static Argname a[Nname];
	char *buf = NULL, *line, *next, *sp, *done, key[4096];
	size_t len = 0, n = 0;
	int i, na = 0, nfn = 0;
	FILE *f;

	if ((f = open_memstream(&buf, &len)) == NULL)
		return NULL;
	if (syms[0])
		symsigs(syms, 0, f, "devtrace");
	for (i = 0; i < nobj; i++)
		objsigs(objs[i], f, "devtrace");
	if (fclose(f) != 0 || buf == NULL)
		return NULL;
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
		nfn++;
		addline(key + 1, a, &na);
	}
	free(done);
	free(buf);
	if (nfn == 0)
		return NULL;
	out[0] = 0;
	for (i = 0, n = 0; i < na && n < sizeof out; i++) {
		if (!a[i].bad && a[i].nfn == nfn)
			n += snprintf(out + n, sizeof out - n, "%s%s=%s", n ? " " : "", a[i].name, a[i].val);
		else
			n += snprintf(out + n, sizeof out - n, "%s%s=?", n ? " " : "", a[i].name);
	}
	return out;
}
