/*
 * writer.c: a writer thread's life in the device.  At its first hit on
 * a device it claims what it writes without atomics: a counter shard
 * (Shard), a ring of its own (Wring), later an aggregation table (Abuf);
 * each by the one claim below.  A host's static writer (a kernel's CPU
 * and context) is bound to its ring and table instead (devwriterbind).
 * When the thread exits they are free again; what they hold stays:
 * counts are only added to, records stay for the reader.
 */
#include "dev/dat.h"
#include "dev/fns.h"
#include "dev/host.h"

/*
 * The one claim by thread id, over a table of n entries whose owner's
 * id lies at tid0, stride bytes apart: the entry the id held before
 * (exec keeps the id), a free one, or a dead owner's (a host's static
 * writer, Tidbound, never dies).  1 + its index, or 0: none.
 */
static uint32_t
claim(uint32_t *tid0, size_t stride, uint32_t n, uint32_t tid)
{
	uint32_t i, o, pass, *p;

	for (pass = 0; pass < 3; pass++)
		for (i = 0; i < n; i++) {
			p = (uint32_t *)((char *)tid0 + i * stride);
			o = rld(p);
			if (pass == 0 ? o != tid : pass == 1 ? o != 0 : (o == 0 || o >= Tidbound || hostalive(o)))
				continue;
			if (pass == 0 || acas(p, &o, tid))
				return i + 1;
		}
	return 0;
}

void
writerclaim(Dev *d, Writer *w, uint32_t pid, uint32_t tid)
{
	w->d = d;
	w->lim = maplogmax(d);	/* devrecord's bound for the block's log, kept where no other process writes */
	w->shard = claim(&d->shard[0].tid, sizeof d->shard[0], Nshard, tid);
	if (writerring(d, w, pid, tid))
		aadd(&d->count[Cringless], 1);	/* once a thread: writerring is asked again at control changes */
}

/*
 * 1: every ring was taken, the thread writes the shared ring for now.
 * The owner's pid is stored before its first record, so a reader that
 * copied one of the owner's records finds the pid with it (devringowner).
 */
int
writerring(Dev *d, Writer *w, uint32_t pid, uint32_t tid)
{
	uint32_t n = mapnring(d), lim = w->lim, i;
	Wring *wr;

	w->ring = 0;
	w->wr = 0;
	w->ws = 0;
	if (n == 0 || n > Nringmax || lim < Logmin || tid == 0 || tid >= Tidbound)
		return 0;
	wr = wrings(d, lim);
	if ((i = claim(&wr[0].tid, sizeof wr[0], n, tid)) == 0)
		return 1;
	i--;
	if (rld(&wr[i].used) == 0)
		rst(&wr[i].used, 1);
	if (rld(&wr[i].pid) != pid)
		rst(&wr[i].pid, pid);
	w->ring = i + 1;
	w->wr = &wr[i];
	w->ws = wslots(d, lim, n, i);
	return 0;
}

/* a dead owner's table keeps its results: the new owner adds to them; none free: the shared table */
uint32_t
writeraggbuf(Dev *d, uint32_t tid)
{
	uint32_t i = claim(&d->aggs.buf[0].tid, sizeof d->aggs.buf[0], Naggbuf, tid);

	return i ? i : Naggbuf + 1;
}

int
devwriterbind(Dev *d, Writer *w, uint32_t ring)
{
	uint32_t n = mapnring(d), lim = maplogmax(d);
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
	rst(&r->pid, 0);	/* it writes for many processes */
	/*
	 * Its aggregation table too, bound as the ring is: a static writer
	 * runs for many threads, so a claim by tid (claim, above) could hand its
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
 * Slots [t, t + n) of the writer's own ring (n at most the ring) faulted
 * in for writing: by the host in one go where it can (hostfaultin), then
 * by an atomic add of 0 every 4096 bytes, the smallest page a host has:
 * it writes nothing another thread could see, but faults the page in for
 * writing (a read would map a shared page read-only, and the record's
 * store would fault again).  Both: on a VM here the first store to a
 * page the host populated still cost 4 us (27 us a page where the store
 * faulted it in), the stores after it nothing.  From the end down, the
 * part past the ring's end first, so that the pages the next records go
 * to are the ones last touched (in the caches and the TLB).
 */
static void
faultin(Writer *w, uint64_t t, uint64_t n)
{
	char *p = (char *)&w->ws[t & w->mask], *end = p + n * sizeof(Slot);
	char *ringend = (char *)(w->ws + w->mask + 1);

	if (end > ringend) {
		faultin(w, t + (uint64_t)(ringend - p) / sizeof(Slot), (uint64_t)(end - ringend) / sizeof(Slot));
		end = ringend;
	}
	hostfaultin(p, end - p);
	while (end - p > 0) {
		end -= (end - p) > 4096 ? 4096 : end - p;
		aadd(end, 0);
	}
}

/*
 * The host's memory is paged (user space): a ring's 4 MiB faulted in at
 * once took 7 to 30 ms a thread and, before the thread's first clock,
 * left the caches and the TLB to its first call; a page a record faulted
 * in took 27 us inside a call.  So a ring is faulted in a step at a
 * time: the first here, at a decision (before the hook reads its clock
 * again), the next by wringrecord when the head comes to it, marked as a
 * wait (Wpages); until the whole ring is in, the fast paths stop at warm
 * (ringlim 0, room at most warm).  A ring or a size it has not warmed is
 * warmed from its head; the same again costs nothing.  No ring of its
 * own, or a log past the mapping (damage: devrecord's to count): nothing.
 */
void
devwriterwarm(Writer *w, size_t step)
{
	uint64_t head, n;

	if (w->ws == 0 || w->wr == 0 || w->mask >> w->lim != 0 || (w->warmwr == w->wr && w->warmmask == w->mask))
		return;
	aadd(&w->wr->head, 0);
	head = rld(&w->wr->head);
	n = step / sizeof(Slot);
	if (n == 0)
		n = 1;
	if (n > w->mask)
		n = w->mask + 1;
	faultin(w, head, n);
	w->warmwr = w->wr;
	w->warmmask = w->mask;
	w->warmstep = (uint32_t)n;
	w->warmend = head + w->mask + 1;
	w->warm = n > w->mask ? 0 : head + n;
	writerbounds(w);
}

/*
 * The fast paths' bounds, as decided (warmlim: ringlim under the ring
 * policy, hit.c: decide) and as far as the ring is warm: ringlim 0 while
 * it warms; room (read on writerfast's path alone, where warmlim is
 * nonzero under the ring policy only) all the ring's under ring, up to
 * warm at most, and 0 under fill and block (the tail loaded at the next
 * record, hitfast.h).
 */
void
writerbounds(Writer *w)
{
	w->ringlim = w->warm != 0 ? 0 : w->warmlim;
	w->room = w->warmlim == 0 ? 0 : w->warm != 0 ? w->warm : ~0ull;
}

/* wringrecord's, before it writes at ticket t (and its mark at t + 1): the steps up to them faulted in */
void
writerwarmstep(Writer *w, uint64_t t)
{
	uint64_t n;

	while (w->warm != 0 && w->warm < t + 2) {
		n = w->warmend - w->warm < w->warmstep ? w->warmend - w->warm : w->warmstep;
		faultin(w, w->warm, n);
		w->warm += n;
		if (w->warm >= w->warmend)
			w->warm = 0;
	}
	writerbounds(w);
}

/* the thread's shard, ring and table are free again; what its ring holds stays for the reader */
void
devwriterdone(Writer *w)
{
	if (w->d && w->shard)
		ast(&w->d->shard[w->shard - 1].tid, 0);
	if (w->d && w->wr)
		ast(&w->wr->tid, 0);
	if (w->aggd && w->aggbuf >= 1 && w->aggbuf <= Naggbuf)
		ast(&w->aggd->aggs.buf[w->aggbuf - 1].tid, 0);
	w->aggd = 0;
	w->aggbuf = 0;
	w->d = 0;
	w->wr = 0;
	w->ring = 0;
}
