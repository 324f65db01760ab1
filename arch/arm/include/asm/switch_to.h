/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ARM context switch. A task that is not running keeps its callee-saved
 * registers (r4-r11 and the return address) on its own stack and its
 * stack pointer in thread.sp.
 */
#ifndef _ASM_ARM_SWITCH_TO_H
#define _ASM_ARM_SWITCH_TO_H

struct task_struct;

struct thread_struct {
	unsigned long sp;
};

/* Where __switch_to_asm() leaves each register, in words above thread.sp. */
#define SWITCH_FRAME_R4		0
#define SWITCH_FRAME_FP		7	/* r11 */
#define SWITCH_FRAME_LR		8
#define SWITCH_FRAME_WORDS	9

/*
 * Saves the running context into *prev_sp, continues the one saved at
 * next_sp, and returns (in the continued task) the task it came from.
 */
struct task_struct *__switch_to_asm(unsigned long *prev_sp,
				    unsigned long next_sp,
				    struct task_struct *prev);

#define switch_to(prev, next) \
	__switch_to_asm(&(prev)->thread.sp, (next)->thread.sp, (prev))

#endif
