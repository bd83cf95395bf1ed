/*
 * hit.c: the device's hook side: which traces a site belongs to, what a
 * host copies of them, and what becomes of each hit: the site on, the
 * thread watched, the predicate, then the ring (record.c).  No lock, no
 * system call; the thread's Writer keeps what need not be decided again
 * at every hit, and counts its drops where no other thread writes.
 */
#include "dev/dat.h"
#include "dev/fns.h"
#include "dev/lib.h"

int
devwatched(Dev *d, uint32_t pid, uint32_t tid)
{
	uint32_t i, n, w, p;

	/* nreader is raised before and lowered after its entry changes: a reader is never missed */
	for (i = 0; rld(&d->nreader) && i < Nreader; i++)
		if ((w = rld(&d->reader[i])) != 0 && (w == pid || w == tid))
			return 0;
	if ((n = ald(&d->nwatch)) == 0)
		return 1;
	for (i = 0; i < n && i < Nwatch; i++) {
		w = rld(&d->watch[i]);
		p = w & ~Watchtree;
		if (p == pid || p == tid || (w & Watchtree && hostdescends(pid, p)))
			return 1;
	}
	return 0;
}

/* the block's pattern, copied with a NUL: any process may have written it */
static int
globn(const char *glob, const char *name)
{
	char pat[Globlen];
	int i;

	for (i = 0; i < Globlen - 1 && (pat[i] = glob[i]) != 0; i++)
		;
	pat[i] = 0;
	return globmatch(pat, name);
}

/* the oldest trace (made first: born, not gen, which every change moves) that selects the function; -1 if none */
int
devselect(Dev *d, uint64_t pc, uint64_t linkaddr, int inmain, const char *name)
{
	Trace *t;
	uint32_t g, born, best = 0;
	int slot = -1, hit;

	for (t = d->trace; t < d->trace + Ntrace; t++) {
		if ((g = ald(&t->gen)) == 0)
			continue;
		born = rld(&t->born);
		if (t->kind == Range)
			hit = (pc >= t->start && pc < t->end) ||
				(inmain && linkaddr >= t->start && linkaddr < t->end);
		else
			hit = name && globn(t->glob, name);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (hit && rld(&t->gen) == g && (slot < 0 || born < best)) {
			best = born;
			slot = t - d->trace;
		}
	}
	return slot;
}

int
devtsel(Dev *d, int slot, Tsel *sel)
{
	Trace *t;
	uint32_t g, exitonly;

	if (slot < 0 || slot >= Ntrace)
		return 0;
	t = &d->trace[slot];
	if ((g = ald(&t->gen)) == 0)
		return 0;
	sel->slot = slot;
	sel->gen = g;
	sel->haspred = t->haspred != 0;
	if (sel->haspred)
		__builtin_memcpy(&sel->pred, &t->pred, sizeof sel->pred);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (rld(&t->gen) != g)
		return 0;
	/* the copy is ours now: check it before anything runs it */
	if (sel->haspred && !predvalid(&sel->pred)) {
		aadd(&d->count[Cbadprog], 1);
		sel->haspred = 2;
	}
	exitonly = 1u << Vretval | 1u << Vtimestamp | 1u << Vcpu | 1u << Vdur;
	sel->exitknown = sel->haspred == 1 && !(predvars(&sel->pred) & exitonly);
	/* nor entry: a predicate that asks which hit it sees is answered per hit */
	sel->whole = sel->exitknown && !(predvars(&sel->pred) & 1u << Ventry);
	aggtsel(d, slot, sel);
	sel->act = actsel(d, slot);
	sel->more = sel->aggin | sel->aggout | sel->norec | sel->act;
	sel->plain = sel->haspred == 0 && sel->more == 0;
	return 1;
}

static inline int
siteon(Dev *d, const Tsel *sel)
{
	Trace *t;

	if (!ald(&d->started) || sel->slot >= Ntrace)
		return 0;
	t = &d->trace[sel->slot];
	return rld(&t->gen) == sel->gen && rld(&t->on);
}

int
devsiteon(Dev *d, const Tsel *sel)
{
	return siteon(d, sel);
}

/* the watch list and the reader rule for a thread, at this control generation */
static __attribute__((noinline)) int
decide(Dev *d, Hit *h, uint32_t gen)
{
	Writer *w = h->w;
	uint32_t log, p;

	if (w == 0)
		return devwatched(d, h->pid, h->tid);
	if (w->d != d)
		writerclaim(d, w, h->pid, h->tid);	/* a shard, a ring of its own, else the shared ring */
	else if (w->wr == 0)
		writerring(d, w, h->pid, h->tid);	/* none was free: asked again at each control change, not at each hit */
	/*
	 * a policy other than ring, a speculation, a trigger armed or counting
	 * make devrecord's one compare fail: no cost to ring's path
	 */
	w->warmlim = rld(&d->policy) == Pring && !w->spec && !ald(&d->trigwait) && !ald(&d->trigcount) ? w->lim : 0;
	w->watched = devwatched(d, h->pid, h->tid);
	/*
	 * everything a plain record's fast path would check at every hit,
	 * checked once here; fill and block look at the tail only when the
	 * room it last gave is used up (hitfast.h: wringputfast)
	 */
	log = rld(&d->log);
	p = rld(&d->policy);
	w->fast = w->watched && w->wr && (p == Pring || p == Pfill || p == Pblock) && !w->spec &&
		!ald(&d->trigwait) && !ald(&d->trigcount) && log <= w->lim ? gen : 0;
	w->mask = (1ull << (log & 63)) - 1;
	writerbounds(w);	/* ringlim, room: as far as its ring is warm (writer.c) */
	w->gen = gen;
	return w->watched;
}

/* decided once per thread and control generation, not scanned at every hit */
static inline int
watched(Dev *d, Hit *h)
{
	Writer *w = h->w;
	uint32_t gen = ald(&d->ctlgen) + 1;

	if (w && w->d == d && w->gen == gen)
		return w->watched;
	return decide(d, h, gen);
}

int
devwriterready(Dev *d, Writer *w, uint32_t pid, uint32_t tid)
{
	uint32_t gen = ald(&d->ctlgen) + 1;
	Hit h;

	if (w->d == d && w->gen == gen)
		return 0;
	h.w = w;
	h.pid = pid;
	h.tid = tid;
	decide(d, &h, gen);
	return 1;
}

static inline void
dropped(Dev *d, Hit *h, uint64_t n)
{
	Writer *w = h->w;
	uint64_t *c;

	if (w && w->d == d && w->shard) {
		c = &d->shard[w->shard - 1].filtered;
		rst(c, rld(c) + n);
	} else
		aadd(&d->filtered, n);
}

/* the predicate: 1 true, 0 false, a fault counted as false */
static int
pred(Dev *d, const Tsel *sel, const Hit *h)
{
	int r = predeval(&sel->pred, h);

	if (r < 0)
		aadd(&d->count[Cpredfault], 1);
	return r == 1;
}

/*
 * A hit that passed the predicate, with aggregations or actions:
 * Hrecord|Hfollow as agghit says; the actions run before its record,
 * which a speculation's end takes (act.c).
 */
static __attribute__((noinline)) int
more(Dev *d, const Tsel *sel, Hit *h)
{
	int r = sel->aggin | sel->aggout | sel->norec ? agghit(d, sel, h) : Hrecord|Hfollow;

	if (sel->act && acthit(d, sel, h))
		r &= ~Hrecord;
	return r;
}

/* the predicate on the exit of the call h enters: the same hit with no arguments and no retval */
static int
exittrue(Dev *d, const Tsel *sel, Hit *h)
{
	uint64_t a[4] = { h->a[0], h->a[1], h->a[2], h->a[3] };
	int r;

	h->exit = 1;
	h->a[0] = h->a[1] = h->a[2] = h->a[3] = 0;
	r = pred(d, sel, h);
	h->exit = 0;
	__builtin_memcpy(h->a, a, sizeof a);
	return r;
}

/*
 * An entry.  A whole predicate (devtsel: it reads only what the entry
 * knows, and not entry) decides the call here: rejected, it is not
 * followed, both hits counted as dropped; passed, its exit is recorded
 * without asking again (devexit).  Another that reads entry but nothing
 * only the exit knows is asked now what the exit will say: false too,
 * and the call is dropped the same way.
 */
int
devfilter(Dev *d, const Tsel *sel, Hit *h)
{
	if (!siteon(d, sel))
		return 0;
	if (!watched(d, h)) {
		dropped(d, h, 1);	/* its exit is not followed */
		return 0;
	}
	if (sel->haspred == 0 || (sel->haspred == 1 && pred(d, sel, h)))
		return sel->more ? more(d, sel, h) : Hrecord|Hfollow;
	/* rejected: the exit is followed unless its answer is known now, and false */
	if (sel->haspred == 1 && !sel->whole && (!sel->exitknown || exittrue(d, sel, h))) {
		dropped(d, h, 1);
		return Hfollow;
	}
	dropped(d, h, 2);	/* an invalid program drops everything */
	return 0;
}

/* a hit; ask: run the predicate (else it passed at the call's entry) */
static inline int
hit(Dev *d, const Tsel *sel, Hit *h, int ask)
{
	if (!siteon(d, sel))
		return 0;
	if (!watched(d, h) || sel->haspred == 2 || (ask && sel->haspred == 1 && !pred(d, sel, h))) {
		dropped(d, h, 1);
		return 0;
	}
	if (sel->more && !(more(d, sel, h) & Hrecord))
		return 0;	/* aggregated alone */
	devrecord(d, h);
	return 1;
}

int
devhit(Dev *d, const Tsel *sel, Hit *h)
{
	return hit(d, sel, h, 1);
}

/* a followed call's exit: devfilter answered a whole predicate for it at the entry, and it passed */
int
devexit(Dev *d, const Tsel *sel, Hit *h)
{
	return hit(d, sel, h, !sel->whole);
}

void
devcount(Dev *d, int counter)
{
	if (counter >= 0 && counter < Cncount)
		aadd(&d->count[counter], 1);
}

