/*
 * fprobe.c: exits by one fprobe, where the kernel has a usable one
 * (kver.h: KFPROBE; 6.12 of bookworm-backports and Debian 13).  One
 * registration gives entries and exits: the entry handler's answer
 * says whether this call's return is hooked, so a call the device does
 * not follow costs no return hook, and no second ftrace callback at
 * entry as a kretprobe's kprobe is.  Returns still go through the
 * rethook (per task, safe at task exit and unregistering): what it
 * cannot catch is a call while all nr_maxactive instances are in use,
 * counted in #deep from the fprobe's nmissed.  The site set changes by
 * unregistering and registering again: a return pending on a stack at
 * that moment skips our handler (its exit record is lost, never wrong).
 */
#include "k.h"
#include <linux/fprobe.h>
#include <linux/vmalloc.h>

#if KFPROBE
static struct fprobe fp;
static int fpon;
static unsigned long fpmissed;	/* nmissed of the registration before this one, counted */

static int notrace
fpentry(struct fprobe *f, unsigned long ip, unsigned long ret, struct pt_regs *regs, void *data)
{
	return !hitentry(ip, regs, data);	/* nonzero: no exit handler for this call */
}

static void notrace
fpexit(struct fprobe *f, unsigned long ip, unsigned long ret, struct pt_regs *regs, void *data)
{
	hitexit(data, regs_return_value(regs));
}

static void
count(void)
{
	for (; fpmissed < fp.nmissed; fpmissed++)
		devcount(kdev, Cdeep);
}

static int
set(Tab *t, char *why, size_t nwhy, int *bad)
{
	unsigned long *ips;
	int e, ncpu = num_possible_cpus();

	if (fpon) {
		count();
		unregister_fprobe(&fp);	/* returns once no handler runs; pending returns skip ours */
		fpon = 0;
	}
	if (t == NULL || t->n == 0)
		return 0;
	if ((ips = tabips(t)) == NULL)
		return -ENOMEM;
	memset(&fp, 0, sizeof fp);
	fp.entry_handler = fpentry;
	fp.exit_handler = fpexit;
	fp.entry_data_size = sizeof(Rdata);
	/* calls in flight at once, all sites together: as a kretprobe's 64 + 4 a CPU, and 2 a CPU more a site */
	fp.nr_maxactive = min(64 + 4 * ncpu + 2 * ncpu * t->n, 1 << 16);
	fpmissed = 0;
	if ((e = register_fprobe_ips(&fp, ips, t->n)) == 0)
		fpon = 1;
	else
		scnprintf(why, nwhy, "fprobe refused the sites (%d)", e);
	kvfree(ips);
	return e;
}

static void
fini(void)
{
}

const Way fprobeway = { "fprobe", set, count, fini };
#else
const Way fprobeway = { "fprobe", NULL, NULL, NULL };	/* this kernel has none: hooks.c takes kretprobes */
#endif
