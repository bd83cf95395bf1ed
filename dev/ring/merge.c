/*
 * merge.c: one read's merge of the rings, the shared one and the
 * writers', by the records' times.  A read goes no further in a ring
 * than the head it saw as it began, so a record written later cannot
 * have been passed over by an older one's reader: the order is exact
 * but for records in flight (time taken, record not yet published) as
 * the read began.  Every ring with records is merged, in a heap by the
 * time of its next record (ties to the lower ring), whatever their
 * number.  Under the host's lock, each writer's ring under its claim
 * (wring.c: wringclaim) from mergestart to mergeend: a ring that
 * another reader holds is left to it.
 */
#include "dev/dat.h"
#include "dev/fns.h"
#include "dev/host.h"
#include "dev/ring/slot.h"

/* a before b: the older next record, or on a tie the lower ring (src is in ring order) */
static int
older(const Mergekey *a, const Mergekey *b)
{
	return a->ticks != b->ticks ? a->ticks < b->ticks : a->src < b->src;
}

/* x put in the heap's hole at k, or further down, below its children's place (inlined: 6% of a merged read) */
static inline __attribute__((always_inline)) void
siftdown(Merge *m, uint32_t k, Mergekey x)
{
	Mergekey *h = m->h;
	uint32_t c;

	while ((c = 2 * k + 1) < m->n) {
		c += c + 1 < m->n && older(&h[c + 1], &h[c]);	/* no branch: which child is older is a coin toss */
		if (!older(&h[c], &x))
			break;
		h[k] = h[c];
		k = c;
	}
	h[k] = x;
}

/*
 * Find s's ring's next record, from its tail up to the head the read
 * began with: 1 with its number (in s) and time, or 0: none left to
 * this read.  Its time is read between two looks at seq, so it is its
 * own.  What a lap overwrote (ring), or what a seq out of turn says is
 * gone (a size since, damage), is counted lost on the way.
 */
static inline __attribute__((always_inline)) int
wpeek(Merge *m, Mergesrc *s, uint64_t *ticks)
{
	Wring *r = &wrings(m->d, m->logmax)[s->ring];
	Slot *slot = wslots(m->d, m->logmax, m->nring, s->ring);
	uint64_t head = s->head, cap = m->cap, t;

	/* the tail read once: a process scribbling on it meanwhile cannot keep this loop going */
	for (t = r->tail; t < head; t++) {
		if (head - t > cap) {	/* lapped: those are gone */
			r->nlost += head - t - cap;
			t = head - cap;
		}
		if (slotticks(&slot[t & (cap - 1)], t, ticks)) {
			__builtin_prefetch(&slot[(t + 1) & (cap - 1)]);	/* its next look */
			ast(&r->tail, t);
			s->t = t;
			return 1;
		}
		ast(&r->tail, t + 1);
		r->nlost++;
	}
	return 0;
}

/*
 * A read begins: the shared ring, and every writer's ring with records
 * that no other reader holds, each up to its head now, their next
 * records looked at and put in order.  No cap: a Reader has room for
 * every ring.
 */
void
mergestart(Merge *m, Dev *d, Reader *rd, uint32_t log)
{
	uint32_t n = mapnring(d), lim = maplogmax(d), i, k;
	Wring *wr = wrings(d, lim);
	uint64_t h, t;

	*m = (Merge){ .d = d, .cap = 1ull << log, .logmax = lim, .nring = n, .ohead = ald(&d->head), .oin = 1,
		.wait = &rd->wait, .src = rd->src, .h = rd->heap };
	for (i = 0; i < n && n <= Nringmax; i++) {
		/* the claim first: another reader moves the tail till then */
		if (ald(&wr[i].head) == rld(&wr[i].tail) || !wringclaim(d, i, Claimlock))
			continue;
		h = ald(&wr[i].head);
		if ((t = wr[i].tail) >= h) {
			if (t > h) {
				corrupt(d);
				ast(&wr[i].tail, h);
			}
			wringunclaim(d, i);
			continue;
		}
		m->src[m->nsrc] = (Mergesrc){ .head = h, .ring = i };
		m->h[m->n].src = m->nsrc;
		m->n += wpeek(m, &m->src[m->nsrc], &m->h[m->n].ticks);
		m->nsrc++;
	}
	for (k = m->n / 2; k-- > 0;)
		siftdown(m, k, m->h[k]);
}

/* the read ends: its rings let go, its records counted once (other rings' readers add to Dev.nread at once) */
void
mergeend(Merge *m)
{
	uint32_t k;

	for (k = 0; k < m->nsrc; k++)
		wringunclaim(m->d, m->src[k].ring);
	aadd(&m->d->nread, m->nread);
}

/*
 * Take the oldest ring's record (h[0]), 1; or 0 if a lap overwrote it
 * since it was looked at (counted lost at the next look).  Either way
 * the ring's next record is looked at and the heap put right.
 */
static int
wtake(Merge *m, Rec *out)
{
	Mergekey x = { .src = m->h[0].src };
	Mergesrc *s = &m->src[x.src];
	Wring *r = &wrings(m->d, m->logmax)[s->ring];
	int got;

	got = slotload(&wslots(m->d, m->logmax, m->nring, s->ring)[s->t & (m->cap - 1)], s->t, out);
	if (got) {
		/* release: under fill and block the writer reuses the slot once it sees the tail past it */
		ast(&r->tail, s->t + 1);
		r->nread++;
		m->nread++;
	}
	/* its next record's place, found from the top (the new key handed down whole, not stored and loaded again) */
	if (!wpeek(m, s, &x.ticks))
		x = m->h[--m->n];
	siftdown(m, 0, x);
	return got;
}

/*
 * The one ring left to this read, nothing to merge it with: its
 * records copied at once, no look ahead: 1; or 0, none.
 */
static int
wonly(Merge *m, Rec *out)
{
	Mergesrc *s = &m->src[m->h[0].src];
	Wring *r = &wrings(m->d, m->logmax)[s->ring];
	Slot *slot = wslots(m->d, m->logmax, m->nring, s->ring);
	uint64_t head = s->head, cap = m->cap, t;

	for (t = r->tail; t < head; t++) {
		if (head - t > cap) {	/* lapped: those are gone */
			r->nlost += head - t - cap;
			t = head - cap;
		}
		if (slotload(&slot[t & (cap - 1)], t, out)) {
			ast(&r->tail, t + 1);
			r->nread++;
			m->nread++;
			return 1;
		}
		ast(&r->tail, t + 1);
		r->nlost++;
	}
	m->n = 0;
	return 0;
}

int
mergenext(Merge *m, Rec *out)
{
	for (;;) {
		if (m->n == 0 && m->oin == 0)
			return 0;
		if (m->n == 0) {	/* the shared ring alone: nothing to merge it with */
			m->oin = 1;
			return ringtake(m->d, out, &m->ohead, m->cap, m->wait);
		}
		if (m->n == 1 && m->oin == 0)	/* the common end of a read: one ring */
			return wonly(m, out);
		if (m->oin == 1) {
			if (ringpeek(m->d, &m->oticks, &m->ohead, m->cap, m->wait))
				m->oin = 2;
			else if (*m->wait)
				return 0;	/* the shared ring's next is being written: its time is not known yet */
			else
				m->oin = 0;
		}
		if (m->oin == 2 && m->oticks <= m->h[0].ticks) {
			m->oin = 1;
			if (ringtake(m->d, out, &m->ohead, m->cap, m->wait))
				return 1;
			if (*m->wait)
				return 0;
			continue;
		}
		if (wtake(m, out))
			return 1;
	}
}
