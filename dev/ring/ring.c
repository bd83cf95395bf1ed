/*
 * ring.c: the shared ring, and the control side's checks, resets and
 * counts of every ring (the writers' through wring.c).  Threads past
 * the writers' rings and hits with no Writer (testtracein) write this
 * ring (record.c).  Its writers take a ticket with one atomic increment
 * and claim the ticket's slot by moving its sequence number from an
 * older even value to 2t+1; they fill it and publish 2t+2 (slot.h).
 * A writer that finds the slot busy, or already taken by a later lap,
 * drops its record: the reader finds the ticket missing and counts it
 * lost.  The reader, one at a time under the host's lock, walks the
 * tickets in order and either returns a record or counts it lost, so
 * hits = read + queued + lost holds exactly whenever it is looked at.
 * devread and devreadraw take this ring's records and the writers'
 * rings' through one merge by time (merge.c).
 *
 * Every process may write the block, so nothing read from it is an
 * index before it is checked: log against the size this process mapped
 * (maplogmax), the reader's tail against head.  The reader never waits
 * here (it holds the lock every client needs): a ticket not finished
 * yet makes devread return with r->wait set, and the host asks again
 * without the lock.  A ticket unfinished for Stucknsec is lost, and so
 * at once is every unfinished ticket taken before the wait began: a
 * damaged ring costs one wait in total, not one per record.
 *
 * The policy (Dev.policy) says what a writer does when the ring is full.
 * ring: nothing, the ticket laps the oldest record (lost).  fill and
 * block: a ticket is taken only while head - tail < size (a CAS on head
 * against the tail it loaded: tail only grows, so the room it saw is
 * there), else fill drops the record and block waits for the reader,
 * without any lock, until it reads or waitms pass with the tail not
 * moving: then the reader is taken as stalled at that tail (Dev.stalled)
 * and every writer that finds the ring full drops at once until the
 * tail moves again.  A dropped record took no ticket: counted in the
 * writer's shard (#dropped), and #hits = head + dropped.
 */
#include "dev/dat.h"
#include "dev/fns.h"
#include "dev/host.h"
#include "dev/ring/slot.h"

enum {
	Stucknsec = 20*1000*1000,	/* a ticket unfinished this long is lost */
};

/* the policies by name: the command takes them, the state prints them */
const char *const policynames[Npolicy] = {
	[Pring] = "ring",
	[Pfill] = "fill",
	[Pblock] = "block",
};

/*
 * fill and block: ticket *t if the ring has room for it, 1; else 0, and
 * *tail the reader's position that made it full.  A tail past head is
 * damage the reader repairs: room meanwhile.
 */
static int
room(Dev *d, uint64_t cap, uint64_t *t, uint64_t *tail)
{
	*t = rld(&d->head);
	for (;;) {
		*tail = ald(&d->tail);
		if (*tail <= *t && *t - *tail >= cap)
			return 0;
		if (acas(&d->head, t, *t + 1))
			return 1;
	}
}

/* a record a full ring refused: in the writer's shard, else atomically */
static void
drop(Dev *d, const Hit *h)
{
	const Writer *w = h->w;
	uint64_t *c;

	if (w && w->d == d && w->shard && w->shard <= Nshard) {
		c = &d->shard[w->shard - 1].dropped;
		rst(c, rld(c) + 1);
	} else
		aadd(&d->dropped, 1);
}

/*
 * block: wait for room, sleeping (no lock held: the hook path has none)
 * while the reader makes progress; once the tail has stood still for
 * waitms, mark the reader stalled there and drop.  Writers that find it
 * marked drop at once: a stopped reader costs each writer one wait, not
 * one per record.  A wait is marked as in a writer's own ring
 * (wring.c): a Kwait record after the one that waited, if a ticket is
 * free for it (else it goes unmarked: other writers took the room).
 */
static void
recordblock(Dev *d, const Hit *h, uint32_t lim, uint32_t waitms)
{
	Blockwait b = { 0, 0, Napmin };
	uint64_t t, tail, from = 0;
	uint32_t log;
	int stalled = 0;
	Hit m;

	for (;;) {
		/* a size may come while we wait: the ring's size as it is now, checked */
		if ((log = rld(&d->log)) > lim) {
			corrupt(d);
			return;
		}
		if (room(d, 1ull << log, &t, &tail)) {
			slotclaimput(d, h, log, t);
			break;
		}
		if (from == 0)
			from = hostticks();
		if (!blockwait(&b, &d->stalled, tail, waitms)) {
			drop(d, h);
			stalled = 1;
			break;
		}
	}
	if (from == 0)
		return;
	m = *h;
	m.exit = Kwait;
	m.ticks = hostticks();
	m.a[0] = m.ticks - from;
	m.a[1] = Wreader;
	m.a[2] = m.a[3] = 0;
	h->w->waited += m.a[0];
	if (!stalled && room(d, 1ull << log, &t, &tail))	/* a stall's record dropped, its wait unmarked, as wring.c's */
		slotclaimput(d, &m, log, t);
}

/*
 * The policy and its bound as the block holds them: any process may
 * have written either, so a policy no command sets is damage (counted,
 * taken as ring) and a bound is clamped to what a command allows.
 */
uint32_t
ringpolicy(Dev *d, uint32_t *waitms)
{
	uint32_t p = rld(&d->policy), ms = rld(&d->waitms);

	if (__builtin_expect(p >= Npolicy, 0)) {
		corrupt(d);
		return Pring;
	}
	*waitms = ms < 1 ? 1 : ms > Waitmax ? Waitmax : ms;
	return p;
}

/*
 * A record of the shared ring by the policy, out of the hook path's
 * line (record.c: recordslow): log checked against lim, the mapping's.
 */
void
ringrecord(Dev *d, const Hit *h, uint32_t log, uint32_t lim, uint32_t policy, uint32_t waitms)
{
	uint64_t t, tail;

	switch (policy) {
	case Pblock:
		if (h->w) {	/* a hook's: it holds no lock, it may wait */
			recordblock(d, h, lim, waitms);
			return;
		}
		/* no Writer: the control side's testtracein, under the host's lock: it never waits */
		/* fall through */
	case Pfill:
		if (room(d, 1ull << log, &t, &tail))
			slotclaimput(d, h, log, t);
		else
			drop(d, h);
		return;
	}
	ringput(d, h, log);
}

/*
 * The control side's look at the ring before it uses it: a log outside
 * [Logmin, maplogmax] or a tail past head is damage: counted, and the
 * ring set back to a size the mapping holds (what it held is lost).
 */
uint32_t
ringcheck(Dev *d)
{
	uint32_t lim = maplogmax(d), log = rld(&d->log);
	uint64_t head = ald(&d->head);

	if (d->tail > head) {
		corrupt(d);
		ast(&d->tail, head);
	}
	if (log < Logmin || log > lim) {
		corrupt(d);
		log = lim < Logdef ? lim : Logdef;
		ringreset(d, log);
	}
	if (d->stuckhead > head)
		d->stuckhead = head;
	wringcheck(d);
	return log;	/* the size to use: the block's may change again under us */
}

/* a thread id a process could have: anything else in a busy slot is damage, taken as dead */
static int
alive(uint32_t tid)
{
	return tid != 0 && tid <= 0x7fffffff && hostalive(tid);
}

/*
 * The shared ring's next finished record: its slot, its ticket in *rp;
 * nil if none is ready (*wait: one is being written).  *head is the
 * caller's copy of d->head, loaded again only when the reader has
 * caught up with it: every load of a line the writers' atomics keep
 * taking back costs a transfer between cores.  cap is the ring's size
 * as ringcheck left it; the block's tail is ours (the lock), but is
 * read once per step and checked all the same.
 */
static inline __attribute__((always_inline)) Slot *
ready(Dev *d, uint64_t *head, uint64_t cap, uint32_t *wait, uint64_t *rp)
{
	uint64_t r, s1, want, now;
	Slot *s;

	for (;;) {
		r = d->tail;
		if (r >= *head && (*head = ald(&d->head)) <= r) {
			if (r > *head) {	/* a tail past head: damage */
				corrupt(d);
				ast(&d->tail, *head);
			}
			d->stuck = 0;
			return 0;
		}
		if (*head - r > cap) {	/* lapped: those are gone */
			d->nlost += *head - r - cap;
			r = *head - cap;
			ast(&d->tail, r);
			d->stuck = 0;
		}
		s = &d->slot[r & (cap - 1)];
		want = 2*r + 2;
		s1 = ald(&s->seq);
		if (s1 == want) {
			*rp = r;
			return s;
		}
		if (s1 < want) {	/* not yet written, or its writer is gone */
			now = hostnsec() + 1;	/* never 0, the stuck time's "none": a host's clock may start at 0 */
			/*
			 * A wait begins; a stuck time in the future is damage: over at once.
			 * Its head is the one this read loaded before it looked at the slot:
			 * every ticket below it was taken before the wait began.  (The head
			 * loaded now would take in tickets a writer took since, still being
			 * written: counted lost at once, had the wait lasted long enough.)
			 */
			if (d->stuck == 0 || (r >= d->stuckhead && now - d->stuck >= Stucknsec)) {
				d->stuck = now;
				d->stuckhead = *head;
			}
			if (now - d->stuck < Stucknsec) {
				*wait = 1;
				return 0;
			}
			/* a writer killed mid-record leaves the slot busy: free it for the next lap */
			if ((s1 & 1) && !alive(rld(&s->rec.tid)))
				acas(&s->seq, &s1, 2*r);
		}
		ast(&d->tail, r + 1);	/* overwritten by a later lap, abandoned, or timed out */
		d->nlost++;
		if (r + 1 >= d->stuckhead)
			d->stuck = 0;
	}
}

/* the shared ring's next record in *out: 1, or 0 if none is ready (*wait: one is being written) */
int
ringtake(Dev *d, Rec *out, uint64_t *head, uint64_t cap, uint32_t *wait)
{
	uint64_t r;
	Slot *s;
	int whole;

	while ((s = ready(d, head, cap, wait, &r)) != 0) {
		whole = slotload(s, r, out);
		/*
		 * The tail moves past the slot only after the second
		 * look, with release: under fill and block a writer
		 * reuses the slot only once it sees the tail past it.
		 */
		ast(&d->tail, r + 1);
		if (r + 1 >= d->stuckhead)
			d->stuck = 0;
		if (whole) {
			aadd(&d->nread, 1);	/* the writers' rings' readers add to it outside the lock */
			return 1;
		}
		d->nlost++;	/* overwritten while we copied */
	}
	return 0;
}

/* the time of the shared ring's next record, not taken: 1, or 0 as ringtake */
int
ringpeek(Dev *d, uint64_t *ticks, uint64_t *head, uint64_t cap, uint32_t *wait)
{
	uint64_t r;
	Slot *s;

	while ((s = ready(d, head, cap, wait, &r)) != 0) {
		*ticks = ald(&s->rec.ticks);
		if (rld(&s->seq) == 2*r + 2)
			return 1;
		/* overwritten meanwhile: ready finds it so and counts it */
	}
	return 0;
}

/* size: discard what is queued, counted as lost, then use 1<<log slots */
void
ringreset(Dev *d, int log)
{
	uint64_t head = ald(&d->head);

	if (d->tail < head)
		d->nlost += head - d->tail;
	ast(&d->tail, head);
	d->stuck = 0;
	wringreset(d, (uint32_t)log);
}

/*
 * log: as ringcheck returned it; the shared ring's counts and every
 * writer's ring's summed; hits counts what a full ring refused too
 * (dropped).  Dev.nread counts every ring's reads already.
 */
void
ringstats(Dev *d, uint32_t log, uint64_t *hits, uint64_t *queued, uint64_t *lost, uint64_t *dropped)
{
	uint64_t head = ald(&d->head), cap = 1ull << log, tail = d->tail, q, n, wh, wr, wq, wl, wd;
	uint32_t i;

	if (tail > head)	/* damage since ringcheck: nothing queued */
		tail = head;
	q = head - tail < cap ? head - tail : cap;
	n = rld(&d->dropped);
	for (i = 0; i < Nshard; i++)
		n += rld(&d->shard[i].dropped);
	wringstats(d, log, &wh, &wr, &wq, &wl, &wd);
	*hits = head + n + wh;
	*queued = q + wq;
	*lost = d->nlost + (head - tail - q) + wl;
	*dropped = n + wd;
}
