/*
 * __switch_to_asm(prev_sp, next_sp, prev): the RISC-V context switch.
 * Only the callee-saved registers need saving (the C caller assumes a
 * call clobbers the others): ra and s0-s11, on the stack of the task we
 * leave. The layout is SWITCH_FRAME_* in asm/switch_to.h. Returns prev
 * in a0 of the task we continue.
 */
#include <asm/switch_to.h>

	.text
	.globl __switch_to_asm
__switch_to_asm:
	addi	sp, sp, -SWITCH_FRAME_WORDS * 8
	sd	ra, 0(sp)
	.irp n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
	sd	s\n, (\n + 1) * 8(sp)
	.endr
	sd	sp, 0(a0)
	mv	sp, a1
	/* drop an lr reservation of the task we leave (stores ra again) */
	ld	t0, 0(sp)
	sc.d	zero, t0, 0(sp)
	ld	ra, 0(sp)
	.irp n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
	ld	s\n, (\n + 1) * 8(sp)
	.endr
	addi	sp, sp, SWITCH_FRAME_WORDS * 8
	mv	a0, a2
	ret

/*
 * A new task's first switch "returns" here (see arch_task_setup): finish
 * the switch for the task we came from, then call the entry function
 * that arch_task_setup left in s1. s0 is 0, so backtraces end there.
 */
	.globl ret_from_fork
	.cfi_sections .debug_frame
ret_from_fork:
	.cfi_startproc			/* for gdb: a new task's outermost frame */
	.cfi_undefined ra
	call	schedule_tail		/* a0: the task we came from */
	li	s0, 0
	jalr	s1
	.cfi_endproc
1:	j	1b			/* the entry function does not return */
