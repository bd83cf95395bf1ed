/*
 * retleaf.S: the leaves of bench/retpred.c, which measures what a
 * redirected return costs (amd64's return-stack prediction).  Each leaf
 * reads its return slot and keeps it in retsaved; leaf_plain writes it
 * back unchanged, leaf_redir writes retback there instead, a trampoline
 * that goes on to retsaved: back_jmp by an indirect jmp (as
 * devtrace_return does), back_ret by pushing it and a second ret.
 */
	.text
	.globl	leaf_plain, leaf_redir, back_jmp, back_ret

	.p2align 4
leaf_plain:
	movq	(%rsp), %rcx
	movq	%rcx, retsaved(%rip)
	movq	%rcx, (%rsp)
	leaq	1(%rdi), %rax
	ret

	.p2align 4
leaf_redir:
	movq	(%rsp), %rcx
	movq	%rcx, retsaved(%rip)
	movq	retback(%rip), %rcx
	movq	%rcx, (%rsp)
	leaq	1(%rdi), %rax
	ret

	.p2align 4
back_jmp:
	jmp	*retsaved(%rip)

	.p2align 4
back_ret:
	pushq	retsaved(%rip)
	ret

	.section .note.GNU-stack,"",@progbits
