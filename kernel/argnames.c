/*
 * argnames.c: predicates by argument name in the kernel (dev/pred.h:
 * predargnames, set at load by main.c): the names of the arguments of
 * the functions a trace's pattern matches, from the signature file
 * (sigs.c, the kernel's BTF), in the form predcompileargs takes, as
 * user space's cmd/argnames.c makes it from DWARF.  A name is usable
 * when every matched function has it in the same record word; one some
 * function lacks or holds elsewhere is "?" (refused if used).  The
 * device asks under kctl, when a predicate is attached: the signature
 * text is made once, at the first ask, and kept (about 4 MB) until the
 * module goes; BTF of the running kernel does not change.
 */
#include "k.h"
#include <linux/glob.h>
#include <linux/slab.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

enum {
	Nname = 64,	/* distinct argument names of one pattern's functions */
	Namemax = 64,
	Outmax = Nname * (Namemax + 16),
};

typedef struct Argname Argname;
struct Argname {
	char name[Namemax];
	char val[16];	/* N[sB|uB], or ? */
	int nfn;	/* functions that have it so */
	int bad;	/* one has it otherwise */
};

/* a class's width, for the predicate compiler: as cmd/argnames.c reads it */
static const struct {
	const char *prefix;
	const char *sign;
	int bits;	/* 0: the digits after the prefix */
} widths[] = {
	{ "s", "s", 0 }, { "u", "u", 0 }, { "enum", "u", 0 }, { "char", "u", 8 }, { "bool", "u", 8 }, { "ptr", "", 64 }, { "other", "", 64 },
};

static char *sigs;
static size_t nsigs;
static Argname names[Nname];
static char out[Outmax];

/* "N[sB|uB]" for class c in record word w, or "?" if no word holds it as a number */
static void
argval(const char *c, int w, char *val, size_t n)
{
	size_t i, k;
	int bits;

	strscpy(val, "?", n);
	if (w < 1 || w > 4)
		return;
	for (i = 0; i < ARRAY_SIZE(widths); i++) {
		k = strlen(widths[i].prefix);
		if (strncmp(c, widths[i].prefix, k) != 0 || (widths[i].bits == 0 && (c[k] < '1' || c[k] > '9')))
			continue;
		bits = widths[i].bits;
		if (bits == 0 && kstrtoint(c + k, 10, &bits) != 0)
			continue;	/* enum64{...}: not a width alone */
		if (bits >= 64)
			snprintf(val, n, "%d", w - 1);
		else
			snprintf(val, n, "%d%s%d", w - 1, widths[i].sign, bits);
		return;
	}
}

/* one signature line of a matched function ("NAME RET name:class:word ...", NUL-ended) into the table */
static void
addline(char *line, int *na)
{
	char *f, *p, *q, val[16];
	int i, w;

	strsep(&line, " ");	/* the name */
	strsep(&line, " ");	/* the return class */
	while ((f = strsep(&line, " ")) != NULL) {
		if ((p = strchr(f, ':')) == NULL || (q = strrchr(f, ':')) == p || p - f >= Namemax)
			continue;
		*p = *q = 0;
		if (kstrtoint(q + 1, 10, &w) != 0)
			w = 0;
		argval(p + 1, w, val, sizeof val);
		for (i = 0; i < *na && strcmp(names[i].name, f) != 0; i++)
			;
		if (i == *na) {
			if (*na == Nname)
				continue;
			strscpy(names[i].name, f, Namemax);
			strscpy(names[i].val, val, sizeof names[i].val);
			names[i].nfn = 0;
			names[i].bad = 0;
			(*na)++;
		}
		if (strcmp(names[i].val, val) == 0)
			names[i].nfn++;
		else
			names[i].bad = 1;
	}
}

/* "name=N[sB|uB] ..." (?: no one word in all), or NULL if no matched function has a signature */
const char *
kargnames(const char *glob)
{
	char *line, *next, *sp, *copy;
	int na = 0, nfn = 0, i, e;
	size_t n, len;

	if (sigs == NULL && (sigs = sigstext(&nsigs, &e)) == NULL)
		return NULL;
	if ((copy = kmalloc(PAGE_SIZE, GFP_KERNEL)) == NULL)
		return NULL;
	for (line = sigs; line < sigs + nsigs; line = next + 1) {
		if ((next = memchr(line, '\n', sigs + nsigs - line)) == NULL)
			break;
		len = next - line;
		if ((sp = memchr(line, ' ', len)) == NULL || len >= PAGE_SIZE)
			continue;
		memcpy(copy, line, len);
		copy[len] = 0;
		copy[sp - line] = 0;
		if (!glob_match(glob, copy))
			continue;
		copy[sp - line] = ' ';
		nfn++;
		addline(copy, &na);
	}
	kfree(copy);
	if (nfn == 0)
		return NULL;
	out[0] = 0;
	for (i = 0, n = 0; i < na && n < sizeof out; i++)
		n += scnprintf(out + n, sizeof out - n, "%s%s=%s", n ? " " : "", names[i].name,
			!names[i].bad && names[i].nfn == nfn ? names[i].val : "?");
	return out;
}

void
argnamesexit(void)
{
	vfree(sigs);
	sigs = NULL;
}
