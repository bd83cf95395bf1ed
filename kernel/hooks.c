/*
 * hooks.c: the sites.  The functions of traces that are on (and the
 * device started) become a table (Tab, rebuilt under kctl at every
 * change and swapped under RCU: hit.c), and one way of hooking them
 * (a Way: krp.c's kretprobes or fprobe.c's fprobe, chosen at load by
 * the module parameter exits) is set on exactly those sites.  The
 * sessions' traces are in the same table: a site is hooked once,
 * whichever levels select it.
 */
#include "k.h"
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

static char *exitsway = KFPROBE ? "fprobe" : "kretprobe";
module_param_named(exits, exitsway, charp, 0444);
MODULE_PARM_DESC(exits, "how returns are caught: fprobe (where the kernel has it, the default there) or kretprobe");

static const Way *way;
static int stale;	/* a set failed half way: the hooks are not the table's */

/*
 * The sites the levels want now: functions of traces that are on (in
 * the top level, in each live session), traceable and allowed; each
 * site with the levels that select it.
 */
static Tab *
want(void)
{
	u8 on[Nlev][Ntrace];
	Dev *d;
	Tab *t;
	Tsel *sel;
	int i, k, n = 0;
	u32 l, lev;

	t = kvzalloc(sizeof *t + sizeof(Site) * nksym + sizeof(Tsel) * Ntrace * (1 + ksess), GFP_KERNEL);
	if (t == NULL)
		return NULL;
	sel = (Tsel *)&t->site[nksym];
	for (l = 0; l <= ksess; l++) {
		if ((d = t->dev[l] = devsess(kdev, l)) == NULL)
			continue;
		t->sel[l] = sel + l * Ntrace;
		for (k = 0; k < Ntrace; k++)
			on[l][k] = devtsel(d, k, &t->sel[l][k]) && devsiteon(d, &t->sel[l][k]);
	}
	for (i = 0; i < nksym; i++) {
		if (n > 0 && t->site[n - 1].entry == ksym[i].addr)
			continue;	/* an alias: the first name has it */
		for (l = 0, lev = 0; l <= ksess; l++) {
			t->site[n].slot[l] = -1;
			if (t->dev[l] == NULL)
				continue;
			k = devselect(t->dev[l], ksym[i].addr, ksym[i].addr, 1, ksym[i].name);
			if (k >= 0 && on[l][k]) {
				t->site[n].slot[l] = k;
				lev |= 1u << l;
			}
		}
		if (lev == 0 || ksym[i].why != Symok)
			continue;
		t->site[n].entry = ksym[i].addr;
		t->site[n].lev = lev;
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

static void
tabswap(Tab *t)
{
	Tab *old = rcu_dereference_protected(ktab, lockdep_is_held(&kctl));

	rcu_assign_pointer(ktab, t);
	synchronize_rcu();
	kvfree(old);
}

/*
 * Under kctl, after every change (a tracectl write, a module come or
 * gone).  Sites unchanged: only the table is swapped (a predicate, a
 * watch).  Else the way's hooks change first: a hook on a new site
 * finds no site in the old table and does nothing until the swap.
 */
int
hooksapply(char *why, size_t nwhy, int *lev, int *bad)
{
	Tab *t, *old = rcu_dereference_protected(ktab, lockdep_is_held(&kctl));
	int e, site = -1;

	why[0] = 0;
	*lev = *bad = -1;
	if ((t = want()) == NULL)
		return -ENOMEM;
	if ((stale || !samesites(old, t)) && (e = way->set(t, why, nwhy, &site)) != 0) {
		/* a site whose exit failed: the trace of its first level goes off (ctl.c says why) and we come again */
		if (site >= 0 && site < t->n) {
			*lev = __builtin_ctz(t->site[site].lev);
			*bad = t->site[site].slot[*lev];
		}
		kvfree(t);
		stale = 1;
		return e;
	}
	stale = 0;
	tabswap(t);
	return 0;
}

void
hookscount(void)
{
	way->count();
}

void
hooksoff(void)
{
	char why[8];
	int bad;

	mutex_lock(&kctl);
	way->set(NULL, why, sizeof why, &bad);
	tabswap(NULL);
	mutex_unlock(&kctl);
}

/* the way exits= names, each CPU's Writers on their rings */
int
hooksinit(void)
{
	static const Way *const ways[] = { &fprobeway, &krpway };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ways); i++)
		if (strcmp(exitsway, ways[i]->name) == 0 && ways[i]->set != NULL)
			way = ways[i];
	if (way == NULL) {
		pr_err("devtrace: exits=%s: this kernel has %s\n", exitsway, KFPROBE ? "fprobe and kretprobe" : "kretprobe alone");
		return -EINVAL;
	}
	return hitbind();
}

void
hooksexit(void)
{
	way->fini();
}
