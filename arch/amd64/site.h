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
 */
#ifndef DEVTRACE_SITE_H
#define DEVTRACE_SITE_H

enum {
	Sledlen = 7,	/* bytes of a site */
	Flipoff = 1,	/* the bytes that switch it */
	Fliplen = 1,
	Stublen = 16,	/* bytes of a stub */
	Stubhdr = 16,	/* the stub page's header: the entry's address */
	/* the trampolines' saved registers, as the hooks see them (tramp.S) */
	Rarg0 = 0,	/* rdi rsi rdx rcx: the first four integer arguments */
	Rret = 0,	/* rax, in the return trampoline's save area */
};

#endif
