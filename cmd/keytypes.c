/*
 * keytypes.c: aggregation keys typed from the signatures (dwarf.c) of
 * the functions of their trace, for the binaries that link libdw
 * (devtraced, devtrace aggs): aggtyped is aggtext.c's aggtext with the
 * typed words' texts filled in.  The device lists the keys under its
 * lock (aggkeys); the signatures are read here, without the lock
 * (reading DWARF under it would stop every control write), each object
 * once a text; the device then prints from the texts (aggprint).  A
 * key that appeared in between prints as its number.
 *
 * A key is typed when every function of the symbol file that the
 * trace's pattern matches has a signature in its object, one only, and
 * the same class in the key's word (an argument's record word, or the return
 * value); a struct, floating point or void is never typed.  Otherwise
 * it stays the device's signed number: already the C value where the
 * device typed the variable (values as their type: dev/pred/predargs.c).
 * Values are read from the low bytes of their class, as the scripts
 * read them (scripts/lib/sigs.awk).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/cmd.h"
#include "dev/lib.h"

enum {
	Nmemo = 64,	/* (pattern, word) pairs decided: keys of 16 aggregations */
	Nobj = 64,	/* objects read, as symsigs reads them */
	Textmax = 128,
};

typedef struct Memo Memo;
struct Memo {
	char *glob;
	int word;
	char *cls;	/* nil: untyped */
};

/* an object the symbol file names, and its signature lines */
typedef struct Obj Obj;
struct Obj {
	char *path;
	char *sigs;
};

/* a function of the symbol file, of object obj */
typedef struct Fn Fn;
struct Fn {
	char *name;
	int obj;
};

typedef struct Keytypes Keytypes;
struct Keytypes {
	char *syms;
	Fn *fn;
	size_t nfn;
	Obj obj[Nobj];
	int nobj;
	Memo memo[Nmemo];
	int nmemo;
	char text[Textmax];
};

static Keytypes *
keytypesnew(const char *syms)
{
	Keytypes *k = calloc(1, sizeof *k);

	if (k && syms && (k->syms = strdup(syms)) == NULL) {
		free(k);
		return NULL;
	}
	return k;
}

static void
keytypesfree(Keytypes *k)
{
	size_t i;

	if (k == NULL)
		return;
	for (i = 0; i < k->nfn; i++)
		free(k->fn[i].name);
	for (i = 0; i < (size_t)k->nobj; i++) {
		free(k->obj[i].path);
		free(k->obj[i].sigs);
	}
	for (i = 0; i < (size_t)k->nmemo; i++) {
		free(k->memo[i].glob);
		free(k->memo[i].cls);
	}
	free(k->fn);
	free(k->syms);
	free(k);
}

/* path's index among the objects, its signatures read when first seen; -1: no room */
static int
objof(Keytypes *k, const char *path)
{
	size_t len = 0;
	FILE *f;
	int i;

	for (i = 0; i < k->nobj; i++)
		if (strcmp(k->obj[i].path, path) == 0)
			return i;
	if (k->nobj == Nobj || (k->obj[i].path = strdup(path)) == NULL)
		return -1;
	k->obj[i].sigs = NULL;
	if ((f = open_memstream(&k->obj[i].sigs, &len)) != NULL) {
		objsigs(path, f, "devtrace");
		fclose(f);
	}
	return k->nobj++;
}

/* the "<pc> <name> <object>" lines: the functions, each of its object */
static void
loadfns(Keytypes *k)
{
	char line[4096], name[4096], obj[4096];
	size_t cap = 0;
	Fn *p;
	FILE *f;
	int o;

	if (k->syms == NULL || (f = fopen(k->syms, "r")) == NULL)
		return;
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "%*s %4095s %4095s", name, obj) != 2 || (o = objof(k, obj)) < 0)
			continue;
		if (k->nfn == cap) {
			cap = cap ? 2 * cap : 256;
			if ((p = realloc(k->fn, cap * sizeof *p)) == NULL)
				break;
			k->fn = p;
		}
		if ((k->fn[k->nfn].name = strdup(name)) == NULL)
			break;
		k->fn[k->nfn++].obj = o;
	}
	fclose(f);
}

/* the class of word (an argument's 0-3, -1 the return value) in signature line l (its fields after the name): a copy, or nil */
static char *
wordclass(const char *l, int word)
{
	const char *e = l + strcspn(l, "\n"), *f, *c, *w;
	size_t n;

	if (word < 0) {
		n = strcspn(l, " \n");
		return strndup(l, n);
	}
	for (f = l + strcspn(l, " \n"); f < e; f += n) {
		f += *f == ' ';
		n = strcspn(f, " \n");
		/* name:class:word; an enum's class holds no ':' */
		if ((c = memchr(f, ':', n)) == NULL || (w = memchr(c + 1, ':', f + n - c - 1)) == NULL)
			continue;
		if (atoi(w + 1) == word + 1)
			return strndup(c + 1, w - c - 1);
	}
	return NULL;
}

/* fn's one signature in its object, its class of word: a copy, or nil (no signature, two, no such word) */
static char *
fnclass(Keytypes *k, const Fn *f, int word)
{
	const char *fn = f->name, *l, *sig = NULL, *e;
	size_t n = strlen(fn);

	for (l = k->obj[f->obj].sigs; l && *l; l = *e ? e + 1 : e) {
		e = l + strcspn(l, "\n");
		if ((size_t)(e - l) <= n || strncmp(l, fn, n) != 0 || l[n] != ' ')
			continue;
		if (sig && (strcspn(sig, "\n") != (size_t)(e - l - n - 1) || strncmp(sig, l + n + 1, e - l - n - 1) != 0))
			return NULL;	/* static functions of one name: which one is not known */
		sig = l + n + 1;
	}
	return sig ? wordclass(sig, word) : NULL;
}

/* the classes a key may be typed as */
static int
typable(const char *c)
{
	static const char *const pre[] = { "s", "u", "enum", "char", "bool", "ptr" };
	size_t i, n;

	for (i = 0; i < sizeof pre / sizeof pre[0]; i++) {
		n = strlen(pre[i]);
		if (strncmp(c, pre[i], n) == 0 && (n > 1 || (c[1] >= '1' && c[1] <= '9')))
			return 1;
	}
	return 0;
}

/* the one class of word over the functions glob matches: a copy, or nil */
static char *
agree(Keytypes *k, const char *glob, int word)
{
	char *cls = NULL, *c;
	size_t i;

	for (i = 0; i < k->nfn; i++) {
		if (!globmatch(glob, k->fn[i].name))
			continue;
		c = fnclass(k, &k->fn[i], word);
		if (c == NULL || !typable(c) || (cls && strcmp(c, cls) != 0)) {
			free(c);
			free(cls);
			return NULL;
		}
		free(cls);
		cls = c;
	}
	return cls;
}

static const char *
classof(Keytypes *k, const char *glob, int word)
{
	Memo *m;
	int i;

	for (i = 0; i < k->nmemo; i++)
		if (k->memo[i].word == word && strcmp(k->memo[i].glob, glob) == 0)
			return k->memo[i].cls;
	if (k->nmemo == Nmemo)
		return NULL;
	m = &k->memo[k->nmemo];
	if ((m->glob = strdup(glob)) == NULL)
		return NULL;
	m->word = word;
	m->cls = agree(k, glob, word);
	k->nmemo++;
	return m->cls;
}

/* a char as C writes it: 'a', '\n', '\x01' */
static void
quotechar(char *t, size_t n, unsigned c)
{
	static const struct { unsigned c; const char *s; } esc[] = {
		{ '\'', "'\\''" }, { '\\', "'\\\\'" }, { '\n', "'\\n'" }, { '\t', "'\\t'" }, { 0, "'\\0'" },
	};
	size_t i;

	for (i = 0; i < sizeof esc / sizeof esc[0]; i++)
		if (esc[i].c == c) {
			snprintf(t, n, "%s", esc[i].s);
			return;
		}
	if (c >= ' ' && c < 0x7f)
		snprintf(t, n, "'%c'", c);
	else
		snprintf(t, n, "'\\x%02x'", c);
}

/* "enumN{v=NAME,...}": the name whose value is s or u, else s in decimal */
static void
enumname(char *t, size_t n, const char *c, int64_t s, uint64_t u)
{
	char sv[24], uv[24];
	const char *e, *q, *end;
	size_t l;

	snprintf(sv, sizeof sv, "%" PRId64, s);
	snprintf(uv, sizeof uv, "%" PRIu64, u);
	for (e = strchr(c, '{'); e && *e && *e != '}'; e = end) {
		e++;
		end = e + strcspn(e, ",}");
		if ((q = memchr(e, '=', end - e)) == NULL)
			continue;
		l = q - e;
		if ((l == strlen(sv) && strncmp(e, sv, l) == 0) || (l == strlen(uv) && strncmp(e, uv, l) == 0)) {
			snprintf(t, n, "%.*s", (int)(end - q - 1), q + 1);
			return;
		}
	}
	snprintf(t, n, "%s", sv);
}

/* v shown as class c, from its low bits */
static void
show(char *t, size_t n, const char *c, uint64_t v)
{
	int bits = 64;
	uint64_t u;
	int64_t s;

	if (c[0] == 's' || c[0] == 'u')
		bits = atoi(c + 1);
	else if (strncmp(c, "enum", 4) == 0)
		bits = atoi(c + 4);
	else if (strcmp(c, "char") == 0 || strcmp(c, "bool") == 0)
		bits = 8;
	if (bits <= 0 || bits > 64)
		bits = 64;
	u = bits == 64 ? v : v & ((UINT64_C(1) << bits) - 1);
	s = bits == 64 || !(u >> (bits - 1)) ? (int64_t)u : (int64_t)(u | ~((UINT64_C(1) << bits) - 1));
	if (c[0] == 's')
		snprintf(t, n, "%" PRId64, s);
	else if (c[0] == 'u')
		snprintf(t, n, "%" PRIu64, u);
	else if (c[0] == 'e')
		enumname(t, n, c, s, u);
	else if (c[0] == 'c')
		quotechar(t, n, (unsigned)u);
	else if (c[0] == 'b')
		snprintf(t, n, "%s", u ? "true" : "false");
	else
		snprintf(t, n, "0x%" PRIx64, v);
}

/* a typed word's text, a copy; nil: untyped (or no memory) */
static char *
keytyped(Keytypes *k, const Aggkey *a)
{
	char glob[Globlen];
	const char *c;

	snprintf(glob, sizeof glob, "%.*s", (int)sizeof a->glob, a->glob);
	if ((c = classof(k, glob, a->word)) == NULL)
		return NULL;
	show(k->text, sizeof k->text, c, a->v);
	return strdup(k->text);
}

/* the typed words among the keys, typed; the signatures read if there is one */
static void
typekeys(Aggkeys *a, const char *syms)
{
	Keytypes *k = NULL;
	size_t i;

	for (i = 0; i < a->n; i++) {
		if (a->k[i].word == Aggfunc)
			continue;
		if (k == NULL) {
			if ((k = keytypesnew(syms)) == NULL)
				return;
			loadfns(k);
		}
		a->k[i].text = keytyped(k, &a->k[i]);
	}
	keytypesfree(k);
}

char *
aggtyped(struct Shm *s, const char *syms, int form, size_t *len)
{
	Aggkeys a;

	if (aggkeys(s, syms, form, &a) != 0)
		return NULL;
	typekeys(&a, syms);
	return aggprint(s, &a, len);
}
