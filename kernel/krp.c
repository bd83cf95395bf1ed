/*
 * krp.c: exits by kretprobes, the way of kernels without a usable fprobe
 * (Debian 12's 6.1; kver.h), and `exits=kretprobe` on the others.
 * Entries come from one ftrace_ops whose filter is exactly the sites;
 * exits from one kretprobe per site: the kernel's own return hook
 * (rethook), which keeps the shadow stack per task, survives task exit
 * and unwinding, and unregisters safely under rmmod.  The two meet at
 * the function's entry: ftrace calls its callbacks in list order,
 * newest first, and this ops is always registered after the
 * kretprobes, so our callback runs first and leaves its decision
 * (follow the call or not) in a per-CPU slot of the context it runs
 * in; the kretprobe's entry handler takes it and arms the return only
 * for calls the device follows.
 */
#include "k.h"
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

typedef struct Krp Krp;
typedef struct Pend Pend;

/* one exit hook */
struct Krp {
	struct kretprobe rp;
	unsigned long entry;
	u32 missed;		/* kretprobe's nmissed already counted in #deep */
};

/* the decision of the last entry on one CPU in one context, for the kretprobe's entry handler */
struct Pend {
	unsigned long sp;
	u32 follow;
	Rdata rd;
};

static Krp **krp;		/* sorted by entry, as the sites */
static int nkrp;
static int opson;
static DEFINE_PER_CPU(Pend [Nctx], pend);

static void notrace
entryhook(unsigned long ip, unsigned long pip, struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	Pend *p;
	int bit;

	bit = ftrace_test_recursion_trylock(ip, pip);	/* disables preemption */
	if (bit < 0) {
		devcount(kdev, Creentered);
		return;
	}
	p = &this_cpu_ptr(&pend)[0][hitctx()];
	p->follow = hitentry(ip, regs, &p->rd);
	if (p->follow)
		p->sp = regs->sp;
	ftrace_test_recursion_unlock(bit);
}

static struct ftrace_ops ops = {
	.func = entryhook,
	.flags = FTRACE_OPS_FL_SAVE_REGS,
};

/* the kretprobe's entry: arm the return only for the call entryhook chose to follow, just now */
static int notrace
retentry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	Krp *k = container_of(get_kretprobe(ri), Krp, rp);
	Pend *p = &this_cpu_ptr(&pend)[0][hitctx()];

	if (!p->follow || p->sp != regs->sp || p->rd.entry != k->entry)
		return 1;
	p->follow = 0;
	*(Rdata *)ri->data = p->rd;
	return 0;
}

static int notrace
retexit(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	hitexit((Rdata *)ri->data, regs_return_value(regs));
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

static void
count(void)
{
	int i;

	for (i = 0; i < nkrp; i++)
		krpcount(krp[i]);
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
			*bad = i;	/* the caller turns its trace off */
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
entries(Tab *t, char *why, size_t nwhy)
{
	unsigned long *ips;
	int e;

	if (t == NULL || t->n == 0)
		return 0;
	if ((ips = tabips(t)) == NULL)
		return -ENOMEM;
	e = ftrace_set_filter_ips(&ops, ips, t->n, 0, 1);
	kvfree(ips);
	if (e == 0 && (e = register_ftrace_function(&ops)) == 0)
		opson = 1;
	if (e)
		scnprintf(why, nwhy, "ftrace refused the sites (%d)", e);
	return e;
}

/*
 * The hooks on exactly t's sites (none: t NULL).  Our ops goes off, the
 * exits change, and the ops comes back on last: first in ftrace's list.
 * An empty filter would trace every function: with no site, it stays off.
 */
static int
set(Tab *t, char *why, size_t nwhy, int *bad)
{
	int e;

	if (opson)
		unregister_ftrace_function(&ops);	/* returns once no callback runs */
	opson = 0;
	if ((e = exits(t, why, nwhy, bad)) != 0)
		return e;	/* a site whose exit failed: its trace goes off (ctl.c says why) and we come again */
	return entries(t, why, nwhy);
}

static void
fini(void)
{
	ftrace_free_filter(&ops);
	kvfree(krp);
	krp = NULL;
}

const Way krpway = { "kretprobe", set, count, fini };
