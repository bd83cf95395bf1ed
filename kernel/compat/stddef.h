/* stddef.h for dev/ inside the kernel: size_t and offsetof from linux/ */
#include <linux/types.h>
#include <linux/stddef.h>
/*
 * dev/ writes __attribute__((noinline)); the kernel's noinline is a macro
 * that would expand inside it.  dev/'s files include nothing of the
 * kernel's after this; the host's files (k.h first) keep the macro.
 */
#ifndef DEVTRACE_KHOST
#undef noinline
#endif
