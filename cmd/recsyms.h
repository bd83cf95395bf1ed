/*
 * recsyms.h: what stands beside a recording (devtrace record -o FILE,
 * devtrace run -o FILE), so that it needs no device to be read:
 * FILE.syms, the symbol file's lines of the objects the records' pcs
 * fall in, and FILE.sigs, their signatures (dwarf.c).  An object's
 * lines are those its process appended at attach (rt/syms.c: one
 * write per object, once per process), so the device's symbol file
 * holds an object once per process that ran it; FILE.syms keeps only
 * the instances a recorded pc falls in, each once.
 */
#ifndef DEVTRACE_RECSYMS_H
#define DEVTRACE_RECSYMS_H
#include <stddef.h>
#include <stdint.h>
#include "dev/devtrace.h"

typedef struct Recsyms Recsyms;
struct Recsyms {
	uint64_t *pc;		/* the records' pcs, a set: open addressing, 0 free (no function is at 0) */
	size_t npc, cap;
	uint64_t last;		/* the last one added: a run of one function's records costs a compare each */
	char **obj;		/* recsymsto: the objects the pcs fall in, in the symbol file's order */
	size_t nobj;
};

int	recpcs(Recsyms *r, const Rec *rec, size_t n);	/* the records' pcs into the set: 0, or -1 out of memory */
int	recpcsmerge(Recsyms *to, const Recsyms *from);	/* from's pcs into to's set: 0, or -1 out of memory */
int	recsymsto(Recsyms *r, const char *syms, const char *out, const char *who);	/* r->obj from the device's symbol file syms; with out, out.syms and out.sigs written: 0, or 1 (told, as "WHO: ...") */
int	recbeside(const char *out, const char *syms, const char *who);	/* the same beside out, a file of trace lines (run -o): 0, or 1 (told) */
void	recsymsfree(Recsyms *r);
#endif
