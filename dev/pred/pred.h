/*
 * pred.h: D-style predicates, private to the device (and its tests).
 * A predicate is compiled once, at the control write, into a Prog
 * (devtrace.h): plain data, no pointers, fixed size, so it can sit in
 * the shared device and be copied.  A Prog is run only after
 * predvalid() has accepted that very copy.
 */
#ifndef DEVTRACE_PRED_H
#define DEVTRACE_PRED_H

#include <stddef.h>
#include <stdint.h>

#include "dev/devtrace.h"
#include "dev/host.h"

enum {
	Stackmax = 16,	/* evaluation stack depth */
};

/*
 * The encoding, private to pred.c and predvm.c.  Two forms:
 *
 * Stack code: an instruction is one word, the opcode in the low byte
 * and an operand above it; Olit64 takes the next word as its value.
 *
 * A term table, when inst[0] is Oterms (operand 0): the common shape,
 * && and || over terms that each test one variable or execname, with
 * no stack.  Terms follow inst[0] back to back; the low byte of a
 * term's first word is its kind, a variable (Varg0..Vdepth), Texec,
 * Texecne or Tret:
 *   variable: 3 words: kind | fail << 8, lo, w.  The term passes if
 *     (v - lo) <= w as unsigned 64-bit numbers (a range of w+1 values
 *     starting at lo, wrapping: any comparison and its negation is one);
 *   Texec, Texecne: 3 words: kind | fail << 8, then 16 bytes of a
 *     string of at most 15 characters, NUL-padded.  Texec passes if
 *     execname is that string, Texecne if it is not;
 *   Tret: 1 word: Tret | answer << 8 (0 or 1): the run ends;
 *   Text: 3 words: Text | variable << 8 | ext << 16 | fail << 24, lo,
 *     w: a variable term on the variable (Varg0..Vretval) extended
 *     as Oext does (a kind of its own, fail above the rest: untyped
 *     terms pay nothing).
 * A term that passes goes on to the next term, one that fails to the
 * term at word index fail (a later one).  The last term is a Tret.
 */
enum {
	Oret, Olit, Olit64, Ovar, Ostreq, Ojz, Ojmp, Oandj, Oorj,
	Obool, Onot, Ocom, Oneg,
	Omul, Odiv, Omod, Oadd, Osub, Oshl, Oshr,
	Olt, Ole, Ogt, Oge, Oeq, Oneq, Oand, Oxor, Oor,
	Ocmpvi,	/* variable CMP immediate in one: var in 4 bits, CMP (Olt+n) in 3, a 49-bit signed value above */
	Oext,	/* top = its low B bits, sign- or zero-extended: the operand is an ext (below) */
	Oterms,	/* inst[0] only: the rest is a term table */
	Nop,
};
enum {	/* Ovar operands; term kinds */
	Varg0, Varg1, Varg2, Varg3, Vretval, Ventry, Vpc, Vpid, Vtid,
	Vppid, Vuid, Vcpu, Vtimestamp, Vdepth, Vdur,
	Nvar,
	Texec = Nvar, Texecne, Tret, Text,
	Nterm,
};
/*
 * An ext, Oext's operand, a Text term's and an aggregation's typed
 * variable: B (1..63) in the low 6 bits, Extsigned if the type is
 * signed; 0: the word as it is.  A C value narrower than the word
 * comes in a register whose upper bits are undefined.
 */
enum {
	Extbits = 63,
	Extsigned = 0x80,
};

int	predcompile(const char *src, Prog *p, char *err, size_t nerr);	/* no argument names: predcompileargs(src, nil, ...) */
int	predcompileargs(const char *src, const char *args, Prog *p, char *err, size_t nerr);	/* args: "name=N ..." names arg N (0-3), "name=NsB" or "name=NuB" its low B bits, signed or not, "name=?" one no record word holds; "$arg0=sB", "$retval=uB" type those variables (none: the word); nil: none known */
int	predcompileargsstack(const char *src, const char *args, Prog *p, char *err, size_t nerr);	/* the same, always stack code (the aggregations') */
/* predargs.c: the argument names of a pattern's functions, from the host's signature lines, one rule for every host */
enum {
	Sigline = 4096,	/* a signature line's room: a longer one is not read */
	Npredarg = 64,	/* distinct argument names of one pattern's functions */
	Predargname = 64,
	Predargval = 16,
	Npredpos = 5,	/* arg0..arg3, retval */
	Predargtext = Npredarg * (Predargname + Predargval + 2) + Npredpos * (Predargval + 10),	/* predargstext's room */
};
typedef struct Predargs Predargs;
struct Predargs {
	struct {
		char name[Predargname];
		char val[Predargval];	/* from the first function that has it: N[sB|uB], or ? */
		int nfn;	/* functions that have it so */
		int bad;	/* one has it otherwise */
	} a[Npredarg];
	struct {	/* arg0..arg3, retval: the ext of the functions with a number there */
		char ext[Predargval];	/* sB, uB, "" (64 bits) */
		int nfn;	/* functions that have one there */
		int bad;	/* two disagree: the raw word */
	} pos[Npredpos];
	int n;
	int nfn;	/* functions added */
};
void	predargsinit(Predargs *a);
void	predargsadd(Predargs *a, char *line);	/* a matched function's signature line, NUL-terminated (cut in place) */
void	predargsnosig(Predargs *a);	/* a matched function with no signature: arg0..arg3, retval stay words */
const char	*predargsof(const Devsigs *s, const char *glob);	/* the names of s's functions glob matches, as predcompileargs takes them (in s's work), or nil: none matched, or s nil */
const char	*predargstext(Predargs *a, char *out, size_t n);	/* "$arg0=sB ... $retval=sB name=N[sB|uB] ..." (?: no one word in all) in out, or nil if none was added */
int	predcompilestack(const char *src, Prog *p, char *err, size_t nerr);	/* the same, always stack code (tests) */
int	predterms(Prog *p);	/* a valid stack program as a term table, if it has the shape: 1 if rewritten */
int	predvalid(const Prog *p);		/* 1 if safe to run */
int	predeval(const Prog *p, const Hit *h);	/* 1 true, 0 false, -1 fault (division by zero) */
uint32_t	predvars(const Prog *p);	/* variables a valid program reads: bits 1<<Vname */
int	predrun(const Prog *p, const Hit *h, uint64_t *val);	/* a program nobody validated (the block's): its value, run on a validated copy; -1 if invalid or on a fault */

/* a variable's value at a hit; 0 for no variable.  Inline: the predicate machine and the aggregations' hook path read it */
static inline uint64_t
predvar(const Hit *h, uint64_t v)
{
	switch (v) {
	case Varg0:
	case Varg1:
	case Varg2:
	case Varg3:
		return h->exit == Kexit ? 0 : h->a[v - Varg0];
	case Vretval:
		return h->exit == Kexit ? h->a[0] : 0;
	case Ventry:
		return h->exit != Kexit;
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
	case Vdur:
		return h->exit == Kexit ? h->dur : 0;
	}
	return 0;
}

/* v as ext e says (pred.h: Extbits, Extsigned); any e is safe, 0 changes nothing */
static inline uint64_t
predext(uint64_t v, uint64_t e)
{
	uint64_t b = e & Extbits, hi;

	if (b == 0)
		return v;
	hi = ~(uint64_t)0 << b;
	v &= ~hi;
	return e & Extsigned && v >> (b - 1) ? v | hi : v;
}

#endif
