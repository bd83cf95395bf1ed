/*
 * ctl.c: a write or close of tracectl in the kernel: the device runs the
 * lines (dev/ctlfile.c) with the kernel's rules, set at load (main.c:
 * devhostrules): _text+HEX, a word where an address goes, is the
 * address HEX bytes into the kernel's text (the paper's offsets), and
 * policy block is refused (a full ring would make a probe wait, and a
 * probe runs where nothing may sleep or spin for long).  Then this file
 * adds what only the kernel can know, through devtracerefuse:
 *
 *  - a trace that selects a function the tracer runs itself (symdenied)
 *    or no function ftrace can patch is removed again, with the reason.
 *  - a trace turned on whose return cannot be probed goes off again.
 *
 * and makes the hooks what the device now says.
 */
#include "k.h"
#include <linux/kernel.h>

static u32 checked[Ntrace];	/* the trace generation last found traceable */

/* traces new or changed since their last check: each must select a traceable function, and no denied one */
static int
checknew(void)
{
	Dev *d = kdev;
	const char *why;
	char text[160];
	int k, i, n;
	u32 g;

	for (k = 0; k < Ntrace; k++) {
		if ((g = devtracegen(d, k)) == 0 || g == checked[k])
			continue;
		why = NULL;
		for (i = n = 0; i < nksym && why == NULL; i++) {
			if (devselect(d, ksym[i].addr, ksym[i].addr, 1, ksym[i].name) != k)
				continue;
			if ((why = symdenied(&ksym[i])) == NULL && symtraceable(&ksym[i]))
				n++;
		}
		if (why == NULL && n > 0) {
			checked[k] = g;
			continue;
		}
		if (why) {
			snprintf(text, sizeof text, " selects %s: %s, never traced", ksym[i - 1].name, why);
			return devtracerefuse(d, k, 1, Eperm, text);
		}
		return devtracerefuse(d, k, 1, Einval, " selects no function ftrace can patch (notrace, inlined, or not a function's entry)");
	}
	return 0;
}

/* after the device ran lines: the kernel's refusals, then the hooks */
static int
after(int e)
{
	char why[160], text[164];
	int bad, e2;

	if ((e2 = checknew()) != 0 && e == 0)
		e = e2;
	while ((e2 = hooksapply(why, sizeof why, &bad)) != 0) {
		if (bad < 0 || bad >= Ntrace) {
			pr_err("devtrace: %s\n", why);
			return e ? e : e2;
		}
		snprintf(text, sizeof text, ": %s", why);
		e2 = devtracerefuse(kdev, bad, 0, Einval, text);
		if (e == 0)
			e = e2;
	}
	return e;
}

/* a module came or went (mods.c): its sites, under kctl */
int
kctlapply(void)
{
	return after(0);
}

int
kctlwrite(Ctlfile *f, const char *buf, size_t n, uint32_t pid)
{
	int e;

	mutex_lock(&kctl);
	e = after(devctlwrite(kdev, f, buf, n, pid));
	mutex_unlock(&kctl);
	return e;
}

/* the last close: an unfinished line runs now; nothing pending, nothing to apply */
int
kctlclose(Ctlfile *f)
{
	int e = 0;

	mutex_lock(&kctl);
	if (devctlpending(f))
		e = after(devctlclose(kdev, f));
	mutex_unlock(&kctl);
	return e;
}
