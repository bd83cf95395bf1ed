/*
 * dat.h: the device's memory, shared by every process that writes to it
 * (as Plan 9's portdat.h: the layout; the functions are fns.h's, the
 * record's seqlock slot.h's).  No pointers: each process maps it at its
 * own address.  Fields the hook side reads while the control side
 * writes them are read and written with atomic.h's loads and stores;
 * everything else belongs to the control side.
 */
#ifndef DEVTRACE_DAT_H
#define DEVTRACE_DAT_H

#include "dev/atomic.h"
#include "dev/pred/pred.h"
#include "dev/agg/agg.h"

typedef struct Slot Slot;
typedef struct Shard Shard;
typedef struct Wring Wring;
typedef struct Merge Merge;
typedef struct Trace Trace;
typedef struct Sess Sess;
typedef struct Act Act;
typedef struct Spec Spec;

enum {
	Magic = 0x65636172747665ull & 0xffffffff,	/* "devtrace" */
	Version = 14,	/* 14: a ring's reader claim (Wring.claim); 13: a ring's owner's process (Wring.pid); 12: #ringless (Cringless); 11: a trace's creation order (Trace.born); 10: a watched process's tree (Watchtree); 9: triggers and speculations (Act, Spec); 4: the buffer policy (policy, waitms, stalled, dropped); 5: aggregations; 6: writers' rings (nring, Wring); 7: the host's rules (rules, textbase); 8: sessions (nsess, Sess) */
	Tidbound = 0x80000000u,	/* Wring.tid of a host's static writer (devwriterbind): no thread has it */
	Claimlock = 0xffffffffu,	/* Wring.claim of the host's lock's holder: no thread has it */
	Watchtree = 0x80000000u,	/* in Dev.watch: the pid and every process descended from it (`watch PID tree`); no pid has the bit */
	Range = 1,	/* Trace.kind: an address range */
	Glob,		/*	a pattern over symbol names */
};

/*
 * One record: a sequence word and the Rec it guards (slot.h writes and
 * loads them).  seq says which ticket owns the slot: 2t+1 while the
 * writer of ticket t fills it, 2t+2 once it is complete.
 */
struct Slot {
	uint64_t seq;
	Rec rec;
} __attribute__((aligned(64)));	/* one cache line: a record touches one line */

/*
 * One writer thread's counts, on a cache line of its own: only its
 * owner writes them (no atomic read-modify-write on a line every
 * thread shares), devstate sums them.  A shard given back or taken
 * from a dead owner keeps its counts: they are never lost, only added to.
 */
struct Shard {
	uint32_t tid;		/* owner; 0: free */
	uint32_t pad0;
	uint64_t filtered;
	uint64_t dropped;	/* records not written: the buffer was full (fill, block) */
	uint64_t pad[5];
} __attribute__((aligned(64)));

/*
 * One writer's ring (wring.c), SPSC: its owner alone writes the first
 * line, the reader holding its claim (wringclaim) the second.  Its
 * records are the 1<<log slots that follow the rings' headers.
 */
struct Wring {
	uint64_t head;		/* records written; the next one's number */
	uint64_t dropped;	/* fill, block: records the full ring refused */
	uint64_t stalled;	/* block: 1 + the tail at which the owner gave up waiting; 0: none */
	uint32_t tid;		/* owner; 0: free; Tidbound: a host's static writer */
	uint32_t used;		/* ever claimed: the state lists it */
	uint32_t pid;		/* owner's process, set before its first record; kept when freed: the last owner's, for what it left; 0: a host's static writer */
	uint32_t pad0[7];
	uint64_t tail __attribute__((aligned(64)));	/* the next record to read */
	uint64_t nread;		/* records returned */
	uint64_t nlost;		/* records overwritten, as the reader found them */
	uint32_t claim;		/* its reader now (wring.c: wringclaim): the line's other words are the holder's; 0: none */
	uint32_t pad2;
	uint64_t pad1[4];
} __attribute__((aligned(64)));

struct Trace {
	uint32_t gen;		/* 0: slot free; odd while being changed */
	uint32_t kind;
	uint32_t on;
	uint32_t haspred;
	uint32_t born;		/* its gen when made: the oldest trace selects (devselect), whatever gen changes moved it since */
	uint32_t pad;
	uint64_t start, end;	/* Range: [start, end) */
	char name[Namelen];
	char glob[Globlen];
	char predsrc[Predmax];
	Prog pred;
};

/*
 * One entry of the top level's table of sessions (sess.c): session
 * i+1's Dev is placed by the host's sizes (devsessoff), never by this.
 */
struct Sess {
	uint32_t live;		/* 0: free; 1: its owner's */
	uint32_t uid;		/* owner: its files are theirs */
	uint32_t pid;		/* the process that cloned it: the session is reaped when it is gone */
	uint32_t nopen;		/* opens of its ctl, clone's included: the last close ends it */
	uint32_t used;		/* was live once: its Dev is made fresh before it is used again */
	uint32_t serial;	/* the count of clones made when this one was: tells a file of an earlier session on this place */
	uint32_t pad[2];
};

/*
 * A trace's action (act.c, actctl.c): a trigger or a speculation's
 * step, fired by the trace's hits that pass its predicate and the
 * action's own.  One of each class (trigger, speculate, commit,
 * discard) a trace; written again, it is replaced (a trigger re-armed).
 */
enum {
	Specnone = 0xffffffffu,	/* Writer.spec: speculating with no Spec free: its records are counted, not held */
	Nact = 16,	/* actions a device holds: bits of Tsel.act */
	Nspec = 16,	/* threads speculating at once */
	Specrec = 256,	/* records one speculation holds */
	Aftermax = 1000000000,	/* trigger stop after N: N at most */
	/* Act.kind */
	Atrigstop = 0, Atrigstart, Aspec, Acommit, Adiscard, Nactkind,
	/* Dev.actcount */
	Kheld = 0,	/* records held by speculations */
	Kcommitted,	/* held records a commit wrote */
	Kdiscarded,	/* held records a discard (or a new speculate, or a dead owner) dropped */
	Knoroom,	/* records a speculation had no room for */
	Kwaiting,	/* records not written: a start trigger not fired yet, a stop trigger's after spent */
	Nactcount,
};

struct Act {
	uint32_t gen;		/* 0: free; else the trace's generation when made (any nonzero) */
	uint32_t tslot;		/* the trace it belongs to */
	uint32_t kind;		/* Atrigstop ... Adiscard */
	uint32_t haspred;
	uint64_t after;		/* Atrigstop: records kept after the trigger's own */
	uint32_t fired;		/* triggers: fired once, until re-armed */
	uint32_t tid;		/* when fired: the hit's thread, pc and ticks */
	uint64_t pc, ticks;
	char predsrc[Predmax];
	Prog pred;		/* run checked (predrun): the block is untrusted */
};

/* one thread's speculation: its owner alone writes it */
struct Spec {
	uint32_t tid;		/* owner; 0: free */
	uint32_t n;		/* records held */
	uint32_t flushing;	/* a commit writes them: its records are the thread's again */
	uint32_t pad0;
	uint64_t pad[6];
	Rec rec[Specrec];
} __attribute__((aligned(64)));

/* the top level's counts of sessions, Sess.count */
enum {
	Smade,		/* clones that made one */
	Sended,		/* ended by their last close or remove */
	Sreaped,	/* ended because their holder was gone */
	Srefused,	/* clones refused: all were live */
	Nsesscount,
};

struct Dev {
	uint32_t magic;
	uint32_t version;
	uint64_t size;		/* bytes, as devsize() said */
	uint64_t hz;		/* cycle counter frequency */
	uint32_t ctlgen;	/* bumped on every change */
	uint32_t started;
	uint32_t logmax;
	uint32_t log;		/* each ring holds 1<<log records */
	uint32_t nring;		/* writers' rings after the shared ring (Wring); devmapped's (map.c) is the one trusted */
	uint32_t unused0;	/* was the merge's first ring, when a read merged 16 at most */
	uint32_t policy;	/* Pring, Pfill, Pblock: what a writer does when the ring is full */
	uint32_t waitms;	/* Pblock: how long a writer waits for a reader that reads nothing */
	uint32_t nwatch;
	uint32_t watch[Nwatch];	/* a pid, or'd with Watchtree */
	uint32_t nreader;
	uint32_t reader[Nreader];
	uint32_t gennext;
	uint32_t rules;		/* the host's: Rnoblock, Rtext (devhostrules) */
	uint64_t textbase;	/* Rtext: what _text+HEX adds HEX to */
	Trace trace[Ntrace];

	/*
	 * The shared ring: head is the next ticket, the writers' line; the rest is
	 * the reader's, on lines of their own: a writer's atomic on head
	 * must not find the line taken away by every record the reader reads.
	 */
	uint64_t head __attribute__((aligned(64)));
	uint64_t tail __attribute__((aligned(64)));	/* next ticket to read */
	uint64_t nread;		/* records returned */
	uint64_t nlost;		/* records overwritten, abandoned or discarded, as the reader found them */
	uint64_t stuck;		/* when the reader first waited on tail, host nsec; 0 if not waiting */
	uint64_t stuckhead;	/* head then: every ticket below it has waited as long */
	uint64_t filtered __attribute__((aligned(64)));	/* hits dropped by writers with no shard (the rest: shard[].filtered) */
	uint64_t dropped;	/* likewise, records a full buffer refused (fill, block) */
	uint64_t stalled;	/* Pblock: 1 + the tail at which a writer gave up waiting; 0: none */
	uint64_t count[Cncount];
	Shard shard[Nshard];
	uint64_t query;		/* the last query's address and answer */
	char queryname[Namelen];
	uint32_t hasquery;
	char err[Errmax];

	Aggs aggs;		/* aggregations: definitions and the writers' tables (agg.h) */

	uint32_t nsess;		/* sessions after the top level (devsessinit); devmapped's (map.c) is the one trusted */
	uint32_t pad1;
	uint64_t sesscount[Nsesscount];
	Sess sess[Nsess];	/* the top level's table; 0 in a session's Dev */

	/* triggers and speculations (act.c, spec.c) */
	uint32_t trigwait;	/* a start trigger is armed: records wait for it */
	uint32_t trigcount;	/* a stop trigger fired: trigleft records more are kept, then none */
	uint64_t trigleft;
	uint64_t actcount[Nactcount];
	Act act[Nact];
	Spec spec[Nspec];

	Slot slot[];		/* the shared ring: 1<<logmax of them; then Wring[nring], then each ring's 1<<logmax slots */
};

/* the writers' rings and their slots, placed by the sizes this process holds it with (map.c: maplogmax, mapnring) */
static inline Wring *
wrings(Dev *d, uint32_t logmax)
{
	return (Wring *)(d->slot + (1ull << logmax));
}

static inline Slot *
wslots(Dev *d, uint32_t logmax, uint32_t nring, uint32_t i)
{
	return (Slot *)(wrings(d, logmax) + nring) + ((uint64_t)i << logmax);
}

/*
 * One read's merge of the rings (merge.c), on the reader's stack: the
 * shared ring, and every writer's ring that had records when the read
 * began, in a heap by its next record's time (the Reader's room).
 */
struct Merge {
	Dev *d;
	uint64_t cap;		/* records per ring */
	uint32_t logmax, nring;	/* where the rings' slots are (wslots) */
	uint64_t ohead;		/* the shared ring's head, as ringtake keeps it */
	uint64_t oticks;	/* its next record's time, when oin is 2 */
	uint32_t oin;		/* the shared ring: 0 done, 1 to look at, 2 looked at */
	uint32_t n;		/* writers' rings in h */
	uint32_t nsrc;		/* writers' rings claimed as the read began: src[0..nsrc) */
	uint64_t nread;		/* records taken: added to Dev.nread at mergeend */
	uint32_t *wait;
	Mergesrc *src;		/* the Reader's */
	Mergekey *h;		/* a heap: h[0] the oldest next record's */
};

/* Dev.policy */
enum {
	Pring,		/* full: the oldest record is overwritten (counted lost) */
	Pfill,		/* full: the new record is dropped (counted dropped) */
	Pblock,		/* full: the writer waits for the reader, waitms at most without progress */
	Npolicy,
	Waitdef = 100,	/* ms */
	Waitmax = 60000,
};

/* policy block's wait for the reader, one per blocked write (blockwait.c) */
enum {
	Napmin = 20*1000,	/* a blocked writer's first sleep, ns; doubled up to */
	Napmax = 1000*1000,	/* this: a reader woken from a stop is seen within a ms */
};
typedef struct Blockwait Blockwait;
struct Blockwait {
	uint64_t seen;		/* the reader's tail when the bound started */
	uint64_t since;		/* then, host nsec; 0: not waited yet */
	uint64_t nap;		/* the next sleep */
};

/* damage found in the block: counted for the state's #corrupt */
static inline void
corrupt(Dev *d)
{
	aadd(&d->count[Ccorrupt], 1);
}

/* a new control generation: release, so a writer that sees it sees the change (hit.c: watched) */
static inline void
ctlchanged(Dev *d)
{
	__atomic_fetch_add(&d->ctlgen, 1, __ATOMIC_RELEASE);
}

#endif
