/*
 * predvm.c: the predicate machine.  predvalid proves a Prog safe once;
 * predeval then runs it at every hit with no check but the faults no
 * validator can see (division by zero).  Programs are a stack machine
 * with forward branches only, so a run ends within ninst steps and the
 * stack depth at every instruction is known before the first run.
 */
#include "dev/pred/pred.h"
#include "dev/lib.h"
#include "dev/host.h"

typedef struct Opinfo Opinfo;

enum {	/* what an instruction does to the flow */
	Fnext,	/* falls through */
	Fcond,	/* falls through or branches to its operand */
	Fjump,	/* branches to its operand */
	Fret,	/* ends the run */
};

enum {	/* what its operand is */
	Anone,	/* must be zero: reserved bits stay reserved */
	Aimm,	/* a 56-bit signed value */
	Aword,	/* none; the next word is the value */
	Avar,	/* a variable number */
	Astr,	/* an offset in str of a NUL-terminated string */
	Atarget,	/* a later instruction */
	Acmpvi,	/* a variable, a comparison and a value */
	Aext,	/* an ext (pred.h) */
};

/*
 * Stack effect: pop values, then push; a branch taken leaves the
 * depth at entry minus tpop (Oandj and Oorj keep the value they test).
 */
struct Opinfo {
	uint8_t pop, push, tpop;
	uint8_t flow, arg;
};

static const Opinfo optab[Nop] = {
	[Oret] = {1, 0, 0, Fret, Anone},
	[Olit] = {0, 1, 0, Fnext, Aimm},
	[Olit64] = {0, 1, 0, Fnext, Aword},
	[Ovar] = {0, 1, 0, Fnext, Avar},
	[Ostreq] = {0, 1, 0, Fnext, Astr},
	[Ojz] = {1, 0, 1, Fcond, Atarget},
	[Ojmp] = {0, 0, 0, Fjump, Atarget},
	[Oandj] = {1, 0, 0, Fcond, Atarget},
	[Oorj] = {1, 0, 0, Fcond, Atarget},
	[Obool] = {1, 1, 0, Fnext, Anone},
	[Onot] = {1, 1, 0, Fnext, Anone},
	[Ocom] = {1, 1, 0, Fnext, Anone},
	[Oneg] = {1, 1, 0, Fnext, Anone},
	[Omul] = {2, 1, 0, Fnext, Anone},
	[Odiv] = {2, 1, 0, Fnext, Anone},
	[Omod] = {2, 1, 0, Fnext, Anone},
	[Oadd] = {2, 1, 0, Fnext, Anone},
	[Osub] = {2, 1, 0, Fnext, Anone},
	[Oshl] = {2, 1, 0, Fnext, Anone},
	[Oshr] = {2, 1, 0, Fnext, Anone},
	[Olt] = {2, 1, 0, Fnext, Anone},
	[Ole] = {2, 1, 0, Fnext, Anone},
	[Ogt] = {2, 1, 0, Fnext, Anone},
	[Oge] = {2, 1, 0, Fnext, Anone},
	[Oeq] = {2, 1, 0, Fnext, Anone},
	[Oneq] = {2, 1, 0, Fnext, Anone},
	[Oand] = {2, 1, 0, Fnext, Anone},
	[Oxor] = {2, 1, 0, Fnext, Anone},
	[Oor] = {2, 1, 0, Fnext, Anone},
	[Ocmpvi] = {0, 1, 0, Fnext, Acmpvi},
	[Oext] = {1, 1, 0, Fnext, Aext},
};

/* an ext that says a width: B of 1..63, maybe signed, no other bit */
static int
extvalid(uint64_t e)
{
	return (e & ~(uint64_t)(Extbits | Extsigned)) == 0 && (e & Extbits) != 0;
}

/* the depth a path brings to instruction i; all paths must agree */
static int
reach(int8_t *depth, uint32_t i, int d)
{
	if (depth[i] < 0)
		depth[i] = d;
	return depth[i] == d;
}

/* a term's words: 0 if kind is none */
static uint32_t
termlen(uint64_t kind)
{
	if (kind == Tret)
		return 1;
	return kind < Nterm ? 3 : 0;
}

/*
 * A term table: every term inside ninst, each fail target a later
 * term's first word, the last term a Tret (so a pass lands on a term
 * too), strings NUL-terminated within their 16 bytes and NUL-padded,
 * reserved bits zero.  Every step goes forward: a run reads at most
 * ninst words and ends at a Tret.
 */
static int
termsvalid(const Prog *p)
{
	uint8_t start[Progmax];
	const uint8_t *s;
	uint64_t w;
	uint32_t i, n, k, len, last;

	n = p->ninst;
	if (n < 2 || p->inst[0] != Oterms)
		return 0;
	for (i = 0; i < n; i++)
		start[i] = 0;
	last = 0;
	for (i = 1; i < n; i += len) {
		w = p->inst[i];
		k = w & 0xff;
		if ((len = termlen(k)) == 0 || len > n - i)
			return 0;
		start[i] = 1;
		last = i;
		if (k == Tret) {
			if (w >> 8 > 1)
				return 0;
			continue;
		}
		if (k == Text && ((w >> 8 & 0xff) > Vretval || !extvalid(w >> 16 & 0xff) || w >> 32 != 0))
			return 0;	/* a typed argument or return value */
		if (k != Text && w >> 16 != 0)
			return 0;
		if (k == Texec || k == Texecne) {
			s = (const uint8_t *)&p->inst[i + 1];
			for (len = 0; len < 16 && s[len] != 0; len++)
				;
			if (len == 16)
				return 0;	/* no NUL */
			for (; len < 16; len++)
				if (s[len] != 0)
					return 0;	/* not padded */
			len = 3;
		}
	}
	if ((p->inst[last] & 0xff) != Tret)
		return 0;
	for (i = 1; i < n; i += termlen(p->inst[i] & 0xff)) {
		w = p->inst[i];
		k = (w & 0xff) == Text ? w >> 24 : w >> 8;	/* the fail target */
		if ((w & 0xff) != Tret && (k <= i || k >= n || !start[k]))
			return 0;
	}
	return 1;
}

int
predvalid(const Prog *p)
{
	int8_t depth[Progmax];	/* -1: no path reaches it (yet) */
	const Opinfo *o;
	uint64_t w, a;
	uint32_t i, n, next;
	int d;

	n = p->ninst;
	if (n == 0 || n > Progmax || p->nstr > Strmax)
		return 0;
	if ((p->inst[0] & 0xff) == Oterms)
		return termsvalid(p);
	for (i = 0; i < n; i++)
		depth[i] = -1;
	depth[0] = 0;
	for (i = 0; i < n; i = next) {
		w = p->inst[i];
		a = w >> 8;
		if ((w & 0xff) >= Nop || (w & 0xff) == Oterms)
			return 0;	/* Oterms only as inst[0] */
		o = &optab[w & 0xff];
		next = i + 1;
		d = depth[i];
		if (d < 0 || d < o->pop || d - o->pop + o->push > Stackmax)
			return 0;	/* unreachable, underflow or overflow */
		switch (o->arg) {
		case Anone:
			if (a != 0)
				return 0;
			break;
		case Aword:
			/* the value word is no instruction: nothing may branch to it */
			if (a != 0 || i + 1 >= n || depth[i + 1] >= 0)
				return 0;
			next = i + 2;
			break;
		case Avar:
			if (a >= Nvar)
				return 0;
			break;
		case Astr:
			if (a >= p->nstr)
				return 0;
			while (a < p->nstr && p->str[a] != 0)
				a++;
			if (a == p->nstr)
				return 0;	/* no NUL before the end */
			break;
		case Acmpvi:
			if ((a & 15) >= Nvar || (a >> 4 & 7) > Oneq - Olt)
				return 0;
			break;
		case Aext:
			if (!extvalid(a))
				return 0;
			break;
		case Atarget:
			if (a <= i || a >= n || !reach(depth, a, d - o->tpop))
				return 0;
			break;
		}
		switch (o->flow) {
		case Fret:
			if (d != 1)
				return 0;
			break;
		case Fjump:
			break;
		default:
			if (next >= n || !reach(depth, next, d - o->pop + o->push))
				return 0;	/* falls off the end */
			break;
		}
	}
	return 1;
}

/* the variables a valid program reads, as bits 1<<Vname */
uint32_t
predvars(const Prog *p)
{
	uint32_t i, m = 0;
	uint64_t w;

	if ((p->inst[0] & 0xff) == Oterms) {
		for (i = 1; i < p->ninst && i < Progmax; i += termlen(w & 0xff)) {
			w = p->inst[i];
			if ((w & 0xff) < Nvar)
				m |= 1u << (w & 0xff);
			else if ((w & 0xff) == Text)
				m |= 1u << (w >> 8 & 0xff);
			else if ((w & 0xff) >= Nterm)
				break;
		}
		return m;
	}
	for (i = 0; i < p->ninst && i < Progmax; i++) {
		w = p->inst[i];
		switch (w & 0xff) {
		case Ovar:
		case Ocmpvi:	/* the variable is the low 4 bits of the operand */
			m |= 1u << (w >> 8 & 15);
			break;
		case Olit64:
			i++;	/* the next word is a value */
			break;
		}
	}
	return m;
}

#define lt(x, y)	(((x) ^ Min64) < ((y) ^ Min64))	/* signed, without a conversion */

/* the comparison Olt+op, signed */
static uint64_t
cmp(uint64_t op, uint64_t x, uint64_t y)
{
	switch (op) {
	case Olt - Olt:	return lt(x, y);
	case Ole - Olt:	return !lt(y, x);
	case Ogt - Olt:	return lt(y, x);
	case Oge - Olt:	return !lt(x, y);
	case Oeq - Olt:	return x == y;
	}
	return x != y;
}

/* >> is arithmetic; counts are taken modulo 64, as amd64 does */
static uint64_t
sar(uint64_t x, uint64_t n)
{
	n &= 63;
	if (n == 0)
		return x;
	return x >> n | (x >> 63 ? ~(uint64_t)0 << (64 - n) : 0);
}


/*
 * A term table (pred.h).  One switch a term, which the validator's
 * check of every kind lets the compiler make a bare jump table (or,
 * built with -fno-jump-tables as a kernel is, a few compares): no
 * stack, no operand decoding, one compare a range.  Two copies of the
 * loop: predeval's makes no call, so it needs no frame, and hands the
 * run to this one at the first term that asks the host or is typed (Text).
 */
/* a Text term's variable, arg0..arg3 or retval (predvalid checked) */
static inline uint64_t
typedvar(const Hit *h, uint64_t v)
{
	if (v == Vretval)
		return h->exit == Kexit ? h->a[0] : 0;
	return h->exit == Kexit ? 0 : h->a[v & 3];
}

#define Term(x)	do { t = (x) - t[1] <= t[2] ? t + 3 : in + (*t >> 8); } while (0)
#define Hitvars	/* the variables the Hit holds */ \
	case Varg0: case Varg1: case Varg2: case Varg3: \
		Term(h->exit == Kexit ? 0 : h->a[*t & 3]); break; \
	case Vretval:	Term(h->exit == Kexit ? h->a[0] : 0); break; \
	case Ventry:	Term((uint64_t)(h->exit != Kexit)); break; \
	case Vpc:	Term(h->pc); break; \
	case Vpid:	Term(h->pid); break; \
	case Vtid:	Term(h->tid); break; \
	case Vtimestamp:	Term(h->ticks); break; \
	case Vdepth:	Term(h->depth); break; \
	case Vdur:	Term(h->exit == Kexit ? h->dur : 0); break;

static __attribute__((noinline)) int
hostterms(const uint64_t *in, const uint64_t *t, const Hit *h)
{
	uint64_t name[2];

	for (;;) {
		switch (*t & 0xff) {
		Hitvars
		case Vppid:	Term(hostppid()); break;
		case Vuid:	Term(hostuid()); break;
		case Vcpu:	Term(hostcpu()); break;
		case Text:	/* its fail target is in the top byte */
			t = predext(typedvar(h, *t >> 8 & 0xff), *t >> 16 & 0xff) - t[1] <= t[2] ? t + 3 : in + (*t >> 24);
			break;
		case Texec:
		case Texecne:	/* both names are 16 NUL-padded bytes (host.h): two words */
			__builtin_memcpy(name, hostexecname(), sizeof name);
			if ((name[0] == t[1] && name[1] == t[2]) == ((*t & 0xff) == Texec))
				t += 3;
			else
				t = in + (*t >> 8);
			break;
		case Tret:
			return *t >> 8;
		default:
			__builtin_unreachable();	/* predvalid checked every kind */
		}
	}
}

static inline __attribute__((always_inline)) int
terms(const uint64_t *in, const Hit *h)
{
	const uint64_t *t = in + 1;

	for (;;) {
		switch (*t & 0xff) {
		Hitvars
		case Vppid:
		case Vuid:
		case Vcpu:
		case Texec:
		case Texecne:
		case Text:	/* its registers would cost every term a frame */
			return hostterms(in, t, h);
		case Tret:
			return *t >> 8;
		default:
			__builtin_unreachable();	/* predvalid checked every kind */
		}
	}
}
#undef Term
#undef Hitvars

/*
 * Stack code, direct-threaded: each instruction ends by jumping
 * straight to the next one's code (computed goto, which GCC and clang
 * take, kernel builds included).  Values are uint64_t, so + - * wrap
 * with no undefined behaviour; only division converts to int64_t, after
 * the faults are ruled out.
 */
static __attribute__((noinline)) int
stack(const Prog *p, const Hit *h, uint64_t *val)
{
	static const void *const op[Nop] = {
		[Oret] = &&Lret, [Olit] = &&Llit, [Olit64] = &&Llit64, [Ovar] = &&Lvar,
		[Ostreq] = &&Lstreq, [Ojz] = &&Ljz, [Ojmp] = &&Ljmp, [Oandj] = &&Landj,
		[Oorj] = &&Lorj, [Obool] = &&Lbool, [Onot] = &&Lnot, [Ocom] = &&Lcom,
		[Oneg] = &&Lneg, [Omul] = &&Lmul, [Odiv] = &&Ldiv, [Omod] = &&Lmod,
		[Oadd] = &&Ladd, [Osub] = &&Lsub, [Oshl] = &&Lshl, [Oshr] = &&Lshr,
		[Olt] = &&Llt, [Ole] = &&Lle, [Ogt] = &&Lgt, [Oge] = &&Lge,
		[Oeq] = &&Leq, [Oneq] = &&Lneq, [Oand] = &&Land, [Oxor] = &&Lxor,
		[Oor] = &&Lor, [Ocmpvi] = &&Lcmpvi, [Oext] = &&Lext, [Oterms] = &&Lterms,
	};
	uint64_t st[Stackmax + 1], *sp, x, y;
	const uint64_t *pc, *in = p->inst;

#define Next()	goto *op[*pc & 0xff]
#define A	(pc[-1] >> 8)	/* the operand of the instruction being run */
#define Bin(e)	do { y = *sp--; x = *sp; *sp = (e); pc++; Next(); } while (0)
	sp = st;	/* st[0] is never used: *sp is the top */
	pc = in;
	Next();
Lret:
	*val = *sp;
	return 0;
Llit:
	pc++;
	*++sp = sext(A, 56);
	Next();
Llit64:
	*++sp = pc[1];
	pc += 2;
	Next();
Lvar:
	pc++;
	*++sp = predvar(h, A);
	Next();
Lstreq:
	pc++;
	*++sp = streq(p->str + A, hostexecname())	/* str is NUL-terminated (predvalid) */;
	Next();
Lcmpvi:
	pc++;
	x = predvar(h, A & 15);
	y = sext(A >> 7, 49);
	*++sp = cmp(A >> 4 & 7, x, y);
	Next();
Lext:
	pc++;
	*sp = predext(*sp, A);
	Next();
Ljz:
	pc = *sp-- == 0 ? in + (*pc >> 8) : pc + 1;
	Next();
Ljmp:
	pc = in + (*pc >> 8);
	Next();
Landj:	/* x && ...: a false x is the answer */
	if (*sp == 0)
		pc = in + (*pc >> 8);
	else
		sp--, pc++;
	Next();
Lorj:	/* x || ...: a true x makes it 1 */
	if (*sp != 0) {
		*sp = 1;
		pc = in + (*pc >> 8);
	} else
		sp--, pc++;
	Next();
Lbool:
	*sp = *sp != 0;
	pc++;
	Next();
Lnot:
	*sp = *sp == 0;
	pc++;
	Next();
Lcom:
	*sp = ~*sp;
	pc++;
	Next();
Lneg:
	*sp = -*sp;
	pc++;
	Next();
Lmul:	Bin(x * y);
Ldiv:
Lmod:
	y = sp[0];
	x = sp[-1];
	if (y == 0 || (x == Min64 && y == ~(uint64_t)0))
		return -1;
	*--sp = (*pc & 0xff) == Odiv ? (uint64_t)((int64_t)x / (int64_t)y) : (uint64_t)((int64_t)x % (int64_t)y);
	pc++;
	Next();
Ladd:	Bin(x + y);
Lsub:	Bin(x - y);
Lshl:	Bin(x << (y & 63));
Lshr:	Bin(sar(x, y));
Llt:	Bin(lt(x, y));
Lle:	Bin(!lt(y, x));
Lgt:	Bin(lt(y, x));
Lge:	Bin(!lt(x, y));
Leq:	Bin(x == y);
Lneq:	Bin(x != y);
Land:	Bin(x & y);
Lxor:	Bin(x ^ y);
Lor:	Bin(x | y);
Lterms:
	return -1;	/* not reached: predvalid allows Oterms only first, and predeval runs those as terms */
#undef Next
#undef A
#undef Bin
}

int
predeval(const Prog *p, const Hit *h)
{
	uint64_t v;

	if (p->inst[0] == Oterms)
		return terms(p->inst, h);
	return stack(p, h, &v) < 0 ? -1 : v != 0;
}

/*
 * A program straight from the shared block, where any process may
 * rewrite it while it runs: its words are copied once, the copy
 * validated as a trace's predicate is (predvalid), then run by the same
 * machine.  An aggregation's keys and value that are not lone variables
 * run here (dev/agg/agg.c); a predicate, run at every hit of every trace,
 * keeps its validated private copy in the Tsel (predeval).  Copying
 * only the words in use keeps a short expression cheap.
 */
int
predrun(const Prog *p, const Hit *h, uint64_t *val)
{
	Prog c;
	uint32_t i;

	c.ninst = __atomic_load_n(&p->ninst, __ATOMIC_RELAXED);
	c.nstr = __atomic_load_n(&p->nstr, __ATOMIC_RELAXED);
	if (c.ninst == 0 || c.ninst > Progmax || c.nstr > Strmax)
		return -1;
	for (i = 0; i < c.ninst; i++)
		c.inst[i] = __atomic_load_n(&p->inst[i], __ATOMIC_RELAXED);
	for (i = 0; i < c.nstr; i++)
		c.str[i] = __atomic_load_n(&p->str[i], __ATOMIC_RELAXED);
	if (!predvalid(&c))
		return -1;
	if (c.inst[0] == Oterms) {
		*val = terms(c.inst, h);
		return 0;
	}
	return stack(&c, h, val);
}
