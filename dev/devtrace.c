/*
 * devtrace.c: the trace device.  Traces select functions by address
 * range or by name pattern; a watch list selects processes; start and
 * stop switch everything.  Control lines are parsed against a table,
 * trace's subcommands against one of their own; a refusal is a name
 * from error.h, which gives its errno and its text.  The state reads
 * back as lines that are themselves control lines.
 * Writes are cut into lines in ctlfile.c, the state text is state.c;
 * what the hooks call is in hit.c, the shared ring in ring.c, the
 * writers' rings and the merge of all of them in wring.c.
 */
#include "dev/dat.h"
#include "dev/error.h"
#include "dev/lib.h"
#include "dev/host.h"
#include "dev/ctl.h"

enum {
	Maxarg = 8,
};

typedef struct Cmd Cmd;
typedef struct Ctl Ctl;
typedef struct Sub Sub;

/* one control line, split */
struct Ctl {
	Dev *d;
	int nf;
	char *f[Maxarg];
	char *rest;		/* the line after the third field, for pred */
	uint32_t pid;
	int said;		/* the command wrote its refusal's text in Dev.err itself */
};

/* commands return Errnone or a refusal (error.h) */
struct Cmd {
	char *name;
	int minf, maxf;		/* fields, the command's name included */
	int (*fn)(Ctl *);
};

/* trace's subcommands: the word at f[at], with nf fields; on a trace named by f[1] if named */
struct Sub {
	char *name;
	int at, nf;
	int named;
	int (*fn)(Ctl *, Trace *);
};

/* the shared ring, then nring writers' rings: their headers, then their slots (dat.h: wrings) */
size_t
devsize(int logmax, int nring)
{
	return sizeof(Dev) + ((size_t)1 << logmax) * sizeof(Slot) * (1 + (size_t)nring) + (size_t)nring * sizeof(Wring);
}

void
devinit(Dev *d, int logmax, int nring, uint64_t hz)
{
	d->magic = Magic;
	d->version = Version;
	d->size = devsize(logmax, nring);
	d->nring = nring;
	d->hz = hz;
	d->logmax = logmax;
	d->log = logmax < Logdef ? logmax : Logdef;
	d->policy = Pring;
	d->waitms = Waitdef;
	d->gennext = 1;
}

int
devok(const Dev *d, size_t n)
{
	return n >= sizeof(Dev) && d->magic == Magic && d->version == Version &&
		d->size == n && d->logmax >= Logmin && d->logmax <= Logmax && d->nring <= Nringmax &&
		d->size == devsize(d->logmax, d->nring);
}

void
devsizes(const Dev *d, uint32_t *logmax, uint32_t *nring)
{
	*logmax = rld(&d->logmax);
	*nring = rld(&d->nring);
}

const char *
deverr(const Dev *d)
{
	return d->err;
}

uint32_t *
devctlgen(Dev *d)
{
	return &d->ctlgen;
}

int
devstarted(Dev *d)
{
	return ald(&d->started);
}

/* damage found by the control side: counted for the state's #corrupt */
void
corrupt(Dev *d)
{
	aadd(&d->count[Ccorrupt], 1);
}

static Trace *
lookup(Dev *d, const char *name)
{
	Trace *t;

	for (t = d->trace; t < d->trace + Ntrace; t++)
		if (t->gen && seqn(t->name, name, Namelen))
			return t;
	return 0;
}

/* the trace whose range holds pc */
static Trace *
rangeof(Dev *d, uint64_t pc)
{
	Trace *t;

	for (t = d->trace; t < d->trace + Ntrace; t++)
		if (t->gen && t->kind == Range && pc >= t->start && pc < t->end)
			return t;
	return 0;
}

/* a new control generation: release, so a writer that sees it sees the change (hit.c: watched) */
void
changed(Dev *d)
{
	__atomic_fetch_add(&d->ctlgen, 1, __ATOMIC_RELEASE);
}

/* a trace changes only with gen 0, so a process reading it sees all or none of it */
static void
publish(Dev *d, Trace *t)
{
	ast(&t->gen, d->gennext++);
	if (d->gennext == 0)
		d->gennext = 1;
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

static int
newtrace(Ctl *c, int kind, uint64_t start, uint64_t end, const char *glob, const char *name)
{
	Dev *d = c->d;
	Trace *t, *free = 0;

	if (!okname(name))
		return Errname;
	if (lookup(d, name))
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
		if (kind == Glob && t->kind == Glob && seq(t->glob, glob))
			return Errexists;
	}
	if (free == 0)
		return Errntrace;
	t = free;
	t->kind = kind;
	t->on = 0;
	t->haspred = 0;
	t->start = start;
	t->end = end;
	t->predsrc[0] = 0;
	scopy(t->glob, glob ? glob : "", Globlen);
	scopy(t->name, name, Namelen);
	publish(d, t);
	return Errnone;
}

/* Dev.err: "cmd: " (none if cmd is nil), then text */
static void
seterr(Dev *d, const char *cmd, const char *text)
{
	Buf b = { d->err, d->err + Errmax - 1 };

	if (cmd) {
		bputs(&b, cmd);
		bputs(&b, ": ");
	}
	bputs(&b, text);
	bend(&b);
}

/* trace START END new NAME */
static int
trnewrange(Ctl *c, Trace *unused)
{
	uint64_t start, end;

	(void)unused;
	if (!parsehex(c->f[1], &start) || !parsehex(c->f[2], &end))
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
 * trace NAME pred /expression/, or nothing to remove it: the rest of
 * the line.  The compiler writes its message, with the source and a
 * caret, into Dev.err after the command's name: no buffer of its own.
 */
static int
trpred(Ctl *c, Trace *t)
{
	Dev *d = c->d;
	char src[Predmax], *p = c->rest, *e;
	Prog prog;
	int n, err;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == 0) {
		t->gen = 0;
		t->haspred = 0;
		t->predsrc[0] = 0;
		publish(d, t);
		return Errnone;
	}
	e = p + slen(p);
	while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (*p != '/' || e - p < 2 || e[-1] != '/')
		return Errpredform;
	n = e - p - 2;
	if (n >= Predmax)
		return Errpredlong;
	scopy(src, p + 1, n + 1);
	seterr(d, c->f[0], "");
	n = slen(d->err);
	if ((err = predcompileargs(src, t->kind == Glob && predargnames ? predargnames(t->glob) : 0, &prog, d->err + n, Errmax - n)) != Errnone) {
		c->said = 1;
		return err;
	}
	t->gen = 0;
	t->pred = prog;
	scopy(t->predsrc, src, Predmax);
	t->haspred = 1;
	publish(d, t);
	return Errnone;
}

/* trace NAME on, trace NAME off */
static int
tronoff(Ctl *c, Trace *t)
{
	ast(&t->on, seq(c->f[2], "on"));
	return Errnone;
}

static int
trremove(Ctl *c, Trace *t)
{
	ast(&t->gen, 0);
	t->on = 0;
	aggdetach(c->d, t - c->d->trace);
	return Errnone;
}

/* ctlrun stops splitting at pred, so a pred line has 3 fields and the rest */
static const Sub subs[] = {
	{ "new", 3, 5, 0, trnewrange },
	{ "new", 2, 4, 0, trnewglob },
	{ "pred", 2, 3, 1, trpred },
	{ "on", 2, 3, 1, tronoff },
	{ "off", 2, 3, 1, tronoff },
	{ "remove", 2, 3, 1, trremove },
};

static int
ctltrace(Ctl *c)
{
	const Sub *s;
	Trace *t = 0;

	for (s = subs; s < subs + nelem(subs); s++)
		if (c->nf == s->nf && seq(c->f[s->at], s->name)) {
			if (s->named && (t = lookup(c->d, c->f[1])) == 0)
				return Errnotrace;
			return s->fn(c, t);
		}
	/* trace NAME word: the trace is missing, or the word is wrong */
	return c->nf == 3 && lookup(c->d, c->f[1]) == 0 ? Errnotrace : Errtracecmd;
}

/* the largest size is the mapping's, never the block's logmax: any process may write that */
static int
setlog(Ctl *c, uint64_t log)
{
	if (log < Logmin || log > hostlogmax(c->d))
		return Errsizerange;
	ringreset(c->d, (int)log);
	return Errnone;
}

static int
ctlsize(Ctl *c)
{
	uint64_t log;

	if (!parsedec(c->f[1], &log))
		return Errsize;
	return setlog(c, log);
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
	return setlog(c, log);
}

/* the policies by name: the command takes them, the state prints them (state.c) */
const char *const policies[Npolicy] = {
	[Pring] = "ring",
	[Pfill] = "fill",
	[Pblock] = "block",
};

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

	for (p = 0; p < Npolicy && !seq(c->f[1], policies[p]); p++)
		;
	if (p == Npolicy)
		return Errpolicy;
	if (c->nf == 3 && p != Pblock)
		return Errnowait;
	if (c->nf == 3 && (!parsedec(c->f[2], &ms) || ms < 1 || ms > Waitmax))
		return Errwaitms;
	ast(&d->waitms, (uint32_t)ms);
	ast(&d->stalled, 0);	/* a new bound: the next full ring is waited for again */
	wstallclear(d);
	ast(&d->policy, p);
	return Errnone;
}

static int
ctlquery(Ctl *c)
{
	Dev *d = c->d;
	Trace *t;
	uint64_t pc;

	if (!parsehex(c->f[1], &pc))
		return Erraddr;
	t = rangeof(d, pc);
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

	if (!parsehex(c->f[1], &h.pc))
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
	if ((t = rangeof(d, h.pc)) != 0 && devtsel(d, t - d->trace, &sel))
		devhit(d, &sel, &h);
	return Errnone;
}

static int
ctlwatch(Ctl *c)
{
	Dev *d = c->d;
	uint64_t pid;
	uint32_t i, n = d->nwatch;

	if (!parsedec(c->f[1], &pid) || pid > 0xffffffffu)
		return Errpid;
	if (pid == 0) {
		ast(&d->nwatch, 0);
		return Errnone;
	}
	if (n > Nwatch) {	/* a count past its array: keep what the array holds, refuse this once */
		corrupt(d);
		ast(&d->nwatch, Nwatch);
		return Errcorrupt;
	}
	for (i = 0; i < n; i++)
		if (d->watch[i] == pid)
			return Errnone;
	if (n == Nwatch)
		return Errnwatch;
	d->watch[n] = pid;
	ast(&d->nwatch, n + 1);
	return Errnone;
}

static int
ctlstart(Ctl *c)
{
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
	int err = aggctl(c->d, c->rest, c->d->err, Errmax);

	c->said = err != Errnone && c->d->err[0] != 0;
	return err;
}

static const Cmd cmds[] = {
	{ "agg", 1, 1, ctlagg },
	{ "trace", 3, 5, ctltrace },
	{ "size", 2, 2, ctlsize },
	{ "logsize", 2, 2, ctllogsize },
	{ "policy", 2, 3, ctlpolicy },
	{ "query", 2, 2, ctlquery },
	{ "testtracein", 6, 6, ctltestin },
	{ "watch", 2, 2, ctlwatch },
	{ "start", 1, 1, ctlstart },
	{ "stop", 1, 1, ctlstop },
};

/* a refusal: its text in Dev.err after the command's name, unless the command wrote it; its errno */
static int
refuse(Dev *d, const char *cmd, int err)
{
	seterr(d, cmd, errtext(err));
	return errnum(err);
}

int
ctlrefuse(Dev *d, int err)
{
	return refuse(d, 0, err);
}

/* run one line, NUL-terminated, already checked for length and characters (ctlfile.c) */
int
ctlrun(Dev *d, char *line, uint32_t pid)
{
	Ctl c = { d, 0, { 0 }, 0, pid, 0 };
	char *p = line;
	const Cmd *cmd;
	int err;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '#')
		return 0;
	while (*p) {
		/* a predicate keeps its spaces: stop splitting at it */
		if ((c.nf == 3 && seq(c.f[0], "trace") && seq(c.f[2], "pred")) || (c.nf == 1 && seq(c.f[0], "agg"))) {
			c.rest = p;
			p += slen(p);
			break;
		}
		if (c.nf == Maxarg)
			break;
		c.f[c.nf++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = 0;
		while (*p == ' ' || *p == '\t')
			p++;
	}
	if (c.rest == 0)
		c.rest = p;	/* "trace x pred" alone: nothing */
	if (c.nf == 0)
		return refuse(d, 0, Errempty);
	for (cmd = cmds; cmd < cmds + nelem(cmds); cmd++) {
		if (!seq(cmd->name, c.f[0]))
			continue;
		/* pred takes the rest of the line, spaces and all */
		if ((c.nf >= 3 && seq(cmd->name, "trace") && seq(c.f[2], "pred")) || seq(cmd->name, "agg"))
			err = cmd->fn(&c);
		else if (c.nf < cmd->minf || c.nf > cmd->maxf || *p)
			err = Errnargs;
		else
			err = cmd->fn(&c);
		if (err != Errnone)
			return c.said ? errnum(err) : refuse(d, c.f[0], err);
		d->err[0] = 0;
		changed(d);
		return 0;
	}
	return refuse(d, c.f[0], Errunknown);
}

int
devreader(Dev *d, uint32_t pid, int open)
{
	int i;

	/* a reader killed without closing (devtrace cat, SIGKILL) frees its entry here */
	for (i = 0; open && i < Nreader; i++)
		if (d->reader[i] && !hostalive(d->reader[i])) {
			ast(&d->reader[i], 0);
			ast(&d->nreader, d->nreader - 1);
		}
	for (i = 0; i < Nreader; i++)
		if (open ? d->reader[i] == 0 : d->reader[i] == pid) {
			if (open) {
				ast(&d->nreader, d->nreader + 1);
				ast(&d->reader[i], pid);
			} else {
				ast(&d->reader[i], 0);
				ast(&d->nreader, d->nreader - 1);
			}
			changed(d);
			return 0;
		}
	if (!open)
		return Enoent;
	return refuse(d, "open trace", Errnreader);
}

int
devwatches(Dev *d, uint32_t *pids, int max)
{
	uint32_t i, n = ald(&d->nwatch);

	for (i = 0; i < n && i < Nwatch && (int)i < max; i++)
		pids[i] = rld(&d->watch[i]);
	return i;
}
