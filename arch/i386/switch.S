/*
 * __switch_to_asm(prev_sp, next_sp, prev): the i386 context switch.
 * Only the callee-saved registers need saving: the C caller assumes the
 * others are clobbered by any call. Returns prev in EAX of the new task.
 */
	.text
	.globl __switch_to_asm
__switch_to_asm:
	movl	4(%esp), %eax		/* where to save our stack pointer */
	movl	8(%esp), %edx		/* the stack to continue on */
	movl	12(%esp), %ecx		/* the task we are leaving */
	pushl	%ebp
	pushl	%ebx
	pushl	%esi
	pushl	%edi
	movl	%esp, (%eax)
	movl	%edx, %esp
	popl	%edi
	popl	%esi
	popl	%ebx
	popl	%ebp
	movl	%ecx, %eax
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
	.cfi_undefined eip
	pushl	%eax
	call	schedule_tail
	addl	$4, %esp
	ret
	.cfi_endproc
