/*
 * devtrace/probe.h: static probes for programs traced by devtrace
 * (installed as <devtrace/probe.h>; devtrace-cc puts it on the include
 * path).  DEVTRACE_PROBE(name, a0, a1, a2, a3), with 0 to 4 values,
 * leaves a probe site where it stands: the same NOPs as a function
 * site, which the runtime makes a skip-branch in front of a jump to the
 * probe's stub; while its trace is off the program runs one jump.  The
 * values are integers or pointers, passed in the registers of a call's
 * first four arguments, so the compiler keeps them live up to the site.
 * The probe's name in the symbol file is PROVIDER:name, PROVIDER being
 * DEVTRACE_PROVIDER (a string, "probe" unless defined before this
 * header).  A program not built for devtrace's ISAs gets no site: the
 * values are evaluated and dropped.
 *
 * Each site is named in the section devtrace_probes: an 8-aligned
 * address of the site, then its name with a NUL (rt/elftab.c reads it).
 * This file is the only one outside arch/ISA/ that knows an ISA: it is
 * installed alone.
 */
#ifndef DEVTRACE_PROBE_H
#define DEVTRACE_PROBE_H

#ifndef DEVTRACE_PROVIDER
#define DEVTRACE_PROVIDER "probe"
#endif

#define DEVTRACE_PROBE(...) DEVTRACE_PROBE_(__VA_ARGS__, 0, 0, 0, 0, 0)
#define DEVTRACE_PROBE_(name, a0, a1, a2, a3, ...) \
	DEVTRACE_PROBE_SITE(DEVTRACE_PROVIDER ":" #name, \
		(__UINT64_TYPE__)(a0), (__UINT64_TYPE__)(a1), (__UINT64_TYPE__)(a2), (__UINT64_TYPE__)(a3))

#define DEVTRACE_PROBE_NAME(sled, name) \
	"\t.pushsection devtrace_probes, \"aw\"\n" \
	"\t.balign 8\n" \
	"\t.quad " sled "\n" \
	"\t.asciz \"" name "\"\n" \
	"\t.popsection\n"

#if defined(__x86_64__)
/*
 * amd64: one 7-byte NOP (the site), the values in rdi rsi rdx rcx; the
 * stub clobbers r11 and the flags and keeps everything else, the red
 * zone included (arch/amd64/site.h).
 */
#define DEVTRACE_PROBE_SITE(name, a0, a1, a2, a3) \
	__asm__ __volatile__("990:\t.byte 0x0f, 0x1f, 0x80, 0, 0, 0, 0\n" DEVTRACE_PROBE_NAME("990b", name) \
		: : "D"(a0), "S"(a1), "d"(a2), "c"(a3) : "r11", "cc")
#elif defined(__aarch64__)
/*
 * arm64: three NOPs (the site), the values in x0-x3; the stub clobbers
 * x16, x17 and the flags and keeps everything else (arch/arm64/site.h).
 */
#define DEVTRACE_PROBE_SITE(name, a0, a1, a2, a3) do { \
	register __UINT64_TYPE__ devtrace_x0 __asm__("x0") = (a0); \
	register __UINT64_TYPE__ devtrace_x1 __asm__("x1") = (a1); \
	register __UINT64_TYPE__ devtrace_x2 __asm__("x2") = (a2); \
	register __UINT64_TYPE__ devtrace_x3 __asm__("x3") = (a3); \
	__asm__ __volatile__("990:\tnop\n\tnop\n\tnop\n" DEVTRACE_PROBE_NAME("990b", name) \
		: : "r"(devtrace_x0), "r"(devtrace_x1), "r"(devtrace_x2), "r"(devtrace_x3) : "x16", "x17", "cc"); \
} while (0)
#else
#define DEVTRACE_PROBE_SITE(name, a0, a1, a2, a3) \
	((void)(a0), (void)(a1), (void)(a2), (void)(a3))
#endif

#endif
