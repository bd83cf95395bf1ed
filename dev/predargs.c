/*
 * predargs.c: the argument names of a pattern's functions, in the form
 * predcompileargs takes ("name=N[sB|uB] ...", pred.h), from their
 * signature lines ("NAME RET name:class:word ...", the line of devtrace
 * sigs and of a kernel's /dev/tracesigs).  The hosts' predargnames
 * (user space: DWARF; a kernel: BTF) find the lines and feed them here,
 * so both name arguments by one rule: a name is usable when every
 * matched function has it in the same record word, as a number.
 */
#include "dev/lib.h"
#include "dev/pred.h"

/* a class's width, for the predicate compiler: as the scripts read it, from its low bytes */
static const struct {
	const char *prefix;
	const char *sign;
	int bits;	/* 0: the digits after the prefix */
} widths[] = {
	{ "s", "s", 0 }, { "u", "u", 0 }, { "enum", "u", 0 }, { "char", "u", 8 }, { "bool", "u", 8 }, { "ptr", "", 64 }, { "other", "", 64 },
};

/* c begins with p: c past it, or nil */
static const char *
prefix(const char *c, const char *p)
{
	while (*p)
		if (*c++ != *p++)
			return 0;
	return c;
}

/* "N[sB|uB]" for class c in record word w (1-4), or "?" if no word holds it as a number */
static void
argval(const char *c, uint64_t w, char *val, size_t n)
{
	Buf b = { val, val + n - 1 };
	const char *d;
	uint64_t bits;
	size_t i;

	scopy(val, "?", n);
	if (w < 1 || w > 4)
		return;
	for (i = 0; i < sizeof widths / sizeof widths[0]; i++) {
		if ((d = prefix(c, widths[i].prefix)) == 0)
			continue;
		bits = widths[i].bits;
		if (bits == 0) {	/* the digits after the prefix: s32, u8, enum32{...} */
			if (*d < '1' || *d > '9')
				continue;
			for (; *d >= '0' && *d <= '9' && bits < 1000; d++)
				bits = bits * 10 + (*d - '0');
		}
		bputdec(&b, w - 1);
		if (bits < 64) {
			bputs(&b, widths[i].sign);
			bputdec(&b, bits);
		}
		bputnul(&b);
		return;
	}
}

void
predargsinit(Predargs *a)
{
	a->n = 0;
	a->nfn = 0;
}

void
predargsadd(Predargs *a, char *line)
{
	char *f, *p, *q, val[Predargval];
	uint64_t w;
	int i;

	a->nfn++;
	sword(&line);	/* the name */
	sword(&line);	/* the return class */
	while (*(f = sword(&line))) {
		for (p = f; *p && *p != ':'; p++)
			;
		for (q = f + slen(f); q > p && *q != ':'; q--)
			;
		if (*p == 0 || q == p || p - f >= Predargname)
			continue;
		*p = *q = 0;
		if (!parsedec(q + 1, &w))
			w = 0;
		argval(p + 1, w, val, sizeof val);
		for (i = 0; i < a->n && !streq(a->a[i].name, f); i++)
			;
		if (i == a->n) {
			if (a->n == Npredarg)
				continue;
			scopy(a->a[i].name, f, Predargname);
			scopy(a->a[i].val, val, Predargval);
			a->a[i].nfn = 0;
			a->a[i].bad = 0;
			a->n++;
		}
		if (streq(a->a[i].val, val))
			a->a[i].nfn++;
		else
			a->a[i].bad = 1;
	}
}

const char *
predargstext(Predargs *a, char *out, size_t n)
{
	Buf b = { out, out + n - 1 };
	int i;

	if (a->nfn == 0)
		return 0;
	for (i = 0; i < a->n; i++) {
		if (i > 0)
			bputc(&b, ' ');
		bputs(&b, a->a[i].name);
		bputc(&b, '=');
		bputs(&b, !a->a[i].bad && a->a[i].nfn == a->nfn ? a->a[i].val : "?");
	}
	bputnul(&b);
	return out;
}
