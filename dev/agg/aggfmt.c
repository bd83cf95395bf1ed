/*
 * aggfmt.c: the aggregations as text.  Every writer's table is copied
 * (the entries of each aggregation's current generation), sorted by
 * aggregation, keys and bucket, and entries with the same ones are
 * combined: this is where the per-writer results become one (agg.h).
 * Rows (an aggregation and its keys) are then sorted by value, least
 * first as DTrace's printa does, so the largest end up by the prompt.
 *
 * Two forms.  Aprinta, for people:
 *
 *	@calls[func] = count()
 *	  main                   1
 *	  fib                  177
 *
 * with quantize and lquantize as DTrace draws them (a bar of 40 @ per
 * key, from the bucket below the first hit to the one above the last).
 * Amachine, for awk: one line per key (per key and bucket hit, for the
 * distributions), fields separated by one space:
 *
 *	@NAME FUNC BUCKET COUNT VALUE KEY...
 *
 * BUCKET is the bucket's lower bound ("-" for the other functions;
 * lquantize's underflow bucket starts at the least 64-bit number),
 * COUNT the values added, VALUE the function's answer (the bucket's
 * count for distributions; avg is sum/count rounded to zero); keys last,
 * so $6..$NF.  "#" lines are comments: an aggregation's drops.
 *
 * Names and typed keys are the host's, handed in as data: devaggkeys
 * lists the keys the text may name, the host fills in their texts
 * outside its lock, and devaggs looks each key up in that table.
 */
#include "dev/dat.h"
#include "dev/fns.h"
#include "dev/lib.h"
#include "dev/pred/pred.h"

typedef struct Me Me;
typedef struct Row Row;
typedef struct Def Def;

enum {
	Emax = (Naggbuf + 1) * Aslots,	/* entries the tables can hold */
	Barw = 40,
	Untyped = -3,	/* Def.typed: printed as it is (Aggret, Aggfunc: dev/devtrace.h) */
};

struct Me {
	uint32_t slot, bucket;
	uint64_t key[Nkeyw];
	uint64_t n, v;
};

struct Row {
	uint32_t first, nent;	/* its entries, by bucket */
	uint64_t total;		/* values added */
	int64_t value;		/* what it is sorted by */
};

/* an aggregation's definition, copied from the block and checked */
struct Def {
	uint32_t live, gen, func, nkey, nbucket;
	uint32_t show[Nkey], kind[Nkey];
	int typed[Nkey];	/* the word the host may type the key as (Aggkey.word), or Untyped */
	char glob[Globlen];	/* its trace's pattern; "" for a range */
	int64_t low, high, step;
	uint64_t drops;
	char name[Namelen];
	char src[Aggsrcmax];
};

size_t
devaggwork(void)
{
	return Nagg * sizeof(Def) + Emax * (sizeof(Me) + sizeof(Row));
}

/* n bytes of the block, printable or '?' */
static void
copystr(char *dst, const char *src, size_t n)
{
	size_t i;
	char c;

	for (i = 0; i < n - 1 && (c = src[i]) != 0; i++)
		dst[i] = (unsigned char)c < ' ' || (unsigned char)c >= 0x7f ? '?' : c;
	dst[i] = 0;
}

/* the word a key may be typed as: an entry's argument, an exit's return value; no other */
static int
keyword(const Aexpr *k, uint32_t exit)
{
	if (k->kind != Evar)
		return Untyped;
	if (!exit && k->var - Varg0 <= Varg3 - Varg0)
		return k->var - Varg0;
	return exit && k->var == Vretval ? Aggret : Untyped;
}

/* the pattern of trace slot t, if it is a glob trace not being changed; else "" */
static void
snapglob(Dev *d, uint32_t t, char *glob)
{
	Trace *tr;
	uint32_t g;

	glob[0] = 0;
	if (t >= Ntrace)
		return;
	tr = &d->trace[t];
	/* a trace changes with gen 0 (trace.c) */
	if ((g = ald(&tr->gen)) == 0 || tr->kind != Glob)
		return;
	copystr(glob, tr->glob, Globlen);
	if (ald(&tr->gen) != g)
		glob[0] = 0;
}

static void
snapdefs(Dev *d, Def *def)
{
	Agg *a;
	Def *f;
	uint32_t i, j;

	for (i = 0; i < Nagg; i++) {
		a = &d->aggs.agg[i];
		f = &def[i];
		f->live = 0;
		if ((f->gen = ald(&a->gen)) == 0)
			continue;
		f->func = a->func;
		f->nkey = a->nkey;
		f->low = a->low;
		f->high = a->high;
		f->step = a->step;
		if (f->func >= Nfunc || f->nkey > Nkey)
			continue;
		if (f->func == Flquantize) {
			if (f->step <= 0 || f->low >= f->high || (uint64_t)(f->high - f->low) / f->step > Lqmax)
				continue;
			f->nbucket = 2 + ((uint64_t)f->high - (uint64_t)f->low) / f->step;
		} else
			f->nbucket = f->func == Fquantize ? Qbuckets : 1;
		snapglob(d, a->tslot, f->glob);
		for (j = 0; j < f->nkey; j++) {
			f->show[j] = a->key[j].show;
			f->kind[j] = a->key[j].kind;
			f->typed[j] = f->glob[0] ? keyword(&a->key[j], a->exit) : Untyped;
		}
		f->drops = rld(&d->aggs.sdrops[i]) - a->dropbase;
		copystr(f->name, a->name, Namelen);
		copystr(f->src, a->src, Aggsrcmax);
		f->live = 1;
	}
}

/* the current generation's entries of every table; their number */
static uint32_t
collect(Dev *d, const Def *def, Me *me)
{
	Aent *e;
	uint64_t t;
	uint32_t b, i, s, k, n = 0;

	for (b = 0; b <= Naggbuf; b++)
		for (i = 0; i < Aslots; i++) {
			e = &d->aggs.buf[b].ent[i];
			t = ald(&e->tag);
			s = t & 0xff;
			if (t == 0 || (t & Abusy) || s >= Nagg || !def[s].live || (uint32_t)(t >> 32) != def[s].gen)
				continue;
			me[n].slot = s;
			me[n].bucket = t >> 8 & 0xffff;
			for (k = 0; k < Nkeyw; k++)
				me[n].key[k] = rld(&e->key[k]);
			me[n].n = rld(&e->n);
			me[n].v = rld(&e->v);
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			/* taken again while we read, or a bucket no writer could have chosen */
			if (rld(&e->tag) != t || me[n].bucket >= def[s].nbucket || me[n].n == 0)
				continue;
			n++;
		}
	return n;
}

static int
cmpkeys(const uint64_t *a, const uint64_t *b)
{
	int i;

	for (i = 0; i < Nkeyw; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

static int
cmpme(const Me *a, const Me *b)
{
	int c;

	if (a->slot != b->slot)
		return a->slot < b->slot ? -1 : 1;
	if ((c = cmpkeys(a->key, b->key)) != 0)
		return c;
	if (a->bucket != b->bucket)
		return a->bucket < b->bucket ? -1 : 1;
	return 0;
}

static int
cmprow(const Row *a, const Row *b, const Me *me)
{
	const Me *x = &me[a->first], *y = &me[b->first];

	if (x->slot != y->slot)
		return x->slot < y->slot ? -1 : 1;
	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	return cmpkeys(x->key, y->key);
}

/* heapsort: no recursion, no allocation, n log n whatever the order */
#define Heapsort(T, a, n, cmp) do { \
	uint32_t i_, r_, c_, n_ = (n); T t_; \
	for (i_ = n_ / 2; i_-- > 0;) \
		for (r_ = i_; (c_ = 2 * r_ + 1) < n_; r_ = c_) { \
			if (c_ + 1 < n_ && cmp(&(a)[c_], &(a)[c_ + 1]) < 0) c_++; \
			if (cmp(&(a)[r_], &(a)[c_]) >= 0) break; \
			t_ = (a)[r_]; (a)[r_] = (a)[c_]; (a)[c_] = t_; \
		} \
	while (n_-- > 1) { \
		t_ = (a)[0]; (a)[0] = (a)[n_]; (a)[n_] = t_; \
		for (r_ = 0; (c_ = 2 * r_ + 1) < n_; r_ = c_) { \
			if (c_ + 1 < n_ && cmp(&(a)[c_], &(a)[c_ + 1]) < 0) c_++; \
			if (cmp(&(a)[r_], &(a)[c_]) >= 0) break; \
			t_ = (a)[r_]; (a)[r_] = (a)[c_]; (a)[c_] = t_; \
		} \
	} \
} while (0)

#define lt(x, y)	(((x) ^ Min64) < ((y) ^ Min64))

/* the same aggregation, keys and bucket from several writers: one */
static uint32_t
combine(const Def *def, Me *me, uint32_t n)
{
	uint32_t i, j;
	uint32_t f;

	for (i = 0, j = 0; i < n; i++) {
		if (j > 0 && cmpme(&me[j - 1], &me[i]) == 0) {
			f = def[me[i].slot].func;
			if (f == Fmin ? lt(me[i].v, me[j - 1].v) : f == Fmax ? lt(me[j - 1].v, me[i].v) : 0)
				me[j - 1].v = me[i].v;
			else if (f != Fmin && f != Fmax)
				me[j - 1].v += me[i].v;
			me[j - 1].n += me[i].n;
			continue;
		}
		me[j++] = me[i];
	}
	return j;
}

static uint32_t
rows(const Def *def, const Me *me, uint32_t n, Row *row)
{
	uint32_t i, nr = 0;
	Row *r = 0;
	uint32_t f;

	for (i = 0; i < n; i++) {
		if (r == 0 || me[i].slot != me[r->first].slot || cmpkeys(me[i].key, me[r->first].key) != 0) {
			r = &row[nr++];
			r->first = i;
			r->nent = 0;
			r->total = 0;
		}
		r->nent++;
		r->total += me[i].n;
		f = def[me[i].slot].func;
		switch (f) {
		case Fcount:
		case Fquantize:
		case Flquantize:
			r->value = r->total;
			break;
		case Favg:
			r->value = (int64_t)me[i].v / (int64_t)me[i].n;
			break;
		default:
			r->value = me[i].v;
			break;
		}
	}
	return nr;
}

static void
bputsdec(Buf *b, int64_t v)
{
	if (v < 0) {
		bputc(b, '-');
		bputdec(b, -(uint64_t)v);
	} else
		bputdec(b, v);
}

static void
spaces(Buf *b, int n)
{
	while (n-- > 0)
		bputc(b, ' ');
}

typedef struct Ctx Ctx;
struct Ctx {
	const Aggkey *keys;	/* the host's texts, sorted by cmpkey */
	size_t nkeys;
	int machine;
};

/* the order of a key table: word, value, pattern (k's is the host's: read within Globlen) */
static int
cmpkey(const Aggkey *k, int word, uint64_t v, const char *glob)
{
	uint32_t i;

	if (k->word != word)
		return k->word < word ? -1 : 1;
	if (k->v != v)
		return k->v < v ? -1 : 1;
	for (i = 0; i < Globlen && (k->glob[i] != 0 || glob[i] != 0); i++)
		if (k->glob[i] != glob[i])
			return (unsigned char)k->glob[i] < (unsigned char)glob[i] ? -1 : 1;
	return 0;
}

/* the host's text of a key, or nil: not in its table */
static const char *
keytext(const Ctx *c, int word, uint64_t v, const char *glob)
{
	size_t lo = 0, hi = c->nkeys, m;
	int r;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if ((r = cmpkey(&c->keys[m], word, v, glob)) == 0)
			return c->keys[m].text;
		if (r < 0)
			lo = m + 1;
		else
			hi = m;
	}
	return 0;
}

/* the first word of key j, or Nkeyw: none (execname takes two) */
static uint32_t
keyword0(const Def *f, uint32_t j)
{
	uint32_t i, w = 0;

	for (i = 0; i < j; i++)
		w += f->kind[i] == Eexec ? 2 : 1;
	return w < Nkeyw ? w : Nkeyw;
}

/* how key j is named: Aggfunc, a typed word (Aprinta only), or Untyped */
static int
keyas(const Ctx *c, const Def *f, uint32_t j)
{
	if (f->show[j] == Sfunc)
		return Aggfunc;
	return f->show[j] == Sstr || c->machine ? Untyped : f->typed[j];
}

/* s, each byte printable or '?' (sp: a space allowed) */
static void
bputsafe(Buf *b, const char *s, int sp)
{
	for (; *s; s++)
		bputc(b, (unsigned char)*s < ' ' || (unsigned char)*s >= 0x7f || (!sp && *s == ' ') ? '?' : *s);
}

/* key j of entry m, as text into b: its length */
static int
putkey(Ctx *c, Buf *b, const Def *f, const Me *m, uint32_t j)
{
	char *start = b->p, t[17];
	const char *s = 0;
	uint32_t w = keyword0(f, j);
	int as = keyas(c, f, j);

	if (w >= Nkeyw)
		return 0;
	if (f->show[j] == Sstr) {
		if (w + 1 < Nkeyw) {
			__builtin_memcpy(t, &m->key[w], 16);
			t[16] = 0;
			bputsafe(b, t, !c->machine);
		}
		return b->p - start;
	}
	if (as != Untyped)
		s = keytext(c, as, m->key[w], as == Aggfunc ? "" : f->glob);
	if (s)
		bputsafe(b, s, as != Aggfunc);
	else if (as == Aggfunc) {
		bputs(b, "0x");
		bputhex(b, m->key[w]);
	} else
		bputsdec(b, m->key[w]);
	return b->p - start;
}

/* widths: the text is made into a Buf with no room, which still counts it */
static int
keywidth(Ctx *c, const Def *f, const Me *m, uint32_t j)
{
	char none;
	Buf b = { &none, &none };

	return putkey(c, &b, f, m, j);
}

static int
decwidth(int64_t v)
{
	char none;
	Buf b = { &none, &none };

	bputsdec(&b, v);
	return b.p - &none;
}

/* one value of an aggregation row, for its function */
static int64_t
answer(uint32_t func, const Me *m)
{
	switch (func) {
	case Fcount:
		return m->n;
	case Favg:
		return (int64_t)m->v / (int64_t)m->n;
	}
	return m->v;
}

static void
bucketlabel(Buf *b, const Def *f, uint32_t k, int machine)
{
	if (f->func == Fquantize) {
		bputsdec(b, aggqlow(k));
		return;
	}
	if (k == 0) {
		if (machine)
			bputsdec(b, (int64_t)Min64);
		else {
			bputs(b, "< ");
			bputsdec(b, f->low);
		}
	} else if (k == f->nbucket - 1) {
		if (!machine)
			bputs(b, ">= ");
		bputsdec(b, f->high);
	} else
		bputsdec(b, f->low + (int64_t)(k - 1) * f->step);
}

static void
machine(Ctx *c, Buf *b, const Def *f, const Me *me, const Row *r)
{
	uint32_t i, j;

	for (i = r->first; i < r->first + r->nent; i++) {
		bputc(b, '@');
		bputs(b, f->name);
		bputc(b, ' ');
		bputs(b, f->func == Fcount ? "count" : f->func == Fsum ? "sum" : f->func == Fmin ? "min" :
			f->func == Fmax ? "max" : f->func == Favg ? "avg" : f->func == Fquantize ? "quantize" : "lquantize");
		bputc(b, ' ');
		if (f->func == Fquantize || f->func == Flquantize)
			bucketlabel(b, f, me[i].bucket, 1);
		else
			bputc(b, '-');
		bputc(b, ' ');
		bputdec(b, me[i].n);
		bputc(b, ' ');
		if (f->func == Fquantize || f->func == Flquantize)
			bputdec(b, me[i].n);
		else
			bputsdec(b, answer(f->func, &me[i]));
		for (j = 0; j < f->nkey; j++) {
			bputc(b, ' ');
			putkey(c, b, f, &me[i], j);
		}
		bputc(b, '\n');
	}
}

static int
labelwidth(const Def *f, uint32_t k)
{
	char none;
	Buf b = { &none, &none };

	bucketlabel(&b, f, k, 0);
	return b.p - &none;
}

/* DTrace's distribution: the rows from the bucket below the first hit to the one above the last */
static void
distribution(Buf *b, const Def *f, const Me *me, const Row *r)
{
	uint32_t k, lo, hi, i;
	uint64_t cnt;
	int w, bar, lw;

	lo = me[r->first].bucket;
	hi = me[r->first + r->nent - 1].bucket;
	if (lo > 0)
		lo--;
	if (hi + 1 < f->nbucket)
		hi++;
	bputs(b, "           value  ------------- Distribution ------------- count\n");
	for (k = lo, i = r->first; k <= hi; k++) {
		cnt = 0;
		if (i < r->first + r->nent && me[i].bucket == k)
			cnt = me[i++].n;
		lw = labelwidth(f, k);
		spaces(b, 16 - lw);
		bucketlabel(b, f, k, 0);
		bputs(b, " |");
		bar = r->total ? (int)((cnt * Barw + r->total / 2) / r->total) : 0;
		for (w = 0; w < Barw; w++)
			bputc(b, w < bar ? '@' : ' ');
		bputc(b, ' ');
		bputdec(b, cnt);
		bputc(b, '\n');
	}
}

static void
printa(Ctx *c, Buf *b, const Def *f, const Me *me, const Row *row, uint32_t r0, uint32_t r1)
{
	int kw[Nkey] = { 0 }, vw = 0, w;
	uint32_t r, j;
	int hist = f->func == Fquantize || f->func == Flquantize;

	for (r = r0; r < r1; r++) {
		for (j = 0; j < f->nkey; j++)
			if ((w = keywidth(c, f, &me[row[r].first], j)) > kw[j])
				kw[j] = w;
		if (!hist && (w = decwidth(answer(f->func, &me[row[r].first]))) > vw)
			vw = w;
	}
	for (r = r0; r < r1; r++) {
		const Me *m = &me[row[r].first];

		if (hist && r > r0)
			bputc(b, '\n');
		if (f->nkey > 0 || !hist)
			bputs(b, "  ");
		for (j = 0; j < f->nkey; j++) {
			w = putkey(c, b, f, m, j);
			if (!hist || j + 1 < f->nkey)
				spaces(b, kw[j] - w + 2);
		}
		if (hist) {
			if (f->nkey > 0)
				bputc(b, '\n');
			distribution(b, f, me, &row[r]);
			continue;
		}
		spaces(b, vw - decwidth(answer(f->func, m)) + (f->nkey ? 0 : 8));
		bputsdec(b, answer(f->func, m));
		bputc(b, '\n');
	}
}

/* the work area's merge: the aggregations' definitions, their entries combined, rows sorted by value */
typedef struct Merged Merged;
struct Merged {
	Def *def;
	Me *me;
	Row *row;
	uint32_t nr;
};

static void
merge(Dev *d, void *work, Merged *m)
{
	uint32_t ne;

	m->def = work;
	m->me = (Me *)(m->def + Nagg);
	m->row = (Row *)(m->me + Emax);
	snapdefs(d, m->def);
	ne = collect(d, m->def, m->me);
	Heapsort(Me, m->me, ne, cmpme);
	ne = combine(m->def, m->me, ne);
	m->nr = rows(m->def, m->me, ne, m->row);
#define Cmprow(x, y)	cmprow((x), (y), m->me)
	Heapsort(Row, m->row, m->nr, Cmprow);
#undef Cmprow
}

/* key j of entry e as an Aggkey, its text nil */
static void
listkey(Aggkey *k, const Def *f, const Me *e, uint32_t j, int as)
{
	const char *g = as == Aggfunc ? "" : f->glob;
	uint32_t i;

	k->v = e->key[keyword0(f, j)];
	k->word = as;
	for (i = 0; i < Globlen && g[i] != 0; i++)
		k->glob[i] = g[i];
	for (; i < Globlen; i++)
		k->glob[i] = 0;
	k->text = 0;
}

#define Cmpkeys(x, y)	cmpkey((x), (y)->word, (y)->v, (y)->glob)

size_t
devaggkeys(Dev *d, void *work, Aggkey *keys, size_t n, int form)
{
	Ctx c = { 0, 0, form == Amachine };
	Merged m;
	const Def *f;
	const Me *e;
	size_t nk = 0, i, u;
	uint32_t r, j;
	int as;

	merge(d, work, &m);
	for (r = 0; r < m.nr; r++) {
		e = &m.me[m.row[r].first];
		f = &m.def[e->slot];
		for (j = 0; j < f->nkey; j++)
			if ((as = keyas(&c, f, j)) != Untyped && keyword0(f, j) < Nkeyw && nk++ < n)
				listkey(&keys[nk - 1], f, e, j, as);
	}
	if (nk > n)
		return nk;
	Heapsort(Aggkey, keys, nk, Cmpkeys);
	for (i = 0, u = 0; i < nk; i++)
		if (u == 0 || Cmpkeys(&keys[u - 1], &keys[i]) != 0)
			keys[u++] = keys[i];
	return u;
}

size_t
devaggs(Dev *d, void *work, char *buf, size_t n, int form, const Aggkey *keys, size_t nkeys)
{
	Buf b = { buf, buf + (n ? n - 1 : 0) };
	Ctx c = { keys, keys ? nkeys : 0, form == Amachine };
	Merged m;
	Def *def;
	Me *me;
	Row *row;
	uint32_t nr, r, r0, s;
	int first = 1;

	merge(d, work, &m);
	def = m.def;
	me = m.me;
	row = m.row;
	nr = m.nr;
	for (s = 0, r = 0; s < Nagg; s++) {
		if (!def[s].live)
			continue;
		for (r0 = r; r < nr && me[row[r].first].slot == s; r++)
			;
		if (c.machine) {
			if (def[s].drops) {
				bputs(&b, "# @");
				bputs(&b, def[s].name);
				bputs(&b, " drops ");
				bputdec(&b, def[s].drops);
				bputc(&b, '\n');
			}
			for (; r0 < r; r0++)
				machine(&c, &b, &def[s], me, &row[r0]);
			continue;
		}
		if (!first)
			bputc(&b, '\n');
		first = 0;
		bputs(&b, def[s].src);
		bputc(&b, '\n');
		if (def[s].drops) {
			bputs(&b, "  (");
			bputdec(&b, def[s].drops);
			bputs(&b, " hits dropped: a writer's table was full)\n");
		}
		printa(&c, &b, &def[s], me, row, r0, r);
	}
	if (n > 0)
		*(b.p < b.e ? b.p : b.e) = 0;
	return b.p - buf;
}
