/*
 * site.h: the arm64 hook site's constants (the interface: arch/arch.h).
 * The compiler leaves Sledlen bytes of NOPs at each function entry
 * (-fpatchable-function-entry=3,0; after the bti c when branch
 * protection is on).  The runtime turns each sled, once, into a
 * skip-branch in front of a live call, as Linux's arm64 ftrace keeps
 * the return address in x9:
 *
 *	off:	B .+12		mov x9, x30	bl stub
 *	on:	NOP		mov x9, x30	bl stub
 *
 * so that switching a site is one aligned 4-byte store (Flipoff) of an
 * instruction the architecture lets a store replace under running
 * threads (B and NOP are both in the list of ARM ARM B2.2.5).  The bl
 * goes to the site's own stub, within its reach (128 MiB) of the object:
 *
 *	movz w16, #site		movk w16, #site>>16, lsl 16
 *	adrp x17, page		ldr x17, [x17]		br x17
 *
 * (the stub page's first quadword is devtrace_entry's address), and the
 * stub to devtrace_entry (tramp.S) with the site's number in w16.  x9,
 * x16 and x17 are dead at a function's entry: no argument is in them.
 *
 * A probe site (arch/probe.h) is the same three words anywhere in a
 * function, switched by the same word: B .+12 (off) or NOP (on), then
 * b probestub, NOP.  The probe's stub (after the functions' stubs)
 * keeps x30, calls devtrace_probe (the page's second quadword) with the
 * site in w16, and branches back behind the site:
 *
 *	stp x29, x30, [sp, #-16]!	movz w16	movk w16
 *	adrp x17, page	ldr x17, [x17, #8]	blr x17
 *	ldp x29, x30, [sp], #16		b site+12
 */
#ifndef DEVTRACE_SITE_H
#define DEVTRACE_SITE_H

enum {
	Sledlen = 12,	/* bytes of a site: three instructions */
	Flipoff = 0,	/* the instruction that switches it */
	Fliplen = 4,
	Stublen = 20,	/* bytes of a stub: five instructions */
	Stubhdr = 16,	/* the stub page's header: the entries' addresses */
	Probestublen = 32,	/* bytes of a probe's stub: eight instructions */
	/* the trampolines' saved registers, as the hooks see them (tramp.S) */
	Rarg0 = 0,	/* x0 x1 x2 x3: the first four integer arguments */
	Rret = 0,	/* x0, in the return trampoline's save area */
};

#endif
