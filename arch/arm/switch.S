/*
 * __switch_to_asm(prev_sp, next_sp, prev): the ARM context switch. Only
 * the callee-saved registers need saving (the C caller assumes a call
 * clobbers the others): r4-r11 and the return address, on the stack of
 * the task we leave. The layout is SWITCH_FRAME_* in asm/switch_to.h.
 * Returns prev in r0 of the task we continue.
 */
	.text
	.arm
	.globl __switch_to_asm
__switch_to_asm:
	push	{r4-r11, lr}
	str	sp, [r0]
	mov	sp, r1
	mov	r0, r2
	clrex				@ an exclusive reservation stays behind
	pop	{r4-r11, pc}

/*
 * A new task's first switch "returns" here (see arch_task_setup): finish
 * the switch for the task we came from, then call the entry function
 * that arch_task_setup left in r4. fp is 0, so backtraces end there.
 */
	.globl ret_from_fork
	.cfi_sections .debug_frame
ret_from_fork:
	.cfi_startproc			@ for gdb: a new task's outermost frame
	.cfi_undefined lr
	bl	schedule_tail		@ r0: the task we came from
	mov	fp, #0
	blx	r4
	.cfi_endproc
1:	b	1b			@ the entry function does not return
