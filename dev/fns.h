/*
 * fns.h: the device's functions that its files call in one another (as
 * Plan 9's portfns.h; the layout is dat.h's), by file, each file's
 * callers above it: no file calls one listed before it, so no two call
 * each other (checked by nm: suite layers).  What hosts call is
 * devtrace.h's.
 *
 *	ctlfile.c         control writes cut into lines (devctl, devctlwrite, devctlclose)
 *	pred/predargs.c   argument names from the host's signatures (Devsigs)
 *	state.c           the state text (devstate)
 *	command.c         one control line: the command table
 *	sess.c            sessions: clone, open, close, remove, reap
 *	dev.c             the files' table (devfiles), set up, devok, the reader rule, the host's rules
 *	agg/aggctl.c      the agg command, the aggregations' state lines
 *	agg/aggfmt.c      the aggregations as text (devaggkeys, devaggs)
 *	act/actctl.c      a trace's actions (triggers, speculations), the control side
 *	trace.c           the trace table: lookup, publish
 *	ring/read.c       the record file: devread, devreadraw, devreadring, devfmt
 *	ring/merge.c      one read's merge of every ring by time
 *	hit.c             the hook side: select, filter, hit
 *	agg/agg.c         aggregations, the hook side
 *	act/act.c         a trace's actions, the hook side
 *	ring/record.c     a record to its ring, by the policy (devrecord: ring inline, the rest out of line)
 *	act/spec.c        speculations' held records
 *	act/trig.c        what a fired or armed trigger does to records
 *	ring/ring.c       the shared ring
 *	ring/wring.c      the writers' rings
 *	ring/blockwait.c  policy block's wait for the reader
 *	ring/writer.c     a writer's life: claim, bind, done
 *	pred/pred.c       predicates: the compiler (pred/pred.h)
 *	pred/predterms.c  predicates: the term-table form of a compiled one
 *	pred/predvm.c     predicates: the checker and the machine
 *	error.c           refusals (error.h) and Dev.err
 *	map.c             a block's sizes: where its parts lie, the ones this process holds it with
 *	lib.c             strings, the control language's one tokeniser, numbers, glob (lib.h)
 */
#ifndef DEVTRACE_FNS_H
#define DEVTRACE_FNS_H

#include "dev/dat.h"

struct Buf;

/* command.c */
int	ctlrun(Dev *d, char *line, uint32_t pid, const Devsigs *s, const Devsyms *y);	/* one line, NUL-terminated, checked for length and characters, s the host's signatures, y its functions (or nil): 0 or an errno */

/* sess.c */
void	sesscheck(Dev *d);	/* the table's damage repaired and counted, before the state prints its counters */
void	sessstate(Dev *d, struct Buf *b);	/* the top level's #sessions line, once one was made */

/* agg/aggctl.c */
int	aggctl(Dev *d, char *line, const Devsigs *s, char *err, size_t nerr);	/* "agg ..." after the word: Errnone or an error (error.h), reason in err */
void	aggdetach(Dev *d, int slot);	/* the trace is removed: so are its aggregations */
void	aggstate(Dev *d, struct Buf *b, int counters);	/* the commands that rebuild them (0), or their counters (1) */

/* act/actctl.c */
int	actset(Dev *d, int slot, uint32_t kind, uint64_t after, const Prog *pred, const char *src);	/* make or replace the trace's action of that class: Errnone or an error */
void	actdetach(Dev *d, int slot);	/* the trace is removed, or its actions cleared */
void	actstart(Dev *d);	/* start: a stop trigger's count is over */
void	actstate(Dev *d, struct Buf *b, int slot, const char *name);	/* the trace's actions as lines, #triggered lines */
void	actcounts(Dev *d, struct Buf *b);	/* the speculations' and triggers' counters, once any is used */

/* trace.c */
Trace	*tracelookup(Dev *d, const char *name);	/* the trace of that name, or nil */
Trace	*tracerange(Dev *d, uint64_t pc);	/* the range trace that holds pc, or nil */
void	tracepublish(Dev *d, Trace *t);	/* a new generation: the trace, changed with gen 0, is whole again */

/* ring/merge.c */
void	mergestart(Merge *m, Dev *d, Reader *r, uint32_t log);	/* every ring with records, in the Reader's room */
int	mergenext(Merge *m, Rec *out);	/* the oldest record of every ring: 1, else 0 (*wait: one is being written) */
void	mergeend(Merge *m);	/* the read's claims given back, its count added */

/* agg/agg.c */
int	agghit(Dev *d, const Tsel *sel, Hit *h);	/* aggregate a hit that passed the predicate: Hrecord if the trace records, Hfollow if its exit is wanted */
void	aggtsel(Dev *d, int slot, Tsel *sel);	/* which aggregations fire at the trace's hits */
int	aggqbucket(uint64_t v);		/* quantize's bucket of a value */
int64_t	aggqlow(int b);			/* and its lower bound */

/* act/act.c */
uint32_t	actsel(Dev *d, int slot);	/* the trace's actions: bits for Tsel.act */
int	acthit(Dev *d, const Tsel *sel, Hit *h);	/* a hit that passed the predicate: 1 if they took its record */

/* act/spec.c */
Spec	*specof(Dev *d, const Writer *w, uint32_t tid);	/* the thread's speculation, or nil */
Spec	*specclaim(Dev *d, uint32_t tid);	/* its own, a free one, a dead owner's; nil: none free */
int	specrecord(Dev *d, const Hit *h);	/* 1: the record is held (or counted: no room); 0: write it */
uint32_t	specend(Spec *s);	/* free again: the records it held */

/* act/trig.c */
int	trigrecord(Dev *d);	/* 1: write the record; 0: a trigger keeps it back (counted) */

/* ring/ring.c: the shared ring, and the checks, resets and counts of every ring */
extern const char *const policynames[Npolicy];	/* Pring, Pfill, Pblock by name */
uint32_t	ringpolicy(Dev *d, uint32_t *waitms);	/* the policy and bound, repaired and counted if damaged */
void	ringrecord(Dev *d, const Hit *h, uint32_t log, uint32_t lim, uint32_t policy, uint32_t waitms);	/* a record of the shared ring by the policy */
uint32_t	ringcheck(Dev *d);	/* damage repaired and counted; the log to use */
void	ringreset(Dev *d, int log);
void	ringstats(Dev *d, uint32_t log, uint64_t *hits, uint64_t *queued, uint64_t *lost, uint64_t *dropped);
int	ringtake(Dev *d, Rec *out, uint64_t *head, uint64_t cap, uint32_t *wait);	/* the shared ring's next record */
int	ringpeek(Dev *d, uint64_t *ticks, uint64_t *head, uint64_t cap, uint32_t *wait);	/* its ticks, not taken */

/* ring/wring.c: the writers' rings */
void	wringrecord(Dev *d, Writer *w, const Hit *h, uint32_t log, uint32_t policy, uint32_t waitms);
void	wringcheck(Dev *d);	/* the control side's repair of each ring's tail */
void	wringreset(Dev *d, uint32_t log);	/* size: what each ring holds is lost, then log is the size */
int	wringclaim(Dev *d, uint32_t i, uint32_t who);	/* ring i's reader claim for who (a tid, or Claimlock): 1, or 0 if another holds it */
void	wringunclaim(Dev *d, uint32_t i);
void	wringstats(Dev *d, uint32_t log, uint64_t *hits, uint64_t *read, uint64_t *queued, uint64_t *lost, uint64_t *dropped);
void	wringunstall(Dev *d);	/* a new policy: every ring is waited for again */
size_t	wringbulk(Dev *d, uint32_t log, uint32_t i, Rec *out, size_t n);	/* a capture: ring i's records, unmerged, in bulk */
void	wringstate(Dev *d, uint32_t log, struct Buf *b);	/* a # line per ring ever used */

/* ring/blockwait.c */
int	blockwait(Blockwait *b, uint64_t *stalled, uint64_t tail, uint32_t waitms);	/* 1: slept, look again; 0: the reader is stalled at tail, give up */

/* ring/writer.c */
void	writerclaim(Dev *d, Writer *w, uint32_t pid, uint32_t tid);	/* the first hit on d: the host's bound, a counter shard, a ring */
int	writerring(Dev *d, Writer *w, uint32_t pid, uint32_t tid);	/* a ring of its own, or none: the shared ring (1: all taken) */
void	writerbounds(Writer *w);	/* ringlim and room from the decision (warmlim) and the ring's warm */
void	writerwarmstep(Writer *w, uint64_t t);	/* the ring's pages up to tickets t and t + 1 faulted in (a wait), its bounds after it */
uint32_t	writeraggbuf(Dev *d, uint32_t tid);	/* an aggregation table: 1 + its index, or Naggbuf + 1, the shared one */

/* error.c */
void	errset(Dev *d, const char *cmd, const char *text);	/* Dev.err: "cmd: text", or text if cmd is nil */
int	errrefuse(Dev *d, const char *cmd, int e);	/* e's text in Dev.err after cmd; its errno */
int	errbound(Dev *d, const char *cmd, int e, uint64_t lo, uint64_t hi);	/* the same, then " (lo to hi)" */

/* map.c: the sizes devmapped was told for d, or for the block whose session d is; 0 for a d it was not */
uint32_t	maplogmax(const Dev *d);	/* log2 of the largest ring the block holds (a session's: devsesslog's) */
uint32_t	mapnring(const Dev *d);		/* the writers' rings each Dev has */
uint32_t	mapnsess(const Dev *d);		/* the sessions after the top level; 0 in a session's Dev */

#endif
