/*
 * ring.c: the shared ring, and the record path and the reads of every
 * ring.  A writer that owns a ring of its own (wring.c) writes it with
 * plain stores (wput); the others, threads past the rings and hits with
 * no Writer (testtracein), share this ring.  Its writers take a ticket with one atomic
 * increment and claim the ticket's slot by moving its sequence number
 * from an older even value to 2t+1; they fill it and publish 2t+2.
 * A writer that finds the slot busy, or already taken by a later lap,
 * drops its record: the reader finds the ticket missing and counts it
 * lost.  The reader, one at a time under the host's lock, walks the
 * tickets in order and either returns a record or counts it lost, so
 * hits = read + queued + lost holds exactly whenever it is looked at.
 * devread and devreadraw take this ring's records and the writers'
 * rings' through one merge by time (wring.c: mstart, mnext).
 *
 * Every process may write the block, so nothing read from it is an
 * index before it is checked: log against the size this process mapped
 * (hostlogmax), the reader's tail against head.  The reader never waits
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
#include "dev/lib.h"
#include "dev/host.h"

enum {
	Stucknsec = 20*1000*1000,	/* a ticket unfinished this long is lost */
};

/* write the record of ticket t into a ring of 1<<log slots, log checked */
static inline __attribute__((always_inline)) void
fillslot(Dev *d, const Hit *h, uint32_t log, uint64_t t)
{
	uint64_t old, busy;
	Slot *s = &d->slot[t & ((1ull << log) - 1)];

	old = rld(&s->seq);
	busy = 2*t + 1;
	do
		if ((old & 1) || old >= busy)
			return;
	while (!acas(&s->seq, &old, busy));
	slotfields(s, h);
	/*
	 * A store, not a second CAS (locked instructions are most of a
	 * record's cost): a reader takes a busy slot back only from a dead
	 * writer, and if it misjudged a stalled one, a CAS here would not
	 * save the record either: the next lap may already be writing it.
	 * What the store can do then is hide that lap's record: counted lost.
	 */
	ast(&s->seq, busy + 1);
}

/* the ring policy's: a ticket whatever the room */
static inline __attribute__((always_inline)) void
put(Dev *d, const Hit *h, uint32_t log)
{
	fillslot(d, h, log, aadd(&d->head, 1));
}

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
 * block's wait for the reader, for the shared ring and a writer's own
 * (wring.c): 1 when it slept and the caller should look again; 0 when
 * the reader is taken as stalled at tail (*stalled marked now or by
 * another writer before): give up.  The bound starts again whenever
 * the tail moves.
 */
int
blockwait(Blockwait *b, uint64_t *stalled, uint64_t tail, uint32_t waitms)
{
	uint64_t now;

	if (rld(stalled) == tail + 1)
		return 0;
	now = hostnsec();
	if (b->since == 0 || tail != b->seen) {	/* the first wait, or the reader moved */
		b->since = now ? now : 1;
		b->seen = tail;
	} else if (now - b->since >= (uint64_t)waitms * 1000000) {
		ast(stalled, tail + 1);
		return 0;
	}
	hostwait(b->nap);
	if (b->nap < Napmax)
		b->nap *= 2;
	return 1;
}

/*
 * block: wait for room, sleeping (no lock held: the hook path has none)
 * while the reader makes progress; once the tail has stood still for
 * waitms, mark the reader stalled there and drop.  Writers that find it
 * marked drop at once: a stopped reader costs each writer one wait, not
 * one per record.
 */
static void
recordblock(Dev *d, const Hit *h, uint32_t lim, uint32_t waitms)
{
	Blockwait b = { 0, 0, Napmin };
	uint64_t t, tail;
	uint32_t log;

	for (;;) {
		/* a size may come while we wait: the ring's size as it is now, checked */
		if ((log = rld(&d->log)) > lim) {
			aadd(&d->count[Ccorrupt], 1);
			return;
		}
		if (room(d, 1ull << log, &t, &tail)) {
			fillslot(d, h, log, t);
			return;
		}
		if (!blockwait(&b, &d->stalled, tail, waitms))
			break;
	}
	drop(d, h);
}

/*
 * The policy and its bound as the block holds them: any process may
 * have written either, so a policy no command sets is damage (counted,
 * taken as ring) and a bound is clamped to what a command allows.
 */
static inline uint32_t
policyof(Dev *d, uint32_t *waitms)
{
	uint32_t p = rld(&d->policy), ms = rld(&d->waitms);

	if (__builtin_expect(p >= Npolicy, 0)) {
		aadd(&d->count[Ccorrupt], 1);
		return Pring;
	}
	*waitms = ms < 1 ? 1 : ms > Waitmax ? Waitmax : ms;
	return p;
}

/*
 * No Writer of this device, a log past its bound, or a policy other than
 * ring: ask the host, count damage, then as the policy says.
 */
static __attribute__((noinline)) void
recordslow(Dev *d, const Hit *h)
{
	const Writer *w = h->w;
	uint32_t log = rld(&d->log), waitms = Waitdef, lim, p;
	uint64_t t, tail;

	/* the Writer keeps the host's bound: asked of the host only without one */
	lim = w && w->d == d ? w->lim : hostlogmax(d);
	if (log > lim) {	/* a log past the mapping is damage, not an index */
		aadd(&d->count[Ccorrupt], 1);
		return;
	}
	p = policyof(d, &waitms);
	if (w && w->d == d && w->wr) {	/* its own ring */
		wrecord(d, w, h, log, p, waitms);
		return;
	}
	switch (p) {
	case Pblock:
		if (w) {	/* a hook's: it holds no lock, it may wait */
			recordblock(d, h, lim, waitms);
			return;
		}
		/* no Writer: the control side's testtracein, under the host's lock: it never waits */
		/* fall through */
	case Pfill:
		if (room(d, 1ull << log, &t, &tail))
			fillslot(d, h, log, t);
		else
			drop(d, h);
		return;
	}
	put(d, h, log);
}

/*
 * The hook path: the thread's Writer keeps the host's bound (hit.c:
 * decide), 0 under a policy other than ring, so checking the block's
 * log costs a load and a compare, and the call to the host and the
 * other policies stay off the path (no frame to save here).
 */
void
devrecord(Dev *d, const Hit *h)
{
	const Writer *w = h->w;
	uint32_t log = rld(&d->log);

	if (__builtin_expect(w != 0 && w->d == d && log <= w->ringlim, 1)) {
		if (__builtin_expect(w->wr != 0, 1))
			wput(w, h, log);
		else
			put(d, h, log);
	} else
		recordslow(d, h);
}

/* the control side's look at the policy: policyof's */
uint32_t
ringpolicy(Dev *d, uint32_t *waitms)
{
	return policyof(d, waitms);
}

/*
 * The control side's look at the ring before it uses it: a log outside
 * [Logmin, hostlogmax] or a tail past head is damage: counted, and the
 * ring set back to a size the mapping holds (what it held is lost).
 */
uint32_t
ringcheck(Dev *d)
{
	uint32_t lim = hostlogmax(d), log = rld(&d->log);
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
	wcheck(d);
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
			if ((s1 & 1) && !alive(rld(&s->tid)))
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
take(Dev *d, Slot *out, uint64_t *head, uint64_t cap, uint32_t *wait)
{
	uint64_t r, s1;
	Slot *s;

	while ((s = ready(d, head, cap, wait, &r)) != 0) {
		/* acquire loads keep the second look at seq after the copy */
		out->pc = ald(&s->pc);
		out->ticks = ald(&s->ticks);
		out->tid = ald(&s->tid);
		out->exit = ald(&s->exit);
		out->a[0] = ald(&s->a[0]);
		out->a[1] = ald(&s->a[1]);
		out->a[2] = ald(&s->a[2]);
		out->a[3] = ald(&s->a[3]);
		s1 = rld(&s->seq);
		/*
		 * The tail moves past the slot only after the second
		 * look, with release: under fill and block a writer
		 * reuses the slot only once it sees the tail past it.
		 */
		ast(&d->tail, r + 1);
		if (r + 1 >= d->stuckhead)
			d->stuck = 0;
		if (s1 == 2*r + 2) {
			d->nread++;
			return 1;
		}
		d->nlost++;	/* overwritten while we copied */
	}
	return 0;
}

/* the time of the shared ring's next record, not taken: 1, or 0 as take */
int
peek(Dev *d, uint64_t *ticks, uint64_t *head, uint64_t cap, uint32_t *wait)
{
	uint64_t r;
	Slot *s;

	while ((s = ready(d, head, cap, wait, &r)) != 0) {
		*ticks = ald(&s->ticks);
		if (rld(&s->seq) == 2*r + 2)
			return 1;
		/* overwritten meanwhile: ready finds it so and counts it */
	}
	return 0;
}

/*
 * The record is the reader's hot loop, so no Buf and no digit at a time:
 * hex8 spreads the 8 nibbles of v over the bytes of a word (nibble i in
 * byte i), turns each into its digit at once (+'0', +39 more from 10 up:
 * no byte carries into the next) and orders them most significant first.
 */
static uint64_t
hex8(uint32_t v)
{
	uint64_t x = v, over9;

	x = (x | x << 16) & 0x0000ffff0000ffffull;
	x = (x | x << 8) & 0x00ff00ff00ff00ffull;
	x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;
	over9 = ((x + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;
	x += 0x3030303030303030ull + over9 * ('a' - '0' - 10);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

/* 16 hex digits and a separator */
static char *
hex16(char *p, uint64_t v, char sep)
{
	uint64_t hi = hex8(v >> 32), lo = hex8((uint32_t)v);

	__builtin_memcpy(p, &hi, 8);
	__builtin_memcpy(p + 8, &lo, 8);
	p[16] = sep;
	return p + 17;
}

static void
fmtrec(char *p, const Slot *s)
{
	*p++ = s->exit ? 'X' : 'E';
	*p++ = ' ';
	p = hex16(p, s->pc, ' ');
	p = hex16(p, s->ticks, ' ');
	p = hex16(p, s->tid, ' ');
	p = hex16(p, s->a[0], ' ');
	p = hex16(p, s->a[1], ' ');
	p = hex16(p, s->a[2], ' ');
	hex16(p, s->a[3], '\n');
}

size_t
devread(Dev *d, Reader *r, char *buf, size_t n)
{
	size_t done = 0;
	Merge m;
	Slot s;

	r->wait = 0;
	mstart(&m, d, ringcheck(d), &r->wait);
	if (r->off > r->len || r->len > Reclen)	/* the Reader is the caller's: a bug, not damage */
		r->off = r->len = 0;
	for (;;) {
		while (r->off < r->len && done < n)
			buf[done++] = r->part[r->off++];
		if (done == n || !mnext(&m, &s))
			return done;
		if (n - done >= Reclen) {
			fmtrec(buf + done, &s);
			done += Reclen;
			continue;
		}
		fmtrec(r->part, &s);
		r->off = 0;
		r->len = Reclen;
	}
}

/* up to n whole records of the merge m, as Recs */
static size_t
mrecs(Merge *m, Rec *out, size_t n)
{
	size_t done = 0;
	Slot s;

	while (done < n && mnext(m, &s)) {
		out[done].pc = s.pc;
		out[done].ticks = s.ticks;
		out[done].tid = s.tid;
		out[done].exit = s.exit;
		out[done].a[0] = s.a[0];
		out[done].a[1] = s.a[1];
		out[done].a[2] = s.a[2];
		out[done].a[3] = s.a[3];
		done++;
	}
	return done;
}

/*
 * The capture's read (devtrace record): whole records as they sit in
 * the slots, no formatting, so a reader can save them as fast as the
 * writers fill the rings.  The same merge as devread: every record
 * ends once, read or lost, and the counters stay exact.  r's text part
 * is devread's alone: a reader uses one of the two.
 */
size_t
devreadraw(Dev *d, Reader *r, Rec *out, size_t n)
{
	Merge m;

	r->wait = 0;
	mstart(&m, d, ringcheck(d), &r->wait);
	return mrecs(&m, out, n);
}

/*
 * A capture's read of one source alone, unmerged (devtrace record; its
 * cat merges them by time later, as trace-cmd report merges per-CPU
 * files): ring < nring a writer's ring (wring.c: wbulk), ring == nring
 * the shared ring (take, tickets and all).  As devreadraw otherwise.
 */
size_t
devreadring(Dev *d, Reader *r, uint32_t ring, Rec *out, size_t n)
{
	uint32_t log = ringcheck(d);
	Merge m;

	r->wait = 0;
	if (ring < hostnring(d))
		return wbulk(d, log, ring, out, n);
	m.d = d;
	m.cap = 1ull << log;
	m.ohead = ald(&d->head);
	m.oin = 1;
	m.n = 0;
	m.wait = &r->wait;
	return mrecs(&m, out, n);
}

/* a saved record's line: devread's own formatter, so the bytes are the same */
void
devfmt(char *line, const Rec *rec)
{
	Slot s;

	s.seq = 0;
	s.pc = rec->pc;
	s.ticks = rec->ticks;
	s.tid = rec->tid;
	s.exit = rec->exit;
	s.a[0] = rec->a[0];
	s.a[1] = rec->a[1];
	s.a[2] = rec->a[2];
	s.a[3] = rec->a[3];
	fmtrec(line, &s);
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
	wreset(d);
	ast(&d->log, (uint32_t)log);
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
	wstats(d, log, &wh, &wr, &wq, &wl, &wd);
	*hits = head + n + wh;
	*queued = q + wq;
	*lost = d->nlost + (head - tail - q) + wl;
	*dropped = n + wd;
}
