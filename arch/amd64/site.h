/*
 * site.h: the amd64 hook site's constants (the interface: arch/arch.h).
 * The compiler leaves Sledlen bytes of NOPs at each function entry
 * (-fpatchable-function-entry=7,0; after the endbr64 when
 * -fcf-protection is on).  The runtime turns each sled, once, into a
 * skip-branch in front of a live call:
 *
 *	off:	EB 05 E8 rel32		jmp .+7; call stub
 *	on:	EB 00 E8 rel32		jmp .+2; call stub
 *
 * so that switching a site is the store of one byte (Flipoff).  The
 * call goes to the site's own stub, near the object:
 *
 *	41 BB imm32		mov $site, %r11d
 *	FF 25 rel32		jmp *entry(%rip)	(the stub page's first quadword)
 *
 * and the stub to devtrace_entry (tramp.S) with the site's number in
 * %r11d, a register that is dead at a function's entry.
 *
 * A probe site (arch/probe.h) is the same 7 bytes anywhere in a
 * function, switched by the same byte; its jump goes to a probe stub
 * (Probestublen bytes, after the functions' stubs), which steps over
 * the red zone, calls devtrace_probe (the page's second quadword) and
 * jumps back behind the site:
 *
 *	off:	EB 05 E9 rel32		jmp .+7; jmp probestub
 *	on:	EB 00 E9 rel32
 *	probestub:
 *	48 8D 64 24 80		lea -128(%rsp), %rsp
 *	41 BB imm32		mov $site, %r11d
 *	FF 15 rel32		call *probe(%rip)
 *	48 8D A4 24 80 00 00 00	lea 128(%rsp), %rsp
 *	E9 rel32		jmp site+7
 */
#ifndef DEVTRACE_SITE_H
#define DEVTRACE_SITE_H

enum {
	Sledlen = 7,	/* bytes of a site */
	Flipoff = 1,	/* the bytes that switch it */
	Fliplen = 1,
	Stublen = 16,	/* bytes of a stub */
	Stubhdr = 16,	/* the stub page's header: the entries' addresses */
	Probestublen = 32,	/* bytes of a probe's stub */
	/* the trampolines' saved registers, as the hooks see them (tramp.S) */
	Rarg0 = 0,	/* rdi rsi rdx rcx: the first four integer arguments */
	Rret = 0,	/* rax, in the return trampoline's save area */
};

#endif
