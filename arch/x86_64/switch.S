/*
 * __switch_to_asm(prev_sp, next_sp, prev): the x86_64 context switch
 * (arguments in RDI, RSI, RDX). Only the callee-saved registers need
 * saving: the C caller assumes the others are clobbered by any call. The
 * kernel has no FPU or SSE state (-mgeneral-regs-only). Returns prev in
 * RAX of the new task.
 */
	.text
	.globl __switch_to_asm
__switch_to_asm:
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, (%rdi)
	movq	%rsi, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	movq	%rdx, %rax
	ret

/*
 * A new task's first switch "returns" here (see arch_task_setup): finish
 * the switch for the task we came from, then go to the entry function
 * that arch_task_setup left on the stack.
 */
	.globl ret_from_fork
	.cfi_sections .debug_frame
ret_from_fork:
	.cfi_startproc			/* for gdb: a new task's outermost frame */
	.cfi_undefined rip
	movq	%rax, %rdi
	call	schedule_tail
	ret
	.cfi_endproc
