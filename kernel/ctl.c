/*
 * ctl.c: a write or close of tracectl in the kernel: the device runs the
 * lines (dev/ctlfile.c), this file adds what only the kernel refuses,
 * then makes the hooks what the device now says.
 *
 *  - _text+HEX, a word of a line, is the address HEX bytes into the
 *    kernel's text (the paper's offsets, and unambiguous: a bare number
 *    is an address); the word must come in one write.
 *  - policy block is refused: a full ring would make a probe wait, and
 *    a probe runs where nothing may sleep or spin for long.
 *  - a trace that selects a function the tracer runs itself (symdenied)
 *    or no function ftrace can patch is removed again, with the reason.
 *  - a trace turned on whose return cannot be probed goes off again.
 */
#include "k.h"
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "dev/dat.h"
#include "dev/ctl.h"

static u32 checked[Ntrace];	/* the trace generation last found traceable */

/* buf with every _text+HEX word made an address; NULL if no memory */
static char *
rewrite(const char *buf, size_t n, size_t *m)
{
	static const char pre[] = "_text+";
	char *out, hex[20];
	size_t i = 0, o = 0, j, k;
	unsigned long off;

	if ((out = kvmalloc(3 * n + 32, GFP_KERNEL)) == NULL)
		return NULL;
	while (i < n) {
		if ((i == 0 || buf[i - 1] == ' ' || buf[i - 1] == '\t' || buf[i - 1] == '\n') &&
		    n - i > sizeof pre - 1 && memcmp(buf + i, pre, sizeof pre - 1) == 0) {
			j = i + sizeof pre - 1;
			for (k = j; k < n && buf[k] != ' ' && buf[k] != '\t' && buf[k] != '\n'; k++)
				;
			if (k - j > 0 && k - j < sizeof hex) {
				memcpy(hex, buf + j, k - j);
				hex[k - j] = 0;
				if (kstrtoul(hex, 16, &off) == 0) {
					o += sprintf(out + o, "%lx", ktext + off);
					i = k;
					continue;
				}
			}
		}
		out[o++] = buf[i++];
	}
	*m = o;
	return out;
}

/* "policy block ..." */
static int
isblock(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (n - i < 7 || memcmp(s + i, "policy", 6) != 0 || (s[i + 6] != ' ' && s[i + 6] != '\t'))
		return 0;
	for (i += 6; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
		;
	return n - i >= 5 && memcmp(s + i, "block", 5) == 0 && (n - i == 5 || s[i + 5] == ' ' || s[i + 5] == '\t');
}

static int
refuse(int e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(kdev->err, Errmax, fmt, ap);
	va_end(ap);
	return e;
}

/* a line of this write (the first after what f keeps) that sets policy block */
static int
blockin(const Ctlfile *f, const char *buf, size_t n)
{
	char line[Linemax + 1];
	size_t len = f->skip ? Linemax + 1 : f->n, i;

	if (len <= Linemax)
		memcpy(line, f->line, len);
	for (i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			if (len <= Linemax && isblock(line, len))
				return 1;
			len = 0;
		} else if (len < Linemax)
			line[len++] = buf[i];
		else
			len = Linemax + 1;
	}
	return len <= Linemax && isblock(line, len);
}

/* traces new or changed since their last check: each must select a traceable function, and no denied one */
static int
checknew(void)
{
	Dev *d = kdev;
	Trace *t;
	const char *why;
	int k, i, n;
	u32 g;

	for (k = 0; k < Ntrace; k++) {
		t = &d->trace[k];
		if ((g = t->gen) == 0 || g == checked[k])
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
		ast(&t->gen, 0);
		t->on = 0;
		changed(d);
		if (why)
			return refuse(EPERM, "trace: %s selects %s: %s, never traced", t->name, ksym[i - 1].name, why);
		return refuse(EINVAL, "trace: %s selects no function ftrace can patch (notrace, inlined, or not a function's entry)", t->name);
	}
	return 0;
}

/* after the device ran lines: the kernel's refusals, then the hooks */
static int
after(int e)
{
	char why[160], name[Namelen];
	int bad, e2;

	if ((e2 = checknew()) != 0 && e == 0)
		e = e2;
	while ((e2 = hooksapply(why, sizeof why, &bad)) != 0) {
		if (bad < 0 || bad >= Ntrace) {
			pr_err("devtrace: %s\n", why);
			return e ? e : e2;
		}
		memcpy(name, kdev->trace[bad].name, Namelen);
		name[Namelen - 1] = 0;
		ast(&kdev->trace[bad].on, 0);
		changed(kdev);
		e2 = refuse(EINVAL, "trace: %s: %s", name, why);
		if (e == 0)
			e = e2;
	}
	return e;
}

int
kctlwrite(Ctlfile *f, const char *buf, size_t n, uint32_t pid)
{
	char *nb;
	size_t m;
	int e;

	if ((nb = rewrite(buf, n, &m)) == NULL)
		return ENOMEM;
	mutex_lock(&kctl);
	if (blockin(f, nb, m)) {
		/* as the device drops a refused write: the kept line, and the rest of an unfinished one */
		f->n = 0;
		f->skip = m > 0 && nb[m - 1] != '\n';
		e = refuse(EINVAL, "policy: block would make a probe wait where it may not: ring or fill in the kernel");
	} else
		e = after(devctlwrite(kdev, f, nb, m, pid));
	mutex_unlock(&kctl);
	kvfree(nb);
	return e;
}

int
kctlclose(Ctlfile *f)
{
	int e;

	mutex_lock(&kctl);
	if (!f->skip && f->n > 0 && blockin(f, "", 0)) {
		memset(f, 0, sizeof *f);
		e = refuse(EINVAL, "policy: block would make a probe wait where it may not: ring or fill in the kernel");
	} else if (f->n > 0 || f->skip)
		e = after(devctlclose(kdev, f));
	else
		e = 0;
	mutex_unlock(&kctl);
	return e;
}
