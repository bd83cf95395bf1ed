/*
 * syms.c: the kernel's functions.  kallsyms_lookup_name and its kin are
 * not exported to modules, so the module reads /proc/kallsyms once at
 * load (as root, insmod's credentials show the addresses), keeps the
 * text symbols sorted by address, and serves them as the symbol file
 * in the format scripts/name reads.  Modules loaded later come and go
 * through symsmod (mods.c).
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
static struct ftrace_ops probe;	/* never registered: ftrace_set_filter_ip on it asks "is this a site?" */

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
			ntext += scnprintf(text + ntext, cap - ntext, "%016lx %s %s\n", ksym[i].addr, ksym[i].name, ksym[i].obj);
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
		nksym++;
	}
	if (nksym == 0 || ktext == 0) {
		pr_err("devtrace: /proc/kallsyms shows no addresses (kptr_restrict, or not root)\n");
		symsfree();
		return -EPERM;
	}
	sort(ksym, nksym, sizeof *ksym, cmpsym, NULL);
	if ((e = maketext()) != 0)
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
	int i, n = 0;

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
			p += strlen(name) + 1;
			n++;
		}
	sort(v, n, sizeof *v, cmpsym, NULL);
	vfree(ksym);
	ksym = v;
	nksym = n;
	k->next = kmods;
	kmods = k;
	return maketext();
}

/* its functions out of ksym (and out of the probe's filter), its names freed */
static int
modout(struct module *m)
{
	Kmod **l, *k;
	int i, n = 0;

	for (i = 0; i < nksym; i++) {
		if (strcmp(ksym[i].obj, m->name) != 0) {
			ksym[n++] = ksym[i];
			continue;
		}
		if (ksym[i].ok == 1)
			ftrace_set_filter_ip(&probe, ksym[i].addr, 1, 0);
	}
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

const char *
symdenied(const Ksym *s)
{
	size_t i;

	if (strcmp(s->obj, "devtrace") == 0)
		return "devtrace's own code";
	for (i = 0; i < ARRAY_SIZE(deny); i++)
		if (globmatch(deny[i], s->name))
			return "the tracer's own machinery (ftrace, kprobes, irq_work, text patching)";
	return NULL;
}

/*
 * A site at the function's entry: its first instruction (after IBT's
 * ENDBR64 where the kernel has IBT: kver.h) is the 5-byte NOP that
 * -mfentry left (or the call ftrace made of it), and ftrace takes it (notrace, __init gone, not a function: refused).  ftrace
 * alone would also take a symbol whose site lies further on, in another
 * function's name: __x64_sys_getppid for __do_sys_getppid's.
 */
int
symtraceable(Ksym *s)
{
	static const u8 nop5[] = { BYTES_NOP5 };	/* the ISA's bytes are the kernel's headers' (arch-only) */
	u8 b[5];
	u32 w;
	unsigned long at = s->addr;

	if (s->ok == 0) {
		s->ok = 2;
		if (copy_from_kernel_nofault(&w, (void *)at, sizeof w) == 0 && is_endbr(w))
			at += sizeof w;
		if (copy_from_kernel_nofault(b, (void *)at, sizeof b) == 0 &&
		    (b[0] == CALL_INSN_OPCODE || memcmp(b, nop5, sizeof b) == 0) &&
		    ftrace_set_filter_ip(&probe, s->addr, 0, 1) == 0)
			s->ok = 1;
	}
	return s->ok == 1;
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
