/*
 * devtrace.c: the trace device.  Traces select functions by address
 * range or by name pattern; a watch list selects processes; start and
 * stop switch everything.  Control lines are parsed against a table;
 * the state reads back as lines that are themselves control lines.
 * What the hooks call is in hit.c, the ring in ring.c.
 */
#include "dev/dat.h"
#include "dev/lib.h"
#include "dev/host.h"

enum {
	Maxarg = 8,
};

typedef struct Cmd Cmd;
typedef struct Ctl Ctl;

/* one control line, split */
struct Ctl {
	Dev *d;
	int nf;
	char *f[Maxarg];
	char *rest;		/* the line after the third field, for pred */
	uint32_t pid;
	int err;		/* an errno a command chose itself, else from the reason */
};

struct Cmd {
	char *name;
	int minf, maxf;		/* fields, the command's name included */
	char *(*fn)(Ctl *);	/* nil, or the reason of a refusal */
};

/* a refusal's errno, kept beside its reason */
static const struct {
	char *why;
	int err;
} errs[] = {
	{ "no such trace", Enoent },
	{ "trace exists", Eexist },
	{ "range overlaps trace", Eexist },
	{ "too many traces", Enospc },
	{ "too many watches", Enospc },
	{ "too many readers", Enospc },
	{ "line too long", E2big },
	{ "predicate too long", E2big },
};

size_t
devsize(int logmax)
{
	return sizeof(Dev) + ((size_t)1 << logmax) * sizeof(Slot);
}

void
devinit(Dev *d, int logmax, uint64_t hz)
{
	d->magic = Magic;
	d->version = Version;
	d->size = devsize(logmax);
	d->hz = hz;
	d->logmax = logmax;
	d->log = logmax < Logdef ? logmax : Logdef;
	d->gennext = 1;
}

int
devok(const Dev *d, size_t n)
{
	return n >= sizeof(Dev) && d->magic == Magic && d->version == Version &&
		d->size == n && d->logmax >= Logmin && d->logmax <= Logmax &&
		d->size == devsize(d->logmax);
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

static Trace *
lookup(Dev *d, const char *name)
{
	Trace *t;

	for (t = d->trace; t < d->trace + Ntrace; t++)
		if (t->gen && seq(t->name, name))
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
static void
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

static char *
newtrace(Ctl *c, int kind, uint64_t start, uint64_t end, const char *glob, const char *name)
{
	Dev *d = c->d;
	Trace *t, *free = 0;

	if (!okname(name))
		return "bad trace name";
	if (lookup(d, name))
		return "trace exists";
	if (kind == Range && start >= end)
		return "empty or reversed range";
	if (kind == Glob && slen(glob) >= Globlen)
		return "pattern too long";
	for (t = d->trace; t < d->trace + Ntrace; t++) {
		if (t->gen == 0) {
			if (free == 0)
				free = t;
			continue;
		}
		if (kind == Range && t->kind == Range && start < t->end && t->start < end)
			return "range overlaps trace";
		if (kind == Glob && t->kind == Glob && seq(t->glob, glob))
			return "trace exists";
	}
	if (free == 0)
		return "too many traces";
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
	return 0;
}

/* pred: the rest of the line is /expression/, or nothing to remove it */
static char *
setpred(Ctl *c, Trace *t)
{
	static char reason[Errmax];
	Dev *d = c->d;
	char src[Predmax], *p = c->rest, *e;
	Prog prog;
	int n;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == 0) {
		t->gen = 0;
		t->haspred = 0;
		t->predsrc[0] = 0;
		publish(d, t);
		return 0;
	}
	e = p + slen(p);
	while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (*p != '/' || e - p < 2 || e[-1] != '/')
		return "predicate must be /expression/";
	n = e - p - 2;
	if (n >= Predmax)
		return "predicate too long";
	scopy(src, p + 1, n + 1);
	if ((c->err = predcompile(src, &prog, reason, sizeof reason)) != 0)
		return reason;
	t->gen = 0;
	t->pred = prog;
	scopy(t->predsrc, src, Predmax);
	t->haspred = 1;
	publish(d, t);
	return 0;
}

static char *
ctltrace(Ctl *c)
{
	Dev *d = c->d;
	Trace *t;
	uint64_t start, end;
	char *p;
	size_t n;

	if (c->nf == 5 && seq(c->f[3], "new")) {
		if (!parsehex(c->f[1], &start) || !parsehex(c->f[2], &end))
			return "bad address";
		return newtrace(c, Range, start, end, 0, c->f[4]);
	}
	if (c->nf == 4 && seq(c->f[2], "new")) {
		p = c->f[1];	/* 'rtc*' as typed to a shell that did not take the quotes */
		if (p[0] == '\'' && (n = slen(p)) > 2 && p[n - 1] == '\'') {
			p[n - 1] = 0;
			p++;
		}
		return newtrace(c, Glob, 0, 0, p, c->f[3]);
	}
	if ((t = lookup(d, c->f[1])) == 0)
		return c->nf == 3 || seq(c->f[2], "pred") ? "no such trace" : "bad trace command";
	if (seq(c->f[2], "pred"))
		return setpred(c, t);
	if (c->nf != 3)
		return "bad trace command";
	if (seq(c->f[2], "on"))
		ast(&t->on, 1);
	else if (seq(c->f[2], "off"))
		ast(&t->on, 0);
	else if (seq(c->f[2], "remove")) {
		ast(&t->gen, 0);
		t->on = 0;
	} else
		return "bad trace command";
	return 0;
}

static char *
setlog(Ctl *c, uint64_t log)
{
	if (log < Logmin || log > c->d->logmax)
		return "size out of range";
	ringreset(c->d, (int)log);
	return 0;
}

static char *
ctlsize(Ctl *c)
{
	uint64_t log;

	if (!parsedec(c->f[1], &log))
		return "bad size";
	return setlog(c, log);
}

/* logsize N, as the state prints it: N records, a power of two */
static char *
ctllogsize(Ctl *c)
{
	uint64_t n, log;

	if (!parsedec(c->f[1], &n) || n == 0 || (n & (n - 1)))
		return "bad size";
	for (log = 0; (1ull << log) < n; log++)
		;
	return setlog(c, log);
}

static char *
ctlquery(Ctl *c)
{
	Dev *d = c->d;
	Trace *t;
	uint64_t pc;

	if (!parsehex(c->f[1], &pc))
		return "bad address";
	t = rangeof(d, pc);
	d->query = pc;
	scopy(d->queryname, t ? t->name : "untraced", Namelen);
	d->hasquery = 1;
	return 0;
}

/* testtracein pc a1..a4: an entry of that function, by the writing process */
static char *
ctltestin(Ctl *c)
{
	Dev *d = c->d;
	Trace *t;
	Tsel sel;
	Hit h;
	int i;

	if (!parsehex(c->f[1], &h.pc))
		return "bad address";
	for (i = 0; i < 4; i++)
		if (!parsehex(c->f[2 + i], &h.a[i]))
			return "bad argument";
	h.ticks = hostticks();
	h.tid = h.pid = c->pid;
	h.depth = 0;
	h.exit = 0;
	h.w = 0;
	if ((t = rangeof(d, h.pc)) != 0 && devtsel(d, t - d->trace, &sel))
		devhit(d, &sel, &h);
	return 0;
}

static char *
ctlwatch(Ctl *c)
{
	Dev *d = c->d;
	uint64_t pid;
	uint32_t i, n = d->nwatch;

	if (!parsedec(c->f[1], &pid) || pid > 0xffffffffu)
		return "bad pid";
	if (pid == 0) {
		ast(&d->nwatch, 0);
		return 0;
	}
	for (i = 0; i < n; i++)
		if (d->watch[i] == pid)
			return 0;
	if (n == Nwatch)
		return "too many watches";
	d->watch[n] = pid;
	ast(&d->nwatch, n + 1);
	return 0;
}

static char *
ctlstart(Ctl *c)
{
	ast(&c->d->started, 1);
	return 0;
}

static char *
ctlstop(Ctl *c)
{
	ast(&c->d->started, 0);
	return 0;
}

static Cmd cmds[] = {
	{ "trace", 3, 5, ctltrace },
	{ "size", 2, 2, ctlsize },
	{ "logsize", 2, 2, ctllogsize },
	{ "query", 2, 2, ctlquery },
	{ "testtracein", 6, 6, ctltestin },
	{ "watch", 2, 2, ctlwatch },
	{ "start", 1, 1, ctlstart },
	{ "stop", 1, 1, ctlstop },
};

static void
seterr(Dev *d, const char *cmd, const char *why)
{
	Buf b = { d->err, d->err + Errmax - 1 };

	if (cmd) {
		bputs(&b, cmd);
		bputs(&b, ": ");
	}
	bputs(&b, why);
	*(b.p < b.e ? b.p : b.e) = 0;
}

static int
errno_of(const char *why)
{
	unsigned i;

	for (i = 0; i < sizeof errs / sizeof errs[0]; i++)
		if (seq(errs[i].why, why))
			return errs[i].err;
	return Einval;
}

/* run one line, NUL-terminated, already checked for length and characters */
static int
runline(Dev *d, char *line, uint32_t pid)
{
	Ctl c = { d, 0, { 0 }, 0, pid, 0 };
	char *p = line, *why;
	Cmd *cmd;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '#')
		return 0;
	while (*p) {
		/* a predicate keeps its spaces: stop splitting at it */
		if (c.nf == 3 && seq(c.f[0], "trace") && seq(c.f[2], "pred")) {
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
	if (c.nf == 0) {
		seterr(d, 0, "empty command");
		return Einval;
	}
	for (cmd = cmds; cmd < cmds + sizeof cmds / sizeof cmds[0]; cmd++) {
		if (!seq(cmd->name, c.f[0]))
			continue;
		/* pred takes the rest of the line, spaces and all */
		if (c.nf >= 3 && seq(cmd->name, "trace") && seq(c.f[2], "pred"))
			why = cmd->fn(&c);
		else if (c.nf < cmd->minf || c.nf > cmd->maxf || *p)
			why = "wrong number of arguments";
		else
			why = cmd->fn(&c);
		if (why) {
			seterr(d, c.f[0], why);
			return c.err ? c.err : errno_of(why);
		}
		d->err[0] = 0;
		changed(d);
		return 0;
	}
	seterr(d, c.f[0], "unknown command");
	return Einval;
}

/*
 * One write: one or more lines.  Lines are checked before any runs, so
 * a write with an empty or over-long line or binary garbage changes nothing.
 */
static char *
checklines(const char *buf, size_t n)
{
	size_t i, start = 0;
	int blank = 1;

	for (i = 0; i <= n; i++) {
		if (i == n || buf[i] == '\n') {
			if (blank && (i < n || i > start))
				return "empty command";
			start = i + 1;
			blank = 1;
			continue;
		}
		if (i - start >= Linemax)
			return "line too long";
		if (((unsigned char)buf[i] < ' ' && buf[i] != '\t') || (unsigned char)buf[i] >= 0x7f)
			return "bad character in command";
		if (buf[i] != ' ' && buf[i] != '\t')
			blank = 0;
	}
	return 0;
}

int
devctl(Dev *d, const char *buf, size_t n, uint32_t pid)
{
	char line[Linemax + 1], *why;
	size_t i, start;
	int e;

	if (n == 0 || (why = checklines(buf, n)) != 0) {
		seterr(d, 0, n == 0 ? "empty command" : why);
		return errno_of(d->err);
	}
	for (start = 0; start < n; start = i + 1) {
		for (i = start; i < n && buf[i] != '\n'; i++)
			;
		__builtin_memcpy(line, buf + start, i - start);
		line[i - start] = 0;
		if ((e = runline(d, line, pid)) != 0)
			return e;
	}
	return 0;
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
	seterr(d, "open trace", "too many readers");
	return Enospc;
}

int
devwatches(Dev *d, uint32_t *pids, int max)
{
	uint32_t i, n = ald(&d->nwatch);

	for (i = 0; i < n && i < Nwatch && (int)i < max; i++)
		pids[i] = rld(&d->watch[i]);
	return i;
}

/* the state: commands that rebuild it, then counters as comments */
static const struct {
	char *name;
	int counter;
} counters[] = {
	{ "#reentered ", Creentered },
	{ "#deep ", Cdeep },
	{ "#predfaults ", Cpredfault },
	{ "#badprogs ", Cbadprog },
};

static void
bputline(Buf *b, const char *key, uint64_t v)
{
	bputs(b, key);
	bputdec(b, v);
	bputc(b, '\n');
}

size_t
devstate(Dev *d, char *buf, size_t n)
{
	Buf b = { buf, buf + n };
	Trace *t;
	uint64_t hits, queued, lost, filtered;
	uint32_t i;
	char *p;

	bputline(&b, "logsize ", 1ull << d->log);
	for (t = d->trace; t < d->trace + Ntrace; t++) {
		if (t->gen == 0)
			continue;
		bputs(&b, "trace ");
		if (t->kind == Range) {
			bputhex(&b, t->start);
			bputc(&b, ' ');
			bputhex(&b, t->end);
		} else
			bputs(&b, t->glob);
		bputs(&b, " new ");
		bputs(&b, t->name);
		bputc(&b, '\n');
		if (t->on) {
			bputs(&b, "trace ");
			bputs(&b, t->name);
			bputs(&b, " on\n");
		}
		if (t->haspred) {
			bputs(&b, "trace ");
			bputs(&b, t->name);
			bputs(&b, " pred /");
			bputs(&b, t->predsrc);
			bputs(&b, "/\n");
		}
	}
	bputs(&b, "watch 0\n");
	for (i = 0; i < d->nwatch; i++)
		bputline(&b, "watch ", d->watch[i]);
	bputs(&b, d->started ? "start\n" : "stop\n");

	ringstats(d, &hits, &queued, &lost);
	bputline(&b, "#hits ", hits);
	bputline(&b, "#read ", d->nread);
	bputline(&b, "#queued ", queued);
	bputline(&b, "#lost ", lost);
	filtered = rld(&d->filtered);
	for (i = 0; i < Nshard; i++)
		filtered += rld(&d->shard[i].filtered);
	bputline(&b, "#filtered ", filtered);
	for (i = 0; i < sizeof counters / sizeof counters[0]; i++)
		bputline(&b, counters[i].name, rld(&d->count[counters[i].counter]));
	bputline(&b, "#hz ", d->hz);
	for (i = 0; i < Nreader; i++)
		if (d->reader[i])
			bputline(&b, "#reader ", d->reader[i]);
	if (d->hasquery) {
		bputs(&b, "#query ");
		bputhex(&b, d->query);
		bputc(&b, ' ');
		bputs(&b, d->queryname);
		bputc(&b, '\n');
	}
	/* a refusal's reason, one #error line per line of it */
	for (p = d->err; *p; p++) {
		if (p == d->err || p[-1] == '\n')
			bputs(&b, "#error ");
		bputc(&b, *p);
	}
	if (d->err[0])
		bputc(&b, '\n');
	if (b.p < b.e)
		*b.p = 0;
	return b.p - buf;
}
