/*
 * sess.c: sessions, the top level's table of them (dat.h: Sess).  A
 * session is a Dev of its own, with its rings, after the top level's
 * (devsessoff): its traces, watch list, predicates, aggregations,
 * rings, policy, size and counters are its own because every function
 * of the device works on the Dev it is given.  Here: clone, the opens
 * of its ctl, remove, the end of a session and the reaping of one
 * whose holder is gone.  Control side only, under the host's lock.
 */
#include "dev/dat.h"
#include "dev/error.h"
#include "dev/fns.h"
#include "dev/host.h"
#include "dev/lib.h"

/* the sessions the host made room for: nothing of the block says how many */
static uint32_t
nsess(Dev *d)
{
	uint32_t n = mapnsess(d);

	return n <= Nsess ? n : 0;
}

/* session n's Dev, placed by the host's sizes; n in 1..nsess */
static Dev *
place(Dev *d, uint32_t n)
{
	return (Dev *)((char *)d + devsessoff(maplogmax(d), mapnring(d), n));
}

/* the table, checked where read: a state no command writes is damage, the entry freed */
static Sess *
entry(Dev *d, uint32_t n)
{
	Sess *e;

	if (n < 1 || n > nsess(d))
		return 0;
	e = &d->sess[n - 1];
	if (e->live > 1) {
		corrupt(d);
		ast(&e->live, 0);
	}
	return e;
}

/* the slots a ring of head records wrote, zeroed: a ring's slots are touched only as far as written */
static void
zeroslots(Slot *s, uint64_t head, uint32_t log)
{
	uint64_t n = head < (1ull << log) ? head : 1ull << log;

	hostzero(s, n * sizeof *s);
}

/*
 * A Dev used by an earlier session made fresh for the next: every
 * record and count gone, but the generations keep growing (a thread's
 * Tsel or Writer from the old session never matches the new one: it
 * decides again) and the writers' claims stay with their threads (a
 * thread still holding a ring writes it, never two threads one ring).
 * The tickets start again at 0.  The shared ring's slots are zeroed: a
 * ticket is taken before its slot is written, so an old seq of the same
 * ticket would pass for the new record, and a larger one would refuse
 * the new writer's claim.  A writer's ring is not: its head moves only
 * after its slot is written, so no slot below it is the old session's.
 * Zeroing them cost every record -t after 64 threads 30 ms (bench/RESULTS).
 */
static void
fresh(Dev *s, uint32_t log, uint32_t nring, uint64_t hz)
{
	uint32_t ctlgen = s->ctlgen, gennext = s->gennext, agen = s->aggs.gennext, i;
	uint32_t shard[Nshard], abuf[Naggbuf + 1], tid;
	Wring *r = wrings(s, log);
	Abuf *b;

	zeroslots(s->slot, s->head, log);
	for (i = 0; i < nring; i++) {
		tid = r[i].tid;
		__builtin_memset(&r[i], 0, sizeof r[i]);
		r[i].tid = tid;
	}
	for (i = 0; i < Nshard; i++)
		shard[i] = s->shard[i].tid;
	for (i = 0; i <= Naggbuf; i++) {
		b = &s->aggs.buf[i];
		abuf[i] = b->tid;
		if (b->hits != 0)	/* a table never written is zero: not touched */
			__builtin_memset(b->ent, 0, sizeof b->ent);
		b->hits = 0;
	}
	__builtin_memset(s, 0, (char *)&s->aggs.buf - (char *)s);
	__builtin_memset(&s->nsess, 0, (char *)s->slot - (char *)&s->nsess);
	for (i = 0; i < Nshard; i++)
		s->shard[i].tid = shard[i];
	for (i = 0; i <= Naggbuf; i++)
		s->aggs.buf[i].tid = abuf[i];
	devinit(s, log, nring, hz);
	s->gennext = gennext;
	s->aggs.gennext = agen;
	ast(&s->ctlgen, ctlgen);
	ctlchanged(s);
}

/* the session's traces off, its entry free, counted */
static void
end(Dev *d, uint32_t n, int why)
{
	Dev *s = place(d, n);
	Sess *e = &d->sess[n - 1];
	Trace *t;

	ast(&s->started, 0);
	for (t = s->trace; t < s->trace + Ntrace; t++)
		ast(&t->on, 0);
	ctlchanged(s);
	e->nopen = 0;
	ast(&e->live, 0);
	d->sesscount[why]++;
	ctlchanged(d);	/* hosts look at the table again: what only it selected is unpatched */
}

uint32_t
devsessreap(Dev *d)
{
	uint32_t n, k = 0;
	Sess *e;

	for (n = 1; (e = entry(d, n)) != 0; n++)
		if (e->live && (e->pid == 0 || !hostalive(e->pid))) {
			end(d, n, Sreaped);
			k++;
		}
	return k;
}

int
devclone(Dev *d, uint32_t uid, uint32_t pid)
{
	uint32_t n, lm = maplogmax(d), nr = mapnring(d);
	Sess *e;
	Dev *s;

	devsessreap(d);
	for (n = 1; (e = entry(d, n)) != 0 && e->live; n++)
		;
	if (e == 0) {
		d->sesscount[Srefused]++;
		return -errrefuse(d, "clone", Errnsess);
	}
	s = place(d, n);
	if (e->used)
		fresh(s, devsesslog(lm), nr, d->hz);
	else
		devinit(s, devsesslog(lm), nr, d->hz);
	e->uid = uid;
	e->pid = pid;
	e->nopen = 1;
	e->used = 1;
	d->sesscount[Smade]++;
	e->serial = (uint32_t)d->sesscount[Smade];
	ast(&e->live, 1);
	ctlchanged(d);
	return n;
}

Dev *
devsess(Dev *d, uint32_t n)
{
	Sess *e;

	if (n == 0)
		return d;
	if ((e = entry(d, n)) == 0 || !ald(&e->live))
		return 0;
	return place(d, n);
}

/* a live session uid may use: the owner, root, or anyone where the device's mode says so */
static int
allowed(Dev *d, uint32_t n, uint32_t uid, int others, const char *cmd)
{
	Sess *e = entry(d, n);

	if (e == 0 || !e->live)
		return errrefuse(d, cmd, Errnosess);
	if (uid != e->uid && uid != 0 && !others)
		return errrefuse(d, cmd, Errsessown);
	return 0;
}

int
devsessopen(Dev *d, uint32_t n, uint32_t uid, int others)
{
	int err;

	if ((err = allowed(d, n, uid, others, "open session")) != 0)
		return err;
	d->sess[n - 1].nopen++;
	return 0;
}

int
devsessclose(Dev *d, uint32_t n)
{
	Sess *e = entry(d, n);

	if (e == 0 || !e->live)
		return Enoent;
	if (e->nopen == 0 || --e->nopen == 0)
		end(d, n, Sended);
	return 0;
}

int
devsessremove(Dev *d, uint32_t n, uint32_t uid)
{
	int err;

	if ((err = allowed(d, n, uid, 0, "remove session")) != 0)
		return err;
	end(d, n, Sended);
	return 0;
}

int
devsessowner(Dev *d, uint32_t n, uint32_t *uid, uint32_t *serial)
{
	Sess *e = entry(d, n);

	if (e == 0 || !ald(&e->live))
		return Enoent;
	*uid = e->uid;
	*serial = e->serial;
	return 0;
}

/*
 * A host follows the top level's control generation alone (the
 * runtime's control thread sleeps on it): a change of a session's
 * traces moves it too.
 */
void
devsesschanged(Dev *d)
{
	ctlchanged(d);
}

/* every entry checked (entry repairs and counts), before the state prints #corrupt */
void
sesscheck(Dev *d)
{
	uint32_t n;

	for (n = 1; entry(d, n) != 0; n++)
		;
}

/* the top level's state line, once a session was made: live, and the counts */
void
sessstate(Dev *d, Buf *b)
{
	static const char *const names[Nsesscount] = { " made ", " ended ", " reaped ", " refused " };
	uint32_t n, live = 0, i;
	Sess *e;

	if (d->sesscount[Smade] == 0 && d->sesscount[Srefused] == 0)
		return;
	for (n = 1; (e = entry(d, n)) != 0; n++)
		live += e->live;
	bputs(b, "#sessions live ");
	bputdec(b, live);
	for (i = 0; i < Nsesscount; i++) {
		bputs(b, names[i]);
		bputdec(b, d->sesscount[i]);
	}
	bputc(b, '\n');
}
