/*
 * aggctl.c: aggregations, the control side: the agg command and the
 * lines of the state that rebuild them.
 *
 *	agg TRACE entry|exit @NAME[KEY, ...] = FUNC(ARGS)
 *	agg TRACE records on|off|auto
 *	agg @NAME clear
 *	agg @NAME remove
 *	agg clear
 *
 * A key is func (the function, printed by name), execname, or any
 * predicate expression (pid, tid, arg0, retval, dur, arg1 & 0xff, ...);
 * FUNC is count(), sum, min, max, avg or quantize of an expression, or
 * lquantize(EXPR, LOW, HIGH, STEP).  A definition is kept as typed
 * (trimmed), and the state prints it back so.
 */
#include "dev/dat.h"
#include "dev/error.h"
#include "dev/fns.h"
#include "dev/lib.h"

static const char *const funcs[Nfunc] = {
	[Fcount] = "count", [Fsum] = "sum", [Fmin] = "min", [Fmax] = "max",
	[Favg] = "avg", [Fquantize] = "quantize", [Flquantize] = "lquantize",
};

static const char *const recmodes[] = {
	[Rauto] = "auto", [Ron] = "on", [Roff] = "off",
};

static int
namechar(char c, int first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (!first && c >= '0' && c <= '9');
}

static Agg *
aggnamed(Dev *d, const char *name)
{
	Agg *a;

	for (a = d->aggs.agg; a < d->aggs.agg + Nagg; a++)
		if (a->gen && streqn(a->name, name, Namelen))
			return a;
	return 0;
}

static uint32_t
newgen(Dev *d)
{
	if (d->aggs.gennext == 0)
		d->aggs.gennext = 1;
	return d->aggs.gennext++;
}

/* a new generation: the old one's entries are ignored, and taken again by writers */
static void
clear(Dev *d, Agg *a)
{
	a->dropbase = rld(&d->aggs.sdrops[a - d->aggs.agg]);
	ast(&a->gen, newgen(d));
}

/* what went wrong, for the state's #error: "agg: WHAT: the compiler's message" */
static void
saywhat(char *err, size_t nerr, const char *what, const char *msg)
{
	Buf b = { err, err + nerr - 1 };

	bputs(&b, "agg: ");
	bputs(&b, what);
	bputs(&b, ": ");
	bputs(&b, msg);
	bputnul(&b);
}

/*
 * an expression, key or value, into x: a variable alone, typed or not,
 * needs no program.  args: the trace's functions' argument names and
 * types, as a predicate's (predargs.c: predargsof), or nil
 */
static int
compile(Aexpr *x, char *src, int key, const char *args, const char *what, char *err, size_t nerr)
{
	char msg[Errmax];
	int e;

	__builtin_memset(x, 0, sizeof *x);
	if (*src == 0)
		return Errkey;
	if (key && streq(src, "func")) {
		x->kind = Evar;
		x->var = Vpc;
		x->show = Sfunc;
		return Errnone;
	}
	if (key && streq(src, "execname")) {
		x->kind = Eexec;
		x->show = Sstr;
		return Errnone;
	}
	if ((e = predcompileargsstack(src, args, &x->prog, msg, sizeof msg)) != Errnone) {
		saywhat(err, nerr, what, msg);
		return e;
	}
	x->show = Sdec;
	if (x->prog.ninst == 2 && (x->prog.inst[0] & 0xff) == Ovar && x->prog.inst[1] == Oret) {
		x->kind = Evar;
		x->var = x->prog.inst[0] >> 8;
	} else if (x->prog.ninst == 3 && (x->prog.inst[0] & 0xff) == Ovar && (x->prog.inst[1] & 0xff) == Oext && x->prog.inst[2] == Oret) {
		x->kind = Evar;	/* typed: Ovar, Oext, Oret */
		x->var = x->prog.inst[0] >> 8;
		x->ext = x->prog.inst[1] >> 8;
	} else
		x->kind = Eprog;
	return Errnone;
}

/* the pieces of a list at depth 0 of parentheses, cut at commas in place; -1 if more than max */
static int
split(char *s, char **f, int max)
{
	int n = 0, depth = 0;

	if (*strim(s) == 0)
		return 0;
	f[n++] = s;
	for (; *s; s++) {
		if (*s == '(')
			depth++;
		else if (*s == ')')
			depth--;
		else if (*s == ',' && depth == 0) {
			if (n == max)
				return -1;
			*s = 0;
			f[n++] = s + 1;
		}
	}
	return n;
}

/* a signed decimal constant */
static int
sdec(char *s, int64_t *v)
{
	uint64_t u;
	int neg;

	s = strim(s);
	neg = *s == '-';
	if (!parsedec(s + neg, &u) || u >= (uint64_t)1 << 62)
		return 0;
	*v = neg ? -(int64_t)u : (int64_t)u;
	return 1;
}

static void
putlist(Buf *b, char **f, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (i > 0)
			bputs(b, ", ");
		bputs(b, strim(f[i]));
	}
}

/* agg TRACE entry|exit @NAME[KEYS] = FUNC(ARGS): s is what follows entry or exit */
static int
define(Dev *d, int tslot, int exit, char *s, const Devsigs *sigs, char *err, size_t nerr)
{
	char *name, *keys = 0, *fn, *args, *e, *kf[Nkey + 1], *af[5], src[Aggsrcmax];
	char what[16] = "key 1";
	Agg *a, *free = 0;
	Trace *t = &d->trace[tslot];
	const char *names;
	Buf b = { src, src + sizeof src - 1 };
	int nk, na, i, w, r;
	uint32_t f;

	s = sskip(s);
	if (*s++ != '@')
		return Erraggform;
	name = s;
	for (i = 0; namechar(*s, i == 0); s++, i++)
		;
	if (i == 0 || i >= Namelen || (*s && *s != '[' && *s != '=' && !sblank(*s)))
		return Erraggname;
	if (*s == '[') {
		*s++ = 0;
		keys = s;
		while (*s && *s != ']')
			s++;
		if (*s != ']')
			return Erraggform;
		*s++ = 0;
	}
	s = sskip(s);
	if (*s != '=')
		return Erraggform;
	*s++ = 0;
	name[i] = 0;	/* after the checks that read what followed it */
	fn = s = sskip(s);
	while (namechar(*s, 0))
		s++;
	e = s;
	s = sskip(s);
	if (*s != '(')
		return Erraggform;
	*e = 0;
	args = ++s;
	e = args + slen(args);
	while (e > args && sblank(e[-1]))
		e--;
	if (e == args || e[-1] != ')')
		return Erraggform;
	e[-1] = 0;
	for (f = 0; f < Nfunc && !streq(fn, funcs[f]); f++)
		;
	if (f == Nfunc)
		return Erraggfunc;
	if (aggnamed(d, name))
		return Erraggexists;
	for (a = d->aggs.agg; a < d->aggs.agg + Nagg; a++)
		if (a->gen == 0) {
			free = a;
			break;
		}
	if (free == 0)
		return Errnagg;
	nk = keys ? split(keys, kf, Nkey) : 0;
	if (nk < 0 || (keys && nk == 0))
		return nk < 0 ? Errkeys : Errkey;
	na = split(args, af, 4);
	if (na != (f == Fcount ? 0 : f == Flquantize ? 4 : 1))
		return Erraggargs;

	/* values as their type, as the trace's predicate has them */
	names = t->kind == Glob ? predargsof(sigs, t->glob) : 0;
	/* the slot is free (gen 0): no writer reads it while it is filled */
	a = free;
	a->func = f;
	a->exit = exit;
	a->tslot = tslot;
	a->nkey = nk;
	a->low = a->high = a->step = 0;
	for (i = w = 0; i < nk; i++) {
		what[4] = '1' + i;
		if ((r = compile(&a->key[i], strim(kf[i]), 1, names, what, err, nerr)) != Errnone)
			return r;
		w += a->key[i].kind == Eexec ? 2 : 1;
	}
	if (w > Nkeyw)
		return Errkeys;
	__builtin_memset(&a->val, 0, sizeof a->val);
	if (na > 0 && (r = compile(&a->val, strim(af[0]), 0, names, "value", err, nerr)) != Errnone)
		return r;
	if (f == Flquantize) {
		if (!sdec(af[1], &a->low) || !sdec(af[2], &a->high) || !sdec(af[3], &a->step) ||
		    a->step <= 0 || a->low >= a->high || (a->high - a->low) % a->step != 0 ||
		    (a->high - a->low) / a->step > Lqmax)
			return Errlquant;
	}
	bputc(&b, '@');
	bputs(&b, name);
	if (nk > 0) {
		bputc(&b, '[');
		putlist(&b, kf, nk);
		bputc(&b, ']');
	}
	bputs(&b, " = ");
	bputs(&b, funcs[f]);
	bputc(&b, '(');
	putlist(&b, af, na);
	bputc(&b, ')');
	if (b.p >= b.e)
		return Erragglong;
	bputnul(&b);
	scopy(a->src, src, Aggsrcmax);
	scopy(a->name, name, Namelen);
	clear(d, a);
	return Errnone;
}

int
aggctl(Dev *d, char *s, const Devsigs *sigs, char *err, size_t nerr)
{
	char *w1, *w2, *w3;
	Agg *a;
	Trace *tr;
	int t;
	uint32_t m;

	err[0] = 0;
	w1 = sword(&s);
	if (*w1 == '@') {
		w2 = sword(&s);
		if (*s || !(streq(w2, "clear") || streq(w2, "remove")))
			return Erraggform;
		if ((a = aggnamed(d, w1 + 1)) == 0)
			return Errnoagg;
		if (streq(w2, "clear"))
			clear(d, a);
		else
			ast(&a->gen, 0);
		return Errnone;
	}
	if (streq(w1, "clear") && *s == 0) {
		for (a = d->aggs.agg; a < d->aggs.agg + Nagg; a++)
			if (a->gen)
				clear(d, a);
		return Errnone;
	}
	if (*w1 == 0)
		return Erraggform;
	w2 = sword(&s);
	if (!streq(w2, "entry") && !streq(w2, "exit") && !streq(w2, "records"))
		return Erraggform;
	if ((tr = tracelookup(d, w1)) == 0)
		return Errnotrace;
	t = tr - d->trace;
	if (!streq(w2, "records"))
		return define(d, t, streq(w2, "exit"), s, sigs, err, nerr);
	w3 = sword(&s);
	for (m = 0; m < nelem(recmodes) && !streq(w3, recmodes[m]); m++)
		;
	if (*s || m == nelem(recmodes))
		return Errrecmode;
	ast(&d->aggs.recmode[t], m);
	return Errnone;
}

void
aggdetach(Dev *d, int slot)
{
	Agg *a;

	for (a = d->aggs.agg; a < d->aggs.agg + Nagg; a++)
		if (a->gen && a->tslot == (uint32_t)slot)
			ast(&a->gen, 0);
	ast(&d->aggs.recmode[slot], Rauto);
}

static uint64_t
aggdrops(Dev *d)
{
	return rld(&d->aggs.drops);
}

static uint64_t
agghits(Dev *d)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i <= Naggbuf; i++)
		n += rld(&d->aggs.buf[i].hits);
	return n;
}

/*
 * A string of the block, n bytes at most: what a command could have put
 * there, else '?', in the block too, and a NUL in its last byte if it
 * had none: the damage is counted once, the next look finds it repaired.
 */
static void
bputsafe(Dev *d, Buf *b, char *s, size_t n)
{
	size_t i;
	char c;
	int bad = 0;

	for (i = 0; i < n - 1 && (c = s[i]) != 0; i++) {
		if ((unsigned char)c < ' ' || (unsigned char)c >= 0x7f) {
			s[i] = c = '?';
			bad = 1;
		}
		bputc(b, c);
	}
	if (i == n - 1 && s[i]) {
		s[i] = 0;
		bad = 1;
	}
	if (bad)
		corrupt(d);
}

/* the definitions (counters 0), or the counters as comments (1) */
void
aggstate(Dev *d, Buf *b, int counters)
{
	Agg *a;
	Trace *t;
	uint32_t m;
	int i, any = 0;

	for (a = d->aggs.agg; a < d->aggs.agg + Nagg; a++) {
		if (a->gen == 0)
			continue;
		any = 1;
		if (counters)
			continue;
		if (a->tslot >= Ntrace || d->trace[a->tslot].gen == 0) {
			corrupt(d);	/* no command leaves one without its trace */
			ast(&a->gen, 0);
			continue;
		}
		bputs(b, "agg ");
		bputsafe(d, b, d->trace[a->tslot].name, Namelen);
		bputs(b, a->exit ? " exit " : " entry ");
		bputsafe(d, b, a->src, Aggsrcmax);
		bputc(b, '\n');
	}
	if (counters) {
		if (any || aggdrops(d) || agghits(d)) {
			bputs(b, "#aggregated ");
			bputdec(b, agghits(d));
			bputs(b, "\n#aggdrops ");
			bputdec(b, aggdrops(d));
			bputc(b, '\n');
		}
		return;
	}
	for (i = 0, t = d->trace; i < Ntrace; i++, t++) {
		if (t->gen == 0 || (m = rld(&d->aggs.recmode[i])) == Rauto)
			continue;
		if (m >= nelem(recmodes)) {
			corrupt(d);
			ast(&d->aggs.recmode[i], Rauto);
			continue;
		}
		bputs(b, "agg ");
		bputsafe(d, b, t->name, Namelen);
		bputs(b, " records ");
		bputs(b, recmodes[m]);
		bputc(b, '\n');
	}
}
