/*
 * agg.c: aggregations, the hook side.  A hit that passed its trace's
 * predicate is added to each aggregation of the trace that fires at
 * its kind of hit (entry or exit), in the writer's own table: found by
 * a hash of its tag and keys, open addressing, Probemax slots at most.
 * The owner alone writes its table, with plain stores (no locked
 * instruction); a writer with none (the pool is taken, or no Writer)
 * uses the shared table with atomics.  A key that finds no room is
 * dropped and counted (#aggdrops), never silently.
 *
 * Everything read from the block is checked before use: the
 * definitions' counts and kinds, and the programs run checked
 * (predrun): any process may have written them.
 */
#include "dev/dat.h"
#include "dev/fns.h"
#include "dev/lib.h"
#include "dev/host.h"

/* quantize's bucket: 64 for 0, 65 + log2 v for v > 0, 63 - log2 -v for v < 0 */
int
aggqbucket(uint64_t v)
{
	if (v == 0)
		return 64;
	if ((int64_t)v > 0)
		return 65 + 63 - __builtin_clzll(v);
	return 63 - (63 - __builtin_clzll(-v));	/* -Min64 is 1 << 63: bucket 0 */
}

int64_t
aggqlow(int b)
{
	if (b == 64)
		return 0;
	if (b > 64)
		return (int64_t)((uint64_t)1 << (b - 65));
	return (int64_t)-((uint64_t)1 << (63 - b));
}

/* what the hook path needs of aggregation i, if its keys and value are lone variables: else s->gen stays 0 */
static void
simple(Dev *d, int i, Aggsel *s)
{
	Agg *a = &d->aggs.agg[i];
	uint32_t g = ald(&a->gen), func = rld(&a->func), nkey = rld(&a->nkey), j, v;

	__builtin_memset(s, 0, sizeof *s);
	if (func > Fquantize || nkey > Nkey)
		return;
	for (j = 0; j < nkey; j++) {
		if (rld(&a->key[j].kind) != Evar || (v = rld(&a->key[j].var)) >= Nvar)
			return;
		s->key[j] = v;
		s->kext[j] = rld(&a->key[j].ext);
	}
	if (func != Fcount && (rld(&a->val.kind) != Evar || (v = rld(&a->val.var)) >= Nvar))
		return;
	s->val = func != Fcount ? v : 0;
	s->vext = func != Fcount ? rld(&a->val.ext) : 0;
	s->func = func;
	s->nkey = nkey;
	/* changed while we read: the hits read the block */
	s->gen = ald(&a->gen) == g ? g : 0;
}

void
aggtsel(Dev *d, int slot, Tsel *sel)
{
	Agg *a;
	uint32_t m;
	int i;

	sel->aggin = sel->aggout = 0;
	for (i = 0; i < Nagg; i++) {
		a = &d->aggs.agg[i];
		sel->agg[i].gen = 0;
		if (ald(&a->gen) != 0 && rld(&a->tslot) == (uint32_t)slot) {
			if (rld(&a->exit))
				sel->aggout |= 1u << i;
			else
				sel->aggin |= 1u << i;
			simple(d, i, &sel->agg[i]);
		}
	}
	m = rld(&d->aggs.recmode[slot]);
	sel->norec = m == Roff || (m != Ron && (sel->aggin | sel->aggout) != 0);
}

/* straight-line code: the key words not in use are zero in the entry and in k */
static inline uint64_t
hash(uint64_t tag, const uint64_t *k)
{
	uint64_t h = tag * 0x9e3779b97f4a7c15ull;

	h = (h ^ k[0]) * 0xff51afd7ed558ccdull;
	h = (h ^ k[1]) * 0xff51afd7ed558ccdull;
	h = (h ^ k[2]) * 0xff51afd7ed558ccdull;
	h = (h ^ k[3]) * 0xff51afd7ed558ccdull;
	return h ^ h >> 29;
}

static inline int
keyeq(Aent *e, const uint64_t *k)
{
	return ((rld(&e->key[0]) ^ k[0]) | (rld(&e->key[1]) ^ k[1]) |
	    (rld(&e->key[2]) ^ k[2]) | (rld(&e->key[3]) ^ k[3])) == 0;
}

/* an entry of another generation than its aggregation's now: free to take */
static inline int
stale(Dev *d, uint64_t tag, uint64_t mine)
{
	uint32_t s = tag & 0xff;

	if (s == (mine & 0xff))	/* our aggregation's: no need to read its generation */
		return !(tag & Abusy) && tag >> 32 != mine >> 32;
	return tag & Abusy ? 0 : s >= Nagg || rld(&d->aggs.agg[s].gen) != (uint32_t)(tag >> 32);
}

static uint64_t
initial(uint32_t func)
{
	if (func == Fmin)
		return ~Min64;
	if (func == Fmax)
		return Min64;
	return 0;
}

#define lt(x, y)	(((x) ^ Min64) < ((y) ^ Min64))

/* the owner's entry: plain loads and stores, whole words (a reader may be looking) */
static void
addown(Aent *e, uint32_t func, uint64_t x)
{
	uint64_t v = rld(&e->v);

	rst(&e->n, rld(&e->n) + 1);
	if (func == Fmin ? lt(x, v) : func == Fmax ? lt(v, x) : func != Fcount)
		rst(&e->v, func == Fmin || func == Fmax ? x : v + x);
}

/* the shared table's: atomics; min and max retry a bounded number of times, then count a drop */
static int
addshared(Aent *e, uint32_t func, uint64_t x)
{
	uint64_t v;
	int i;

	aadd(&e->n, 1);
	if (func == Fmin || func == Fmax) {
		for (i = 0; i < 64; i++) {
			v = rld(&e->v);
			if (func == Fmin ? !lt(x, v) : !lt(v, x))
				return 1;
			if (acas(&e->v, &v, x))
				return 1;
		}
		return 0;
	}
	if (func != Fcount)
		aadd(&e->v, x);
	return 1;
}

/* the entry of tag and keys in b, made if need be; nil: no room within Probemax of its hash */
static Aent *
find(Dev *d, Abuf *b, int shared, uint64_t tag, const uint64_t *k, uint32_t func)
{
	uint64_t h = hash(tag, k), t;
	Aent *e, *free = 0;
	uint32_t j;
	int i;

	for (j = 0; j < Probemax; j++) {
		e = &b->ent[(h + j) & (Aslots - 1)];
		t = ald(&e->tag);
		if (t == tag) {	/* ours: its key, or another key, never free */
			if (keyeq(e, k))
				return e;
			continue;
		}
		if (t == 0) {
			if (free == 0)
				free = e;
			break;
		}
		if (free == 0 && stale(d, t, tag))
			free = e;
	}
	if (free == 0)
		return 0;
	e = free;
	t = rld(&e->tag);
	if (shared) {
		/* taken by another writer meanwhile: it may be this very key, but a second entry is only merged */
		if ((t != 0 && !stale(d, t, tag)) || !acas(&e->tag, &t, tag | Abusy))
			return 0;
	}
	for (i = 0; i < Nkeyw; i++)
		rst(&e->key[i], k[i]);
	rst(&e->n, 0);
	rst(&e->v, initial(func));
	ast(&e->tag, tag);
	return e;
}

/* a key or the value; -1 if its program faulted */
static int
eval(const Aexpr *x, const Hit *h, uint64_t *v)
{
	switch (rld(&x->kind)) {
	case Evar:
		*v = predext(predvar(h, rld(&x->var)), rld(&x->ext));	/* any ext is safe */
		return 0;
	case Eprog:
		return predrun(&x->prog, h, v);
	}
	*v = 0;
	return 0;
}

/* add x to the entry of tag and keys in b; no room: a drop */
static __attribute__((noinline)) void
add(Dev *d, uint32_t i, Abuf *b, int shared, uint64_t tag, const uint64_t *k, uint32_t func, uint64_t x)
{
	Aent *e;

	if ((e = find(d, b, shared, tag, k, func)) == 0 ||
	    !(shared ? addshared(e, func, x) : (addown(e, func, x), 1))) {
		aadd(&d->aggs.drops, 1);
		aadd(&d->aggs.sdrops[i], 1);
		return;
	}
	if (shared)
		aadd(&b->hits, 1);
	else
		rst(&b->hits, rld(&b->hits) + 1);
}

/* one aggregation of slot i at this hit, read from the block: keys that are programs or execname, lquantize */
static void
aggblock(Dev *d, uint32_t i, const Tsel *sel, const Hit *h, Abuf *b, int shared)
{
	Agg *a = &d->aggs.agg[i];
	uint64_t k[Nkeyw] = { 0 }, x = 0, bucket = 0;
	uint32_t g, func, nkey, j, w = 0;
	int64_t low, high, step;

	if ((g = ald(&a->gen)) == 0 || rld(&a->tslot) != sel->slot)
		return;	/* removed since the host's copy: the next control generation drops it */
	func = rld(&a->func);
	nkey = rld(&a->nkey);
	if (func >= Nfunc || nkey > Nkey) {
		corrupt(d);
		return;
	}
	for (j = 0; j < nkey; j++) {
		if (rld(&a->key[j].kind) == Eexec) {
			if (w + 2 > Nkeyw)
				break;
			__builtin_memcpy(&k[w], hostexecname(), 16);
			w += 2;
		} else if (w < Nkeyw && eval(&a->key[j], h, &k[w++]) < 0) {
			aadd(&d->count[Cpredfault], 1);
			return;
		}
	}
	if (func != Fcount && eval(&a->val, h, &x) < 0) {
		aadd(&d->count[Cpredfault], 1);
		return;
	}
	if (func == Fquantize)
		bucket = aggqbucket(x);
	else if (func == Flquantize) {
		low = rld(&a->low);
		high = rld(&a->high);
		step = rld(&a->step);
		/* as the command checked: step divides high - low into Lqmax buckets at most */
		if (step <= 0 || low >= high || ((uint64_t)high - (uint64_t)low) % step != 0 ||
		    ((uint64_t)high - (uint64_t)low) / step > Lqmax) {
			corrupt(d);
			return;
		}
		if ((int64_t)x < low)
			bucket = 0;	/* underflow */
		else if ((int64_t)x >= high)
			bucket = 1 + ((uint64_t)high - (uint64_t)low) / step;	/* overflow */
		else
			bucket = 1 + (x - (uint64_t)low) / step;
	}
	add(d, i, b, shared, (uint64_t)g << 32 | bucket << 8 | i, k, func, x);
}

/* any of s's variables has a type narrower than a word: one test for all */
static inline int
typed(const Aggsel *s)
{
	uint32_t k;

	__builtin_memcpy(&k, s->kext, sizeof k);
	return (k | s->vext) != 0;
}

/* s's keys k and value x as their types */
static __attribute__((noinline)) void
extend(const Aggsel *s, uint64_t *k, uint64_t *x)
{
	int j;

	for (j = 0; j < Nkeyw; j++)
		k[j] = predext(k[j], s->kext[j]);
	*x = predext(*x, s->vext);
}

/*
 * One aggregation of slot i at this hit.  Lone variables (the common
 * case) were read and checked by devtsel: if the definition is still
 * the one it saw, nothing else of it is read here.
 */
static inline __attribute__((always_inline)) void
aggone(Dev *d, uint32_t i, const Tsel *sel, const Hit *h, Abuf *b, int shared)
{
	const Aggsel *s = &sel->agg[i];
	uint64_t k[Nkeyw] = { 0 }, x = 0, tag;
	uint32_t nw = s->nkey, func = s->func;
	Aent *e;

	if (s->gen == 0 || ald(&d->aggs.agg[i].gen) != s->gen) {
		aggblock(d, i, sel, h, b, shared);
		return;
	}
	switch (nw) {	/* unrolled: one or two keys are the common case */
	case 4:	k[3] = predvar(h, s->key[3]);	/* fall through */
	case 3:	k[2] = predvar(h, s->key[2]);	/* fall through */
	case 2:	k[1] = predvar(h, s->key[1]);	/* fall through */
	case 1:	k[0] = predvar(h, s->key[0]);
	}
	if (func != Fcount)
		x = predvar(h, s->val);
	if (typed(s))
		extend(s, k, &x);
	tag = (uint64_t)s->gen << 32 | (uint64_t)(func == Fquantize ? aggqbucket(x) : 0) << 8 | i;
	/* the common case: the writer's own table, the key where its hash points */
	e = &b->ent[hash(tag, k) & (Aslots - 1)];
	if (!shared && ald(&e->tag) == tag && keyeq(e, k)) {
		addown(e, func, x);
		rst(&b->hits, rld(&b->hits) + 1);
		return;
	}
	add(d, i, b, shared, tag, k, func, x);
}

int
agghit(Dev *d, const Tsel *sel, Hit *h)
{
	Writer *w = h->w;
	uint32_t m = h->exit == Kexit ? sel->aggout : sel->aggin, i;
	Abuf *b;
	int shared;

	if (m != 0) {
		if (w && w->aggd != d) {
			w->aggd = d;
			w->aggbuf = writeraggbuf(d, h->tid);
		}
		i = w && w->aggbuf - 1 < Naggbuf ? w->aggbuf - 1 : Naggbuf;	/* aggbuf is the process's own: 1 + index, or Naggbuf + 1 */
		b = &d->aggs.buf[i];
		shared = i == Naggbuf;
		for (; m != 0; m &= m - 1)
			aggone(d, __builtin_ctz(m), sel, h, b, shared);
	}
	if (sel->norec)
		return sel->aggout ? Hfollow : 0;
	return Hrecord | Hfollow;
}
