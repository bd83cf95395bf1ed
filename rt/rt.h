/*
 * rt.h: the user-space runtime of the hooks (lib/libdevtrace.so): its
 * one state (Rt) and every file's entry points, in layers.  Each file
 * has one job and calls only files listed after it (tests/layers
 * checks): the start-up, the dlopen wrapper and the control thread
 * first; the hooks in their own stack beside them; the object table,
 * rt.c and arch/ (arch/arch.h) at the bottom.  Nothing here is built
 * with hooks; the hook side takes no lock and makes no system call on
 * its usual path.
 */
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include "dev/devtrace.h"
#include "host/shm.h"
#include "arch/arch.h"
#include "dev/atomic.h"

#define HIDDEN		__attribute__((visibility("hidden")))

enum {
	Chunklog = 12,		/* sites per chunk, log2 */
	Chunk = 1 << Chunklog,
	Maxchunk = 1024,	/* 4M sites */
	Maxobj = 1024,
	Maxseg = 16,
	Shadowdef = 1024,	/* shadow stack entries per thread */
	Shadowmin = 4,
	Shadowmax = 1 << 20,
	Ringwarm = 256 << 10,	/* of a ring faulted in a step (thr.c: thrwarm; dev/ring/writer.c): 4,096 records */
	Pollms = 500,		/* looking for a device, or noticing one gone */
	Clog = 13,		/* classic mode's slot cache, log2 entries */
};
#define Pcslow	(1ull << 63)	/* View.pc: the hit is not the fast path's; no user-space pc has the bit */

typedef struct Site Site;
typedef struct Probe Probe;
typedef struct Sym Sym;
typedef struct Seg Seg;
typedef struct Obj Obj;
typedef struct View View;
typedef struct Vsess Vsess;
typedef struct Frame Frame;
typedef struct Thr Thr;
typedef struct Rt Rt;

struct Site {
	uint64_t pc;		/* the function's entry: its symbol's address; a probe's: its sled */
	uint8_t *sled;		/* the site's bytes */
	const char *name;	/* or nil; a probe's: provider:name */
	uint32_t obj;
	uint8_t on;		/* as last patched */
	uint8_t nval;		/* a probe's values (the others are 0) */
};

/* a static probe of an object (arch/probe.h): its site, its name */
struct Probe {
	uint64_t sled;
	const char *name;
	uint8_t nval;		/* values it passes, 0 to 4 */
};

struct Sym {
	uint64_t pc;		/* run-time address */
	const char *name;
};

struct Seg {
	uintptr_t lo, hi;
	int prot;
};

struct Obj {
	char *path;		/* the file, for the symbol file */
	uintptr_t bias;		/* load bias: run-time minus link-time address */
	const void *phdr;	/* with bias, tells objects apart */
	int inmain;		/* the executable */
	int classic;		/* calls __cyg_profile_func_* */
	uint32_t first, nsite;	/* its sites: functions', then probes' */
	Sym *sym;		/* function symbols by address, for classic hooks */
	uint32_t nsym;
	Seg seg[Maxseg];
	int nseg;
	uint8_t *stubs;
	uint64_t symsdev;	/* device its symbols went to (inode + 1), 0: none */
};

/*
 * What the hooks read: made by the control side on every change and
 * published by one pointer, never changed after; freed only when every
 * thread has been seen outside the runtime since (grace.c).
 */
struct View {
	Dev *d;			/* nil: detached */
	uint32_t epoch;
	int active;		/* started and this process watched */
	uint32_t sessactive;	/* bit n-1: session n is so (classic.c follows it) */
	uint32_t nsite;
	uint8_t has[Ntrace];
	Tsel sel[Ntrace];
	Dev *fd;		/* the fast path's level (apply.c: fastlevel): the top level's Dev, else one session's; nil: none */
	uint32_t fsess;		/* its Frame.sess: bit 0 the top level, bit n session n */
	uint32_t fwoff;		/* where in a Thr its Writer is: w, or session n's ws[n-1] */
	uint32_t gen;		/* 1 + fd's control generation, read before anything else of it */
	uint64_t *pc;		/* per site: its pc, Pcslow set unless its hit is a plain record of that level alone at gen (hitfast.h: writerfast) */
	Vsess *sess[Nsess];	/* session n's part at n-1; nil where it does not live */
	View *old;		/* retired, waiting for a grace period */
	int8_t slot[];		/* per site: the trace that selects it, or -1; then the sites' session masks (sitemask) */
};

/*
 * A session's part of a View (dev/sess.c: a Dev of its own, after the
 * top level's), in the View's allocation.  A site some session wants
 * on has a bit in its mask: the hook goes the sessions' way only there.
 */
struct Vsess {
	Dev *d;
	uint8_t has[Ntrace];
	Tsel sel[Ntrace];
	int8_t *slot;		/* per site: the session's trace that selects it, or -1 */
};

_Static_assert(Nsess <= 8, "a site's session mask is a byte");

/* bit n-1: session n wants site i on (started, watched, its trace on) */
static inline uint8_t *
sitemask(View *v)
{
	return (uint8_t *)v->slot + v->nsite;
}

struct Rt {
	pthread_mutex_t lock;	/* the control side: objects, patching, views */
	int ready;		/* constructor done: hooks may run */
	int active;		/* the process has instrumented objects */
	int debug;
	uint32_t pid;
	uint32_t shadow;	/* entries per shadow stack */
	View *view;
	View *retired;		/* views no thread may still read, once a grace period passes */
	uint32_t epoch;
	Site *chunk[Maxchunk];
	uint32_t nsite;
	Obj *obj[Maxobj];
	uint32_t nobj;
	Thr *thrs;

	/* the device */
	char dir[PATH_MAX];
	Shm *shm;
	Dev *dev;
	uint64_t ino;
	uint32_t gen;		/* control generation the sites reflect */
	int dirty;		/* re-apply even if the generation is the same */
	uint32_t gens[Ntrace];	/* trace generations the site slots were chosen for */

	int membar;		/* membarrier sync-core registered */
	uintptr_t pagesz;
	uintptr_t text, etext;	/* the runtime's own code (init.c: textin), read again after a ring's warm (thr.c) */
	int ctlup;		/* control thread running */
	pthread_t ctl;
	uint64_t classic[1 << Clog];	/* pc<<16 | epoch<<7 | slot+1 */
};

extern Rt rt HIDDEN;

static inline Site *
siteat(uint32_t i)
{
	return &rt.chunk[i >> Chunklog][i & (Chunk - 1)];
}

static inline uintptr_t
pgdown(uintptr_t a)
{
	return a & ~(rt.pagesz - 1);
}

static inline uintptr_t
pgup(uintptr_t a)
{
	return (a + rt.pagesz - 1) & ~(rt.pagesz - 1);
}

/*
 * Entry points by file, callers first.  The hook side: hook.c (sites),
 * classic.c (__cyg_profile_func_*), jmp.c (the longjmp family) over
 * shadow.h/shadow.c (return redirection) over thr.h/thr.c (per-thread
 * state, and hitfill: a Hit from a thread).  The control side: init.c
 * (constructor, fork), dl.c (dlopen) over ctl.c (the control thread)
 * over apply.c, syms.c and scan.c.
 */

/* dl.c: objects loaded later */
void	dlinit(void) HIDDEN;

/* jmp.c: a jump out of a signal handler that interrupted a hook */
void	jmpinit(void) HIDDEN;

/* ctl.c: attaching to the device and following its control state */
void	ctlfirst(void) HIDDEN;		/* at start-up: attach and apply, if a device is served */
void	ctlgrow(uint32_t first) HIDDEN;	/* objects from first on are new, some with hooks */
void	ctlstart(void) HIDDEN;		/* the control thread, if not running */

/* apply.c: a View from the device's state, and the sites to match */
void	apply(void) HIDDEN;

/* syms.c: the symbol file */
void	objsyms(Obj *o) HIDDEN;

/* scan.c: finding new objects */
int	objscan(void) HIDDEN;	/* how many new ones have hooks; the lock is held */

/* elf.c: an object's file (read by elftab.c, rt/elftab.h) */
struct dl_phdr_info;
int	elfinit(void) HIDDEN;
int	elfread(Obj *o, const char *file, struct dl_phdr_info *info, uint64_t **ent, size_t *nent, Probe **probe, size_t *nprobe) HIDDEN;

/* sites.c: making an object's sites */
void	sitesmake(Obj *o, uint64_t *ent, size_t n, const Probe *probe, size_t np) HIDDEN;

/* grace.c: retiring Views */
void	retire(View *old) HIDDEN;

/* patch.c: storing to code */
int	patch(uint32_t *idx, uint8_t *val, int n) HIDDEN;
int	codeopen(uintptr_t lo, uintptr_t hi, int prot) HIDDEN;	/* pages [lo, hi) writable: 0, or -1 */
void	codeclose(uintptr_t lo, uintptr_t hi, int prot) HIDDEN;	/* write-protected again (prot) */
void	codestore(uint8_t *p, const uint8_t *v, size_t n) HIDDEN;	/* n bytes at p, in an open page */

/* sync.c: making every thread see a change */
void	syncinit(void) HIDDEN;
void	syncall(void) HIDDEN;

/* obj.c: the object table */
Obj	*objof(uintptr_t pc) HIDDEN;
const Sym *symof(Obj *o, uintptr_t pc) HIDDEN;
Seg	*segof(Obj *o, uintptr_t a, size_t n) HIDDEN;

/* rt.c */
void	rtdebug(const char *fmt, ...) HIDDEN __attribute__((format(printf, 1, 2)));
