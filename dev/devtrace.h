/*
 * devtrace.h: the trace device, as its hosts see it.
 *
 * The device is freestanding C: no libc, no system calls.  Everything it
 * keeps lives in one pointer-free block of memory (a Dev) that the host
 * allocates, zeroed, with devsize() bytes: the user-space host maps it
 * shared into every traced process, a kernel host will vmalloc it.  The
 * host supplies time, ids and liveness through the functions of host.h,
 * and serialises the control side (devctl, devstate, devread, devreader)
 * with a lock of its own; the hook side (devhit, devrecord) takes no lock.
 */
#ifndef DEVTRACE_H
#define DEVTRACE_H

#include <stddef.h>
#include <stdint.h>


enum {
	Logmin = 4,	/* ring sizes, log2 records */
	Logdef = 16,	/* 65536 records a ring (4 MiB): a capture that naps 1 ms between reads keeps up with a writer */
	Logmax = 20,
	Ntrace = 64,	/* traces a device holds */
	Namelen = 16,	/* trace names, with the NUL */
	Globlen = 64,	/* name patterns, with the NUL */
	Nwatch = 32,	/* watched pids */
	Nreader = 16,	/* processes with trace open */
	Nshard = 256,	/* writer threads with counters of their own */
	Nringdef = 16,	/* writers' rings of a test's or benchmark's device (devtraced sizes its own: -M); threads past them share one ring */
	Nringmax = 4096,	/* a kernel host's 4 per CPU */
	Nsess = 8,	/* sessions a block can hold besides the top level (devmapped's nsess, at most) */
	Logsess = 16,	/* a session's rings: at most 1<<Logsess records each, and no more than the top level's */
	Linemax = 1024,	/* one control line, without the newline */
	Predmax = 512,	/* predicate source text, with the NUL */
	Reclen = 121,	/* one record line, with the newline */
	Statemax = 80*1024,	/* the longest state text devstate can produce */
	Errmax = 1280,	/* the last error's text: room for a predicate and its caret */
};

/* errors: the values of Linux's errno, which both hosts use */
enum {
	Eperm = 1,
	Enoent = 2,
	Eio = 5,
	E2big = 7,
	Eacces = 13,
	Eexist = 17,
	Einval = 22,
	Enospc = 28,
	Erange = 34,
};

typedef struct Dev Dev;
typedef struct Hit Hit;
typedef struct Prog Prog;
typedef struct Tsel Tsel;
typedef struct Aggsel Aggsel;
typedef struct Reader Reader;
typedef struct Writer Writer;
typedef struct Ctlfile Ctlfile;
typedef struct Devsigs Devsigs;
typedef struct Devsyms Devsyms;
typedef struct Rec Rec;

/*
 * One writing thread as the device knows it, kept by the host per
 * thread (zeroed before its first hit; zeroed again in a fork's child):
 * the watch decision, made again only when the control state changes,
 * and the counter shard of the Dev that only this thread writes.
 */
struct Writer {
	Dev *d;			/* the device the rest belongs to; nil: nothing yet */
	uint32_t gen;		/* 1 + the control generation of the decision */
	uint32_t watched;	/* the watch list and the reader rule let it write */
	uint32_t shard;		/* 1 + its index in the Dev's shards; 0: none, count atomically */
	uint32_t lim;		/* maplogmax(d): the largest ring the mapping holds, never re-read from d */
	uint32_t ringlim;	/* lim under the ring policy, 0 under the others: devrecord's fast path is ring's alone */
	Dev *aggd;		/* the device aggbuf belongs to (dev/agg/agg.c) */
	uint32_t aggbuf;	/* 1 + its aggregation table's index; 0: none yet; Naggbuf+1: the shared one */
	uint32_t ring;		/* 1 + the index of its own ring; 0: none, it writes the shared ring */
	struct Wring *wr;	/* its ring's header and slots, placed by the host's sizes */
	struct Slot *ws;
	uint32_t spec;		/* 1 + the index of its speculation (dev/act/spec.c); 0: none */
	uint32_t fast;		/* gen if then: watched, its own ring, no speculation or trigger, the log in bound (hitfast.h: writerfast); else 0 */
	uint64_t mask;		/* then: its ring's slots - 1 */
	uint64_t room;		/* and the head below which its ring has room, as its tail last said (ring: all) */
	uint64_t waited;	/* ticks it waited (Kwait), all told: the host takes them out of its calls' durations */
	/*
	 * Its ring's pages, faulted in a step at a time as the head nears
	 * them (writer.c: devwriterwarm): records from ticket warm on go by
	 * wringrecord, which faults the next step in first, a wait it marks.
	 * warm 0: all of them are in, or the host never asked (its memory is
	 * resident: the kernel, the tests' hosts).
	 */
	uint64_t warm;		/* the first ticket whose slot may not be in; 0: none */
	uint64_t warmend;	/* the ticket from which the whole ring is in */
	struct Wring *warmwr;	/* the ring and size the warm is of: another is warmed anew */
	uint64_t warmmask;
	uint32_t warmstep;	/* slots faulted in a step */
	uint32_t warmlim;	/* ringlim as decided: ringlim is 0 while the ring warms */
};

/*
 * A compiled predicate (dev/pred/pred.h): plain data, no pointers, fixed
 * size, so it can sit in the shared device and be copied into a Tsel.
 * Its encoding is private to the device.
 */
enum {
	Progmax = 128,	/* instructions */
	Strmax = 64,	/* bytes of string constants */
};

struct Prog {
	uint32_t ninst;
	uint32_t nstr;
	uint64_t inst[Progmax];
	char str[Strmax];
};

/* One hook firing: what the trampoline and the host know of it. */
struct Hit {
	uint64_t pc;		/* the function's entry address */
	uint64_t ticks;		/* cycle counter */
	uint64_t a[4];		/* E: arguments; X: a[0] = return value */
	uint32_t tid;		/* thread id: the record's pid field */
	uint32_t pid;		/* process id, for watch and predicates */
	uint32_t depth;		/* call depth as the shadow stack knows it */
	uint8_t exit;		/* Kentry (E), Kexit (X), Kprobe (P): the record's kind */
	Writer *w;		/* the thread's; nil: decide afresh and count atomically */
	uint64_t dur;		/* X: ticks since its entry, if the host knows them (predicate variable dur); else 0 */
};

/*
 * What the hook path needs of an aggregation whose keys and value are
 * lone variables, taken and checked by devtsel (dev/agg/agg.c), so that a
 * hit reads nothing else of the definition but its generation.
 */
enum { Naggsel = 16 };	/* agg.h's Nagg */
struct Aggsel {
	uint32_t gen;		/* the definition's generation when taken; 0: not simple, read the block */
	uint8_t func;		/* Fcount ... Fquantize (agg.h) */
	uint8_t nkey;		/* key words */
	uint8_t val;		/* the value's variable */
	uint8_t vext;		/* its ext (dev/pred/pred.h: predext), 0: the word */
	uint8_t key[4];		/* the keys' variables */
	uint8_t kext[4];	/* their exts */
};

/*
 * A host's private copy of one trace, made by devtsel() when the control
 * state changes; each site keeps the slot number devselect() gave it, so
 * the hook finds its trace without a search.  gen catches a trace that
 * was removed and another made in its slot; the predicate is copied and
 * validated so that no other process can change what the hook runs.
 */
struct Tsel {
	uint32_t slot;
	uint32_t gen;
	uint32_t haspred;	/* 1: pred is valid; 2: it was not, every hit is dropped */
	uint32_t exitknown;	/* pred reads nothing an exit changes but entry and arguments */
	uint32_t whole;		/* exitknown and not entry: pred decides whole calls at their entry (hit.c: devfilter, devexit) */
	Prog pred;		/* a validated private copy of the trace's predicate */
	uint32_t aggin, aggout;	/* aggregations fired at its entries, at its exits: bits of slots (dev/agg/agg.h) */
	uint32_t norec;		/* its hits write no records: aggregated alone */
	uint32_t plain;		/* devtsel's: no predicate, no aggregation, no action, records on: dev/hitfast.h's one test */
	uint32_t act;		/* its actions: bits of slots (dev/act/act.c) */
	uint32_t more;		/* aggin | aggout | norec | act: the hit has more to do than a record */
	Aggsel agg[Naggsel];	/* the simple ones among them, checked once here (dev/agg/agg.c) */
};

/* a writer's ring that one read merges (dev/ring/merge.c): the device's own, kept in the Reader */
typedef struct Mergesrc Mergesrc;
struct Mergesrc {
	uint64_t t;		/* its next record's number */
	uint64_t head;		/* the ring's head as the read began: it reads no further */
	uint32_t ring;
};

/* a place in the merge's heap: a Mergesrc's next record's time, then the Mergesrc (in ring order) */
typedef struct Mergekey Mergekey;
struct Mergekey {
	uint64_t ticks;
	uint32_t src;
};

/*
 * One open reader of the trace file: a record split across reads, and
 * room for a read's merge of every ring (40 bytes a ring: 160 KiB, so
 * a host keeps a Reader in the open file's memory, not on a kernel
 * stack).
 */
struct Reader {
	char part[Reclen];
	uint32_t off, len;
	uint32_t wait;		/* devread set it: the next record is being written; ask again soon */
	Mergesrc src[Nringmax];	/* the rings with records as the read began */
	Mergekey heap[Nringmax];	/* those not done, by their next record's time */
};

/*
 * One record in the device's binary form, as devreadraw returns it and
 * devtrace record saves it (56 bytes, no padding): the fields of the
 * 121-byte line, which devfmt makes of it.  exit: its kind (Kentry...).
 */
struct Rec {
	uint64_t pc;
	uint64_t ticks;
	uint32_t tid;
	uint32_t exit;
	uint64_t a[4];
};

/*
 * One open control file, kept by the host per open (zeroed at open):
 * the line a write left unfinished waits here for its newline, so a
 * line is run whole however the writes that carry it fall.  A fixed
 * buffer of the longest line: no allocation in the device.
 */
struct Ctlfile {
	char line[Linemax + 1];	/* the unfinished line, room for a NUL */
	uint32_t n;		/* its length */
	uint32_t skip;		/* drop what comes up to the next newline: the rest of a refused line */
	uint32_t pid;		/* its last writer: a line run at close runs as theirs */
	const Devsigs *sigs;	/* the host's signatures for the lines this write or close runs, or nil: set for the call, never kept */
	const Devsyms *syms;	/* the host's functions, or nil: every function can be traced; set for the call, never kept */
};

/*
 * The signatures a host hands in with a control write, as data: the
 * device calls nothing above it.  They name a predicate's arguments and
 * type arg0..arg3 and retval (predargs.c).  text holds n bytes of lines
 * "NAME RET name:class:word ..." (devtrace sigs, /dev/tracesigs), and
 * "NAME -" for a function whose object has no debug information;
 * gathered before the host takes the device's lock (DWARF or BTF may
 * take long), so no waiter gives up.  work: devsigswork() bytes of the
 * caller's, the device's scratch for the call.
 */
struct Devsigs {
	const char *text;
	size_t n;
	void *work;
};

/*
 * The functions a host can patch, as data (the kernel's: made at load
 * and again when a module comes or goes, handed in with each control
 * write in Ctlfile.syms; the block holds no pointer, so it is never
 * kept).  trace ... new checks its selection against them and refuses
 * in the same call, before the trace exists: a denied function (Eperm,
 * "selects NAME: why[i], never traced", the first by address), or none
 * that can be patched (Einval, " nosite").  A function another trace selects
 * already is that trace's, not the new one's (devselect).
 */
enum {
	Symok = 0,	/* Devsym.why: it can be traced */
	Symnosite = 1,	/* no site at its entry (notrace, inlined, not a function) */
	Symdenied = 2,	/* Symdenied + i: never traced, for the reason why[i] */
};
typedef struct Devsym Devsym;
struct Devsym {
	uint64_t addr;
	const char *name;
	const char *obj;	/* the host's: its object's name */
	uint32_t why;
};
struct Devsyms {
	const Devsym *sym;	/* sorted by address */
	uint32_t n;
	const char *const *why;	/* the denials' texts */
	uint32_t nwhy;
	const char *nosite;	/* the text after "trace: NAME " when none can be patched */
};

/*
 * The device's files, one table for both hosts (dev.c: devfiles): the
 * user-space server's names in its directory, the kernel's misc devices
 * under /dev (one namespace for every driver: hence the trace prefix).
 */
enum {
	Filectl,	/* the state; takes commands */
	Filetrace,	/* the records there are */
	Filepipe,	/* the records, waiting for more (the follow file) */
	Filesyms,	/* the symbol file */
	Fileaggs,	/* the aggregations, printa's form */
	Fileaggraw,	/* the aggregations, a line a key and bucket */
	Nfile,
};
typedef struct Devfile Devfile;
struct Devfile {
	const char *name;	/* in the user-space server's directory */
	const char *kname;	/* the kernel's, under /dev */
	uint32_t mode;		/* permissions */
	uint32_t write;		/* may be opened for writing */
};
extern const Devfile devfiles[Nfile];

/* set up */
size_t	devsize(int logmax, int nring);	/* nring writers' rings and the shared ring, 1<<logmax records each at most */
void	devinit(Dev *d, int logmax, int nring, uint64_t hz);
int	devok(const Dev *d, size_t n);		/* magic, version and size check for a mapped device */
void	devsizes(const Dev *d, uint32_t *logmax, uint32_t *nring, uint32_t *nsess);	/* as the block says: a host checks them against its mapping */

/*
 * The sizes a block was made with, as this process holds it (dev/map.c):
 * told once the host has made the block, or mapped it and checked its
 * sizes against the mapping's, before any other call on it; and that it
 * is gone before it is unmapped.  Every process may write the block, its
 * own sizes included: the device trusts these, never the block's.
 */
void	devmapped(Dev *d, uint32_t logmax, uint32_t nring, uint32_t nsess);
void	devunmapped(Dev *d);

/*
 * Sessions (dev/sess.c): session n (1..devmapped's nsess) is a Dev of its own,
 * with its rings, after the top level's; the top level is session 0.  A
 * host makes room for nsess of them: devblocksize bytes, then devsessinit
 * after devinit.  Control side, under the host's lock.
 */
size_t	devblocksize(int logmax, int nring, int nsess);	/* the top level and nsess sessions */
size_t	devsessoff(int logmax, int nring, uint32_t n);	/* where session n's Dev starts in the block (n >= 1) */
int	devsesslog(int logmax);			/* a session's logmax in a block of that logmax */
void	devsessinit(Dev *d, int nsess);		/* after devinit: the block holds nsess sessions */
int	devclone(Dev *d, uint32_t uid, uint32_t pid);	/* a new session of uid's, held by pid: its number, or -errno (reason in deverr) */
Dev	*devsess(Dev *d, uint32_t n);		/* session n's Dev while it lives (0: d itself); nil otherwise */
int	devsessopen(Dev *d, uint32_t n, uint32_t uid, int others);	/* one more open of its ctl: 0, or Enoent, Eacces (others: the device's mode lets any user in) */
int	devsessclose(Dev *d, uint32_t n);	/* an open of its ctl closed: the last one ends the session */
int	devsessremove(Dev *d, uint32_t n, uint32_t uid);	/* end it now: 0, or Enoent, Eacces */
uint32_t	devsessreap(Dev *d);		/* end the sessions whose holder is gone: how many */
int	devsessowner(Dev *d, uint32_t n, uint32_t *uid, uint32_t *serial);	/* a live session's owner, and its serial (which clone made it): 0, or Enoent */
void	devsesschanged(Dev *d);		/* a session's control state changed: the top level's generation moves, so hosts apply it */

/* control side: the host holds its lock */
int	devctl(Dev *d, const char *buf, size_t n, uint32_t pid);	/* whole lines, the last may lack its newline: 0 or an E error; reason in deverr() */
int	devctlsigs(Dev *d, const char *buf, size_t n, uint32_t pid, const Devsigs *s);	/* devctl with the host's signatures (nil: none known) */
size_t	devsigswork(void);	/* the bytes of a Devsigs' work */
int	devctlwrite(Dev *d, Ctlfile *f, const char *buf, size_t n, uint32_t pid);	/* one write of an open file: its finished lines run, the rest waits in f */
int	devctlclose(Dev *d, Ctlfile *f);	/* the file's last close: its unfinished line runs; f is zeroed */
int	devctlpending(const Ctlfile *f);	/* a line waits in f, or the rest of a refused one: its close has work */
const char *deverr(const Dev *d);
size_t	devstate(Dev *d, char *buf, size_t n);	/* state text, NUL-terminated; its length, always < n (and < Statemax) */
size_t	devread(Dev *d, Reader *r, char *buf, size_t n);	/* consumes records as text; 0 when none ready (r->wait: one is being written); never waits */
size_t	devreadraw(Dev *d, Reader *r, Rec *out, size_t n);	/* consumes up to n whole records, binary; as devread otherwise (tickets, losses, counters, r->wait) */
uint32_t	devringsqueued(Dev *d, uint32_t *ring, uint32_t n);	/* the writers' rings holding records now, up to n of them, in order: their number */
int	devringowner(Dev *d, uint32_t ring, uint32_t *tid, uint32_t *pid);	/* its owner's tid (0: free) and pid (free: the last owner's), read without the lock: 0, or -1 (out of range, or changed while read) */
size_t	devreadring(Dev *d, Reader *r, uint32_t ring, Rec *out, size_t n);	/* devreadraw of one source, unmerged: writer's ring < the host's nring, or the shared ring (== nring) */
size_t	devreadwring(Dev *d, uint32_t ring, uint32_t tid, Rec *out, size_t n, uint32_t *busy);	/* devreadring of writer's ring < nring without the host's lock, claimed by the caller's tid: 0 with *busy set if another reader holds it */
void	devfmt(char *line, const Rec *rec);	/* the Reclen bytes of its line, as devread gives it */
int	devreader(Dev *d, uint32_t pid, int open);	/* the reader rule: pid is not traced while open */

/*
 * The aggregations as text (dev/agg/aggfmt.c), made of the writers' tables
 * merged; reading consumes nothing.  form: Aprinta (DTrace's printa,
 * quantize bars) or Amachine (one line a key and bucket, for awk).
 * work: devaggwork() bytes the host lends for the merge.  Two calls,
 * each under the host's lock; the device calls nothing of the host's:
 * devaggkeys lists the keys the text may name (Aggkey), sorted, each
 * once; the host fills in their texts, without the lock (symbols,
 * DWARF); devaggs prints with that table.  A key not in it (one that
 * appeared in between, or keys nil) prints as a number, a func key in
 * hex.  Typed words (an entry aggregation's lone argN, an exit one's
 * lone retval, of a glob trace) are listed in Aprinta only: the machine
 * form keeps numbers for awk.  Both return the whole count: keys
 * (devaggkeys, if > n only n were written, unsorted: call again with
 * that room) or the text's length (if >= n, only n-1 bytes were written,
 * NUL-terminated: call again with more room).
 */
enum {
	Aprinta, Amachine,
	Aggret = -1,	/* Aggkey.word: the return value */
	Aggfunc = -2,	/* Aggkey.word: a func key */
};
typedef struct Aggkey Aggkey;
struct Aggkey {
	uint64_t v;		/* a func key's pc, or the word's value */
	int32_t word;		/* Aggfunc; or the typed word: an argument's 0-3, Aggret */
	char glob[Globlen];	/* a typed word's trace pattern; "" for Aggfunc */
	const char *text;	/* the host's: the key as text (bytes not printable print as ?), or nil: a number */
};
size_t	devaggwork(void);
size_t	devaggkeys(Dev *d, void *work, Aggkey *keys, size_t n, int form);
size_t	devaggs(Dev *d, void *work, char *buf, size_t n, int form, const Aggkey *keys, size_t nkeys);

/*
 * The rules a host adds to the control language, set once after devinit
 * (the kernel's): Rulenoblock refuses policy block (a hook that may not
 * wait); Ruletext takes _text+HEX for the address textbase + HEX.
 */
enum {
	Rulenoblock = 1,
	Ruletext = 2,
};
void	devhostrules(Dev *d, uint32_t rules, uint64_t textbase);
/* a trace whose hooks the host failed to set at run time (a kprobe refused): turned off, "trace: NAME" why in deverr(); returns err */
int	devtraceoff(Dev *d, int slot, int err, const char *why);

/* what a host needs to patch sites */
uint32_t *devctlgen(Dev *d);	/* bumped on every state change; hosts may futex-wait on it */
int	devselect(Dev *d, uint64_t pc, uint64_t linkaddr, int inmain, const char *name);	/* slot or -1 */
int	devtsel(Dev *d, int slot, Tsel *sel);	/* 1 if the slot holds a trace; copies it */
int	devsiteon(Dev *d, const Tsel *sel);	/* started and the trace enabled */
int	devwatched(Dev *d, uint32_t pid, uint32_t tid);	/* watch list and reader rule */
int	devwatches(Dev *d, uint32_t *pids, int max);	/* the watch list; 0: every process */
int	devstarted(Dev *d);

/* hook side: no lock, no system call */
int	devfilter(Dev *d, const Tsel *sel, Hit *h);	/* an entry: Hrecord|Hfollow; drops counted */
int	devhit(Dev *d, const Tsel *sel, Hit *h);	/* filter, then devrecord: 1 if the record passed (a speculation or a trigger may still keep it back, counted) */
int	devwriterready(Dev *d, Writer *w, uint32_t pid, uint32_t tid);	/* the thread's decision (watched, its ring) made now if not at this control generation: 1 if made, so a host reads its clock after it */
int	devexit(Dev *d, const Tsel *sel, Hit *h);	/* the exit of a call devfilter followed: devhit, but a whole predicate is not asked again */
void	devwriterwarm(Writer *w, size_t step);	/* its ring's pages faulted in step bytes at a time, the first now (not on the hook path: at a decision) */
void	devwriterdone(Writer *w);		/* the thread exits: its shard and ring are free again (its records stay readable) */
int	devwriterbind(Dev *d, Writer *w, uint32_t ring);	/* a host's static writer (a CPU's context) owns ring: 0, or Einval */
void	devrecord(Dev *d, const Hit *h);	/* write one record, unfiltered */
void	devcount(Dev *d, int counter);		/* count an event the host saw */

/*
 * A hit's and a record's kind (Hit.exit, Rec.exit): a function's entry,
 * its exit, a static probe's hit (arch/probe.h).  A probe's hit is an
 * entry to predicates and aggregations: a0..a3 its values, no retval.
 * Kwait is no hit: the device's mark that the writer waited after its
 * last record, written just after it: ticks when the wait ended, a0 the
 * ticks waited, a1 what for (Wreader: the reader to make room, policy
 * block; Wpages: its ring's next pages faulted in), pc the waiting
 * record's.  A tool takes a thread's waits out of its calls' times.
 */
enum {
	Kentry = 0,
	Kexit = 1,
	Kprobe = 2,
	Kwait = 3,
	Nkind
};
enum { Wreader = 1, Wpages = 2 };	/* a Kwait's a1: what it waited for, either or both */

/* devfilter's answer for an entry */
enum {
	Hrecord = 1,	/* write its record */
	Hfollow = 2,	/* follow the call to its exit; else the exit is decided (and counted) already */
};

/* counters a host adds to (devcount) */
enum {
	Creentered,	/* hook fired while its thread was inside the device */
	Cdeep,		/* frames not followed: shadow stack full */
	Cpredfault,	/* predicate evaluations ended by a fault */
	Cbadprog,	/* predicates refused by a host's validator */
	Ccorrupt,	/* damage found in the shared block: a size, count, name or ticket no process could have written */
	Cringless,	/* threads that found every writers' ring taken at their first hit: the shared ring's writers */
	Cncount,
};

#endif
