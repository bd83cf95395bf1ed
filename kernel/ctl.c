/*
 * ctl.c: a write or close of tracectl in the kernel: the device runs the
 * lines (dev/ctlfile.c) with the kernel's rules, set at load (main.c:
 * devhostrules): _text+HEX, a word where an address goes, is the
 * address HEX bytes into the kernel's text (the paper's offsets), and
 * policy block is refused (a full ring would make a probe wait, and a
 * probe runs where nothing may sleep or spin for long).  Each call
 * hands the device the kernel's functions as data (syms.c: symstab, in
 * Ctlfile.syms), so trace ... new refuses in its own call a trace that
 * selects a function the tracer runs itself, or none ftrace can patch.
 *
 * Then the hooks are made what the device now says.  Only a return
 * that cannot be probed (a kretprobe the kernel refuses: known when
 * registered) turns its trace off after the fact (devtraceoff).  The
 * same for each level: a session's ctl runs its lines on the session's
 * Dev, whose rules clone set as the top level's.  Sessions: clone, the
 * opens of their files (the owner's, or root's) and the end at the last
 * close of the clone file and the ctl files, the holder's death
 * included (its files are closed by the kernel).
 */
#include "k.h"
#include <linux/kernel.h>

Dev *
klevel(uint32_t sess, uint32_t serial)
{
	uint32_t uid, ser;

	if (sess == 0)
		return kdev;
	if (devsessowner(kdev, sess, &uid, &ser) != 0 || ser != serial)
		return NULL;
	return devsess(kdev, sess);
}

/* after the device ran lines: the hooks, a trace whose return cannot be probed off */
static int
after(int e)
{
	char why[160], text[164];
	int lev, bad, e2;
	Dev *d;

	while ((e2 = hooksapply(why, sizeof why, &lev, &bad)) != 0) {
		if (bad < 0 || bad >= Ntrace || (d = devsess(kdev, lev)) == NULL) {
			pr_err("devtrace: %s\n", why);
			return e ? e : e2;
		}
		snprintf(text, sizeof text, ": %s", why);
		e2 = devtraceoff(d, bad, Einval, text);
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

/* a write of an ended session's ctl: ENXIO, as user space's */
int
kctlwrite(uint32_t sess, uint32_t serial, Ctlfile *f, const char *buf, size_t n, uint32_t pid)
{
	Devsigs *s = ksigs(buf, n, f);	/* before kctl: BTF's text may be made now */
	Dev *d;
	int e;

	mutex_lock(&kctl);
	f->sigs = s;
	f->syms = symstab();
	if ((d = klevel(sess, serial)) == NULL)
		e = ENXIO;
	else
		e = after(devctlwrite(d, f, buf, n, pid));
	f->sigs = NULL;
	f->syms = NULL;
	mutex_unlock(&kctl);
	ksigsfree(s);
	return e;
}

/* the last close: an unfinished line runs now; nothing pending, nothing to apply */
int
kctlclose(uint32_t sess, uint32_t serial, Ctlfile *f)
{
	Devsigs *s = ksigs("", 0, f);
	Dev *d;
	int e = 0;

	mutex_lock(&kctl);
	f->sigs = s;
	f->syms = symstab();
	if (devctlpending(f) && (d = klevel(sess, serial)) != NULL)
		e = after(devctlclose(d, f));	/* zeroes f */
	f->sigs = NULL;
	f->syms = NULL;
	mutex_unlock(&kctl);
	ksigsfree(s);
	return e;
}

/* a new session, with the kernel's rules as the top level's (main.c) */
int
kclone(uint32_t uid, uint32_t pid, uint32_t *serial)
{
	uint32_t owner;
	int n;

	mutex_lock(&kctl);
	if ((n = devclone(kdev, uid, pid)) > 0) {
		devhostrules(devsess(kdev, n), Rulenoblock | Ruletext, ktext);
		devsessowner(kdev, n, &owner, serial);
	}
	after(0);	/* sessions the clone reaped: their sites off */
	mutex_unlock(&kctl);
	return n;
}

int
ksessopen(uint32_t sess, uint32_t uid, int hold, uint32_t *serial)
{
	uint32_t owner;
	int e;

	mutex_lock(&kctl);
	if (devsessowner(kdev, sess, &owner, serial) != 0)
		e = ENOENT;
	else if (hold)
		e = devsessopen(kdev, sess, uid, 0);
	else
		e = uid == owner || uid == 0 ? 0 : EACCES;
	mutex_unlock(&kctl);
	return e;
}

void
ksessclose(uint32_t sess, uint32_t serial)
{
	mutex_lock(&kctl);
	if (klevel(sess, serial) != NULL && devsessclose(kdev, sess) == 0 && devsess(kdev, sess) == NULL)
		after(0);
	mutex_unlock(&kctl);
}
