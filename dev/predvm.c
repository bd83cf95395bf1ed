/*
 * predvm.c: the predicate machine.  predvalid proves a Prog safe once;
 * predeval then runs it at every hit with no check but the faults no
 * validator can see (division by zero).  Programs are a stack machine
 * with forward branches only, so a run ends within ninst steps and the
 * stack depth at every instruction is known before the first run.
 */
#include "devtrace.h"
#include "host.h"

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
};

/* the depth a path brings to instruction i; all paths must agree */
static int
reach(int8_t *depth, uint32_t i, int d)
{
	if (depth[i] < 0)
		depth[i] = d;
	return depth[i] == d;
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
	for (i = 0; i < n; i++)
		depth[i] = -1;
	depth[0] = 0;
	for (i = 0; i < n; i = next) {
		w = p->inst[i];
		a = w >> 8;
		if ((w & 0xff) >= Nop)
			return 0;
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

static uint64_t
var(const Hit *h, uint64_t v)
{
	switch (v) {
	case Varg0:
	case Varg1:
	case Varg2:
	case Varg3:
		return h->exit ? 0 : h->a[v - Varg0];
	case Vretval:
		return h->exit ? h->a[0] : 0;
	case Ventry:
		return !h->exit;
	case Vpc:
		return h->pc;
	case Vpid:
		return h->pid;
	case Vtid:
		return h->tid;
	case Vppid:
		return hostppid();
	case Vuid:
		return hostuid();
	case Vcpu:
		return hostcpu();
	case Vtimestamp:
		return h->ticks;
	case Vdepth:
		return h->depth;
	}
	return 0;
}

/* execname == s; s is NUL-terminated within str, the name may be nil */
static int
streq(const char *s, const char *name)
{
	if (name == 0)
		name = "";
	while (*s != 0 && *s == *name)
		s++, name++;
	return *s == *name;
}

#define Min	((uint64_t)1 << 63)
#define lt(x, y)	(((x) ^ Min) < ((y) ^ Min))	/* signed, without a conversion */

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
 * Values are uint64_t, so + - * wrap with no undefined behaviour;
 * only division converts to int64_t, after the faults are ruled out.
 */
int
predeval(const Prog *p, const Hit *h)
{
	uint64_t st[Stackmax], w, a, x, y;
	uint32_t pc;
	int sp;

	sp = 0;
	pc = 0;
	for (;;) {
		w = p->inst[pc++];
		a = w >> 8;
		switch (w & 0xff) {
		case Oret:
			return st[0] != 0;
		case Olit:
			st[sp++] = a & (uint64_t)1 << 55 ? a | ~(uint64_t)0 << 56 : a;
			continue;
		case Olit64:
			st[sp++] = p->inst[pc++];
			continue;
		case Ovar:
			st[sp++] = var(h, a);
			continue;
		case Ostreq:
			st[sp++] = streq(p->str + a, hostexecname());
			continue;
		case Ocmpvi:
			x = var(h, a & 15);
			y = a >> 7 & (uint64_t)1 << 48 ? a >> 7 | ~(uint64_t)0 << 49 : a >> 7;
			st[sp++] = cmp(a >> 4 & 7, x, y);
			continue;
		case Ojz:
			if (st[--sp] == 0)
				pc = a;
			continue;
		case Ojmp:
			pc = a;
			continue;
		case Oandj:	/* x && ...: a false x is the answer */
			if (st[sp - 1] == 0)
				pc = a;
			else
				sp--;
			continue;
		case Oorj:	/* x || ...: a true x makes it 1 */
			if (st[sp - 1] != 0) {
				st[sp - 1] = 1;
				pc = a;
			} else
				sp--;
			continue;
		case Obool:
			st[sp - 1] = st[sp - 1] != 0;
			continue;
		case Onot:
			st[sp - 1] = st[sp - 1] == 0;
			continue;
		case Ocom:
			st[sp - 1] = ~st[sp - 1];
			continue;
		case Oneg:
			st[sp - 1] = -st[sp - 1];
			continue;
		}
		if (sp < 2)
			return -1;	/* not reached by a valid program */
		y = st[--sp];
		x = st[sp - 1];
		switch (w & 0xff) {
		case Omul:	x *= y; break;
		case Odiv:
		case Omod:
			if (y == 0 || (x == Min && y == ~(uint64_t)0))
				return -1;
			if ((w & 0xff) == Odiv)
				x = (int64_t)x / (int64_t)y;
			else
				x = (int64_t)x % (int64_t)y;
			break;
		case Oadd:	x += y; break;
		case Osub:	x -= y; break;
		case Oshl:	x <<= y & 63; break;
		case Oshr:	x = sar(x, y); break;
		case Olt: case Ole: case Ogt: case Oge: case Oeq: case Oneq:
			x = cmp((w & 0xff) - Olt, x, y);
			break;
		case Oand:	x &= y; break;
		case Oxor:	x ^= y; break;
		case Oor:	x |= y; break;
		default:	return -1;
		}
		st[sp - 1] = x;
	}
}
