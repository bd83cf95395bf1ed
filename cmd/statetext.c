/*
 * statetext.c: the device's state text (dev/state.c: devstate) read by
 * the clients, one parser for all: the text is lines, the commands that
 * rebuild the state then "#key N" counters; a trace's first line is
 * "trace SPEC new NAME", SPEC its GLOB or its START END (neither holds a
 * space: the device prints one as '?').
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/client.h"

char *
stateget(Shm *s, const char *who)
{
	static char *buf;
	size_t n;

	if (buf == NULL && (buf = malloc(Statemax + 1)) == NULL) {
		fprintf(stderr, "%s: out of memory\n", who);
		return NULL;
	}
	if ((n = shmstate(s, buf, Statemax)) == 0) {	/* the lock was not had */
		fprintf(stderr, "%s: %s\n", who, shmbusy(errno));
		return NULL;
	}
	buf[n] = 0;
	return buf;
}

/* the line at *p, its length in *n; *p moves past it; nil at the end */
static const char *
nextline(const char **p, size_t *n)
{
	const char *l = *p;

	if (*l == 0)
		return NULL;
	*n = strcspn(l, "\n");
	*p = l[*n] ? l + *n + 1 : l + *n;
	return l;
}

/* the line is prefix followed by exactly word */
static int
linesays(const char *l, size_t n, const char *prefix, size_t np, const char *word)
{
	return n > np && memcmp(l, prefix, np) == 0 && strlen(word) == n - np && memcmp(l + np, word, n - np) == 0;
}

unsigned long long
statecounter(const char *st, const char *key)
{
	const char *l;
	size_t n, k = strlen(key);

	while ((l = nextline(&st, &n)) != NULL)
		if (n > k + 2 && l[0] == '#' && memcmp(l + 1, key, k) == 0 && l[k + 1] == ' ')
			return strtoull(l + k + 2, NULL, 10);
	return 0;
}

unsigned long long
lostcount(const char *st)
{
	return statecounter(st, "lost") + statecounter(st, "dropped");
}

int
statehas(const char *st, const char *line)
{
	const char *l;
	size_t n;

	while ((l = nextline(&st, &n)) != NULL)
		if (linesays(l, n, "", 0, line))
			return 1;
	return 0;
}

int
statetrace(const char *st, const char *spec, const char *name, Statetrace *t)
{
	const char *l, *sp, *nm, *q;
	size_t n;

	while ((l = nextline(&st, &n)) != NULL) {
		if (n < 6 || memcmp(l, "trace ", 6) != 0)
			continue;
		/* SPEC " new " NAME: the last " new " of the line, NAME a word */
		for (nm = l + n; nm > l + 6 && !(nm[-1] == ' ' && nm - l >= 12 && memcmp(nm - 5, " new ", 5) == 0); nm--)
			;
		if (nm == l + 6 || memchr(nm, ' ', l + n - nm) != NULL)
			continue;
		/* SPEC is one word or two: a pred line's " new " is inside its /EXPR/ */
		sp = l + 6;
		if ((q = memchr(sp, ' ', nm - 5 - sp)) != NULL && memchr(q + 1, ' ', nm - 5 - (q + 1)) != NULL)
			continue;
		if (spec && !linesays(sp, nm - 5 - sp, "", 0, spec))
			continue;
		if (name && !linesays(nm, l + n - nm, "", 0, name))
			continue;
		t->line = l;
		t->len = n;
		return 1;
	}
	return 0;
}
