/*
 * predargs.c: the argument names of a pattern's functions, in the form
 * predcompileargs takes ("name=N[sB|uB] ...", pred.h), from their
 * signature lines ("NAME RET name:class:word ...", the line of devtrace
 * sigs and of a kernel's /dev/tracesigs), which the host hands in with
 * the control write (devtrace.h: Devsigs; user space's from DWARF, a
 * kernel's from BTF), so both name arguments by one rule, and the device
 * asks nothing of the layers above it: a name is usable when every
 * matched function has it in the same record word, as a number.  The
 * same lines type arg0..arg3 and retval (values as their type): by the
 * functions that have a number there, if they agree.
 */
#include "dev/lib.h"
#include "dev/pred/pred.h"

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

/* an enum with a negative value is signed, as C makes its type int */
static int
negenum(const char *c)
{
	for (; *c; c++)
		if ((c[0] == '{' || c[0] == ',') && c[1] == '-')
			return 1;
	return 0;
}

/* class c's extension into ext: "sB", "uB", or "" (64 bits, the word as it is); 0 if it is no number */
static int
classext(const char *c, char *ext, size_t n)
{
	Buf b = { ext, ext + n - 1 };
	const char *d;
	uint64_t bits;
	size_t i;

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
		if (bits < 64) {
			bputs(&b, streq(widths[i].prefix, "enum") && negenum(d) ? "s" : widths[i].sign);
			bputdec(&b, bits);
		}
		bputnul(&b);
		return 1;
	}
	return 0;
}

/* "N[sB|uB]" for class c in record word w (1-4), or "?" if no word holds it as a number */
static void
argval(const char *c, uint64_t w, char *val, size_t n)
{
	Buf b = { val, val + n - 1 };
	char ext[Predargval];

	if (w < 1 || w > 4 || !classext(c, ext, sizeof ext)) {
		scopy(val, "?", n);
		return;
	}
	bputdec(&b, w - 1);
	bputs(&b, ext);
	bputnul(&b);
}

/* a function's vote for position i (arg0..arg3, retval): class c's extension, if it is a number */
static void
posadd(Predargs *a, int i, const char *c)
{
	char ext[Predargval];

	if (!classext(c, ext, sizeof ext))
		return;	/* no number there: what it reads is no C value either way */
	if (a->pos[i].nfn++ == 0)
		scopy(a->pos[i].ext, ext, Predargval);
	else if (!streq(a->pos[i].ext, ext))
		a->pos[i].bad = 1;
}

void
predargsinit(Predargs *a)
{
	int i;

	a->n = 0;
	a->nfn = 0;
	for (i = 0; i < Npredpos; i++) {
		a->pos[i].nfn = 0;
		a->pos[i].bad = 0;
	}
}

void
predargsadd(Predargs *a, char *line)
{
	char *f, *p, *q, val[Predargval];
	uint64_t w;
	int i;

	a->nfn++;
	sword(&line);	/* the name */
	posadd(a, Npredpos - 1, sword(&line));	/* the return class: retval */
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
		if (w >= 1 && w <= 4)
			posadd(a, w - 1, p + 1);
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

void
predargsnosig(Predargs *a)
{
	int i;

	for (i = 0; i < Npredpos; i++)
		a->pos[i].bad = 1;
}

/*
 * The typed positions first ("$arg0=s32 $retval=u8"), named so that no
 * C name meets them: where the functions with a number there agree on
 * its type and it is narrower than a word; else the word, unsaid.
 */
const char *
predargstext(Predargs *a, char *out, size_t n)
{
	static const char *const pos[Npredpos] = { "$arg0=", "$arg1=", "$arg2=", "$arg3=", "$retval=" };
	Buf b = { out, out + n - 1 };
	const char *sep = "";
	int i;

	if (a->nfn == 0)
		return 0;
	for (i = 0; i < Npredpos; i++) {
		if (a->pos[i].nfn == 0 || a->pos[i].bad || a->pos[i].ext[0] == 0)
			continue;
		bputs(&b, sep);
		bputs(&b, pos[i]);
		bputs(&b, a->pos[i].ext);
		sep = " ";
	}
	for (i = 0; i < a->n; i++) {
		bputs(&b, sep);
		sep = " ";
		bputs(&b, a->a[i].name);
		bputc(&b, '=');
		bputs(&b, !a->a[i].bad && a->a[i].nfn == a->nfn ? a->a[i].val : "?");
	}
	bputnul(&b);
	return out;
}

/* a Devsigs' work: the device's scratch for one control call, the caller's memory (a kernel's stack is too small) */
typedef struct Sigwork Sigwork;
struct Sigwork {
	Predargs a;
	char line[Sigline];
	char out[Predargtext];
};

size_t
devsigswork(void)
{
	return sizeof(Sigwork);
}

const char *
predargsof(const Devsigs *s, const char *glob)
{
	const char *p, *nl, *e;
	Sigwork *w;
	char *sp;
	size_t len;

	if (s == 0 || s->work == 0)
		return 0;
	w = s->work;
	predargsinit(&w->a);
	for (p = s->text, e = p + s->n; p < e; p = nl + 1) {
		for (nl = p; nl < e && *nl != '\n'; nl++)
			;
		if ((len = nl - p) >= Sigline)
			continue;
		__builtin_memcpy(w->line, p, len);
		w->line[len] = 0;
		for (sp = w->line; *sp && *sp != ' '; sp++)
			;
		if (*sp == 0)
			continue;
		*sp = 0;	/* the name alone, for the pattern */
		if (!globmatch(glob, w->line))
			continue;
		*sp = ' ';
		if (streq(sp + 1, "-"))
			predargsnosig(&w->a);
		else
			predargsadd(&w->a, w->line);
	}
	return predargstext(&w->a, w->out, sizeof w->out);
}
