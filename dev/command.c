/*
 * command.c: one control line, run.  Traces select functions by address
 * range or by name pattern; a watch list selects processes; start and
 * stop switch everything.  Control lines are parsed against a table,
 * trace's subcommands against one of their own; a refusal is a name
 * from error.h, which gives its errno and its text.  The state reads
 * back as lines that are themselves control lines (state.c).  Writes
 * are cut into lines above this file (ctlfile.c); what a command
 * changes is below it (fns.h).
 */
#include "dev/dat.h"
#include "dev/error.h"
#include "dev/fns.h"
#include "dev/lib.h"
#include "dev/host.h"

enum {
	Maxarg = 8,
};

typedef struct Ctlcmd Ctlcmd;
typedef struct Ctl Ctl;
typedef struct Tracecmd Tracecmd;

/* one control line, split */
struct Ctl {
	Dev *d;
	int nf;
	char *f[Maxarg];
	char *rest;		/* the line after the third field, for pred */
	uint32_t pid;
	const Devsigs *sigs;	/* the host's signatures, or nil */
	const Devsyms *syms;	/* the host's functions, or nil */
	int said;		/* the command wrote its refusal's text in Dev.err itself */
};

/* commands return Errnone or a refusal (error.h) */
struct Ctlcmd {
	char *name;
	int minf, maxf;		/* fields, the command's name included */
	int (*fn)(Ctl *);
};

/* trace's subcommands: the word at f[at], with nf fields; on a trace named by f[1] if named */
struct Tracecmd {
	char *name;
	int at, nf;
	int named;
	int (*fn)(Ctl *, Trace *);
};

/* a word of digits: a number, however large */
static int
isdigits(const char *s)
{
	const char *p = s;

	while (*p >= '0' && *p <= '9')
		p++;
	return p > s && *p == 0;
}

/* a refusal that says its range: the text written here, the command's name before it */
static int
refusebound(Ctl *c, int e, uint64_t lo, uint64_t hi)
{
	errbound(c->d, c->f[0], e, lo, hi);
	c->said = 1;
	return e;
}

static int
okname(const char *s)
{
	int n;

	for (n = 0; s[n]; n++)
		if (!(s[n] >= 'a' && s[n] <= 'z') && !(s[n] >= 'A' && s[n] <= 'Z') && s[n] != '_' &&
		    !(n > 0 && ((s[n] >= '0' && s[n] <= '9') || s[n] == '-' || s[n] == '.')))
			return 0;
	return n > 0 && n < Namelen;
}

/* the new trace (the youngest: a function an older trace selects is that one's) would select sym */
static int
selects(Ctl *c, int kind, uint64_t start, uint64_t end, const char *glob, const Devsym *sym)
{
	int hit = kind == Range ? sym->addr >= start && sym->addr < end : sym->name && globmatch(glob, sym->name);

	return hit && devselect(c->d, sym->addr, sym->addr, 1, sym->name) < 0;
}

/*
 * The host's functions (Devsyms) that the trace would select: the first
 * denied one refuses it (Eperm), and so does none that can be patched
 * (Einval), before it is made: a refusal in the same call.
 */
static int
symcheck(Ctl *c, int kind, uint64_t start, uint64_t end, const char *glob, const char *name)
{
	const Devsyms *y = c->syms;
	const Devsym *s;
	Buf b = { c->d->err, c->d->err + Errmax - 1 };
	uint32_t i, n = 0, w;

	if (y == 0)
		return Errnone;
	for (i = 0, s = 0; i < y->n && s == 0; i++) {
		if (!selects(c, kind, start, end, glob, &y->sym[i]))
			continue;
		if ((w = y->sym[i].why) >= Symdenied && w - Symdenied < y->nwhy)
			s = &y->sym[i];
		n += w == Symok;
	}
	if (s == 0 && n > 0)
		return Errnone;
	bputs(&b, "trace: ");
	bputs(&b, name);
	if (s) {
		bputs(&b, " selects ");
		bputs(&b, s->name);
		bputs(&b, ": ");
		bputs(&b, y->why[s->why - Symdenied]);
		bputs(&b, ", never traced");
	} else {
		bputc(&b, ' ');
		bputs(&b, y->nosite);
	}
	bputnul(&b);
	c->said = 1;
	return s ? Errdenied : Errnosite;
}

static int
newtrace(Ctl *c, int kind, uint64_t start, uint64_t end, const char *glob, const char *name)
{
	Dev *d = c->d;
	Trace *t, *free = 0;
	int err;

	if (!okname(name))
		return Errname;
	if (tracelookup(d, name))
		return Errexists;
	if (kind == Range && start >= end)
		return Errrange;
	if (kind == Glob && slen(glob) >= Globlen)
		return Errglob;
	for (t = d->trace; t < d->trace + Ntrace; t++) {
		if (t->gen == 0) {
			if (free == 0)
				free = t;
			continue;
		}
		if (kind == Range && t->kind == Range && start < t->end && t->start < end)
			return Erroverlap;
		if (kind == Glob && t->kind == Glob && streq(t->glob, glob))
			return Errexists;
	}
	if (free == 0)
		return Errntrace;
	if ((err = symcheck(c, kind, start, end, glob, name)) != Errnone)
		return err;
	t = free;
	t->kind = kind;
	t->on = 0;
	t->haspred = 0;
	t->start = start;
	t->end = end;
	t->predsrc[0] = 0;
	scopy(t->glob, glob ? glob : "", Globlen);
	scopy(t->name, name, Namelen);
	t->born = d->gennext;	/* the gen tracepublish gives it now */
	tracepublish(d, t);
	return Errnone;
}

/* an address: hex, or _text+HEX where the host gave a text base (the kernel's offsets) */
static int
parseaddr(Ctl *c, const char *s, uint64_t *v)
{
	static const char pre[] = "_text+";
	size_t i;

	for (i = 0; (c->d->rules & Ruletext) && pre[i] && s[i] == pre[i]; i++)
		;
	if (i < sizeof pre - 1)
		return parsehex(s, v);
	if (!parsehex(s + i, v))
		return 0;
	*v += c->d->textbase;
	return 1;
}

/* trace START END new NAME */
static int
trnewrange(Ctl *c, Trace *unused)
{
	uint64_t start, end;

	(void)unused;
	if (!parseaddr(c, c->f[1], &start) || !parseaddr(c, c->f[2], &end))
		return Erraddr;
	return newtrace(c, Range, start, end, 0, c->f[4]);
}

/* trace GLOB new NAME */
static int
trnewglob(Ctl *c, Trace *unused)
{
	char *p = c->f[1];
	size_t n;

	(void)unused;
	if (p[0] == '\'' && (n = slen(p)) > 2 && p[n - 1] == '\'') {	/* 'rtc*' as typed to a shell that did not take the quotes */
		p[n - 1] = 0;
		p++;
		/* the state prints a pattern bare, and 'x' would read back as x */
		if (p[0] == '\'' && n - 2 > 2 && p[n - 3] == '\'')
			return Errglobquote;
	}
	return newtrace(c, Glob, 0, 0, p, c->f[3]);
}

/*
 * /expression/ for trace t, compiled into prog and its source into src
 * (Predmax).  The compiler writes its message, with the source and a
 * caret, into Dev.err after the command's name: no buffer of its own.
 */
static int
compilepred(Ctl *c, Trace *t, char *p, Prog *prog, char *src)
{
	Dev *d = c->d;
	char *e;
	int n, err;

	e = p + slen(p);
	if (*p != '/' || e - p < 2 || e[-1] != '/')
		return Errpredform;
	n = e - p - 2;
	if (n >= Predmax)
		return Errpredlong;
	scopy(src, p + 1, n + 1);
	errset(d, c->f[0], "");
	n = slen(d->err);
	if ((err = predcompileargs(src, t->kind == Glob ? predargsof(c->sigs, t->glob) : 0, prog, d->err + n, Errmax - n)) != Errnone)
		c->said = 1;
	return err;
}

/* trace NAME pred /expression/, or nothing to remove it: the rest of the line */
static int
trpred(Ctl *c, Trace *t)
{
	Dev *d = c->d;
	char src[Predmax], *p = strim(c->rest);
	Prog prog;
	int err;

	if (*p == 0) {
		t->gen = 0;
		t->haspred = 0;
		t->predsrc[0] = 0;
		tracepublish(d, t);
		return Errnone;
	}
	if ((err = compilepred(c, t, p, &prog, src)) != Errnone)
		return err;
	t->gen = 0;
	t->pred = prog;
	scopy(t->predsrc, src, Predmax);
	t->haspred = 1;
	tracepublish(d, t);
	return Errnone;
}

/*
 * trace NAME trigger stop [after N] [/pred/], trigger start [/pred/],
 * speculate|commit|discard [/pred/]: an action of the trace (actctl.c),
 * the rest of the line after the word.
 */
static int
tract(Ctl *c, Trace *t)
{
	static const char *const words[Nactkind] = { "stop", "start", "speculate", "commit", "discard" };
	char src[Predmax], *p = strim(c->rest), *w;
	uint64_t after = 0;
	uint32_t k;
	Prog prog;
	int err;

	w = streq(c->f[2], "trigger") ? sword(&p) : c->f[2];
	for (k = 0; k < Nactkind && !streq(w, words[k]); k++)
		;
	if (k == Nactkind || (k <= Atrigstart) != streq(c->f[2], "trigger"))
		return Erractform;
	p = sskip(p);
	if (k == Atrigstop && p[0] == 'a') {
		if (!streq(sword(&p), "after") || !isdigits(w = sword(&p)))
			return Erractform;
		if (!parsedec(w, &after) || after > Aftermax)	/* digits past 2^64 too */
			return refusebound(c, Errafter, 0, Aftermax);
		p = sskip(p);
	}
	if (*p && *p != '/')
		return Erractform;
	if (*p && (err = compilepred(c, t, p, &prog, src)) != Errnone)
		return err;
	err = actset(c->d, t - c->d->trace, k, after, *p ? &prog : 0, *p ? src : "");
	if (err == Errnone)
		tracepublish(c->d, t);
	return err;
}

/* trace NAME actions clear: its triggers and speculations are gone */
static int
tractclear(Ctl *c, Trace *t)
{
	if (!streq(c->f[3], "clear"))
		return Errtracecmd;
	actdetach(c->d, t - c->d->trace);
	tracepublish(c->d, t);
	return Errnone;
}

/* trace NAME on, trace NAME off */
static int
tronoff(Ctl *c, Trace *t)
{
	ast(&t->on, streq(c->f[2], "on"));
	return Errnone;
}

static int
trremove(Ctl *c, Trace *t)
{
	ast(&t->gen, 0);
	t->on = 0;
	aggdetach(c->d, t - c->d->trace);
	actdetach(c->d, t - c->d->trace);
	return Errnone;
}

/* ctlrun stops splitting at pred and the actions' words, so their lines have 3 fields and the rest */
static const Tracecmd tracecmds[] = {
	{ "new", 3, 5, 0, trnewrange },
	{ "new", 2, 4, 0, trnewglob },
	{ "pred", 2, 3, 1, trpred },
	{ "on", 2, 3, 1, tronoff },
	{ "off", 2, 3, 1, tronoff },
	{ "remove", 2, 3, 1, trremove },
	{ "trigger", 2, 3, 1, tract },
	{ "speculate", 2, 3, 1, tract },
	{ "commit", 2, 3, 1, tract },
	{ "discard", 2, 3, 1, tract },
	{ "actions", 2, 4, 1, tractclear },
};

/* trace NAME WORD ...: words whose rest of the line is one field, spaces and all (a predicate's) */
static int
restword(Ctl *c)
{
	static const char *const words[] = { "pred", "trigger", "speculate", "commit", "discard" };
	uint32_t i;

	for (i = 0; c->nf >= 3 && streq(c->f[0], "trace") && i < nelem(words); i++)
		if (streq(c->f[2], words[i]))
			return 1;
	return 0;
}

static int
ctltrace(Ctl *c)
{
	const Tracecmd *s;
	Trace *t = 0;

	for (s = tracecmds; s < tracecmds + nelem(tracecmds); s++)
		if (c->nf == s->nf && streq(c->f[s->at], s->name)) {
			if (s->named && (t = tracelookup(c->d, c->f[1])) == 0)
				return Errnotrace;
			return s->fn(c, t);
		}
	/* trace NAME word: the trace is missing, or the word is wrong */
	return c->nf == 3 && tracelookup(c->d, c->f[1]) == 0 ? Errnotrace : Errtracecmd;
}

/*
 * The largest size is the mapping's, never the block's logmax: any
 * process may write that.  A refusal gives the range as the command
 * takes it: log2 for size, records for logsize.
 */
static int
setlog(Ctl *c, uint64_t log, int records)
{
	uint64_t max = maplogmax(c->d);

	if (log < Logmin || log > max)
		return records ? refusebound(c, Errsizerange, 1ull << Logmin, 1ull << max) : refusebound(c, Errsizerange, Logmin, max);
	ringreset(c->d, (int)log);
	return Errnone;
}

static int
ctlsize(Ctl *c)
{
	uint64_t log;

	if (!parsedec(c->f[1], &log))
		return Errsize;
	return setlog(c, log, 0);
}

/* logsize N, as the state prints it: N records, a power of two */
static int
ctllogsize(Ctl *c)
{
	uint64_t n, log;

	if (!parsedec(c->f[1], &n) || n == 0 || (n & (n - 1)))
		return Errsize;
	for (log = 0; (1ull << log) < n; log++)
		;
	return setlog(c, log, 1);
}

/*
 * policy ring|fill|block [MS]: what a writer does when the ring is full
 * (ring.c).  MS, block's alone, is how long a writer waits for a reader
 * that reads nothing.  A writer sees the change at its next decision
 * (the control generation): a record or two may follow the old policy.
 */
static int
ctlpolicy(Ctl *c)
{
	Dev *d = c->d;
	uint64_t ms = Waitdef;
	uint32_t p;

	for (p = 0; p < Npolicy && !streq(c->f[1], policynames[p]); p++)
		;
	if (p == Npolicy)
		return Errpolicy;
	if (p == Pblock && (d->rules & Rulenoblock))
		return Errblockhere;
	if (c->nf == 3 && p != Pblock)
		return Errnowait;
	if (c->nf == 3 && (!parsedec(c->f[2], &ms) || ms < 1 || ms > Waitmax))
		return Errwaitms;
	ast(&d->waitms, (uint32_t)ms);
	ast(&d->stalled, 0);	/* a new bound: the next full ring is waited for again */
	wringunstall(d);
	ast(&d->policy, p);
	return Errnone;
}

static int
ctlquery(Ctl *c)
{
	Dev *d = c->d;
	Trace *t;
	uint64_t pc;

	if (!parseaddr(c, c->f[1], &pc))
		return Erraddr;
	t = tracerange(d, pc);
	d->query = pc;
	scopy(d->queryname, t ? t->name : "untraced", Namelen);
	d->hasquery = 1;
	return Errnone;
}

/* testtracein pc a1..a4: an entry of that function, by the writing process */
static int
ctltestin(Ctl *c)
{
	Dev *d = c->d;
	Trace *t;
	Tsel sel;
	Hit h;
	int i;

	if (!parseaddr(c, c->f[1], &h.pc))
		return Erraddr;
	for (i = 0; i < 4; i++)
		if (!parsehex(c->f[2 + i], &h.a[i]))
			return Errarg;
	h.ticks = hostticks();
	h.tid = h.pid = c->pid;
	h.depth = 0;
	h.exit = 0;
	h.dur = 0;
	h.w = 0;
	if ((t = tracerange(d, h.pc)) != 0 && devtsel(d, t - d->trace, &sel))
		devhit(d, &sel, &h);
	return Errnone;
}

/* watch PID [tree]: tree, the processes descended from PID too (host.h: hostdescends) */
static int
ctlwatch(Ctl *c)
{
	Dev *d = c->d;
	uint64_t pid;
	uint32_t i, n = d->nwatch, flag = 0;

	if (!parsedec(c->f[1], &pid) || pid >= Watchtree)
		return Errpid;
	if (c->nf == 3) {
		if (!streq(c->f[2], "tree"))
			return Errarg;
		flag = Watchtree;
	}
	if (pid == 0) {
		if (flag)
			return Errpid;
		ast(&d->nwatch, 0);
		return Errnone;
	}
	if (n > Nwatch) {	/* a count past its array: keep what the array holds, refuse this once */
		corrupt(d);
		ast(&d->nwatch, Nwatch);
		return Errcorrupt;
	}
	for (i = 0; i < n; i++)
		if ((d->watch[i] & ~Watchtree) == pid) {
			ast(&d->watch[i], d->watch[i] | flag);	/* tree widens a watch; a plain watch leaves it */
			return Errnone;
		}
	if (n == Nwatch)
		return Errnwatch;
	d->watch[n] = pid | flag;
	ast(&d->nwatch, n + 1);
	return Errnone;
}

static int
ctlstart(Ctl *c)
{
	actstart(c->d);
	ast(&c->d->started, 1);
	return Errnone;
}

static int
ctlstop(Ctl *c)
{
	ast(&c->d->started, 0);
	return Errnone;
}

/* agg ...: the rest of the line (aggctl.c); a compiler's message it wrote itself */
static int
ctlagg(Ctl *c)
{
	int err = aggctl(c->d, c->rest, c->sigs, c->d->err, Errmax);

	c->said = err != Errnone && c->d->err[0] != 0;
	return err;
}

static const Ctlcmd ctlcmds[] = {
	{ "agg", 1, 1, ctlagg },
	{ "trace", 3, 5, ctltrace },
	{ "size", 2, 2, ctlsize },
	{ "logsize", 2, 2, ctllogsize },
	{ "policy", 2, 3, ctlpolicy },
	{ "query", 2, 2, ctlquery },
	{ "testtracein", 6, 6, ctltestin },
	{ "watch", 2, 3, ctlwatch },
	{ "start", 1, 1, ctlstart },
	{ "stop", 1, 1, ctlstop },
};

/* run one line, NUL-terminated, already checked for length and characters (ctlfile.c) */
int
ctlrun(Dev *d, char *line, uint32_t pid, const Devsigs *s, const Devsyms *y)
{
	Ctl c = { d, 0, { 0 }, 0, pid, s, y, 0 };
	char *p = line;
	const Ctlcmd *cmd;
	int err;

	p = sskip(p);
	if (*p == '#' || *p == 0)	/* a comment or a blank line: a no-op */
		return 0;
	while (*p) {
		/* a predicate keeps its spaces: stop splitting at it */
		if ((c.nf == 3 && restword(&c)) || (c.nf == 1 && streq(c.f[0], "agg"))) {
			c.rest = p;
			p += slen(p);
			break;
		}
		if (c.nf == Maxarg)
			break;
		c.f[c.nf++] = sword(&p);
	}
	if (c.rest == 0)
		c.rest = p;	/* "trace x pred" alone: nothing */
	for (cmd = ctlcmds; cmd < ctlcmds + nelem(ctlcmds); cmd++) {
		if (!streq(cmd->name, c.f[0]))
			continue;
		/* pred and the actions take the rest of the line, spaces and all */
		if (restword(&c) || streq(cmd->name, "agg"))
			err = cmd->fn(&c);
		else if (c.nf < cmd->minf || c.nf > cmd->maxf || *p)
			err = Errnargs;
		else
			err = cmd->fn(&c);
		if (err != Errnone)
			return c.said ? errnum(err) : errrefuse(d, c.f[0], err);
		d->err[0] = 0;
		ctlchanged(d);
		return 0;
	}
	return errrefuse(d, c.f[0], Errunknown);
}

