/*
 * predterms.c: the term-table form of a compiled predicate (pred.h),
 * made from the stack code pred.c emits, when it has the shape.
 */
#include "dev/pred/pred.h"
#include "dev/lib.h"

/*
 * predterms reads the stack code of a whole
 * program as atoms, each a branch-free run that tests one variable or
 * execname (var CMP literal, literal CMP var, a bare var, execname ==
 * or != a string, with any ! after), joined by Oandj, Oorj, Obool, Onot
 * and Oret.  Where each outcome of an atom leads is found by running
 * that glue from the atom's end with the outcome as the top of the
 * stack: to the next atom an Oandj or Oorj falls through to, or to
 * Oret's answer.  One outcome must lead to the next atom in order (it
 * does for any && || tree); the term passes on that one, so its range
 * is the atom's or its complement, and fails to where the other leads.
 */
typedef struct Range Range;
typedef struct Atom Atom;

struct Range {
	uint64_t lo, w;	/* the values lo .. lo+w, wrapping */
	int none;	/* the empty set, which no lo, w gives */
};

struct Atom {
	int start, end;	/* its instructions */
	int kind;	/* a variable or Texec */
	int ext;	/* a variable: extended as Oext does (a Text term), or 0 */
	Range r;	/* a variable: the values for which it is true */
	int eq;		/* Texec: true if execname is the string (1) or is not (0) */
	uint64_t s[2];	/* Texec: the string, NUL-padded */
	int to[2];	/* where false and true lead: an atom, or -1 - the answer */
	int fail;	/* to[] of the outcome that does not lead to the next atom */
};

static Range
complement(Range r)
{
	Range c = {0, ~(uint64_t)0, 0};

	if (r.none)
		return c;
	if (r.w == ~(uint64_t)0) {
		c.none = 1;
		return c;
	}
	c.lo = r.lo + r.w + 1;
	c.w = ~r.w - 1;
	return c;
}

/* var CMP k, signed, as a range; op is Olt..Oneq */
static Range
cmprange(int op, uint64_t k)
{
	Range r = {0, 0, 0};

	switch (op) {
	case Olt:
		r.none = k == Min64;
		r.lo = Min64;
		r.w = k - Min64 - 1;
		break;
	case Ole:
		r.lo = Min64;
		r.w = k - Min64;
		break;
	case Ogt:
		r.none = k == Min64 - 1;
		r.lo = k + 1;
		r.w = Min64 - 1 - k - 1;
		break;
	case Oge:
		r.lo = k;
		r.w = Min64 - 1 - k;
		break;
	case Oeq:
		r.lo = k;
		break;
	default:	/* Oneq */
		r.lo = k;
		r = complement(r);
		break;
	}
	return r;
}

/* the atom starting at i, or 0 */
static int
atom(const Prog *p, int i, const uint8_t *label, Atom *a)
{
	static const uint8_t swap[] = {[Olt - Olt] = Ogt, [Ole - Olt] = Oge, [Ogt - Olt] = Olt,
		[Oge - Olt] = Ole, [Oeq - Olt] = Oeq, [Oneq - Olt] = Oneq};
	int n = p->ninst, op, j, jv, cmp, v;
	uint64_t w = p->inst[i], k;

#define Op(j)	((j) < n && !label[j] ? (int)(p->inst[j] & 0xff) : -1)
#define Cmp(j)	(Op(j) >= Olt && Op(j) <= Oneq)
	a->start = i;
	a->kind = 0;
	a->ext = 0;
	a->eq = 1;
	op = w & 0xff;
	if (op == Ocmpvi) {
		w >>= 8;
		a->kind = w & 15;
		a->r = cmprange(Olt + (w >> 4 & 7), sext(w >> 7, 49));
		j = i + 1;
	} else if (op == Ostreq) {
		a->kind = Texec;
		a->s[0] = a->s[1] = 0;
		for (j = w >> 8, k = 0; p->str[j] != 0; j++, k++) {
			if (k == 15)
				return 0;	/* no name is that long, but keep the stack code's answer */
			((char *)a->s)[k] = p->str[j];
		}
		j = i + 1;
	} else if (op == Ovar || op == Olit || op == Olit64) {
		j = i + 1 + (op == Olit64);	/* past a literal's value word */
		v = op == Ovar ? (int)(w >> 8) : -1;
		k = op == Olit ? sext(w >> 8, 56) : op == Olit64 ? p->inst[i + 1] : 0;
		if (v >= 0 && Op(j) == Oext)	/* a typed variable */
			a->ext = p->inst[j++] >> 8;
		jv = j;
		op = Op(j);
		if (v >= 0 && (op == Olit || op == Olit64)) {	/* var literal CMP */
			k = op == Olit ? sext(p->inst[j] >> 8, 56) : p->inst[j + 1];
			j += 1 + (op == Olit64);
			if (!Cmp(j))
				j = jv, op = -1;	/* a bare variable, glue follows (or not) */
		} else if (v < 0 && op == Ovar) {	/* literal var CMP */
			v = p->inst[j] >> 8;
			j++;
			if (Op(j) == Oext)
				a->ext = p->inst[j++] >> 8;
			if (!Cmp(j))
				return 0;
		} else if (v < 0)
			return 0;
		if (op == -1 || !Cmp(j)) {	/* a bare variable: true if not 0 */
			cmp = Oneq;
			k = 0;
		} else {
			cmp = Op(j) & 0xff;
			if (p->inst[i] % 256 != Ovar)
				cmp = swap[cmp - Olt];
			j++;
		}
		if (a->ext && v > Vretval)
			return 0;	/* Text types arguments and the return value only */
		a->kind = v;
		a->r = cmprange(cmp, k);
	} else
		return 0;
	for (; Op(j) == Onot || Op(j) == Obool; j++)
		if (Op(j) == Onot) {
			a->r = complement(a->r);
			a->eq = !a->eq;
		}
	a->end = j;
	return 1;
#undef Op
#undef Cmp
}

/* where the glue from instruction i leads with a value of truth t on top */
static int
chase(const Prog *p, int i, int t, const Atom *at, int na)
{
	uint64_t w;
	int j;

	for (;;) {
		w = p->inst[i];
		switch (w & 0xff) {
		case Oret:
			return -1 - t;
		case Obool:
			i++;
			continue;
		case Onot:
			t = !t;
			i++;
			continue;
		case Oandj:
		case Oorj:
			if (t == ((w & 0xff) == Oorj)) {	/* kept: on to the target */
				i = w >> 8;
				continue;
			}
			for (j = 0; j < na; j++)	/* popped: an atom must follow */
				if (at[j].start == i + 1)
					return j;
			return -100;
		default:
			return -100;
		}
	}
}

enum { Atommax = (Progmax - 3) / 3 };	/* the terms and two Trets fit */

int
predterms(Prog *p)
{
	Atom at[Atommax];
	uint8_t label[Progmax + 1];
	uint64_t w, *t;
	int i, j, n, na, pass, first, ret0;

	n = p->ninst;
	if (!predvalid(p) || (p->inst[0] & 0xff) == Oterms)
		return 0;
	__builtin_memset(label, 0, sizeof label);
	for (i = 0; i < n; i++) {
		w = p->inst[i];
		switch (w & 0xff) {
		case Oandj:
		case Oorj:
			label[w >> 8] = 1;
			break;
		case Ojz:
		case Ojmp:
			return 0;	/* ?: is not for terms */
		case Olit64:
			i++;
			break;
		}
	}
	/* atoms, and between them the glue */
	na = 0;
	for (i = 0; i < n; ) {
		if (na == Atommax || !atom(p, i, label, &at[na]))
			return 0;
		i = at[na++].end;
		while (i < n && ((w = p->inst[i] & 0xff) == Oandj || w == Oorj || w == Obool || w == Onot || w == Oret))
			i++;
	}
	for (j = 0; j < na; j++)
		for (i = 0; i < 2; i++)
			if ((at[j].to[i] = chase(p, at[j].end, i, at, na)) < -2 || (at[j].to[i] >= 0 && at[j].to[i] <= j))
				return 0;
	/*
	 * Each term passes on the outcome that leads to the next atom; the
	 * last on either (on true unless never true), and the answer that
	 * outcome leads to is the Tret right after it.
	 */
	first = 0;
	for (j = 0; j < na; j++) {
		if (j + 1 < na && at[j].to[1] == j + 1)
			pass = 1;
		else if (j + 1 < na && at[j].to[0] == j + 1)
			pass = 0;
		else if (j + 1 < na || at[j].to[0] >= 0 || at[j].to[1] >= 0)
			return 0;
		else {
			pass = at[j].kind == Texec || !at[j].r.none;
			first = -1 - at[j].to[pass];
		}
		at[j].fail = at[j].to[!pass];
		if (at[j].kind == Texec)
			at[j].kind = pass == at[j].eq ? Texec : Texecne;
		else if (!pass)
			at[j].r = complement(at[j].r);
		if (at[j].kind < Nvar && at[j].r.none)
			return 0;	/* a term that never passes */
	}
	/* atom j is the term at 1 + 3j, the answers first and !first the Trets after them */
	ret0 = 1 + 3 * na;
	__builtin_memset(p, 0, sizeof *p);
	p->inst[0] = Oterms;
	for (j = 0; j < na; j++) {
		i = at[j].fail;
		i = i >= 0 ? 1 + 3 * i : ret0 + (-1 - i != first);
		t = &p->inst[1 + 3 * j];
		if (at[j].ext)	/* kind Text: the variable, its ext, the target */
			t[0] = Text | (uint64_t)at[j].kind << 8 | (uint64_t)at[j].ext << 16 | (uint64_t)i << 24;
		else
			t[0] = at[j].kind | (uint64_t)i << 8;
		t[1] = at[j].kind < Nvar ? at[j].r.lo : at[j].s[0];
		t[2] = at[j].kind < Nvar ? at[j].r.w : at[j].s[1];
	}
	p->inst[ret0] = Tret | (uint64_t)first << 8;
	p->inst[ret0 + 1] = Tret | (uint64_t)!first << 8;
	p->ninst = ret0 + 2;
	return predvalid(p) ? 1 : -1;
}
