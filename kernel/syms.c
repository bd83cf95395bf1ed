/*
 * syms.c: the kernel's functions.  kallsyms_lookup_name and its kin are
 * not exported to modules, so the module reads /proc/kallsyms once at
 * load (as root, insmod's credentials show the addresses), keeps the
 * text symbols sorted by address, and serves them as the symbol file
 * in the format scripts/name reads.  Modules loaded later come and go
 * through symsmod (mods.c).  Each function is found traceable or not
 * once, as it comes (classify): the device checks a trace's selection
 * against that table in the trace's own command (symstab).
 */
#include "k.h"
#include <linux/fs.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/uaccess.h>
#include <linux/ftrace.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <asm/ibt.h>
#include <asm/nops.h>
#include <asm/text-patching.h>
#include "dev/lib.h"

Ksym *ksym;
int nksym;
unsigned long ktext;
static char *raw;		/* /proc/kallsyms as read: the names point into it */
static char *text;		/* the symbol file */
static size_t ntext;
static struct ftrace_ops probe;	/* never registered: a filter set on it asks "are these sites?", then emptied */

enum { Unasked = ~0u };	/* Ksym.why of a function not classified yet */

/*
 * Never traced, whatever a trace selects: the code a hook runs (this
 * module, ftrace, kprobes and their return hook, the wake-up) and the
 * breakpoint and patching code under them.  ftrace's own recursion
 * guard would catch the rest; these would cost a record each time.
 */
static const char *const deny[] = {
	"*ftrace*", "*kprobe*", "*rethook*", "*irq_work*", "text_poke*",
	"*int3*", "__x86_indirect_thunk*", "__x86_return_thunk", "*_fentry*", "*mcount*",
};

/* the texts of a trace's refusal (Devsyms): Symdenied + 0, + 1, and none patchable */
static const char *const denywhy[] = {
	"devtrace's own code",
	"the tracer's own machinery (ftrace, kprobes, irq_work, text patching)",
};
static const char nosite[] = "selects no function ftrace can patch (notrace, inlined, or not a function's entry)";

/* the names of a module loaded after devtrace */
typedef struct Kmod Kmod;
struct Kmod {
	Kmod *next;
	char obj[MODULE_NAME_LEN];
	char names[];
};

/* symbol i of a module's table, if a function of its core text: its address and name */
static int
modfunc(struct module *m, struct mod_kallsyms *ks, int i, unsigned long *a, const char **name)
{
	*a = ks->symtab[i].st_value;
	*name = ks->strtab + ks->symtab[i].st_name;
	return (ks->typetab[i] == 't' || ks->typetab[i] == 'T') && **name && *a && !within_module_init(*a, m);
}

static int
cmpsym(const void *a, const void *b)
{
	const Ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * The whole file.  /proc/kallsyms has no read_iter, so kernel_read
 * refuses it: it is read as its readers do, into a page of insmod's
 * own memory (module init runs in insmod's context), then copied.
 */
static int
slurp(size_t *len)
{
	enum { Step = 65536 };
	struct file *f;
	size_t cap = 16 << 20, n = 0;
	unsigned long ua;
	ssize_t r;
	loff_t pos = 0;
	char *p;

	f = filp_open("/proc/kallsyms", O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	if (f->f_op->read == NULL) {
		filp_close(f, NULL);
		return -EINVAL;
	}
	ua = vm_mmap(NULL, 0, Step, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, 0);
	if (IS_ERR_VALUE(ua)) {
		filp_close(f, NULL);
		return (int)ua;
	}
	if ((raw = vmalloc(cap)) == NULL) {
		vm_munmap(ua, Step);
		filp_close(f, NULL);
		return -ENOMEM;
	}
	for (;;) {
		if (cap - n < Step + 1) {
			if ((p = vmalloc(2 * cap)) == NULL)
				break;
			memcpy(p, raw, n);
			vfree(raw);
			raw = p;
			cap *= 2;
		}
		if ((r = f->f_op->read(f, (char __user *)ua, Step, &pos)) <= 0)
			break;
		if (copy_from_user(raw + n, (char __user *)ua, r))
			break;
		n += r;
	}
	vm_munmap(ua, Step);
	filp_close(f, NULL);
	raw[n] = 0;
	*len = n;
	return 0;
}

/* the symbol file, from ksym */
static int
maketext(void)
{
	size_t cap = (size_t)nksym * 96 + 1;
	char *t;
	int i;

	if ((t = vmalloc(cap)) == NULL)
		return -ENOMEM;
	vfree(text);
	text = t;
	ntext = 0;
	for (i = 0; i < nksym; i++)
		if (cap - ntext > 200)
			ntext += scnprintf(text + ntext, cap - ntext, "%016lx %s %s\n", (unsigned long)ksym[i].addr, ksym[i].name, ksym[i].obj);
	return 0;
}

/* Symdenied + the reason s may never be traced, or Symok */
static u32
denied(const Ksym *s)
{
	size_t i;

	if (strcmp(s->obj, "devtrace") == 0)
		return Symdenied + 0;
	for (i = 0; i < ARRAY_SIZE(deny); i++)
		if (globmatch(deny[i], s->name))
			return Symdenied + 1;
	return Symok;
}

/*
 * A site at the function's entry, as its bytes show: its first
 * instruction (after IBT's ENDBR64 where the kernel has IBT: kver.h)
 * is the 5-byte NOP that -mfentry left (or the call ftrace made of
 * it).  ftrace alone would also take a symbol whose site lies further
 * on, in another function's name: __x64_sys_getppid for
 * __do_sys_getppid's.
 */
static int
entrysite(unsigned long at)
{
	static const u8 nop5[] = { BYTES_NOP5 };	/* the ISA's bytes are the kernel's headers' (arch-only) */
	u8 b[5];
	u32 w;

	if (copy_from_kernel_nofault(&w, (void *)at, sizeof w) == 0 && is_endbr(w))
		at += sizeof w;
	return copy_from_kernel_nofault(b, (void *)at, sizeof b) == 0 &&
		(b[0] == CALL_INSN_OPCODE || memcmp(b, nop5, sizeof b) == 0);
}

/*
 * Which of ips[0..n) ftrace takes as sites (notrace, __init gone, a
 * static branch's NOP: refused), ok[i] set for those: one filter for
 * all, reset each time; one refused address refuses the lot, so each
 * half is asked again.  A few refused in tens of thousands: a few
 * dozen asks, where one ask per function copied a growing filter.
 */
static void
asksites(unsigned long *ips, u8 *ok, int n)
{
	if (n == 0)
		return;
	if (ftrace_set_filter_ips(&probe, ips, n, 0, 1) == 0) {
		memset(ok, 1, n);
		return;
	}
	if (n == 1)
		return;
	asksites(ips, ok, n / 2);
	asksites(ips + n / 2, ok + n / 2, n - n / 2);
}

/* the functions not classified yet: denied, no site, or a site (Symok); the probe's filter emptied after */
static int
classify(void)
{
	unsigned long *ips;
	int *at, i, n = 0;
	u8 *ok;

	if ((ips = vmalloc(sizeof *ips * (nksym + 1))) == NULL)
		return -ENOMEM;
	at = vmalloc(sizeof *at * (nksym + 1));
	ok = vzalloc(nksym + 1);
	if (at == NULL || ok == NULL) {
		vfree(ok);
		vfree(at);
		vfree(ips);
		return -ENOMEM;
	}
	for (i = 0; i < nksym; i++) {
		if (ksym[i].why != Unasked)
			continue;
		ksym[i].why = denied(&ksym[i]);
		if (ksym[i].why != Symok)
			continue;
		ksym[i].why = Symnosite;
		if (entrysite(ksym[i].addr)) {
			at[n] = i;
			ips[n++] = ksym[i].addr;
		}
	}
	asksites(ips, ok, n);
	ftrace_set_filter_ips(&probe, ips, 0, 0, 1);	/* emptied: the filter held the last ask */
	for (i = 0; i < n; i++)
		if (ok[i])
			ksym[at[i]].why = Symok;
	vfree(ok);
	vfree(at);
	vfree(ips);
	return 0;
}

int
symsload(void)
{
	char *p, *nl, *sp, *name, *obj, type;
	unsigned long addr;
	size_t len;
	int e, n;

	if ((e = slurp(&len)) != 0)
		return e;
	for (n = 0, p = raw; (p = strchr(p, '\n')) != NULL; p++)
		n++;
	if ((ksym = vzalloc(sizeof *ksym * (n + 1))) == NULL)
		return -ENOMEM;
	for (p = raw; *p; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL)
			break;
		*nl = 0;
		/* "ADDR T NAME" or "ADDR t NAME\t[MODULE]" */
		if ((sp = strchr(p, ' ')) == NULL || sp[1] == 0 || sp[2] != ' ')
			continue;
		*sp = 0;
		type = sp[1];
		name = sp + 3;
		obj = "vmlinux";
		if ((sp = strchr(name, '\t')) != NULL) {
			*sp++ = 0;
			if (*sp == '[') {
				obj = sp + 1;
				if ((sp = strchr(obj, ']')) != NULL)
					*sp = 0;
			}
		}
		if (kstrtoul(p, 16, &addr) != 0 || addr == 0)
			continue;
		if (strcmp(name, "_text") == 0)
			ktext = addr;
		/* devtrace's own init text is freed once loaded: a module loaded later may take its addresses */
		if ((type != 't' && type != 'T') || within_module_init(addr, THIS_MODULE))
			continue;
		ksym[nksym].addr = addr;
		ksym[nksym].name = name;
		ksym[nksym].obj = obj;
		ksym[nksym].why = Unasked;
		nksym++;
	}
	if (nksym == 0 || ktext == 0) {
		pr_err("devtrace: /proc/kallsyms shows no addresses (kptr_restrict, or not root)\n");
		symsfree();
		return -EPERM;
	}
	sort(ksym, nksym, sizeof *ksym, cmpsym, NULL);
	if ((e = classify()) != 0 || (e = maketext()) != 0)
		symsfree();
	return e;
}

/*
 * A module's functions in, from its own symbol table (a module loaded
 * after devtrace: mods.c at MODULE_STATE_COMING, its init text left
 * out, since it is freed once init ran), or out (at MODULE_STATE_GOING,
 * before its text is freed).  Their names are copied: the table that
 * holds them at COMING is freed with the init text.
 */
static Kmod *kmods;

static int
modin(struct module *m)
{
	struct mod_kallsyms *ks = rcu_dereference_protected(m->kallsyms, 1);	/* a COMING module's: nothing changes it */
	unsigned long a;
	const char *name;
	size_t len = 0;
	Ksym *v;
	Kmod *k;
	char *p;
	int i, e, n = 0;

	for (i = 0; i < ks->num_symtab; i++)
		if (modfunc(m, ks, i, &a, &name)) {
			n++;
			len += strlen(name) + 1;
		}
	if (n == 0)
		return 0;
	if ((k = kvzalloc(sizeof *k + len, GFP_KERNEL)) == NULL)
		return -ENOMEM;
	if ((v = vzalloc(sizeof *v * (nksym + n + 1))) == NULL) {
		kvfree(k);
		return -ENOMEM;
	}
	strscpy(k->obj, m->name, sizeof k->obj);
	memcpy(v, ksym, sizeof *v * nksym);
	p = k->names;
	for (i = 0, n = nksym; i < ks->num_symtab; i++)
		if (modfunc(m, ks, i, &a, &name)) {
			v[n].addr = a;
			v[n].name = strcpy(p, name);
			v[n].obj = k->obj;
			v[n].why = Unasked;
			p += strlen(name) + 1;
			n++;
		}
	sort(v, n, sizeof *v, cmpsym, NULL);
	vfree(ksym);
	ksym = v;
	nksym = n;
	k->next = kmods;
	kmods = k;
	if ((e = classify()) != 0)
		return e;
	return maketext();
}

/* its functions out of ksym, its names freed */
static int
modout(struct module *m)
{
	Kmod **l, *k;
	int i, n = 0;

	for (i = 0; i < nksym; i++)
		if (strcmp(ksym[i].obj, m->name) != 0)
			ksym[n++] = ksym[i];
	if (n == nksym)
		return 0;
	nksym = n;
	for (l = &kmods; (k = *l) != NULL; l = &k->next)
		if (strcmp(k->obj, m->name) == 0) {
			*l = k->next;
			kvfree(k);
			break;
		}
	return maketext();
}

int
symsmod(struct module *m, int in)
{
	return in ? modin(m) : modout(m);
}

void
symsfree(void)
{
	Kmod *k;

	while ((k = kmods) != NULL) {
		kmods = k->next;
		kvfree(k);
	}
	ftrace_free_filter(&probe);
	vfree(text);
	vfree(ksym);
	vfree(raw);
	text = NULL;
	ksym = NULL;
	raw = NULL;
	nksym = 0;
	ntext = 0;
}

const char *
symstext(size_t *n)
{
	*n = ntext;
	return text;
}

const Devsyms *
symstab(void)
{
	static Devsyms t = { .why = denywhy, .nwhy = ARRAY_SIZE(denywhy), .nosite = nosite };

	t.sym = ksym;
	t.n = nksym;
	return &t;
}

/* the name of the function whose entry is pc, the first of its aliases (as want() in hooks.c takes it), or NULL */
const char *
symname(uint64_t pc)
{
	int lo = 0, hi = nksym;

	while (lo < hi) {	/* the first at or above pc */
		int m = lo + (hi - lo) / 2;

		if (ksym[m].addr < pc)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < nksym && ksym[lo].addr == pc ? ksym[lo].name : NULL;
}
