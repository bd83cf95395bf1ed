/*
 * k.h: the kernel host of the device (devtrace.ko).  One Dev, vmalloc'd
 * at load; the control side (tracectl, trace reads, hook changes) runs
 * under kctl, a mutex: it may sleep, the hooks never take it.  Its
 * files' entry points below, callers first (main.c calls them all):
 * no file calls one listed above it.
 */
#define DEVTRACE_KHOST 1
#include <linux/types.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include "dev/devtrace.h"
#include "kver.h"

enum { Nctx = 4 };	/* task, softirq, hardirq, NMI: a Writer and a ring each, per CPU */

extern Dev *kdev;
extern uint32_t klogmax, knring;	/* the ring size and count kdev was made with (devmapped) */
extern uint32_t ksess;		/* sessions the block has room for after the top level (devmapped) */
extern struct mutex kctl;

/*
 * A level: 0 the top level, 1..ksess session N (dev/sess.c).  A hook
 * writes in each level whose trace selects its site.
 */
enum { Nlev = 1 + Nsess };

/* files.c: the misc devices */
int	filesinit(void);
void	filesexit(void);

/* argnames.c: the signatures a control write hands the device (dev/devtrace.h: Devsigs), from the signature file */
Devsigs	*ksigs(const char *buf, size_t n, const Ctlfile *f);	/* for a write of buf to f, before kctl: NULL if it names no argument or BTF gave none; ksigsfree it */
void	ksigsfree(Devsigs *s);
void	argnamesexit(void);

/* sigs.c: the signature file from the kernel's BTF (files.c's tracesigs, argnames.c) */
char	*sigstext(size_t *n, int *err);	/* vfree it */

/* mods.c: modules loaded after devtrace.ko: their functions in tracesyms and in the traces, then out */
int	modsinit(void);
void	modsexit(void);

/* ctl.c: one write or close of a ctl file, checked and applied; sessions' clone and end (files.c calls it) */
Dev	*klevel(uint32_t sess, uint32_t serial);	/* the level's Dev, kctl held: NULL if that session (made by clone number serial) ended */
int	kctlwrite(uint32_t sess, uint32_t serial, Ctlfile *f, const char *buf, size_t n, uint32_t pid);
int	kctlclose(uint32_t sess, uint32_t serial, Ctlfile *f);
int	kctlapply(void);		/* the hooks after a module came or went (mods.c), kctl held */
int	kclone(uint32_t uid, uint32_t pid, uint32_t *serial);	/* a new session: its number, or -errno (reason in the top level's #error) */
int	ksessopen(uint32_t sess, uint32_t uid, int hold, uint32_t *serial);	/* an open of a session's file: 0 or errno; hold: its ctl, which keeps it */
void	ksessclose(uint32_t sess, uint32_t serial);	/* a ctl (or clone) closed: the last ends the session, its sites off */

/* hooks.c: the sites of the traces that are on, hooked one Way (exits=) */
int	hooksapply(char *why, size_t n, int *lev, int *bad);	/* make the sites what the levels say; 0 or errno, why set, *bad the trace at fault in level *lev */
void	hooksoff(void);			/* every hook off, every handler finished */
void	hookscount(void);		/* the exits missed into #deep */
int	hooksinit(void);
void	hooksexit(void);

/* krp.c, fprobe.c: the two ways to hook the sites' entries and exits */
typedef struct Tab Tab;
typedef struct Way Way;
struct Way {
	const char *name;
	int	(*set)(Tab *t, char *why, size_t n, int *bad);	/* hooks on exactly t's sites (t NULL: none), *bad the site at fault; NULL: not in this kernel */
	void	(*count)(void);		/* missed exits into #deep */
	void	(*fini)(void);
};
extern const Way krpway, fprobeway;

/* hit.c: what a hook does at an entry and at an exit; the table of sites it reads */
typedef struct Site Site;
typedef struct Rdata Rdata;
struct Site {
	unsigned long entry;
	u16 lev;		/* bit L: level L's trace slot[L] selects it, on */
	s8 slot[Nlev];
};
struct Tab {
	int n;
	Dev *dev[Nlev];		/* each level's Dev, NULL where no session lives */
	Tsel *sel[Nlev];	/* its traces (Ntrace), in the same allocation */
	Site site[];
};
/* what a followed call keeps until its return */
struct Rdata {
	unsigned long entry;
	u64 ticks;		/* the entry's hostticks: the exit's Hit.dur is its own minus these */
	u32 gen[Nlev];		/* each following level's trace's generation at the entry */
	s8 slot[Nlev];
	u16 lev;		/* the levels that follow the call */
};
struct pt_regs;
extern Tab __rcu *ktab;		/* swapped by hooks.c under kctl and RCU */
int	hitctx(void);		/* 0 task, 1 softirq, 2 hardirq, 3 NMI */
int	hitentry(unsigned long ip, struct pt_regs *regs, Rdata *rd);	/* 1: followed, rd filled */
void	hitexit(const Rdata *rd, unsigned long retval);
unsigned long	*tabips(Tab *t);	/* its sites' entries, for a registration (kvfree them) */
int	hitbind(void);		/* every level's Writers, sessions' included, on their rings, for good */
Dev	*levdev(uint32_t lev);	/* where level lev's Dev lies in the block, live or not */

/* syms.c: the kernel's functions, from /proc/kallsyms, sorted by address, each found traceable or not once */
typedef Devsym Ksym;	/* why: Symok, Symnosite, or Symdenied + a deny reason (symsload, modin) */
extern Ksym *ksym;
extern int nksym;
extern unsigned long ktext;	/* _text: trace _text+OFF takes offsets from it */
struct module;
int	symsload(void);
int	symsmod(struct module *m, int in);	/* a module's functions in (COMING) or out (GOING) */
void	symsfree(void);
const char	*symstext(size_t *n);	/* the symbol file: "pc name object" lines */
const Devsyms	*symstab(void);		/* ksym as the device's trace command checks a selection against, for one call under kctl */
const char	*symname(uint64_t pc);	/* a func key's name (under kctl), for devaggs' table */

/* wake.c: the follow file's readers wait on kpipe (files.c), hooks wake them */
extern wait_queue_head_t kpipe;
extern atomic_t kpipegen, kpipewaiters;
void	kwake(void);		/* from a hook: wake the follow file's readers, no lock taken */
void	kwakesync(void);
