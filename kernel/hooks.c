/*
 * hooks.c: the sites.  Entries come from one ftrace_ops whose filter is
 * exactly the entry sites of the functions in traces that are on (and
 * the device started); each carries the first four arguments from the
 * saved registers.  Exits come from one kretprobe per such function:
 * the kernel's own return hook (rethook), which keeps the shadow stack
 * per task, survives task exit and unwinding, and is what unregisters
 * safely under rmmod.  The two meet at the function's entry: ftrace
 * calls its callbacks in list order, newest first, and this ops is
 * always registered after the kretprobes, so our callback runs first
 * and leaves its decision (follow the call or not) in a per-CPU slot of
 * the context it runs in; the kretprobe's entry handler takes it and
 * arms the return only for calls the device follows.
 *
 * What a hook reads is a table (Tab), rebuilt under kctl at every
 * change and swapped under RCU: hooks run with preemption off, so
 * synchronize_rcu() after the swap means no hook still reads the old.
 */
#include "k.h"
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "dev/host.h"

enum {
	Slack = 16,	/* the entry site lies this close after the symbol (past IBT's landing pad, when IBT is on) */
};

typedef struct Site Site;
typedef struct Tab Tab;
typedef struct Pcpu Pcpu;
typedef struct Krp Krp;
typedef struct Rdata Rdata;

struct Site {
	unsigned long entry;
	u32 slot;
};

struct Tab {
	int n;
	Tsel sel[Ntrace];
	Site site[];
};

/*
 * One CPU in one context (k.h's Nctx: a hook nests only into a higher
 * one): the device's Writer, bound at load to its own ring (hooksinit),
 * the guard, the decision the kretprobe takes.
 */
struct Pcpu {
	Writer w;
	u32 tid;		/* the Writer's watch decision is this thread's: another's decides again */
	u32 inside;
	struct {
		unsigned long sp, entry;
		u64 ticks;	/* the entry's: the exit's dur */
		u32 slot, gen, follow;
	} pend;
};

/* one exit hook */
struct Krp {
	struct kretprobe rp;
	unsigned long entry;
	u32 missed;		/* kretprobe's nmissed already counted in #deep */
};

/* what a followed call keeps until its return */
struct Rdata {
	unsigned long entry;
	u64 ticks;		/* the entry's hostticks: the exit's Hit.dur is its own minus these */
	u32 slot, gen;
};

static Tab __rcu *tab;
static Krp **krp;		/* sorted by entry, as the sites */
static int nkrp;
static int opson;
static DEFINE_PER_CPU(Pcpu [Nctx], pcpu);

static void entryhook(unsigned long ip, unsigned long pip, struct ftrace_ops *op, struct ftrace_regs *fregs);

static struct ftrace_ops ops = {
	.func = entryhook,
	.flags = FTRACE_OPS_FL_SAVE_REGS,
};

static __always_inline Pcpu *
mine(void)
{
	int c = in_nmi() ? 3 : in_hardirq() ? 2 : in_serving_softirq() ? 1 : 0;

	return &this_cpu_ptr(&pcpu)[0][c];
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

	h->ticks = hostticks();
	h->tid = c->pid;
	h->pid = c->tgid;
	h->depth = 0;
	h->dur = 0;
	if (p->tid != h->tid) {
		p->w.gen = 0;	/* the cached watch decision was another thread's */
		p->tid = h->tid;
	}
	h->w = &p->w;
}

static void notrace
entryhook(unsigned long ip, unsigned long pip, struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	Dev *d = kdev;
	Tab *t;
	Site *s;
	Pcpu *p;
	Hit h;
	int bit, r;

	bit = ftrace_test_recursion_trylock(ip, pip);	/* disables preemption */
	if (bit < 0) {
		devcount(d, Creentered);
		return;
	}
	p = mine();
	if (p->inside) {
		devcount(d, Creentered);
		goto out;
	}
	p->inside = 1;
	p->pend.follow = 0;
	t = rcu_dereference_sched(tab);
	if (t == NULL || regs == NULL || (s = siteof(t, ip)) == NULL)
		goto done;
	hitinit(&h, p);
	h.pc = s->entry;
	h.exit = 0;
	h.a[0] = regs->di;
	h.a[1] = regs->si;
	h.a[2] = regs->dx;
	h.a[3] = regs->cx;
	r = devfilter(d, &t->sel[s->slot], &h);
	if (r & Hrecord) {
		devrecord(d, &h);
		kwake();
	}
	if (r & Hfollow) {
		p->pend.sp = regs->sp;
		p->pend.entry = s->entry;
		p->pend.slot = s->slot;
		p->pend.gen = t->sel[s->slot].gen;
		p->pend.ticks = h.ticks;
		p->pend.follow = 1;
	}
done:
	p->inside = 0;
out:
	ftrace_test_recursion_unlock(bit);
}

/* the kretprobe's entry: arm the return only for the call entryhook chose to follow, just now */
static int notrace
retentry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	Krp *k = container_of(get_kretprobe(ri), Krp, rp);
	Rdata *rd = (Rdata *)ri->data;
	Pcpu *p = mine();

	if (!p->pend.follow || p->pend.sp != regs->sp || p->pend.entry != k->entry)
		return 1;
	p->pend.follow = 0;
	rd->entry = k->entry;
	rd->slot = p->pend.slot;
	rd->gen = p->pend.gen;
	rd->ticks = p->pend.ticks;
	return 0;
}

static int notrace
retexit(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	Rdata *rd = (Rdata *)ri->data;
	Dev *d = kdev;
	Pcpu *p = mine();
	Tab *t;
	Hit h;

	if (p->inside) {
		devcount(d, Creentered);
		return 0;
	}
	p->inside = 1;
	t = rcu_dereference_sched(tab);
	/* a trace removed, or made again in its slot, since the entry: not this call's any more */
	if (t != NULL && rd->slot < Ntrace && t->sel[rd->slot].gen == rd->gen) {
		hitinit(&h, p);
		h.pc = rd->entry;
		h.exit = 1;
		h.dur = h.ticks - rd->ticks;
		h.a[0] = regs_return_value(regs);
		h.a[1] = h.a[2] = h.a[3] = 0;
		if (devhit(d, &t->sel[rd->slot], &h))
			kwake();
	}
	p->inside = 0;
	return 0;
}

static Krp *
krpnew(unsigned long entry)
{
	Krp *k = kzalloc(sizeof *k, GFP_KERNEL);

	if (k == NULL)
		return NULL;
	k->entry = entry;
	k->rp.kp.addr = (kprobe_opcode_t *)entry;
	k->rp.entry_handler = retentry;
	k->rp.handler = retexit;
	k->rp.data_size = sizeof(Rdata);
	k->rp.maxactive = 64 + 4 * num_possible_cpus();
	if (register_kretprobe(&k->rp) != 0) {
		kfree(k);
		return NULL;
	}
	return k;
}

/* the missed returns (maxactive instances all in use) of kretprobes, counted once */
static void
krpcount(Krp *k)
{
	for (; k->missed < (u32)k->rp.nmissed; k->missed++)
		devcount(kdev, Cdeep);
}

static void
krpfree(Krp **v, int n)
{
	struct kretprobe **rps;
	int i;

	if (n == 0)
		return;
	if ((rps = kvmalloc_array(n, sizeof *rps, GFP_KERNEL)) != NULL) {
		for (i = 0; i < n; i++)
			rps[i] = &v[i]->rp;
		unregister_kretprobes(rps, n);	/* one grace period for all */
		kvfree(rps);
	} else
		for (i = 0; i < n; i++)
			unregister_kretprobe(&v[i]->rp);
	for (i = 0; i < n; i++) {
		krpcount(v[i]);
		kfree(v[i]);
	}
}

void
hookscount(void)
{
	int i;

	for (i = 0; i < nkrp; i++)
		krpcount(krp[i]);
}

/* the sites the device wants now: functions of traces on, traceable and allowed */
static Tab *
want(void)
{
	Dev *d = kdev;
	u8 on[Ntrace];
	Tab *t;
	int i, k, n = 0;

	if ((t = kvzalloc(sizeof *t + sizeof(Site) * nksym, GFP_KERNEL)) == NULL)
		return NULL;
	for (k = 0; k < Ntrace; k++)
		on[k] = devtsel(d, k, &t->sel[k]) && devsiteon(d, &t->sel[k]);
	for (i = 0; i < nksym; i++) {
		if (n > 0 && t->site[n - 1].entry == ksym[i].addr)
			continue;	/* an alias: the first name has it */
		k = devselect(d, ksym[i].addr, ksym[i].addr, 1, ksym[i].name);
		if (k < 0 || !on[k] || symdenied(&ksym[i]) || !symtraceable(&ksym[i]))
			continue;
		t->site[n].entry = ksym[i].addr;
		t->site[n].slot = k;
		n++;
	}
	t->n = n;
	return t;
}

static int
samesites(Tab *a, Tab *b)
{
	int i;

	if (a == NULL || b == NULL)
		return a == b || (a ? a->n : b->n) == 0;
	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (a->site[i].entry != b->site[i].entry)
			return 0;
	return 1;
}

/* the kretprobes of t's sites: kept where they were, made where new, freed where gone */
static int
exits(Tab *t, char *why, size_t nwhy, int *bad)
{
	Krp **nv, **gone;
	int i, j = 0, ngone = 0, n = t ? t->n : 0, e = 0;

	nv = kvcalloc(n + 1, sizeof *nv, GFP_KERNEL);
	gone = kvcalloc(nkrp + 1, sizeof *gone, GFP_KERNEL);
	if (nv == NULL || gone == NULL) {
		kvfree(nv);
		kvfree(gone);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		while (j < nkrp && krp[j]->entry < t->site[i].entry)
			gone[ngone++] = krp[j++];
		if (j < nkrp && krp[j]->entry == t->site[i].entry)
			nv[i] = krp[j++];
		else if ((nv[i] = krpnew(t->site[i].entry)) == NULL && e == 0) {
			e = -EINVAL;
			scnprintf(why, nwhy, "%ps: its return cannot be probed (kprobe blacklist)", (void *)t->site[i].entry);
			*bad = t->site[i].slot;	/* the caller turns its trace off */
		}
	}
	while (j < nkrp)
		gone[ngone++] = krp[j++];
	krpfree(gone, ngone);
	kvfree(gone);
	kvfree(krp);
	/* keep only those made */
	for (i = j = 0; i < n; i++)
		if (nv[i])
			nv[j++] = nv[i];
	krp = nv;
	nkrp = j;
	return e;
}

static int
entries(Tab *t)
{
	unsigned long *ips;
	int i, e;

	if (t->n == 0)
		return 0;
	if ((ips = kvmalloc_array(t->n, sizeof *ips, GFP_KERNEL)) == NULL)
		return -ENOMEM;
	for (i = 0; i < t->n; i++)
		ips[i] = t->site[i].entry;
	e = ftrace_set_filter_ips(&ops, ips, t->n, 0, 1);
	kvfree(ips);
	if (e == 0 && (e = register_ftrace_function(&ops)) == 0)
		opson = 1;
	return e;
}

/*
 * Under kctl, after every change.  Sites unchanged: only the table is
 * swapped (a predicate, a watch).  Else our ops goes off, the exits
 * change, and the ops comes back on last: first in ftrace's list.  An
 * empty filter would trace every function: with no site, the ops stays off.
 */
int
hooksapply(char *why, size_t nwhy, int *bad)
{
	Tab *t, *old = rcu_dereference_protected(tab, lockdep_is_held(&kctl));
	int e = 0;

	why[0] = 0;
	*bad = -1;
	if ((t = want()) == NULL)
		return -ENOMEM;
	if (!samesites(old, t) || (t->n > 0 && !opson)) {
		if (opson) {
			unregister_ftrace_function(&ops);
			opson = 0;
		}
		if ((e = exits(t, why, nwhy, bad)) != 0) {
			/* a site whose exit failed: its trace goes off (ctl.c says why) and we come again */
			kvfree(t);
			return e;
		}
		if ((e = entries(t)) != 0)
			scnprintf(why, nwhy, "ftrace refused the sites (%d)", e);
	}
	rcu_assign_pointer(tab, t);
	synchronize_rcu();
	kvfree(old);
	return e;
}

void
hooksoff(void)
{
	Tab *old;

	mutex_lock(&kctl);
	if (opson)
		unregister_ftrace_function(&ops);	/* returns once no callback runs */
	opson = 0;
	old = rcu_dereference_protected(tab, lockdep_is_held(&kctl));
	RCU_INIT_POINTER(tab, NULL);
	synchronize_rcu();
	krpfree(krp, nkrp);	/* unregistered: a return still pending on a stack skips our handler */
	kvfree(krp);
	krp = NULL;
	nkrp = 0;
	kvfree(old);
	mutex_unlock(&kctl);
}

/* each CPU's Writers on their rings, for good: CPU c's context x writes ring Nctx*c + x */
int
hooksinit(void)
{
	int c, x, e;

	for_each_possible_cpu(c)
		for (x = 0; x < Nctx; x++)
			if ((e = devwriterbind(kdev, &per_cpu(pcpu, c)[x].w, Nctx * c + x)) != 0)
				return -e;
	return 0;
}

void
hooksexit(void)
{
	ftrace_free_filter(&ops);
}
