/*
 * wring.c: the writers' rings.  A writer thread claims a ring of its
 * own (as it claims its counter shard: the one its id held, a free one,
 * or a dead owner's) and is its only writer, so a record costs no
 * locked instruction: the slot's seq odd, the fields, seq even, then a
 * release store of the ring's head.  A host's static writer (a kernel's
 * CPU and context) is bound to its ring instead (devwriterbind).  A
 * ring given back, or left by a dead owner, keeps its records for the
 * reader; its next owner writes on after its head.  Threads past the
 * rings write the shared ring (ring.c).
 *
 * The reader, under the host's lock, keeps each ring's tail and merges
 * the rings and the shared ring by the records' times (mstart, mnext).
 * A read goes no further in a ring than the head it saw as it began, so
 * a record written later cannot have been passed over by an older one's
 * reader: the order is exact but for records in flight (time taken,
 * record not yet published) as the read began.
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
#include "dev/lib.h"
#include "dev/host.h"

/* a ring for the writer: its id's, a free one, a dead owner's; none: the shared ring */
void
wclaim(Dev *d, Writer *w, uint32_t tid)
{
	uint32_t n = hostnring(d), lim = w->lim, i, o, pass;
	Wring *wr;

	w->ring = 0;
	w->wr = 0;
	w->ws = 0;
	if (n == 0 || n > Nringmax || lim < Logmin || tid == 0 || tid >= Tidbound)
		return;
	wr = wrings(d, lim);
	for (pass = 0; pass < 3; pass++)
		for (i = 0; i < n; i++) {
			o = rld(&wr[i].tid);
			if (pass == 0 ? o != tid : pass == 1 ? o != 0 : (o == 0 || o >= Tidbound || hostalive(o)))
				continue;
			if (pass == 0 || acas(&wr[i].tid, &o, tid))
				goto found;
		}
	return;
found:
	if (rld(&wr[i].used) == 0)
		rst(&wr[i].used, 1);
	w->ring = i + 1;
	w->wr = &wr[i];
	w->ws = wslots(d, lim, n, i);
}

int
devwriterbind(Dev *d, Writer *w, uint32_t ring)
{
	uint32_t n = hostnring(d), lim = hostlogmax(d);
	Wring *r;

	if (ring >= n || n > Nringmax || lim < Logmin)
		return Einval;
	__builtin_memset(w, 0, sizeof *w);
	w->d = d;
	w->lim = lim;
	w->ring = ring + 1;
	w->wr = r = &wrings(d, lim)[ring];
	w->ws = wslots(d, lim, n, ring);
	ast(&r->tid, Tidbound);
	rst(&r->used, 1);
	/*
	 * Its aggregation table too, bound as the ring is: a static writer
	 * runs for many threads, so a claim by tid (agg.c) could hand its
	 * table to another writer while it still adds to it without atomics.
	 */
	w->aggd = d;
	if (ring < Naggbuf) {
		ast(&d->aggs.buf[ring].tid, Tidbound);
		w->aggbuf = ring + 1;
	} else
		w->aggbuf = Naggbuf + 1;
	return 0;
}

/*
 * A record of a writer that owns a ring, by the policy: ring overwrites;
 * fill drops while the ring is full; block waits, without a lock, until
 * the reader makes room or waitms pass with its tail still, then marks
 * the ring stalled there and drops (at once, next time, until it moves).
 */
void
wrecord(Dev *d, const Writer *w, const Hit *h, uint32_t log, uint32_t policy, uint32_t waitms)
{
	Wring *r = w->wr;
	Blockwait b = { 0, 0, Napmin };
	uint64_t t, tail, cap;

	for (;;) {
		cap = 1ull << log;
		t = rld(&r->head);
		tail = ald(&r->tail);
		/* a tail past head is damage the reader repairs: room meanwhile */
		if (policy == Pring || tail > t || t - tail < cap) {
			wslot(&w->ws[t & (cap - 1)], h, t);
			ast(&r->head, t + 1);
			return;
		}
		if (policy != Pblock || !blockwait(&b, &r->stalled, tail, waitms))
			break;
		/* a size may come while we wait: the ring's size as it is now, checked */
		if ((log = rld(&d->log)) > w->lim) {
			aadd(&d->count[Ccorrupt], 1);
			return;
		}
	}
	rst(&r->dropped, rld(&r->dropped) + 1);
}

/* a new policy: every ring is waited for again */
void
wstallclear(Dev *d)
{
	uint32_t n = hostnring(d), i;
	Wring *wr = wrings(d, hostlogmax(d));

	for (i = 0; i < n; i++)
		ast(&wr[i].stalled, 0);
}

/* the control side: a tail past its head is damage, counted and repaired */
void
wcheck(Dev *d)
{
	uint32_t n = hostnring(d), i;
	Wring *wr = wrings(d, hostlogmax(d));
	uint64_t h;

	for (i = 0; i < n; i++)
		if (wr[i].tail > (h = ald(&wr[i].head))) {
			corrupt(d);
			ast(&wr[i].tail, h);
		}
}

/* size: what each ring holds is lost, counted */
void
wreset(Dev *d)
{
	uint32_t n = hostnring(d), i;
	Wring *wr = wrings(d, hostlogmax(d));
	uint64_t h, t;

	for (i = 0; i < n; i++) {
		h = ald(&wr[i].head);
		if ((t = wr[i].tail) < h)
			wr[i].nlost += h - t;
		ast(&wr[i].tail, h);
	}
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

/* the sums over every ring (read is counted in Dev.nread too: not summed here) */
void
wstats(Dev *d, uint32_t log, uint64_t *hits, uint64_t *read, uint64_t *queued, uint64_t *lost, uint64_t *dropped)
{
	uint32_t n = hostnring(d), i;
	Wring *wr = wrings(d, hostlogmax(d));
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
 * ever used: comments, the state still replays.  The state's last lines:
 * a kernel host's 4 rings a CPU can outgrow Statemax on a big machine,
 * so a line that might not fit whole is not begun, and one last line
 * says how many were left out.
 */
enum { Ringline = 160 };	/* the longest #ring line: 5 keys of 20 digits, a ring and a tid of 10 */
void
wstate(Dev *d, uint32_t log, Buf *b)
{
	uint32_t n = hostnring(d), i, cut = 0;
	Wring *wr = wrings(d, hostlogmax(d));
	uint64_t h, r, q, l, dr;

	for (i = 0; i < n; i++) {
		if (rld(&wr[i].used) == 0)
			continue;
		if (cut > 0 || b->e - b->p < 2 * Ringline) {	/* room for this line and the last */
			cut++;
			continue;
		}
		wcounts(&wr[i], 1ull << log, &h, &r, &q, &l, &dr);
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
 * A read begins: the rings with records, up to Nmerge of them, each up
 * to its head now.  The scan starts where the last one that found more
 * than Nmerge left off, so every ring is read in its turn.
 */
void
mstart(Merge *m, Dev *d, uint32_t log, uint32_t *wait)
{
	uint32_t n = hostnring(d), lim = hostlogmax(d), i, k, start;
	Wring *wr = wrings(d, lim);
	uint64_t h, t;

	m->d = d;
	m->cap = 1ull << log;
	m->ohead = ald(&d->head);
	m->oin = 1;
	m->n = 0;
	m->wait = wait;
	if (n == 0 || n > Nringmax)
		return;
	start = d->mergenext % n;
	for (k = 0; k < n; k++) {
		i = start + k < n ? start + k : start + k - n;
		h = ald(&wr[i].head);
		if ((t = wr[i].tail) > h) {
			corrupt(d);
			ast(&wr[i].tail, h);
			continue;
		}
		if (t == h)
			continue;
		if (m->n == Nmerge) {
			d->mergenext = i;
			return;
		}
		m->src[m->n].r = &wr[i];
		m->src[m->n].s = wslots(d, lim, n, i);
		m->src[m->n].head = h;
		m->src[m->n].peeked = 0;
		m->n++;
	}
}

/*
 * Look at ring j's next record: 1 with its copy, or 0: none left to
 * this read.  The copy is whole (seq the same before and after): taking
 * it later needs no second look, even if a lap has overwritten the slot
 * since.  What a lap overwrote (ring), or what a seq out of turn says is
 * gone (a size since, damage), is counted lost on the way.
 */
static int
wpeek(Merge *m, uint32_t j)
{
	Wring *r = m->src[j].r;
	uint64_t head = m->src[j].head, cap = m->cap, t, want;
	Rec *o = &m->src[j].rec;
	Slot *s;

	/* the tail read once: a process scribbling on it meanwhile cannot keep this loop going */
	for (t = r->tail; t < head; t++) {
		if (head - t > cap) {	/* lapped: those are gone */
			r->nlost += head - t - cap;
			t = head - cap;
		}
		s = &m->src[j].s[t & (cap - 1)];
		want = 2*t + 2;
		if (ald(&s->seq) == want) {
			o->pc = rld(&s->pc);
			o->ticks = rld(&s->ticks);
			o->tid = rld(&s->tid);
			o->exit = rld(&s->exit);
			o->a[0] = rld(&s->a[0]);
			o->a[1] = rld(&s->a[1]);
			o->a[2] = rld(&s->a[2]);
			o->a[3] = rld(&s->a[3]);
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			if (rld(&s->seq) == want) {
				ast(&r->tail, t);
				m->src[j].t = t;
				return 1;
			}
		}
		ast(&r->tail, t + 1);
		r->nlost++;
	}
	return 0;
}

/* take ring j's record that wpeek copied */
static void
wtake(Merge *m, uint32_t j, Slot *out)
{
	Wring *r = m->src[j].r;
	const Rec *c = &m->src[j].rec;

	out->pc = c->pc;
	out->ticks = c->ticks;
	out->tid = c->tid;
	out->exit = c->exit;
	out->a[0] = c->a[0];
	out->a[1] = c->a[1];
	out->a[2] = c->a[2];
	out->a[3] = c->a[3];
	/* release: under fill and block the writer reuses the slot once it sees the tail past it */
	ast(&r->tail, m->src[j].t + 1);
	r->nread++;
	m->d->nread++;
	m->src[j].peeked = 0;
}

/*
 * The one ring left to this read, nothing to merge it with: its next
 * record copied at once (wpeek and wtake in one look), 1; or 0, none.
 */
static int
wonly(Merge *m, Slot *out)
{
	Wring *r = m->src[0].r;
	uint64_t head = m->src[0].head, cap = m->cap, t, want;
	Slot *s;

	for (t = r->tail; t < head; t++) {
		if (head - t > cap) {	/* lapped: those are gone */
			r->nlost += head - t - cap;
			t = head - cap;
		}
		s = &m->src[0].s[t & (cap - 1)];
		want = 2*t + 2;
		if (ald(&s->seq) == want) {
			out->pc = rld(&s->pc);
			out->ticks = rld(&s->ticks);
			out->tid = rld(&s->tid);
			out->exit = rld(&s->exit);
			out->a[0] = rld(&s->a[0]);
			out->a[1] = rld(&s->a[1]);
			out->a[2] = rld(&s->a[2]);
			out->a[3] = rld(&s->a[3]);
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			if (rld(&s->seq) == want) {
				ast(&r->tail, t + 1);
				r->nread++;
				m->d->nread++;
				return 1;
			}
		}
		ast(&r->tail, t + 1);
		r->nlost++;
	}
	m->n = 0;
	return 0;
}

int
mnext(Merge *m, Slot *out)
{
	uint64_t bt = 0;
	uint32_t j;
	int best;

	if (m->n == 0) {	/* the shared ring alone: nothing to merge it with */
		if (m->oin == 0)
			return 0;
		m->oin = 1;
		return take(m->d, out, &m->ohead, m->cap, m->wait);
	}
	if (m->n == 1 && m->oin == 0 && !m->src[0].peeked)	/* the common end of a read: one ring */
		return wonly(m, out);
	for (;;) {
		best = -1;
		for (j = 0; j < m->n; j++) {
			if (!m->src[j].peeked) {
				if (!wpeek(m, j)) {
					m->src[j] = m->src[--m->n];
					j--;
					continue;
				}
				m->src[j].peeked = 1;
			}
			if (best < 0 || m->src[j].rec.ticks < bt) {
				best = j;
				bt = m->src[j].rec.ticks;
			}
		}
		if (m->oin == 1) {
			if (peek(m->d, &m->oticks, &m->ohead, m->cap, m->wait))
				m->oin = 2;
			else if (*m->wait)
				return 0;	/* the shared ring's next is being written: its time is not known yet */
			else
				m->oin = 0;
		}
		if (m->oin == 2 && (best < 0 || m->oticks <= bt)) {
			m->oin = 1;
			if (take(m->d, out, &m->ohead, m->cap, m->wait))
				return 1;
			if (*m->wait)
				return 0;
			continue;
		}
		if (best < 0)
			return 0;
		wtake(m, best, out);
		return 1;
	}
}

/*
 * A capture's read of ring i alone, unmerged (devreadring): up to n of
 * its records in bulk, in its order, each slot checked by its seq as it
 * is copied (2t+2: complete, and the record this read wants; anything
 * else is a lap or damage, counted lost, and ends the run), then the
 * run checked against the head as it is after the copy: a record the
 * writer may have begun to overwrite meanwhile (t + cap <= head after)
 * is counted lost, not returned.  The caller (devtrace cat) merges the
 * rings by time later.  The number of records in out.
 */
size_t
wbulk(Dev *d, uint32_t log, uint32_t i, Rec *out, size_t n)
{
	uint32_t nr = hostnring(d), lim = hostlogmax(d);
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
		out[k - t].pc = rld(&s->pc);
		out[k - t].ticks = rld(&s->ticks);
		out[k - t].tid = rld(&s->tid);
		out[k - t].exit = rld(&s->exit);
		out[k - t].a[0] = rld(&s->a[0]);
		out[k - t].a[1] = rld(&s->a[1]);
		out[k - t].a[2] = rld(&s->a[2]);
		out[k - t].a[3] = rld(&s->a[3]);
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
	d->nread += got;
	return got;
}
