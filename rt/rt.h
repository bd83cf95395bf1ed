/*
 * rt.h: the user-space runtime of the hooks (lib/libdevtrace.so).
 *
 * obj.c finds the instrumented objects of the process and their sites,
 * ctl.c attaches to the device and keeps the sites' bytes in step with
 * the control state, hook.c is what runs when a site or a classic hook
 * fires, dl.c catches objects loaded later.  Nothing here is built with
 * hooks; the hook side takes no lock and makes no system call on its
 * usual path.
 */
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include "dev/devtrace.h"
#include "host/shm.h"
#include "site.h"

#define ald(p)		__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define rld(p)		__atomic_load_n((p), __ATOMIC_RELAXED)
#define ast(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define rst(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELAXED)
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
	Pollms = 500,		/* looking for a device, or noticing one gone */
	Clog = 13,		/* classic mode's slot cache, log2 entries */
};

typedef struct Site Site;
typedef struct Sym Sym;
typedef struct Seg Seg;
typedef struct Obj Obj;
typedef struct View View;
typedef struct Frame Frame;
typedef struct Thr Thr;
typedef struct Rt Rt;

struct Site {
	uint64_t pc;		/* the function's entry: its symbol's address */
	uint8_t *sled;		/* the site's bytes */
	const char *name;	/* or nil */
	uint32_t obj;
	uint8_t on;		/* as last patched */
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
	uint32_t first, nsite;	/* its sites */
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
 * thread has been seen outside the runtime since (ctl.c: grace).
 */
struct View {
	Dev *d;			/* nil: detached */
	uint32_t epoch;
	int active;		/* started and this process watched */
	uint32_t nsite;
	uint8_t has[Ntrace];
	Tsel sel[Ntrace];
	View *old;		/* retired, waiting for a grace period */
	int8_t slot[];		/* per site: the trace that selects it, or -1 */
};

/* a redirected return */
struct Frame {
	uintptr_t *slot;	/* where the return address was */
	uintptr_t real;		/* what it was */
	uint32_t site;
	uint32_t depth;
};

struct Thr {
	uint32_t seq;		/* odd while the thread is in the runtime */
	uint32_t state;		/* Tfree, Tlive */
	uint32_t tid;
	uint32_t depth;		/* classic mode's call depth */
	uintptr_t busysp;	/* stack pointer when seq went odd */
	Frame *stk;		/* shadow stack */
	uint32_t n, max;
	Writer w;		/* what the device keeps of this thread */
	Thr *next;		/* every Thr ever made */
};

enum { Tfree, Tlive };

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

/* obj.c */
int	objscan(void) HIDDEN;	/* find new objects: how many have hooks */
Obj	*objof(uintptr_t pc) HIDDEN;
const Sym *symof(Obj *o, uintptr_t pc) HIDDEN;
void	objsyms(Obj *o) HIDDEN;
int	patch(uint32_t *idx, uint8_t *val, int n) HIDDEN;
void	syncall(void) HIDDEN;

/* ctl.c */
void	apply(void) HIDDEN;
void	ctlstart(void) HIDDEN;
void	rtgrow(uint32_t first) HIDDEN;
void	rtdebug(const char *fmt, ...) HIDDEN __attribute__((format(printf, 1, 2)));

/* hook.c */
void	thrinit(void) HIDDEN;
void	thrforked(void) HIDDEN;
int	grace(void) HIDDEN;
void	devtrace_hook(uint32_t site, uintptr_t *slot, uint64_t *regs) HIDDEN;
uintptr_t	devtrace_unhook(uintptr_t *slot, uint64_t *regs) HIDDEN;
int	rtinside(void) HIDDEN;		/* this thread is marked inside the runtime */
uintptr_t	rtbusysp(void) HIDDEN;	/* where it went in */
void	rtleft(void) HIDDEN;		/* it left for good: a jump out of a handler */

/* jmp.c */
void	jmpinit(void) HIDDEN;

/* dl.c */
void	dlinit(void) HIDDEN;
extern void *(*realdlopen)(const char *, int) HIDDEN;
