/*
 * wring.c: the writers' rings.  A writer thread claims a ring of its
 * own (writer.c) and is its only writer, so a record costs no locked
 * instruction: the slot's seq odd, the fields, seq even, then a release
 * store of the ring's head (slot.h).  A ring given back, or left by a
 * dead owner, keeps its records for the reader; its next owner writes
 * on after its head.  Threads past the rings write the shared ring
 * (ring.c).  The reader, under the host's lock, keeps each ring's tail;
 * merge.c merges the rings by time, wringbulk reads one alone.
 *
 * Policies, per ring: ring overwrites the oldest (the reader finds a lap
 * by head - tail > size, and by the slot's seq before and after its copy:
 * lost); fill drops a record while head - tail >= size (the ring's
 * dropped); block waits for the reader as ring.c's recordblock does.
 *
 * The block is shared: a head, tail or index read from it is only used
 * masked, or after a check against the sizes this process mapped.
 */
#include "dev/dat.h"
#include "dev/fns.h"
#include "dev/lib.h"
#include "dev/host.h"
#include "dev/ring/slot.h"

/* the Kwait record of a wait for why that began at from, as ticket t of a ring of cap slots */
static void
wringwaited(Writer *w, const Hit *h, uint64_t t, uint64_t cap, uint64_t from, uint32_t why)
{
	uint64_t now = hostticks();

	slotput(&w->ws[t & (cap - 1)], t, h->tid, Kwait, h->pc, now, now - from, why, 0, 0);
	w->waited += now - from;
}

/*
 * A record of a writer that owns a ring, by the policy: ring overwrites;
 * fill drops while the ring is full; block waits, without a lock, until
 * the reader makes room or waitms pass with its tail still, then marks
 * the ring stalled there and drops (at once, next time, until it moves).
 * A wait is marked: once it has waited, the writer waits for room for
 * two, writes its record and then a Kwait record of how long it waited
 * (wringwaited), so that readers take the wait out of the call it fell
 * in; the Writer adds it to waited, for the host's own durations.  A
 * ring still warming has its next pages faulted in first (writer.c),
 * marked likewise.
 */
void
wringrecord(Dev *d, Writer *w, const Hit *h, uint32_t log, uint32_t policy, uint32_t waitms)
{
	Wring *r = w->wr;
	Blockwait b = { 0, 0, Napmin };
	uint64_t t, tail, cap, from = 0;
	uint32_t why = 0;

	if (w->warm != 0 && rld(&r->head) + 2 > w->warm) {
		from = hostticks();
		writerwarmstep(w, rld(&r->head));
		why = Wpages;
	}
	for (;;) {
		cap = 1ull << log;
		t = rld(&r->head);
		tail = ald(&r->tail);
		/* a tail past head is damage the reader repairs: room meanwhile */
		if (policy == Pring || tail > t || t - tail + (from != 0) < cap) {
			slotputhit(&w->ws[t & (cap - 1)], h, t);
			if (from != 0)
				wringwaited(w, h, t + 1, cap, from, why);
			ast(&r->head, t + 1 + (from != 0));
			return;
		}
		if (policy != Pblock)
			break;
		if (from == 0)
			from = hostticks();
		why |= Wreader;
		if (!blockwait(&b, &r->stalled, tail, waitms))
			break;
		/* a size may come while we wait: the ring's size as it is now, checked */
		if ((log = rld(&d->log)) > w->lim) {
			corrupt(d);
			return;
		}
	}
	if (from != 0)
		w->waited += hostticks() - from;	/* a stall: the records are dropped (counted), the wait unmarked */
	rst(&r->dropped, rld(&r->dropped) + 1);
}

/* a new policy: every ring is waited for again */
void
wringunstall(Dev *d)
{
	uint32_t n = mapnring(d), i;
	Wring *wr = wrings(d, maplogmax(d));

	for (i = 0; i < n; i++)
		ast(&wr[i].stalled, 0);
}

/*
 * A ring's reader claim (Wring.claim): only its holder moves the ring's
 * tail and counts its reads and losses, so readers copy rings side by
 * side.  A reader outside the host's lock (devreadwring: devtrace
 * record's threads) claims with its tid; the lock's holder (a merge, a
 * check, a size) with Claimlock, given back before it unlocks, so a
 * Claimlock that the lock's holder finds is a dead holder's.  A claim
 * of a thread that has gone is taken over.
 */
int
wringclaim(Dev *d, uint32_t i, uint32_t who)
{
	Wring *r = &wrings(d, maplogmax(d))[i];
	uint32_t c = ald(&r->claim);

	if (c != 0 && c != who && (c >= Tidbound || hostalive(c)))
		return 0;
	return acas(&r->claim, &c, who);
}

void
wringunclaim(Dev *d, uint32_t i)
{
	ast(&wrings(d, maplogmax(d))[i].claim, 0);
}

/*
 * The lock's holder waits for a reader's claim: a copy of at most what
 * the reader asked for, microseconds, unless the reader is stopped;
 * after Claimwaitms it takes the claim all the same (NOTES: dev/ rings).
 */
enum { Claimwaitms = 1000 };

static void
claimwait(Dev *d, uint32_t i)
{
	uint64_t end = hostnsec() + Claimwaitms * 1000000ull;

	while (!wringclaim(d, i, Claimlock)) {
		if (hostnsec() > end) {
			ast(&wrings(d, maplogmax(d))[i].claim, Claimlock);
			return;
		}
		hostwait(20000);
	}
}

/*
 * The control side, under the lock: a tail past its head is damage,
 * counted and repaired (ring.c: ringcheck), whoever holds the claim: a
 * holder moves the tail only up to a head it read, so a scribbled claim
 * that looks like a live reader's cannot hide it.  A claim no thread
 * holds is a dead lock holder's (or damage): let go.
 */
void
wringcheck(Dev *d)
{
	uint32_t n = mapnring(d), i, c;
	Wring *wr = wrings(d, maplogmax(d));
	uint64_t h;

	for (i = 0; i < n; i++) {
		if ((c = ald(&wr[i].claim)) >= Tidbound) {
			if (c != Claimlock)
				corrupt(d);
			ast(&wr[i].claim, 0);
		}
		if (rld(&wr[i].tail) > (h = ald(&wr[i].head))) {
			corrupt(d);
			ast(&wr[i].tail, h);
		}
	}
}

/*
 * size: what each ring holds is lost, counted; the new size is set
 * while every ring's claim is held, so a reader's copy uses one size
 * throughout.
 */
void
wringreset(Dev *d, uint32_t log)
{
	uint32_t n = mapnring(d), i;
	Wring *wr = wrings(d, maplogmax(d));
	uint64_t h, t;

	for (i = 0; i < n; i++) {
		claimwait(d, i);
		h = ald(&wr[i].head);
		if ((t = wr[i].tail) < h)
			wr[i].nlost += h - t;
		ast(&wr[i].tail, h);
	}
	ast(&d->log, log);
	for (i = 0; i < n; i++)
		wringunclaim(d, i);
}

/* one ring's counts; hits = read + queued + lost + dropped */
static void
wcounts(Wring *r, uint64_t cap, uint64_t *hits, uint64_t *read, uint64_t *queued, uint64_t *lost, uint64_t *dropped)
{
	uint64_t head = ald(&r->head), tail = rld(&r->tail), q;

	if (tail > head)	/* damage since wcheck: nothing queued */
		tail = head;
	q = head - tail < cap ? head - tail : cap;
	*dropped = rld(&r->dropped);
	*hits = head + *dropped;
	*read = rld(&r->nread);
	*queued = q;
	*lost = rld(&r->nlost) + (head - tail - q);
}

/*
 * The rings a capture reads this pass: two loads a ring, no lock, so
 * that a pass over many rings costs little when few have records.  A
 * ring whose head a writer is moving is seen now or at the next pass.
 */
uint32_t
devringsqueued(Dev *d, uint32_t *ring, uint32_t n)
{
	uint32_t nr = mapnring(d), i, k = 0;
	Wring *wr = wrings(d, maplogmax(d));

	for (i = 0; i < nr && k < n; i++)
		if (ald(&wr[i].head) != rld(&wr[i].tail))
			ring[k++] = i;
	return k;
}

/*
 * Ring i's owner now (0: free; Tidbound: a host's static writer) and its
 * process, or the last owner's when free (Wring.pid): 0, or -1 if the
 * ring is out of range or its owner changed while read (ask again).
 */
int
devringowner(Dev *d, uint32_t i, uint32_t *tid, uint32_t *pid)
{
	Wring *wr = wrings(d, maplogmax(d));

	if (i >= mapnring(d))
		return -1;
	*tid = ald(&wr[i].tid);
	*pid = ald(&wr[i].pid);
	return ald(&wr[i].tid) == *tid ? 0 : -1;
}

/* the sums over every ring (read is counted in Dev.nread too: not summed here) */
void
wringstats(Dev *d, uint32_t log, uint64_t *hits, uint64_t *read, uint64_t *queued, uint64_t *lost, uint64_t *dropped)
{
	uint32_t n = mapnring(d), i;
	Wring *wr = wrings(d, maplogmax(d));
	uint64_t h, r, q, l, dr;

	*hits = *read = *queued = *lost = *dropped = 0;
	for (i = 0; i < n; i++) {
		wcounts(&wr[i], 1ull << log, &h, &r, &q, &l, &dr);
		*hits += h;
		*read += r;
		*queued += q;
		*lost += l;
		*dropped += dr;
	}
}

static void
bkey(Buf *b, const char *key, uint64_t v)
{
	bputs(b, key);
	bputdec(b, v);
}

/*
 * "#ring I tid T hits H read R queued Q lost L dropped D" for each ring
 * ever used (a bound one once it has a hit): comments, the state still
 * replays.  The state's last lines: a kernel host's 4 rings a CPU can
 * outgrow Statemax on a big machine, so a line that might not fit whole
 * is not begun, and one last line says how many were left out.
 */
enum { Ringline = 160 };	/* the longest #ring line: 5 keys of 20 digits, a ring and a tid of 10 */
void
wringstate(Dev *d, uint32_t log, Buf *b)
{
	uint32_t n = mapnring(d), i, cut = 0;
	Wring *wr = wrings(d, maplogmax(d));
	uint64_t h, r, q, l, dr;

	for (i = 0; i < n; i++) {
		if (rld(&wr[i].used) == 0)
			continue;
		wcounts(&wr[i], 1ull << log, &h, &r, &q, &l, &dr);
		if (rld(&wr[i].tid) == Tidbound && h == 0 && l == 0)	/* a host's static writer that never wrote: 4 a CPU in a kernel */
			continue;
		if (cut > 0 || b->e - b->p < 2 * Ringline) {	/* room for this line and the last */
			cut++;
			continue;
		}
		bkey(b, "#ring ", i);
		bkey(b, " tid ", rld(&wr[i].tid));
		bkey(b, " hits ", h);
		bkey(b, " read ", r);
		bkey(b, " queued ", q);
		bkey(b, " lost ", l);
		bkey(b, " dropped ", dr);
		bputc(b, '\n');
	}
	if (cut > 0) {
		bkey(b, "#rings not shown ", cut);
		bputc(b, '\n');
	}
}

/*
 * A capture's read of ring i alone, unmerged (read.c: devreadring): up to n of
 * its records in bulk, in its order, each slot checked by its seq as it
 * is copied (2t+2: complete, and the record this read wants; anything
 * else is a lap or damage, counted lost, and ends the run), then the
 * run checked against the head as it is after the copy: a record the
 * writer may have begun to overwrite meanwhile (t + cap <= head after)
 * is counted lost, not returned.  The caller (devtrace cat) merges the
 * rings by time later.  The number of records in out.
 */
size_t
wringbulk(Dev *d, uint32_t log, uint32_t i, Rec *out, size_t n)
{
	uint32_t nr = mapnring(d), lim = maplogmax(d);
	uint64_t cap = 1ull << log, head, t, e, k, k2, h2, p, got;
	Wring *r;
	Slot *sl, *s;

	if (i >= nr || nr > Nringmax || n == 0)
		return 0;
	r = &wrings(d, lim)[i];
	sl = wslots(d, lim, nr, i);
	head = ald(&r->head);
	if ((t = r->tail) > head) {
		corrupt(d);
		ast(&r->tail, head);
		return 0;
	}
	if (head - t > cap) {	/* lapped: those are gone */
		r->nlost += head - t - cap;
		t = head - cap;
	}
	e = head - t > n ? t + n : head;
	for (k = t; k < e; k++) {
		s = &sl[k & (cap - 1)];
		if (ald(&s->seq) != 2*k + 2)
			break;
		slotcopy(s, &out[k - t]);	/* checked as a run after the copy, below */
	}
	got = k - t;
	if (k < e) {	/* the slot out of turn: gone */
		r->nlost++;
		k++;
	}
	/*
	 * A lap during the copy (ring): record T, being written while head
	 * is T, overwrites T - cap; so only records k with k + cap <= head
	 * after the copy may be torn.  Those are looked at again: a seq
	 * still 2k+2 says the writer had not begun to overwrite it (its odd
	 * seq goes before the fields), and the writer overwrites in order,
	 * so the torn ones are a prefix.  Under fill and block a full ring's
	 * writer waits for our tail: their seqs are all still right.
	 */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	h2 = ald(&r->head);
	p = 0;
	for (k2 = t; k2 < t + got && k2 + cap <= h2; k2++)
		if (ald(&sl[k2 & (cap - 1)].seq) != 2*k2 + 2)
			p = k2 - t + 1;
	if (p > 0) {
		for (k2 = p; k2 < got; k2++)	/* rare: a lap during the copy */
			out[k2 - p] = out[k2];
		got -= p;
		r->nlost += p;
	}
	/* release: under fill and block the writer reuses the slots once it sees the tail past them */
	ast(&r->tail, k);
	r->nread += got;
	aadd(&d->nread, got);	/* other rings' readers add theirs at once */
	return got;
}
