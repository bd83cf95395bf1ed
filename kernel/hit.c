/*
 * hit.c: what a hook does, whichever way the kernel calls it (krp.c:
 * an ftrace_ops and kretprobes; fprobe.c: one fprobe).  An entry finds
 * its site in the table hooks.c swaps under RCU (ktab; hooks run with
 * preemption off, so synchronize_rcu() after a swap means no hook still
 * reads the old), writes its record through the Writer of its CPU and
 * context, and says whether the call is followed to its return.
 *
 * Levels: the top level and each live session (dev/sess.c) are Devs of
 * their own, each with a Writer per CPU and context bound at load to
 * its own ring of that Dev.  A site carries the levels whose traces
 * select it (Site.lev, a mask: the top level alone costs one bit test
 * more than before), and each of them decides on its own Dev: its own
 * predicate, watch list, policy, records and counters.
 *
 * A hit in interrupt context (hard or soft interrupt, NMI) is the
 * kernel's own, not the interrupted task's: its pid and tid are 0
 * (the idle task's, the other thread of no process) and its execname
 * that of its context (host.c), so watch and predicates on pid see it so.
 */
#include "k.h"
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include "dev/host.h"

enum {
	Slack = 16,	/* the entry site lies this close after the symbol (past IBT's landing pad, when IBT is on) */
};

/*
 * One CPU in one context (k.h's Nctx: a hook nests only into a higher
 * one): the device's Writer, bound at load to its own ring (hitbind),
 * and the guard.
 */
typedef struct Pcpu Pcpu;
struct Pcpu {
	Writer w[Nlev];		/* level L's on its Dev */
	u32 tid;		/* the Writers' watch decisions are this thread's: another's decides again */
	u32 inside;
};

Tab __rcu *ktab;
static DEFINE_PER_CPU(Pcpu [Nctx], pcpu);

int notrace
hitctx(void)
{
	return in_nmi() ? 3 : in_hardirq() ? 2 : in_serving_softirq() ? 1 : 0;
}

static __always_inline Pcpu *
mine(void)
{
	return &this_cpu_ptr(&pcpu)[0][hitctx()];
}

/* the site whose entry is at or just before ip */
static __always_inline Site *
siteof(Tab *t, unsigned long ip)
{
	int lo = 0, hi = t->n - 1, m;

	while (lo <= hi) {
		m = (lo + hi) / 2;
		if (t->site[m].entry > ip)
			hi = m - 1;
		else if (m + 1 < t->n && t->site[m + 1].entry <= ip)
			lo = m + 1;
		else
			return ip - t->site[m].entry < Slack ? &t->site[m] : NULL;
	}
	return NULL;
}

static __always_inline void
hitinit(Hit *h, Pcpu *p)
{
	struct task_struct *c = current;
	int l;

	h->ticks = hostticks();
	h->tid = in_task() ? c->pid : 0;	/* an interrupt's hit is no task's */
	h->pid = in_task() ? c->tgid : 0;
	h->depth = 0;
	h->dur = 0;
	if (p->tid != h->tid) {
		for (l = 0; l < Nlev; l++)
			p->w[l].gen = 0;	/* the cached watch decisions were another thread's */
		p->tid = h->tid;
	}
}

/* an entry at ip with the call's registers: its records; 1 and rd filled when the return is followed */
int notrace
hitentry(unsigned long ip, struct pt_regs *regs, Rdata *rd)
{
	Dev *d = kdev;
	Pcpu *p = mine();
	const Tsel *sel;
	Tab *t;
	Site *s;
	Hit h, hl;
	u32 m, l;
	int r, late, woke = 0, follow = 0;

	if (p->inside) {
		devcount(d, Creentered);
		return 0;
	}
	p->inside = 1;
	t = rcu_dereference_sched(ktab);
	if (t == NULL || regs == NULL || (s = siteof(t, ip)) == NULL)
		goto done;
	hitinit(&h, p);
	/*
	 * each level's Writer decided first (another thread ran on this CPU
	 * since, or the control state changed), then the clock read again:
	 * the decision is not the call's time.  An exit's clock is read
	 * before its decision already (hitexit).
	 */
	for (late = 0, m = s->lev; m != 0; m &= m - 1) {
		l = __builtin_ctz(m);
		late |= devwriterready(t->dev[l], &p->w[l], h.pid, h.tid);
	}
	if (late)
		h.ticks = hostticks();
	h.pc = s->entry;
	h.exit = 0;
	h.a[0] = regs->di;
	h.a[1] = regs->si;
	h.a[2] = regs->dx;
	h.a[3] = regs->cx;
	rd->lev = 0;
	for (m = s->lev; m != 0; m &= m - 1) {
		l = __builtin_ctz(m);
		sel = &t->sel[l][s->slot[l]];
		hl = h;		/* each level's own: the device may change it */
		hl.w = &p->w[l];
		r = devfilter(t->dev[l], sel, &hl);
		if (r & Hrecord) {
			devrecord(t->dev[l], &hl);
			woke = 1;
		}
		if (r & Hfollow) {
			rd->lev |= 1u << l;
			rd->slot[l] = s->slot[l];
			rd->gen[l] = sel->gen;
		}
	}
	if (woke)
		kwake();
	if (rd->lev) {
		rd->entry = s->entry;
		rd->ticks = h.ticks;
		follow = 1;
	}
done:
	p->inside = 0;
	return follow;
}

/* the return of a followed call, with the value it returns: a record in each level that followed it */
void notrace
hitexit(const Rdata *rd, unsigned long retval)
{
	Dev *d = kdev;
	Pcpu *p = mine();
	const Tsel *sel;
	Tab *t;
	Hit h, hl;
	u32 m, l;
	int woke = 0;

	if (p->inside) {
		devcount(d, Creentered);
		return;
	}
	p->inside = 1;
	t = rcu_dereference_sched(ktab);
	if (t == NULL)
		goto done;
	hitinit(&h, p);
	h.pc = rd->entry;
	h.exit = 1;
	h.dur = h.ticks - rd->ticks;
	h.a[0] = retval;
	h.a[1] = h.a[2] = h.a[3] = 0;
	for (m = rd->lev; m != 0; m &= m - 1) {
		l = __builtin_ctz(m);
		/* a trace removed, or made again in its slot, or a session ended since the entry: not this call's any more */
		if (l >= Nlev || t->dev[l] == NULL || (u8)rd->slot[l] >= Ntrace)
			continue;
		sel = &t->sel[l][rd->slot[l]];
		if (sel->gen != rd->gen[l])
			continue;
		hl = h;
		hl.w = &p->w[l];
		woke |= devexit(t->dev[l], sel, &hl);
	}
	if (woke)
		kwake();
done:
	p->inside = 0;
}

/* the table's entry addresses, for a registration (kvfree them) */
unsigned long *
tabips(Tab *t)
{
	unsigned long *ips;
	int i;

	if ((ips = kvmalloc_array(t->n, sizeof *ips, GFP_KERNEL)) != NULL)
		for (i = 0; i < t->n; i++)
			ips[i] = t->site[i].entry;
	return ips;
}

Dev *
levdev(uint32_t lev)
{
	return lev == 0 ? kdev : (Dev *)((char *)kdev + devsessoff(klogmax, knring, lev));
}

/*
 * Each CPU's Writers on their rings, for good: CPU c's context x writes
 * ring Nctx*c + x of every level, sessions' too, live or not: a new
 * session's Dev keeps its rings' claims (dev/sess.c: fresh), so no
 * Writer is ever bound again while a hook may hold it.
 */
int
hitbind(void)
{
	int c, x, e;
	u32 l;

	for (l = 0; l <= ksess; l++)
		for_each_possible_cpu(c)
			for (x = 0; x < Nctx; x++)
				if ((e = devwriterbind(levdev(l), &per_cpu(pcpu, c)[x].w[l], Nctx * c + x)) != 0)
					return -e;
	return 0;
}
