/*
 * slot.h: the record model.  A slot is a sequence word and a Rec; it is
 * written and loaded here alone, as a seqlock.  The writer: seq odd
 * (2t+1, ticket t's), the Rec's fields, seq even (2t+2).  The reader:
 * seq, the fields, seq again; the copy is whole when both say 2t+2.
 * Inline: the writers are the hook path, the loads the reader's loop.
 */
#ifndef DEVTRACE_SLOT_H
#define DEVTRACE_SLOT_H

#include "dev/dat.h"

/* the Rec's stores, between the seq that claims the slot and the one that publishes it */
static inline __attribute__((always_inline)) void
slotfields(Slot *s, uint32_t tid, uint32_t exit, uint64_t pc, uint64_t ticks,
	uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	rst(&s->rec.tid, tid);
	rst(&s->rec.exit, exit);
	rst(&s->rec.pc, pc);
	rst(&s->rec.ticks, ticks);
	rst(&s->rec.a[0], a0);
	rst(&s->rec.a[1], a1);
	rst(&s->rec.a[2], a2);
	rst(&s->rec.a[3], a3);
}

/*
 * The same from a Hit, each field read as it is stored: written out,
 * not slotfields of the Hit's fields, which costs the classic hooks two
 * instructions a call more (callgrind, tests/hooks/bench.sh).  An exit
 * keeps a[0], its retval, alone.
 */
static inline __attribute__((always_inline)) void
slothitfields(Slot *s, const Hit *h)
{
	rst(&s->rec.tid, h->tid);
	rst(&s->rec.exit, (uint32_t)h->exit);
	rst(&s->rec.pc, h->pc);
	rst(&s->rec.ticks, h->ticks);
	rst(&s->rec.a[0], h->a[0]);
	rst(&s->rec.a[1], h->exit == Kexit ? 0 : h->a[1]);
	rst(&s->rec.a[2], h->exit == Kexit ? 0 : h->a[2]);
	rst(&s->rec.a[3], h->exit == Kexit ? 0 : h->a[3]);
}

/*
 * A slot only one thread writes (a writer's own ring): plain stores on
 * x86; the fence keeps the odd seq before the fields for a reader that
 * copies meanwhile.  The values come in registers: read before the
 * fence, a Hit's fields would be read again after it (slotputhit).
 */
static inline __attribute__((always_inline)) void
slotput(Slot *s, uint64_t t, uint32_t tid, uint32_t exit, uint64_t pc, uint64_t ticks,
	uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	rst(&s->seq, 2*t + 1);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	slotfields(s, tid, exit, pc, ticks, a0, a1, a2, a3);
	ast(&s->seq, 2*t + 2);
}

/*
 * slotput with the arguments read from memory after the fence (an
 * exit's a[0] alone, its retval): the hook's fast path keeps four
 * values fewer live, 4 instructions a call fewer (tests/hooks/bench.sh).
 */
static inline __attribute__((always_inline)) void
slotputargs(Slot *s, uint64_t t, uint32_t tid, uint32_t exit, uint64_t pc, uint64_t ticks, const uint64_t *a)
{
	rst(&s->seq, 2*t + 1);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	slotfields(s, tid, exit, pc, ticks, a[0], exit == Kexit ? 0 : a[1], exit == Kexit ? 0 : a[2], exit == Kexit ? 0 : a[3]);
	ast(&s->seq, 2*t + 2);
}

/* slotput of a Hit (devrecord's) */
static inline __attribute__((always_inline)) void
slotputhit(Slot *s, const Hit *h, uint64_t t)
{
	rst(&s->seq, 2*t + 1);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	slothitfields(s, h);
	ast(&s->seq, 2*t + 2);
}

/*
 * The shared ring's slot of ticket t, among 1<<log, log checked: many
 * threads write this ring, so the slot is claimed by moving its seq
 * from an older even value to 2t+1; one busy, or already taken by a
 * later lap, drops the record (the reader counts the ticket lost).
 */
static inline __attribute__((always_inline)) void
slotclaimput(Dev *d, const Hit *h, uint32_t log, uint64_t t)
{
	uint64_t old, busy;
	Slot *s = &d->slot[t & ((1ull << log) - 1)];

	old = rld(&s->seq);
	busy = 2*t + 1;
	do
		if ((old & 1) || old >= busy)
			return;
	while (!acas(&s->seq, &old, busy));
	slothitfields(s, h);
	/*
	 * A store, not a second CAS (locked instructions are most of a
	 * record's cost): a reader takes a busy slot back only from a dead
	 * writer, and if it misjudged a stalled one, a CAS here would not
	 * save the record either: the next lap may already be writing it.
	 * What the store can do then is hide that lap's record: counted lost.
	 */
	ast(&s->seq, busy + 1);
}

/* the ring policy's record in the shared ring: a ticket whatever the room */
static inline __attribute__((always_inline)) void
ringput(Dev *d, const Hit *h, uint32_t log)
{
	slotclaimput(d, h, log, aadd(&d->head, 1));
}

/* the ring policy's record in a writer's own ring: no locked instruction */
static inline __attribute__((always_inline)) void
wringput(const Writer *w, const Hit *h, uint32_t log)
{
	Wring *r = w->wr;
	uint64_t t = rld(&r->head);

	slotputhit(&w->ws[t & ((1ull << log) - 1)], h, t);
	ast(&r->head, t + 1);
}

/* the Rec of s, its fields loaded one by one; whole only if seq says so before and after (slotload) */
static inline __attribute__((always_inline)) void
slotcopy(const Slot *s, Rec *out)
{
	out->pc = rld(&s->rec.pc);
	out->ticks = rld(&s->rec.ticks);
	out->tid = rld(&s->rec.tid);
	out->exit = rld(&s->rec.exit);
	out->a[0] = rld(&s->rec.a[0]);
	out->a[1] = rld(&s->rec.a[1]);
	out->a[2] = rld(&s->rec.a[2]);
	out->a[3] = rld(&s->rec.a[3]);
}

/*
 * The reader: the record of ticket t copied whole into out (seq 2t+2
 * before and after the copy): 1; else 0, out not a record.  The acquire
 * fence keeps the second look at seq after the copy.
 */
static inline __attribute__((always_inline)) int
slotload(const Slot *s, uint64_t t, Rec *out)
{
	if (ald(&s->seq) != 2*t + 2)
		return 0;
	slotcopy(s, out);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return rld(&s->seq) == 2*t + 2;
}

/* slotload's look at the record's time alone: 1 with it, if ticket t's record is whole in s */
static inline __attribute__((always_inline)) int
slotticks(const Slot *s, uint64_t t, uint64_t *ticks)
{
	if (ald(&s->seq) != 2*t + 2)
		return 0;
	*ticks = rld(&s->rec.ticks);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return rld(&s->seq) == 2*t + 2;
}

#endif
