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

enum { Nctx = 4 };	/* task, softirq, hardirq, NMI: a Writer and a ring each, per CPU */

extern Dev *kdev;
extern uint32_t klogmax, knring;	/* the ring size and count kdev was made with: hostlogmax, hostnring */
extern struct mutex kctl;

/* files.c: the misc devices */
int	filesinit(void);
void	filesexit(void);

/* ctl.c: one write or close of tracectl, checked and applied (files.c calls it) */
int	kctlwrite(Ctlfile *f, const char *buf, size_t n, uint32_t pid);
int	kctlclose(Ctlfile *f);

/* hooks.c: the entry hook (ftrace_ops), the exits (kretprobes) */
int	hooksapply(char *why, size_t n, int *bad);	/* make the sites what the device says; 0 or errno, why set, *bad the trace at fault */
void	hooksoff(void);			/* every hook off, every handler finished */
void	hookscount(void);		/* kretprobes' misses into #deep */
int	hooksinit(void);
void	hooksexit(void);

/* syms.c: the kernel's functions, from /proc/kallsyms, sorted by address */
typedef struct Ksym Ksym;
struct Ksym {
	unsigned long addr;
	const char *name;
	const char *obj;	/* "vmlinux" or the module's name */
	u8 ok;			/* ftrace can patch it: 0 not asked yet, 1 yes, 2 no */
};
extern Ksym *ksym;
extern int nksym;
extern unsigned long ktext;	/* _text: trace _text+OFF takes offsets from it */
int	symsload(void);
void	symsfree(void);
const char	*symstext(size_t *n);	/* the symbol file: "pc name object" lines */
const char	*symdenied(const Ksym *s);	/* why it may never be traced, or NULL */
int	symtraceable(Ksym *s);		/* an ftrace location (asked of ftrace once) */
const char	*symname(uint64_t pc, void *arg);	/* a func key's name, for devaggs */

/* wake.c: the follow file's readers wait on kpipe (files.c), hooks wake them */
extern wait_queue_head_t kpipe;
extern atomic_t kpipegen, kpipewaiters;
void	kwake(void);		/* from a hook: wake the follow file's readers, no lock taken */
void	kwakesync(void);
