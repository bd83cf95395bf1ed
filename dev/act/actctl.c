/*
 * actctl.c: a trace's actions, the control side: made or replaced
 * (trace NAME trigger ..., speculate, commit, discard: command.c parses
 * them), removed with their trace or by actions clear, and printed as
 * the lines that make them again, a fired trigger's #triggered line
 * after its own.  One action of each class a trace: written again, it
 * is replaced, and a trigger is armed again.  The hook side is act.c.
 */
#include "dev/dat.h"
#include "dev/error.h"
#include "dev/fns.h"
#include "dev/lib.h"

/* the kinds' words as the state prints them, after "trace NAME " */
static const char *const kindwords[Nactkind] = {
	[Atrigstop] = "trigger stop",
	[Atrigstart] = "trigger start",
	[Aspec] = "speculate",
	[Acommit] = "commit",
	[Adiscard] = "discard",
};

/* one action of each class a trace: the two triggers are one class */
static uint32_t
class(uint32_t kind)
{
	return kind == Atrigstart ? Atrigstop : kind;
}

/* records wait while a start trigger is armed and has not fired; writers decide again */
static void
rearm(Dev *d)
{
	uint32_t i, wait = 0;

	for (i = 0; i < Nact; i++)
		if (d->act[i].gen && d->act[i].kind == Atrigstart && !ald(&d->act[i].fired))
			wait = 1;
	ast(&d->trigwait, wait);
}

int
actset(Dev *d, int slot, uint32_t kind, uint64_t after, const Prog *pred, const char *src)
{
	Act *a, *free = 0;

	for (a = d->act; a < d->act + Nact; a++) {
		if (a->gen && a->tslot == (uint32_t)slot && class(a->kind) == class(kind))
			break;
		if (a->gen == 0 && free == 0)
			free = a;
	}
	if (a == d->act + Nact && (a = free) == 0)
		return Erractfull;
	ast(&a->gen, 0);
	a->tslot = slot;
	a->kind = kind;
	a->after = after;
	a->haspred = pred != 0;
	if (pred)
		a->pred = *pred;
	scopy(a->predsrc, src, Predmax);
	ast(&a->fired, 0);
	if (class(kind) == Atrigstop)
		ast(&d->trigcount, 0);	/* re-armed: a count of before ends */
	ast(&a->gen, 1);
	rearm(d);
	return Errnone;
}

void
actdetach(Dev *d, int slot)
{
	Act *a;

	for (a = d->act; a < d->act + Nact; a++)
		if (a->gen && a->tslot == (uint32_t)slot)
			ast(&a->gen, 0);
	rearm(d);
}

/* start: a fired stop trigger's count is over, records flow again */
void
actstart(Dev *d)
{
	ast(&d->trigcount, 0);
}

/* the trace's actions as control lines, and a fired trigger's #triggered line */
void
actstate(Dev *d, Buf *b, int slot, const char *name)
{
	Act *a;

	for (a = d->act; a < d->act + Nact; a++) {
		if (a->gen == 0 || a->tslot != (uint32_t)slot || a->kind >= Nactkind)
			continue;
		bputs(b, "trace ");
		bputn(b, name, Namelen, 0);
		bputc(b, ' ');
		bputs(b, kindwords[a->kind]);
		if (a->kind == Atrigstop && a->after) {
			bputs(b, " after ");
			bputdec(b, a->after);
		}
		if (a->haspred) {
			bputs(b, " /");
			bputn(b, a->predsrc, Predmax, 1);
			bputc(b, '/');
		}
		bputc(b, '\n');
		if (a->kind <= Atrigstart && ald(&a->fired)) {
			bputs(b, "#triggered ");
			bputn(b, name, Namelen, 0);
			bputc(b, ' ');
			bputhex(b, rld(&a->pc));
			bputc(b, ' ');
			bputhex(b, rld(&a->ticks));
			bputc(b, ' ');
			bputhex(b, rld(&a->tid));
			bputc(b, '\n');
		}
	}
}

/* the counts, once an action was made or something counted */
void
actcounts(Dev *d, Buf *b)
{
	static const char *const names[Nactcount] = {
		[Kheld] = "#specheld ",
		[Kcommitted] = "#speccommitted ",
		[Kdiscarded] = "#specdiscarded ",
		[Knoroom] = "#specnoroom ",
		[Kwaiting] = "#untriggered ",
	};
	uint32_t i, any = 0;

	for (i = 0; i < Nact; i++)
		any |= d->act[i].gen != 0;
	for (i = 0; i < Nactcount; i++)
		any |= rld(&d->actcount[i]) != 0;
	for (i = 0; any && i < Nactcount; i++) {
		bputs(b, names[i]);
		bputdec(b, rld(&d->actcount[i]));
		bputc(b, '\n');
	}
}
