/*
 * state.c: the device's state as text (devstate): the commands that
 * rebuild it, then its counters as comments.  The block is shared with
 * every traced process, so what the text is made from is checked and
 * repaired first (statecheck), each piece of damage counted once.
 */
#include "dev/dat.h"
#include "dev/error.h"
#include "dev/fns.h"
#include "dev/lib.h"

/* the state: commands that rebuild it, then counters as comments */
static const struct {
	char *name;
	int counter;
} counters[] = {
	{ "#reentered ", Creentered },
	{ "#deep ", Cdeep },
	{ "#predfaults ", Cpredfault },
	{ "#badprogs ", Cbadprog },
	{ "#corrupt ", Ccorrupt },
	{ "#ringless ", Cringless },
};

static void
bputline(Buf *b, const char *key, uint64_t v)
{
	bputs(b, key);
	bputdec(b, v);
	bputc(b, '\n');
}

/*
 * A string of the block, of n bytes: repaired if it has no NUL, or a
 * byte no command could have put there (a newline would forge a control
 * line in the state a user replays); counted if it was.
 */
static void
fixfield(Dev *d, char *s, size_t n, int spaces)
{
	size_t i;
	int bad = 0;

	for (i = 0; i < n - 1 && s[i]; i++)
		if ((unsigned char)s[i] >= 0x7f || ((unsigned char)s[i] < ' ' && !(spaces && s[i] == '\t')) ||
		    (s[i] == ' ' && !spaces)) {
			s[i] = '?';
			bad = 1;
		}
	if (i == n - 1 && s[i]) {
		s[i] = 0;
		bad = 1;
	}
	if (bad)
		corrupt(d);
}

/* a byte the error text may hold: printable, or the tab of a predicate and the newline before its caret */
static int
errbyte(char c)
{
	return c == '\n' || c == '\t' || (c >= ' ' && c < 0x7f);
}

/* the error text is ours, with its newlines: its NUL, and no byte a terminal would act on */
static void
errcheck(Dev *d)
{
	char *p;
	int bad = 0;

	for (p = d->err; p < d->err + Errmax - 1 && *p; p++)
		if (!errbyte(*p)) {
			*p = '?';
			bad = 1;
		}
	if (d->err[Errmax - 1]) {
		d->err[Errmax - 1] = 0;
		bad = 1;
	}
	if (bad)
		corrupt(d);
}

/* before the state is printed: every string and count it prints checked, so its counters include them */
static void
statecheck(Dev *d)
{
	Trace *t;

	for (t = d->trace; t < d->trace + Ntrace; t++) {
		if (t->gen == 0)
			continue;
		fixfield(d, t->name, Namelen, 0);
		if (t->kind != Range)
			fixfield(d, t->glob, Globlen, 0);
		if (t->haspred)
			fixfield(d, t->predsrc, Predmax, 1);
	}
	if (d->nwatch > Nwatch) {	/* a count past its array: what the array holds */
		corrupt(d);
		ast(&d->nwatch, Nwatch);
	}
	if (d->policy >= Npolicy || d->waitms < 1 || d->waitms > Waitmax) {	/* no command sets these */
		corrupt(d);
		ast(&d->waitms, Waitdef);
		ast(&d->policy, d->policy >= Npolicy ? Pring : d->policy);
		ctlchanged(d);	/* writers decide again: ring's fast path is theirs again */
	}
	if (d->hasquery)
		fixfield(d, d->queryname, Namelen, 0);
	sesscheck(d);	/* its #sessions line comes after the counters */
	errcheck(d);
}

size_t
devstate(Dev *d, char *buf, size_t n)
{
	Buf b = { buf, buf + n };
	Trace *t;
	uint64_t hits, queued, lost, dropped, filtered, ticks, ns;
	uint32_t i, log, nw, p, waitms;
	char *e;

	if (n == 0)
		return 0;
	log = ringcheck(d);
	statecheck(d);
	bputline(&b, "logsize ", 1ull << log);
	p = ringpolicy(d, &waitms);
	bputs(&b, "policy ");
	bputs(&b, policynames[p]);
	if (p == Pblock)
		bputline(&b, " ", waitms);
	else
		bputc(&b, '\n');
	for (t = d->trace; t < d->trace + Ntrace; t++) {
		if (t->gen == 0)
			continue;
		bputs(&b, "trace ");
		if (t->kind == Range) {
			bputhex(&b, t->start);
			bputc(&b, ' ');
			bputhex(&b, t->end);
		} else
			bputn(&b, t->glob, Globlen, 0);
		bputs(&b, " new ");
		bputn(&b, t->name, Namelen, 0);
		bputc(&b, '\n');
		if (t->on) {
			bputs(&b, "trace ");
			bputn(&b, t->name, Namelen, 0);
			bputs(&b, " on\n");
		}
		if (t->haspred) {
			bputs(&b, "trace ");
			bputn(&b, t->name, Namelen, 0);
			bputs(&b, " pred /");
			bputn(&b, t->predsrc, Predmax, 1);
			bputs(&b, "/\n");
		}
		actstate(d, &b, t - d->trace, t->name);
	}
	aggstate(d, &b, 0);
	bputs(&b, "watch 0\n");
	if ((nw = d->nwatch) > Nwatch)	/* statecheck repaired it; not read twice */
		nw = Nwatch;
	for (i = 0; i < nw; i++) {
		bputs(&b, "watch ");
		bputdec(&b, d->watch[i] & ~Watchtree);
		bputs(&b, d->watch[i] & Watchtree ? " tree\n" : "\n");
	}
	bputs(&b, d->started ? "start\n" : "stop\n");

	ringstats(d, log, &hits, &queued, &lost, &dropped);
	bputline(&b, "#hits ", hits);
	bputline(&b, "#read ", d->nread);
	bputline(&b, "#queued ", queued);
	bputline(&b, "#lost ", lost);
	bputline(&b, "#dropped ", dropped);
	filtered = rld(&d->filtered);
	for (i = 0; i < Nshard; i++)
		filtered += rld(&d->shard[i].filtered);
	bputline(&b, "#filtered ", filtered);
	for (i = 0; i < nelem(counters); i++)
		bputline(&b, counters[i].name, rld(&d->count[counters[i].counter]));
	aggstate(d, &b, 1);
	actcounts(d, &b);
	bputline(&b, "#hz ", d->hz);
	/* what a record's ticks were in real time, for merging hosts' records (devtrace merge) */
	hostclock(&ticks, &ns);
	bputs(&b, "#clock ");
	bputdec(&b, ticks);
	bputline(&b, " ", ns);
	for (i = 0; i < Nreader; i++)
		if (d->reader[i])
			bputline(&b, "#reader ", d->reader[i]);
	if (d->hasquery) {
		bputs(&b, "#query ");
		bputhex(&b, d->query);
		bputc(&b, ' ');
		bputn(&b, d->queryname, Namelen, 0);
		bputc(&b, '\n');
	}
	/* a refusal's reason, one #error line per line of it */
	for (e = d->err; e < d->err + Errmax && *e; e++) {
		if (e == d->err || e[-1] == '\n')
			bputs(&b, "#error ");
		bputc(&b, errbyte(*e) ? *e : '?');	/* written again since errcheck: not printed as it is */
	}
	if (d->err[0])
		bputc(&b, '\n');
	sessstate(d, &b);
	wringstate(d, log, &b);	/* last: on a big machine its lines are what Statemax cuts (wring.c) */
	/* the length written, never the length it would have been: callers index with it */
	if (b.p >= b.e)
		b.p = b.e - 1;
	*b.p = 0;
	return b.p - buf;
}
