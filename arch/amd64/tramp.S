/*
 * tramp.S: the amd64 trampolines between hook sites and the runtime.
 *
 * devtrace_entry is reached from a site's stub (site.h) at the entry of
 * a traced function, before its prologue: 0(%rsp) leads back into the
 * function, 8(%rsp) is the function's return slot, %r11d the site.
 * It saves every general register that can carry an argument (rdi rsi
 * rdx rcx r8 r9, rax for varargs, r10 for a static chain), aligns the
 * stack whatever it was given, and calls
 *	devtrace_hookfast(site, &return slot, saved registers)
 * which is built to use no vector register (hookflags) and handles the
 * usual hit; if it returns 1 + the site (a thread's first hook, an exiting
 * thread, a hook inside the runtime) it saves xmm0-7 too and calls
 *	devtrace_hook(site, &return slot, saved registers)
 * Either may replace the return slot with devtrace_return.  Everything
 * the function can see comes back as it was; r11 is dead at an entry.
 *
 * devtrace_return is where a redirected function returns to: %rsp is
 * just above the slot the function returned through.  It saves the
 * return registers (rax rdx xmm0 xmm1), calls
 *	devtrace_unhook(&return slot, saved registers)
 * which writes the X record and gives back the true return address,
 * and goes there by an indirect jmp, not a ret: the function's own ret
 * already took the return-stack entry of this call (and mispredicted,
 * the one misprediction a redirected return must cost); a second ret
 * would take its caller's entry, mispredict too, and leave the CPU's
 * return stack one entry off for every return after it (bench/retpred.c
 * measures both).
 */
	.text

/* a frame on rbp, rsp aligned to 16 whatever it was given, n bytes of save area below it */
	.macro	frame n
	endbr64
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	andq	$-16, %rsp
	subq	$\n, %rsp
	.endm
/* the registers that can carry an argument, at 0(%rsp): regs[0..7], as the hooks index them (Rarg0) */
	.macro	argsave
	.set	k, 0
	.irp	r, rdi, rsi, rdx, rcx, r8, r9, rax, r10
	movq	%\r, k(%rsp)
	.set	k, k + 8
	.endr
	.endm
	.macro	argload
	.set	k, 0
	.irp	r, rdi, rsi, rdx, rcx, r8, r9, rax, r10
	movq	k(%rsp), %\r
	.set	k, k + 8
	.endr
	.endm
/* xmm0 .. xmm(n-1) at 64(%rsp) */
	.macro	vecsave n
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	.if	\i < \n
	movaps	%xmm\i, 64 + 16 * \i(%rsp)
	.endif
	.endr
	.endm
	.macro	vecload n
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	.if	\i < \n
	movaps	64 + 16 * \i(%rsp), %xmm\i
	.endif
	.endr
	.endm

	.globl	devtrace_entry
	.hidden	devtrace_entry
	.type	devtrace_entry, @function
	.p2align 4
devtrace_entry:
	.cfi_startproc
	frame 208
	argsave
	movl	%r11d, %edi
	leaq	16(%rbp), %rsi		/* old rbp, back into the function, then the return slot */
	movq	%rsp, %rdx
	call	devtrace_hookfast
	testl	%eax, %eax
	jnz	2f
1:	argload
	movq	%rbp, %rsp
	.cfi_remember_state
	.cfi_def_cfa_register %rsp
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	ret
	.cfi_restore_state
2:	vecsave 8			/* the rare case: the vector arguments too */
	leal	-1(%rax), %edi		/* devtrace_hookfast gave back 1 + the site */
	leaq	16(%rbp), %rsi
	movq	%rsp, %rdx
	call	devtrace_hook
	vecload 8
	jmp	1b
	.cfi_endproc
	.size	devtrace_entry, .-devtrace_entry

	.globl	devtrace_return
	.hidden	devtrace_return
	.type	devtrace_return, @function
	.p2align 4
devtrace_return:
	.cfi_startproc
	.cfi_undefined %rip		/* the caller is on the shadow stack: unwinders stop here */
	endbr64
	pushq	$0			/* lands in the slot the function returned through */
	pushq	%rbp
	movq	%rsp, %rbp
	andq	$-16, %rsp
	subq	$64, %rsp
	movq	%rax, 0(%rsp)
	movq	%rdx, 8(%rsp)
	movaps	%xmm0, 16(%rsp)
	movaps	%xmm1, 32(%rsp)
	leaq	8(%rbp), %rdi
	movq	%rsp, %rsi
	call	devtrace_unhook
	movq	%rax, 8(%rbp)		/* the true return address, in the slot */
	movq	%rax, %r11		/* r11: scratch at a return, carries no value */
	movq	0(%rsp), %rax
	movq	8(%rsp), %rdx
	movaps	16(%rsp), %xmm0
	movaps	32(%rsp), %xmm1
	movq	%rbp, %rsp
	popq	%rbp
	leaq	8(%rsp), %rsp		/* the slot, as a ret would pop it */
	jmp	*%r11
	.cfi_endproc
	.size	devtrace_return, .-devtrace_return

/*
 * devtrace_probe is reached from a probe's stub (site.h), anywhere in
 * a function: 0(%rsp) leads back into the stub, %r11d is the site, the
 * probe's values are in rdi rsi rdx rcx.  The function's registers are
 * all live here but r11 and the flags (arch/probe.h tells the compiler
 * so): every call-clobbered one is saved, xmm0-15 too, around
 *	devtrace_probehook(site, saved registers)
 */
	.globl	devtrace_probe
	.hidden	devtrace_probe
	.type	devtrace_probe, @function
	.p2align 4
devtrace_probe:
	.cfi_startproc
	frame 320
	argsave
	vecsave 16
	movl	%r11d, %edi
	movq	%rsp, %rsi
	call	devtrace_probehook
	vecload 16
	argload
	movq	%rbp, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size	devtrace_probe, .-devtrace_probe

	.section .note.GNU-stack,"",@progbits
