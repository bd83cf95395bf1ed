/*
 * pred.h: D-style predicates.  A predicate is compiled once, at the
 * control write, into a Prog: plain data, no pointers, fixed size, so
 * it can sit in the shared device and be copied.  A Prog is run only
 * after predvalid() has accepted that very copy.
 */
#ifndef DEVTRACE_PRED_H
#define DEVTRACE_PRED_H

#include <stddef.h>
#include <stdint.h>

typedef struct Prog Prog;
typedef struct Hit Hit;

enum {
	Progmax = 128,	/* instructions */
	Stackmax = 16,	/* evaluation stack depth */
	Strmax = 64,	/* bytes of string constants */
};

struct Prog {
	uint32_t ninst;
	uint32_t nstr;
	uint64_t inst[Progmax];	/* encoding private to pred.c and predvm.c */
	char str[Strmax];
};

/*
 * The encoding, private to pred.c and predvm.c: an instruction is one
 * word, the opcode in the low byte and an operand above it; Olit64 takes
 * the next word as its value.
 */
enum {
	Oret, Olit, Olit64, Ovar, Ostreq, Ojz, Ojmp, Oandj, Oorj,
	Obool, Onot, Ocom, Oneg,
	Omul, Odiv, Omod, Oadd, Osub, Oshl, Oshr,
	Olt, Ole, Ogt, Oge, Oeq, Oneq, Oand, Oxor, Oor,
	Ocmpvi,	/* variable CMP immediate in one: var in 4 bits, CMP (Olt+n) in 3, a 49-bit signed value above */
	Nop,
};
enum {	/* Ovar operands */
	Varg0, Varg1, Varg2, Varg3, Vretval, Ventry, Vpc, Vpid, Vtid,
	Vppid, Vuid, Vcpu, Vtimestamp, Vdepth,
	Nvar,
};

int	predcompile(const char *src, Prog *p, char *err, size_t nerr);	/* 0, or an E error with a message */
int	predvalid(const Prog *p);		/* 1 if safe to run */
int	predeval(const Prog *p, const Hit *h);	/* 1 true, 0 false, -1 fault (division by zero) */
uint32_t	predvars(const Prog *p);	/* variables a valid program reads: bits 1<<Vname */

#endif
