/*
 * ring.c: the record buffer.  Writers take a ticket with one atomic
 * increment and claim the ticket's slot by moving its sequence number
 * from an older even value to 2t+1; they fill it and publish 2t+2.
 * A writer that finds the slot busy, or already taken by a later lap,
 * drops its record: the reader finds the ticket missing and counts it
 * lost.  The reader, one at a time under the host's lock, walks the
 * tickets in order and either returns a record or counts it lost, so
 * hits = read + queued + lost holds exactly whenever it is looked at.
 */
#include "dev/dat.h"
#include "dev/lib.h"
#include "dev/host.h"

enum {
	Stucknsec = 20*1000*1000,	/* a ticket unfinished this long is lost */
};

#define MASK(d)	((1ull << rld(&(d)->log)) - 1)

void
devrecord(Dev *d, const Hit *h)
{
	uint64_t t = aadd(&d->head, 1);
	Slot *s = &d->slot[t & MASK(d)];
	uint64_t old = rld(&s->seq), busy = 2*t + 1;

	do
		if ((old & 1) || old >= busy)
			return;
	while (!acas(&s->seq, &old, busy));
	rst(&s->tid, h->tid);
	rst(&s->exit, (uint32_t)h->exit);
	rst(&s->pc, h->pc);
	rst(&s->ticks, h->ticks);
	rst(&s->a[0], h->a[0]);
	rst(&s->a[1], h->exit ? 0 : h->a[1]);
	rst(&s->a[2], h->exit ? 0 : h->a[2]);
	rst(&s->a[3], h->exit ? 0 : h->a[3]);
	/* fails only if a reader reclaimed the slot from us, thinking us dead */
	acas(&s->seq, &busy, busy + 1);
}

/* the next record in *out: 1, or 0 if none is ready */
static int
take(Dev *d, Slot *out)
{
	uint64_t head, cap, r, s1, want, now;
	Slot *s;

	cap = MASK(d) + 1;
	for (;;) {
		head = ald(&d->head);
		r = d->tail;
		if (r == head) {
			d->stuck = 0;
			return 0;
		}
		if (head - r > cap) {	/* lapped: those are gone */
			d->nlost += head - r - cap;
			d->tail = r = head - cap;
			d->stuck = 0;
		}
		s = &d->slot[r & (cap - 1)];
		want = 2*r + 2;
		s1 = ald(&s->seq);
		if (s1 == want) {
			/* acquire loads keep the second look at seq after the copy */
			out->pc = ald(&s->pc);
			out->ticks = ald(&s->ticks);
			out->tid = ald(&s->tid);
			out->exit = ald(&s->exit);
			out->a[0] = ald(&s->a[0]);
			out->a[1] = ald(&s->a[1]);
			out->a[2] = ald(&s->a[2]);
			out->a[3] = ald(&s->a[3]);
			d->tail++;
			d->stuck = 0;
			if (rld(&s->seq) == want) {
				d->nread++;
				return 1;
			}
			d->nlost++;	/* overwritten while we copied */
			continue;
		}
		if (s1 < want) {	/* not yet written, or its writer is gone */
			now = hostnsec();
			if (d->stuck == 0)
				d->stuck = now;
			if (now - d->stuck < Stucknsec) {
				hostpause();
				continue;
			}
			/* a writer killed mid-record leaves the slot busy: free it for the next lap */
			if ((s1 & 1) && !hostalive(rld(&s->tid)))
				acas(&s->seq, &s1, 2*r);
		}
		d->tail++;	/* overwritten by a later lap, abandoned, or timed out */
		d->nlost++;
		d->stuck = 0;
	}
}

/* 16 hex digits and a separator; the record is the reader's hot loop, so no Buf */
static char *
hex16(char *p, uint64_t v, char sep)
{
	static const char hex[] = "0123456789abcdef";
	int i;

	for (i = 15; i >= 0; i--, v >>= 4)
		p[i] = hex[v & 0xf];
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
	Slot s;

	for (;;) {
		while (r->off < r->len && done < n)
			buf[done++] = r->part[r->off++];
		if (done == n || !take(d, &s))
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

/* size: discard what is queued, counted as lost, then use 1<<log slots */
void
ringreset(Dev *d, int log)
{
	uint64_t head = ald(&d->head);

	d->nlost += head - d->tail;
	d->tail = head;
	d->stuck = 0;
	ast(&d->log, (uint32_t)log);
}

void
ringstats(Dev *d, uint64_t *hits, uint64_t *queued, uint64_t *lost)
{
	uint64_t head = ald(&d->head), cap = MASK(d) + 1, q = head - d->tail;

	if (q > cap)
		q = cap;
	*hits = head;
	*queued = q;
	*lost = d->nlost + (head - d->tail - q);
}
