/*
 * devtrace/probe.h: static probes for programs traced by devtrace
 * (installed as <devtrace/probe.h>; devtrace-cc puts it on the include
 * path).  DEVTRACE_PROBE(name, a0, a1, a2, a3), with 0 to 4 values,
 * leaves a probe site where it stands: the same NOPs as a function
 * site, which the runtime makes a skip-branch in front of a jump to the
 * probe's stub; while its trace is off the program runs one jump.  The
 * values are integers or pointers, passed in the registers of a call's
 * first four arguments, so the compiler keeps them live up to the site;
 * values not given are recorded as 0 and cost nothing.
 * The probe's name in the symbol file is PROVIDER:name, PROVIDER being
 * DEVTRACE_PROVIDER (a string, "probe" unless defined before this
 * header).  A program not built for devtrace's ISAs gets no site: the
 * values are evaluated and dropped.
 *
 * Each site is named in the section devtrace_probes: an 8-aligned
 * address of the site, a byte of how many values it has, then its name
 * with a NUL (rt/elftab.c reads it).
 * This file is the only one outside arch/ISA/ that knows an ISA: it is
 * installed alone.
 */
#ifndef DEVTRACE_PROBE_H
#define DEVTRACE_PROBE_H

#ifndef DEVTRACE_PROVIDER
#define DEVTRACE_PROVIDER "probe"
#endif

/* the values after the name (0 to 4) pick DEVTRACE_PROBE_N */
#define DEVTRACE_PROBE(...) DEVTRACE_PROBE_CAT(DEVTRACE_PROBE_, DEVTRACE_PROBE_COUNT(__VA_ARGS__, 4, 3, 2, 1, 0, -))(__VA_ARGS__)
#define DEVTRACE_PROBE_COUNT(name, a, b, c, d, n, ...) n
#define DEVTRACE_PROBE_CAT(a, b) DEVTRACE_PROBE_CAT_(a, b)
#define DEVTRACE_PROBE_CAT_(a, b) a##b
#define DEVTRACE_PROBE_V(v) ((__UINT64_TYPE__)(v))

/* the section's entry: the site's address, how many values, the name */
#define DEVTRACE_PROBE_ENTRY(sled, n, name) \
	"\t.pushsection devtrace_probes, \"aw\"\n" \
	"\t.balign 8\n" \
	"\t.quad " sled "\n" \
	"\t.byte " #n "\n" \
	"\t.asciz \"" DEVTRACE_PROVIDER ":" #name "\"\n" \
	"\t.popsection\n"

#if defined(__x86_64__)
/*
 * amd64: one 7-byte NOP (the site), the values in rdi rsi rdx rcx; the
 * stub clobbers r11 and the flags and keeps everything else, the red
 * zone included (arch/amd64/site.h).  A probe with fewer values loads
 * only those: the runtime records 0 for the others.
 */
#define DEVTRACE_PROBE_ASM(name, n, ...) \
	__asm__ __volatile__("990:\t.byte 0x0f, 0x1f, 0x80, 0, 0, 0, 0\n" DEVTRACE_PROBE_ENTRY("990b", n, name) \
		: : __VA_ARGS__ : "r11", "cc")
#define DEVTRACE_PROBE_0(name) DEVTRACE_PROBE_ASM(name, 0, )
#define DEVTRACE_PROBE_1(name, a) DEVTRACE_PROBE_ASM(name, 1, "D"(DEVTRACE_PROBE_V(a)))
#define DEVTRACE_PROBE_2(name, a, b) \
	DEVTRACE_PROBE_ASM(name, 2, "D"(DEVTRACE_PROBE_V(a)), "S"(DEVTRACE_PROBE_V(b)))
#define DEVTRACE_PROBE_3(name, a, b, c) \
	DEVTRACE_PROBE_ASM(name, 3, "D"(DEVTRACE_PROBE_V(a)), "S"(DEVTRACE_PROBE_V(b)), "d"(DEVTRACE_PROBE_V(c)))
#define DEVTRACE_PROBE_4(name, a, b, c, d) \
	DEVTRACE_PROBE_ASM(name, 4, "D"(DEVTRACE_PROBE_V(a)), "S"(DEVTRACE_PROBE_V(b)), "d"(DEVTRACE_PROBE_V(c)), \
		"c"(DEVTRACE_PROBE_V(d)))
#elif defined(__aarch64__)
/*
 * arm64: three NOPs (the site), the values in x0-x3 (computed first,
 * then put there); the stub clobbers x16, x17 and the flags and keeps
 * everything else (arch/arm64/site.h).
 */
#define DEVTRACE_PROBE_ASM(name, n, ...) \
	__asm__ __volatile__("990:\tnop\n\tnop\n\tnop\n" DEVTRACE_PROBE_ENTRY("990b", n, name) \
		: : __VA_ARGS__ : "x16", "x17", "cc")
#define DEVTRACE_PROBE_X(k, v) register __UINT64_TYPE__ devtrace_x##k __asm__("x" #k) = (v)
#define DEVTRACE_PROBE_0(name) DEVTRACE_PROBE_ASM(name, 0, )
#define DEVTRACE_PROBE_1(name, a) do { \
	__UINT64_TYPE__ devtrace_a = DEVTRACE_PROBE_V(a); \
	DEVTRACE_PROBE_X(0, devtrace_a); \
	DEVTRACE_PROBE_ASM(name, 1, "r"(devtrace_x0)); \
} while (0)
#define DEVTRACE_PROBE_2(name, a, b) do { \
	__UINT64_TYPE__ devtrace_a = DEVTRACE_PROBE_V(a), devtrace_b = DEVTRACE_PROBE_V(b); \
	DEVTRACE_PROBE_X(0, devtrace_a); \
	DEVTRACE_PROBE_X(1, devtrace_b); \
	DEVTRACE_PROBE_ASM(name, 2, "r"(devtrace_x0), "r"(devtrace_x1)); \
} while (0)
#define DEVTRACE_PROBE_3(name, a, b, c) do { \
	__UINT64_TYPE__ devtrace_a = DEVTRACE_PROBE_V(a), devtrace_b = DEVTRACE_PROBE_V(b), \
		devtrace_c = DEVTRACE_PROBE_V(c); \
	DEVTRACE_PROBE_X(0, devtrace_a); \
	DEVTRACE_PROBE_X(1, devtrace_b); \
	DEVTRACE_PROBE_X(2, devtrace_c); \
	DEVTRACE_PROBE_ASM(name, 3, "r"(devtrace_x0), "r"(devtrace_x1), "r"(devtrace_x2)); \
} while (0)
#define DEVTRACE_PROBE_4(name, a, b, c, d) do { \
	__UINT64_TYPE__ devtrace_a = DEVTRACE_PROBE_V(a), devtrace_b = DEVTRACE_PROBE_V(b), \
		devtrace_c = DEVTRACE_PROBE_V(c), devtrace_d = DEVTRACE_PROBE_V(d); \
	DEVTRACE_PROBE_X(0, devtrace_a); \
	DEVTRACE_PROBE_X(1, devtrace_b); \
	DEVTRACE_PROBE_X(2, devtrace_c); \
	DEVTRACE_PROBE_X(3, devtrace_d); \
	DEVTRACE_PROBE_ASM(name, 4, "r"(devtrace_x0), "r"(devtrace_x1), "r"(devtrace_x2), "r"(devtrace_x3)); \
} while (0)
#else
/* no site: the values are evaluated and dropped */
#define DEVTRACE_PROBE_0(name) ((void)0)
#define DEVTRACE_PROBE_1(name, a) ((void)(a))
#define DEVTRACE_PROBE_2(name, a, b) ((void)(a), (void)(b))
#define DEVTRACE_PROBE_3(name, a, b, c) ((void)(a), (void)(b), (void)(c))
#define DEVTRACE_PROBE_4(name, a, b, c, d) ((void)(a), (void)(b), (void)(c), (void)(d))
#endif

#endif
