/*
 * merge.c: one read's merge of the rings, the shared one and the
 * writers', by the records' times.  A read goes no further in a ring
 * than the head it saw as it began, so a record written later cannot
 * have been passed over by an older one's reader: the order is exact
 * but for records in flight (time taken, record not yet published) as
 * the read began.  Under the host's lock: the tails are the reader's.
 */
#include "dev/dat.h"
#include "dev/fns.h"
#include "dev/host.h"
#include "dev/ring/slot.h"

/* the shared ring, up to its head now; no writer's ring yet */
static void
mergeshared(Merge *m, Dev *d, uint32_t log, uint32_t *wait)
{
	m->d = d;
	m->cap = 1ull << log;
	m->ohead = ald(&d->head);
	m->oin = 1;
	m->n = 0;
	m->wait = wait;
}

/*
 * A read begins: the rings with records, up to Nmerge of them, each up
 * to its head now.  The scan starts where the last one that found more
 * than Nmerge left off, so every ring is read in its turn.
 */
void
mergestart(Merge *m, Dev *d, uint32_t log, uint32_t *wait)
{
	uint32_t n = mapnring(d), lim = maplogmax(d), i, k, start;
	Wring *wr = wrings(d, lim);
	uint64_t h, t;

	mergeshared(m, d, log, wait);
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
	uint64_t head = m->src[j].head, cap = m->cap, t;
	Rec *o = &m->src[j].rec;

	/* the tail read once: a process scribbling on it meanwhile cannot keep this loop going */
	for (t = r->tail; t < head; t++) {
		if (head - t > cap) {	/* lapped: those are gone */
			r->nlost += head - t - cap;
			t = head - cap;
		}
		if (slotload(&m->src[j].s[t & (cap - 1)], t, o)) {
			ast(&r->tail, t);
			m->src[j].t = t;
			return 1;
		}
		ast(&r->tail, t + 1);
		r->nlost++;
	}
	return 0;
}

/* take ring j's record that wpeek copied */
static void
wtake(Merge *m, uint32_t j, Rec *out)
{
	Wring *r = m->src[j].r;

	*out = m->src[j].rec;
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
wonly(Merge *m, Rec *out)
{
	Wring *r = m->src[0].r;
	uint64_t head = m->src[0].head, cap = m->cap, t;

	for (t = r->tail; t < head; t++) {
		if (head - t > cap) {	/* lapped: those are gone */
			r->nlost += head - t - cap;
			t = head - cap;
		}
		if (slotload(&m->src[0].s[t & (cap - 1)], t, out)) {
			ast(&r->tail, t + 1);
			r->nread++;
			m->d->nread++;
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
	uint64_t bt = 0;
	uint32_t j;
	int best;

	if (m->n == 0) {	/* the shared ring alone: nothing to merge it with */
		if (m->oin == 0)
			return 0;
		m->oin = 1;
		return ringtake(m->d, out, &m->ohead, m->cap, m->wait);
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
			if (ringpeek(m->d, &m->oticks, &m->ohead, m->cap, m->wait))
				m->oin = 2;
			else if (*m->wait)
				return 0;	/* the shared ring's next is being written: its time is not known yet */
			else
				m->oin = 0;
		}
		if (m->oin == 2 && (best < 0 || m->oticks <= bt)) {
			m->oin = 1;
			if (ringtake(m->d, out, &m->ohead, m->cap, m->wait))
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
