/*
 * main.c: devtrace.ko's life.  Load: the kernel's symbols, the device,
 * the hooks' tables, then the files (last: nothing reaches the device
 * before it is whole).  Unload: the files are gone already (an open one
 * holds the module), then every hook off and every handler finished,
 * then the pending wake-up, then the memory.
 */
#include "k.h"
#include <linux/module.h>
#include <linux/vmalloc.h>
#include <asm/tsc.h>

/*
 * 13: 8192 records (512 KiB) a ring, 4 rings a CPU (task, softirq,
 * hardirq, NMI) and the shared one, all vmalloc'd and zeroed at load:
 * 2 MiB a CPU, about ftrace's 1.4 MiB a CPU.  logmax=16 as user space's
 * default costs 16 MiB a CPU.
 */
static int logmax = 13;
module_param(logmax, int, 0444);
MODULE_PARM_DESC(logmax, "ring size, log2 records, of each of the 4 rings a CPU (4..20; size up to it at run time)");

/*
 * 2: each session is a Dev with rings as large as the top level's (up
 * to Logsess), all in the one block vmalloc'd and zeroed at load: 2 MiB
 * a CPU each at logmax 13.  Two sessions beside the top level are what
 * a tracer and a monitor running at once need; up to 8 (user space's)
 * at a cost of as much memory each.
 */
static int sessions = 2;
module_param(sessions, int, 0444);
MODULE_PARM_DESC(sessions, "sessions besides the top level (0..8), each with rings as large as the top level's");

static int __init
devtraceinit(void)
{
	int e;

	if (logmax < Logmin || logmax > Logmax || sessions < 0 || sessions > Nsess)
		return -EINVAL;
	if ((e = symsload()) != 0)
		return e;
	klogmax = logmax;
	knring = Nctx * nr_cpu_ids;	/* a ring per CPU and context: hooks.c binds each Writer to its own */
	if (knring > Nringmax) {
		symsfree();
		return -EINVAL;
	}
	ksess = sessions;
	if ((kdev = vzalloc(devblocksize(logmax, knring, ksess))) == NULL) {
		symsfree();
		return -ENOMEM;
	}
	devinit(kdev, logmax, knring, (uint64_t)tsc_khz * 1000);
	devsessinit(kdev, ksess);
	devmapped(kdev, klogmax, knring, ksess);
	devhostrules(kdev, Rulenoblock | Ruletext, ktext);	/* ctl.c: a probe may not wait; trace _text+OFF (sessions: ctl.c's kclone) */
	if ((e = hooksinit()) != 0)
		goto bad;
	if ((e = modsinit()) != 0) {
		hooksexit();
		goto bad;
	}
	if ((e = filesinit()) != 0) {
		modsexit();
		hooksexit();
		goto bad;
	}
	return 0;
bad:
	devunmapped(kdev);
	vfree(kdev);
	symsfree();
	return e;
}

static void __exit
devtraceexit(void)
{
	filesexit();
	modsexit();	/* no module event after this: none reaches the hooks below */
	hooksoff();
	hooksexit();
	kwakesync();
	argnamesexit();
	devunmapped(kdev);
	vfree(kdev);
	symsfree();
}

module_init(devtraceinit);
module_exit(devtraceexit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("devtrace: /dev/tracectl and /dev/trace for the running kernel");
