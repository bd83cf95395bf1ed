/*
 * agg.h: aggregations, DTrace's @name[keys] = f(value), kept in the
 * device.  A definition (Agg) belongs to one trace and fires at its
 * entries or at its exits; each writer thread adds its hits to a table
 * of its own (Abuf, claimed as the Shards are), nothing per hit is
 * stored, and a reader merges the tables by key (aggfmt.c).  Every
 * aggregating function here has f(f(x0) u f(x1)) = f(x0 u x1), which
 * is what makes the per-writer tables combine exactly.
 *
 * A table entry is one cache line: its tag names the aggregation (its
 * slot and generation) and, for quantize and lquantize, the bucket; so
 * a distribution is a few entries, one per bucket that was hit.
 * Clearing an aggregation gives it a new generation: entries of the
 * old one are ignored by readers and taken again by writers.
 */
#ifndef DEVTRACE_AGG_H
#define DEVTRACE_AGG_H

#include "dev/devtrace.h"

typedef struct Aent Aent;
typedef struct Abuf Abuf;
typedef struct Aexpr Aexpr;
typedef struct Agg Agg;
typedef struct Aggs Aggs;

enum {
	Nagg = Naggsel,		/* aggregations a device holds: bits of a Tsel's masks */
	Nkey = 4,		/* keys of one aggregation */
	Nkeyw = 4,		/* their words: execname takes two */
	Naggbuf = 16,		/* writer threads with a table of their own */
	Aslots = 4096,		/* entries of one writer's table: a power of two */
	Probemax = 64,		/* slots a key looks at from its hash: none free there, the table is full for it */
	Lqmax = 4096,		/* lquantize's buckets between low and high */
	Qbuckets = 128,		/* quantize: negative powers of two, 0, positive powers */
	Aggsrcmax = 960,	/* a definition as the state prints it, with its NUL: its line stays within Linemax */

	/* Agg.func */
	Fcount = 0, Fsum, Fmin, Fmax, Favg, Fquantize, Flquantize, Nfunc,
	/* Aexpr.kind */
	Enone = 0, Evar, Eexec, Eprog, Nekind,
	/* Aexpr.show: how a key prints */
	Sdec = 0, Sfunc, Sstr,
	/* Aggs.recmode[]: does the trace write records */
	Rauto = 0,	/* yes unless it has an aggregation */
	Ron,		/* yes, aggregated or not */
	Roff,		/* no */

	Abusy = 1 << 24,	/* Aent.tag in the shared table: being claimed */
};

/* one (aggregation, keys, bucket) of one writer: its owner alone writes it (the shared table: with atomics) */
struct Aent {
	uint64_t tag;		/* 0: free; gen << 32 | bucket << 8 | slot */
	uint64_t key[Nkeyw];
	uint64_t n;		/* values added */
	uint64_t v;		/* their sum (sum, avg, the buckets), least (min) or greatest (max), signed */
	uint64_t pad;
} __attribute__((aligned(64)));

/* one writer's table, on lines of its own */
struct Abuf {
	uint32_t tid;		/* owner; 0: free; the shared table's stays 0 */
	uint32_t pad0;
	uint64_t hits;		/* hits aggregated */
	uint64_t pad[6];
	Aent ent[Aslots];
} __attribute__((aligned(64)));

/* a key or the value: a variable read straight from the hit, execname, or a predicate program */
struct Aexpr {
	uint32_t kind;		/* Evar, Eexec, Eprog */
	uint32_t var;		/* Evar: pred.h's variable number */
	uint32_t show;		/* keys: Sdec, Sfunc, Sstr */
	uint32_t ext;		/* Evar: its type's ext (dev/pred/pred.h: predext), 0: the word */
	Prog prog;		/* Eprog: stack code, run checked at every hit (predrun): the block is untrusted */
};

struct Agg {
	uint32_t gen;		/* 0: slot free, or being changed; else unique among the device's generations */
	uint32_t tslot;		/* the trace it belongs to */
	uint32_t exit;		/* fires at the trace's exits; 0: at its entries */
	uint32_t func;
	uint32_t nkey;
	uint32_t pad;
	int64_t low, high, step;	/* lquantize */
	uint64_t dropbase;	/* the device's drops of this slot when it was made or cleared */
	char name[Namelen];
	char src[Aggsrcmax];	/* "@name[keys] = f(args)", as the state prints it */
	Aexpr key[Nkey];
	Aexpr val;
};

struct Aggs {
	uint32_t gennext;
	uint8_t recmode[Ntrace];
	uint64_t drops;		/* hits whose key found no room (#aggdrops), atomically: the rare case */
	uint64_t sdrops[Nagg];	/* the same by slot: shown per aggregation */
	Agg agg[Nagg];
	Abuf buf[Naggbuf + 1];	/* the last is shared: writers with none of their own, with atomics */
};

#endif
