/*
 * recsyms.c: FILE.syms and FILE.sigs beside a recording (recsyms.h).
 * The symbol file is cut in blocks, an object's lines in a row: a block
 * ends where the object changes or where its first name comes again
 * (the next process's lines of the same object).  A block one of the
 * records' pcs falls in is kept, unless a kept one began with the same
 * line (the same object at the same address: a non-PIE program run
 * again).  A block cut by another process's write (an object's lines
 * too long for one write) loses nothing the records name: the part a
 * pc falls in is kept.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/cmd.h"
#include "cmd/recsyms.h"

typedef struct Line Line;
struct Line {
	char *text;		/* the whole line, its newline taken off */
	uint64_t pc;
	char *buf;		/* a copy of the text, cut in two: */
	char *name, *obj;
	size_t block;
};

static size_t
slot(const Recsyms *r, uint64_t pc)
{
	size_t i = (pc * 0x9e3779b97f4a7c15ull) >> 20 & (r->cap - 1);

	while (r->pc[i] != 0 && r->pc[i] != pc)
		i = (i + 1) & (r->cap - 1);
	return i;
}

static int
grow(Recsyms *r)
{
	Recsyms old = *r;
	size_t i;

	r->cap = old.cap ? 2 * old.cap : 1024;
	if ((r->pc = calloc(r->cap, sizeof *r->pc)) == NULL) {
		*r = old;
		return -1;
	}
	for (i = 0; i < old.cap; i++)
		if (old.pc[i] != 0)
			r->pc[slot(r, old.pc[i])] = old.pc[i];
	free(old.pc);
	return 0;
}

static int
haspc(const Recsyms *r, uint64_t pc)
{
	return r->cap > 0 && pc != 0 && r->pc[slot(r, pc)] == pc;
}

static int
addpc(Recsyms *r, uint64_t pc)
{
	size_t k;

	if (2 * (r->npc + 1) > r->cap && grow(r) < 0)
		return -1;
	if (r->pc[k = slot(r, pc)] == 0) {
		r->pc[k] = pc;
		r->npc++;
	}
	return 0;
}

int
recpcs(Recsyms *r, const Rec *rec, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (rec[i].pc == r->last || rec[i].pc == 0)
			continue;
		r->last = rec[i].pc;
		if (!haspc(r, rec[i].pc) && addpc(r, rec[i].pc) < 0)	/* a look before the call: most pcs are known */
			return -1;
	}
	return 0;
}

int
recpcsmerge(Recsyms *to, const Recsyms *from)
{
	size_t i;

	for (i = 0; i < from->cap; i++)
		if (from->pc[i] != 0 && addpc(to, from->pc[i]) < 0)
			return -1;
	return 0;
}

/* a symbol line "PC NAME OBJECT" parsed into l (its own copies); 0 if it is not one, -1 out of memory */
static int
parse(Line *l, const char *text)
{
	char *p, *end;

	if ((l->text = strdup(text)) == NULL)
		return -1;
	if ((l->buf = strdup(text)) == NULL) {
		free(l->text);
		return -1;
	}
	l->pc = strtoull(l->buf, &end, 16);
	if (end == l->buf || *end != ' ' || (p = strchr(end + 1, ' ')) == NULL) {
		free(l->text);
		free(l->buf);
		return 0;
	}
	*p = 0;
	l->name = end + 1;
	l->obj = p + 1;
	return 1;
}

static void
freelines(Line *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].text);
		free(v[i].buf);
	}
	free(v);
}

/* the symbol file's lines in *lines, each its block's number, *nblock blocks: how many, or -1 out of memory */
static long
readsyms(const char *syms, Line **lines, size_t *nblock)
{
	char *buf = NULL;
	size_t cap = 0, n = 0, max = 0, first = 0;
	ssize_t len;
	FILE *f;
	Line *v = NULL, *t;
	int ok = 1;

	*lines = NULL;
	*nblock = 0;
	if ((f = fopen(syms, "re")) == NULL)	/* no process attached yet: no symbols */
		return 0;
	while (ok >= 0 && (len = getline(&buf, &cap, f)) > 0) {
		if (buf[len - 1] == '\n')
			buf[len - 1] = 0;
		if (n == max) {
			if ((t = realloc(v, (max ? 2 * max : 256) * sizeof *v)) == NULL) {
				ok = -1;
				break;
			}
			v = t;
			max = max ? 2 * max : 256;
		}
		if ((ok = parse(&v[n], buf)) <= 0)
			continue;
		if (n == 0 || strcmp(v[n].obj, v[n - 1].obj) != 0 || strcmp(v[n].name, v[first].name) == 0) {
			first = n;
			++*nblock;
		}
		v[n++].block = *nblock - 1;
	}
	free(buf);
	fclose(f);
	if (ok < 0) {
		freelines(v, n);
		return -1;
	}
	*lines = v;
	return n;
}

/* which blocks a recorded pc falls in, but those a kept block's first line begins already */
static char *
keepblocks(const Recsyms *r, const Line *v, size_t n, size_t nblock)
{
	size_t *start, i, j;
	char *keep;

	if ((keep = calloc(nblock + 1, 1)) == NULL || (start = calloc(nblock + 1, sizeof *start)) == NULL) {
		free(keep);
		return NULL;
	}
	for (i = n; i-- > 0; )
		start[v[i].block] = i;
	for (i = 0; i < n; i++)
		keep[v[i].block] |= haspc(r, v[i].pc);
	for (i = 0; i < nblock; i++)
		for (j = 0; keep[i] && j < i; j++)
			if (keep[j] && strcmp(v[start[i]].text, v[start[j]].text) == 0)
				keep[i] = 0;
	free(start);
	return keep;
}

/* the kept blocks' objects, each once, into r->obj */
static int
objects(Recsyms *r, const Line *v, size_t n, const char *keep)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (!keep[v[i].block] || (i > 0 && v[i - 1].block == v[i].block))
			continue;
		for (j = 0; j < r->nobj && strcmp(r->obj[j], v[i].obj) != 0; j++)
			;
		if (j < r->nobj)
			continue;
		if ((r->obj = realloc(r->obj, (r->nobj + 1) * sizeof *r->obj)) == NULL ||
		    (r->obj[r->nobj] = strdup(v[i].obj)) == NULL)
			return -1;
		r->nobj++;
	}
	return 0;
}

/* out.syms: the kept blocks' lines; out.sigs: their objects' signatures */
static int
writeout(const Line *v, size_t n, const char *keep, const char *out, const char *who)
{
	char path[PATH_MAX];
	size_t i;
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof path, "%s.syms", out);
	if ((f = fopen(path, "we")) == NULL) {
		fprintf(stderr, "%s: %s: %s\n", who, path, strerror(errno));
		return 1;
	}
	for (i = 0; i < n; i++)
		if (keep[v[i].block])
			fprintf(f, "%s\n", v[i].text);
	if (fclose(f) != 0) {
		fprintf(stderr, "%s: %s: %s\n", who, path, strerror(errno));
		return 1;
	}
	snprintf(path, sizeof path, "%s.sigs", out);
	if ((f = fopen(path, "we")) == NULL) {
		fprintf(stderr, "%s: %s: %s\n", who, path, strerror(errno));
		return 1;
	}
	snprintf(path, sizeof path, "%s.syms", out);
	rc = symsigs(path, 0, f, who) < 0;
	if (fclose(f) != 0) {
		fprintf(stderr, "%s: %s.sigs: %s\n", who, out, strerror(errno));
		rc = 1;
	}
	return rc;
}

int
recsymsto(Recsyms *r, const char *syms, const char *out, const char *who)
{
	size_t nblock;
	Line *v;
	long n;
	char *keep = NULL;
	int rc = 1;

	if ((n = readsyms(syms, &v, &nblock)) >= 0 && (keep = keepblocks(r, v, n, nblock)) != NULL &&
	    objects(r, v, n, keep) == 0)
		rc = out ? writeout(v, n, keep, out, who) : 0;
	else
		fprintf(stderr, "%s: out of memory\n", who);
	free(keep);
	if (n >= 0)
		freelines(v, n);
	return rc;
}

/* the pcs of a file of trace lines: "E PC ...", "X PC ...", "P PC ..." */
static int
textpcs(Recsyms *r, const char *path, const char *who)
{
	char line[256];
	Rec rec;
	FILE *f;
	int rc = 0;

	if ((f = fopen(path, "re")) == NULL) {
		fprintf(stderr, "%s: %s: %s\n", who, path, strerror(errno));
		return 1;
	}
	memset(&rec, 0, sizeof rec);
	while (rc == 0 && fgets(line, sizeof line, f))
		if (line[0] != '#' && line[1] == ' ' && sscanf(line + 2, "%16" SCNx64, &rec.pc) == 1 && recpcs(r, &rec, 1) < 0) {
			fprintf(stderr, "%s: out of memory\n", who);
			rc = 1;
		}
	fclose(f);
	return rc;
}

int
recbeside(const char *out, const char *syms, const char *who)
{
	Recsyms r;
	int rc;

	memset(&r, 0, sizeof r);
	rc = textpcs(&r, out, who) || recsymsto(&r, syms, out, who);
	recsymsfree(&r);
	return rc;
}

void
recsymsfree(Recsyms *r)
{
	size_t i;

	for (i = 0; i < r->nobj; i++)
		free(r->obj[i]);
	free(r->obj);
	free(r->pc);
	memset(r, 0, sizeof *r);
}
