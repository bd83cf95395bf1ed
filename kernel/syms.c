/*
 * syms.c: the kernel's functions.  kallsyms_lookup_name and its kin are
 * not exported to modules, so the module reads /proc/kallsyms once at
 * load (as root, insmod's credentials show the addresses), keeps the
 * text symbols sorted by address, and serves them as the symbol file
 * in the format scripts/name reads.  Modules loaded later are not seen
 * until the module is loaded again.
 */
#include "k.h"
#include <linux/fs.h>
#include <linux/mman.h>
#include <linux/mm.h>
#include <linux/uaccess.h>
#include <linux/ftrace.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
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

int
symsload(void)
{
	char *p, *nl, *sp, *name, *obj, type;
	unsigned long addr;
	size_t len, cap;
	int e, i, n;

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
		if (type != 't' && type != 'T')
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
	cap = (size_t)nksym * 96;
	if ((text = vmalloc(cap)) == NULL) {
		symsfree();
		return -ENOMEM;
	}
	for (i = 0; i < nksym; i++)
		if (cap - ntext > 200)
			ntext += scnprintf(text + ntext, cap - ntext, "%016lx %s %s\n", ksym[i].addr, ksym[i].name, ksym[i].obj);
	return 0;
}

void
symsfree(void)
{
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
 * A site at the function's entry: its first instruction is the 5-byte
 * NOP that -mfentry left (or the call ftrace made of it), and ftrace
 * takes it (notrace, __init gone, not a function: refused).  ftrace
 * alone would also take a symbol whose site lies further on, in another
 * function's name: __x64_sys_getppid for __do_sys_getppid's.
 */
int
symtraceable(Ksym *s)
{
	static const u8 nop5[] = { BYTES_NOP5 };	/* the ISA's bytes are the kernel's headers' (arch-only) */
	u8 b[5];

	if (s->ok == 0) {
		s->ok = 2;
		if (copy_from_kernel_nofault(b, (void *)s->addr, sizeof b) == 0 &&
		    (b[0] == CALL_INSN_OPCODE || memcmp(b, nop5, sizeof b) == 0) &&
		    ftrace_set_filter_ip(&probe, s->addr, 0, 1) == 0)
			s->ok = 1;
	}
	return s->ok == 1;
}

/* the name of the function whose entry is pc, the first of its aliases (as want() in hooks.c takes it), or NULL */
const char *
symname(uint64_t pc, void *arg)
{
	int lo = 0, hi = nksym;

	(void)arg;
	while (lo < hi) {	/* the first at or above pc */
		int m = lo + (hi - lo) / 2;

		if (ksym[m].addr < pc)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < nksym && ksym[lo].addr == pc ? ksym[lo].name : NULL;
}
