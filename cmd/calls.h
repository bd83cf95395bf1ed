/*
 * calls.h: a recording (capfile.h) as whole calls, for report, graph
 * and whatever else reads a recording by call (calls.c).  The records
 * are paired per thread as scripts/lib/lib.awk pairs them for flow and
 * report, on the functions' names (FILE.syms; an unnamed pc is its own
 * name, 16 hex digits):
 *  - an exit closes the nearest open call of its function from the top
 *    of its thread's stack (recursion pairs innermost first);
 *  - the calls above that one end with no exit of their own (Cnoexit:
 *    a longjmp past them, or their exit was lost);
 *  - an exit with no open call of its function is an orphan (Cnoentry):
 *    its call began before the trace; on an empty stack the thread's
 *    base depth drops by one, so callers seen only by their exits draw
 *    under the calls they made (depths -1, -2, ...);
 *  - the calls open at the end end with no exit (Cnoexit), thread by
 *    thread in the order the threads were first seen.
 * An unfinished callee's time stays in its caller's self time.
 * Times are on the program's clock: a wait record (Kwait: the thread
 * waited for the reader under policy block, or for its ring's next
 * pages) is no event; its thread's
 * later records come with their ticks less the thread's waits so far
 * (Call.rec a copy so changed), so a call that held a wait lasts that
 * much less, its callers too, and each thread's times still only grow.
 * callnext gives one event at a time, in the records' order: a caller
 * pulls, nothing is called back.  Only the fields its kind lists are
 * set; the others hold what they held.
 */
#ifndef DEVTRACE_CALLS_H
#define DEVTRACE_CALLS_H
#include <stddef.h>
#include <stdint.h>
#include "dev/devtrace.h"

enum {
	Centry,		/* a call began: fn, tid, depth, start, rec */
	Cexit,		/* a call returned: all of Call; rec its exit, entry its entry */
	Cnoexit,	/* a call ended with no exit: fn, tid, depth, start, entry; end the ticks of the exit that passed over it, or at the file's end of its thread's last record; no dur, self */
	Cnoentry,	/* an exit with no call of its function open: fn, tid, depth, end, rec */
	Cprobe,		/* a static probe's hit (P): fn, tid, depth (its function's callees'), rec, upaux (its function's word) */
};

typedef struct Call Call;
struct Call {
	int kind;
	uint32_t fn;		/* the function: callname's number, the same for one name */
	uint32_t tid;
	uint32_t thread;	/* its thread's number: 0, 1, ... in the order of the threads' first events */
	int depth;		/* as flow indents it */
	int outer;		/* Cexit, Cnoexit: no other call of fn is open below it in its thread */
	uint64_t start, end;	/* ticks, on the program's clock (above) */
	uint64_t dur, self;	/* Cexit: ticks, end - start, and less its returned callees' */
	const Rec *rec;		/* the record of this event, its ticks on the program's clock (valid until the next callnext) */
	uint64_t *aux;		/* Centry, Cexit, Cnoexit: the call's word for the caller (0 at Centry) */
	uint64_t upaux;		/* and its caller's word; 0 at the bottom of the stack */
	int bottom;		/* no call of its thread is open below it */
	int atend;		/* Cnoexit: open at the file's end (no exit passed over it) */
};

typedef struct Calls Calls;

Calls	*callsopen(const char *path, const char *who);	/* the recording and the names of PATH.syms beside it (none: pcs in hex); nil if unreadable (told, as "WHO: ...") */
int	callnext(Calls *c, Call *k);	/* the next event into k: 1; 0 at the end; -1 out of memory (told) */
int	callcallers(Calls *c, uint32_t *fn, int max);	/* the functions of the calls open below the last event's, innermost first: their number (at most max kept) */
const char	*callname(Calls *c, uint32_t fn);
uint32_t	callnfn(Calls *c);	/* the functions numbered so far: fn < callnfn */
double	callns(Calls *c, uint64_t ticks);	/* ticks in ns through the file's #hz (as flow's fmtt: ticks * (1e9 / hz)); ticks if it has none */
uint64_t	callwaited(Calls *c, uint64_t *n);	/* the ticks of the waits read so far (taken out of the times), their number in *n */
uint64_t	callhz(Calls *c);	/* the file's #hz; 0: none */
const char	*callunit(Calls *c);	/* "ns", or "ticks" without a #hz */
int	callsend(Calls *c);	/* callsclose's status, before it: 1 if the file was cut (told at open), else 0 */
void	callsclose(Calls *c);
#endif
