/*
 * kver.h: what differs between the kernels devtrace.ko builds for, in
 * one place.  Tested: Debian 12's 6.1 and 6.12 (bookworm-backports, the
 * series of Debian 13).  Between them the interfaces the module uses are
 * the same but for these:
 *
 *  - fprobe: in 6.1 its entry handler returns nothing (every call's
 *    return is hooked) and Debian's 6.1 has no CONFIG_FPROBE; from 6.5
 *    an entry handler's nonzero answer skips the exit; 6.14 moved it onto
 *    the function graph tracer with other arguments.  KFPROBE: fprobe.c
 *    is built and `exits=fprobe` is the default; else kretprobes (krp.c).
 *  - IBT (6.12's X86_KERNEL_IBT): an ENDBR64 (or its poison, a NOP)
 *    before the ftrace site; syms.c skips it with the kernel's is_endbr.
 *  - no_llseek is gone from 6.12: files.c's streams are stream_open'd,
 *    which refuses a seek on both.
 */
#include <linux/version.h>

#if defined(CONFIG_FPROBE) && LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0) && LINUX_VERSION_CODE < KERNEL_VERSION(6, 14, 0)
#define KFPROBE 1
#else
#define KFPROBE 0
#endif
