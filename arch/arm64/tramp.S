/*
 * tramp.S: the arm64 trampolines between hook sites and the runtime.
 *
 * devtrace_entry is reached from a site's stub (site.h) at the entry of
 * a traced function, before its prologue: sp is the function's entry
 * sp, x9 its return address (the site's mov x9, x30), x30 leads back
 * into the function (after the site's bl), w16 is the site.  It saves
 * every register that can carry an argument (x0-x7, x8 for an indirect
 * result, q0-q7), stores x9 in the return slot, the word just below the
 * entry sp, and calls
 *	devtrace_hook(site, &return slot, saved registers)
 * which may replace the slot's word with devtrace_return.  It goes back
 * into the function with x30 = the slot's word: the function then saves
 * and returns through whatever it holds.  Everything the function can
 * see comes back as it was; x9, x16 and x17 are dead at an entry.
 *
 * The slot's address is what the shadow stack knows a call by: it is
 * the same for a function and for what it tail-calls (both are entered
 * with one sp), and the same again when the function returns to
 * devtrace_return (sp is back to the entry sp).
 *
 * devtrace_return is where a redirected function returns to, with sp
 * its entry sp.  It saves the return registers (x0-x7, q0-q3), calls
 *	devtrace_unhook(&return slot, saved registers)
 * which writes the X record and gives back the true return address,
 * and returns there.
 *
 * Both start with bti c (a NOP where branch protection is off): the
 * stubs reach devtrace_entry through br x17.
 */
	.text

	.globl	devtrace_entry
	.hidden	devtrace_entry
	.type	devtrace_entry, %function
	.p2align 4
devtrace_entry:
	.cfi_startproc
	hint	#34			/* bti c */
	stp	x29, x30, [sp, #-240]!
	.cfi_def_cfa_offset 240
	.cfi_offset x29, -240
	.cfi_offset x30, -232
	mov	x29, sp
	stp	x0, x1, [sp, #16]
	stp	x2, x3, [sp, #32]
	stp	x4, x5, [sp, #48]
	stp	x6, x7, [sp, #64]
	str	x8, [sp, #80]
	stp	q0, q1, [sp, #96]
	stp	q2, q3, [sp, #128]
	stp	q4, q5, [sp, #160]
	stp	q6, q7, [sp, #192]
	str	x9, [sp, #232]		/* the return slot: entry sp - 8 */
	mov	w0, w16
	add	x1, sp, #232
	add	x2, sp, #16
	bl	devtrace_hook
	ldp	x0, x1, [sp, #16]
	ldp	x2, x3, [sp, #32]
	ldp	x4, x5, [sp, #48]
	ldp	x6, x7, [sp, #64]
	ldr	x8, [sp, #80]
	ldp	q0, q1, [sp, #96]
	ldp	q2, q3, [sp, #128]
	ldp	q4, q5, [sp, #160]
	ldp	q6, q7, [sp, #192]
	ldr	x9, [sp, #232]		/* the return address, or devtrace_return */
	ldp	x29, x17, [sp], #240	/* x17: back into the function */
	.cfi_def_cfa_offset 0
	.cfi_restore x29
	.cfi_register x30, x17
	mov	x30, x9
	ret	x17
	.cfi_endproc
	.size	devtrace_entry, .-devtrace_entry

	.globl	devtrace_return
	.hidden	devtrace_return
	.type	devtrace_return, %function
	.p2align 4
devtrace_return:
	.cfi_startproc
	.cfi_undefined x30		/* the caller is on the shadow stack: unwinders stop here */
	hint	#34			/* bti c */
	stp	x29, x30, [sp, #-160]!
	.cfi_def_cfa_offset 160
	mov	x29, sp
	stp	x0, x1, [sp, #16]
	stp	x2, x3, [sp, #32]
	stp	x4, x5, [sp, #48]
	stp	x6, x7, [sp, #64]
	stp	q0, q1, [sp, #80]
	stp	q2, q3, [sp, #112]
	add	x0, sp, #152		/* the return slot: entry sp - 8, as devtrace_entry had it */
	add	x1, sp, #16
	bl	devtrace_unhook
	mov	x30, x0			/* the true return address */
	ldp	x0, x1, [sp, #16]
	ldp	x2, x3, [sp, #32]
	ldp	x4, x5, [sp, #48]
	ldp	x6, x7, [sp, #64]
	ldp	q0, q1, [sp, #80]
	ldp	q2, q3, [sp, #112]
	ldr	x29, [sp], #160
	ret
	.cfi_endproc
	.size	devtrace_return, .-devtrace_return

/* devtrace_probe's save area: x0-x18 at sp+16 (regs[0..18], Rarg0), q0-q31 at sp+176; op str or ldr */
	.macro	probesave op
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18
	\op	x\i, [sp, #16 + 8 * \i]
	.endr
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	\op	q\i, [sp, #176 + 16 * \i]
	.endr
	.endm

/*
 * devtrace_probe is reached from a probe's stub (site.h), anywhere in
 * a function: x30 leads back into the stub (which saved the function's
 * x30), w16 is the site, the probe's values are in x0-x3.  The
 * function's registers are all live here but x16, x17 and the flags
 * (arch/probe.h tells the compiler so): every call-clobbered one is
 * saved (x0-x15, x18, q0-q31) around
 *	devtrace_probehook(site, saved registers)
 */
	.globl	devtrace_probe
	.hidden	devtrace_probe
	.type	devtrace_probe, %function
	.p2align 4
devtrace_probe:
	.cfi_startproc
	hint	#34			/* bti c */
	sub	sp, sp, #688
	.cfi_def_cfa_offset 688
	stp	x29, x30, [sp]
	.cfi_offset x29, -688
	.cfi_offset x30, -680
	mov	x29, sp
	probesave str
	mov	w0, w16
	add	x1, sp, #16
	bl	devtrace_probehook
	probesave ldr
	ldp	x29, x30, [sp]
	add	sp, sp, #688
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size	devtrace_probe, .-devtrace_probe

	.section .note.GNU-stack,"",%progbits
