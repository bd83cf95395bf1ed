/*
 * trace.c: the table of traces, as the control side finds and changes
 * them: the one lookup by name, the one by address, and the one way a
 * changed trace is made whole again for the processes that read it.
 */
#include "dev/dat.h"
#include "dev/fns.h"
#include "dev/lib.h"

Trace *
tracelookup(Dev *d, const char *name)
{
	Trace *t;

	for (t = d->trace; t < d->trace + Ntrace; t++)
		if (t->gen && streqn(t->name, name, Namelen))
			return t;
	return 0;
}

Trace *
tracerange(Dev *d, uint64_t pc)
{
	Trace *t;

	for (t = d->trace; t < d->trace + Ntrace; t++)
		if (t->gen && t->kind == Range && pc >= t->start && pc < t->end)
			return t;
	return 0;
}

/* a trace changes only with gen 0, so a process reading it sees all or none of it */
void
tracepublish(Dev *d, Trace *t)
{
	ast(&t->gen, d->gennext++);
	if (d->gennext == 0)
		d->gennext = 1;
}
