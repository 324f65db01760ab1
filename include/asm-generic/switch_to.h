/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The context switch as every arch does it here: a task that is not
 * running keeps its callee-saved registers on its own stack, and its stack
 * pointer in thread.sp. The arch writes __switch_to_asm() (switch.S) and
 * says in asm/switch_to.h which registers it saves.
 */
#ifndef _ASM_GENERIC_SWITCH_TO_H
#define _ASM_GENERIC_SWITCH_TO_H

struct task_struct;

struct thread_struct {
	unsigned long sp;
};

/*
 * Saves the running context into *prev_sp, continues the one saved at
 * next_sp, and returns (in the continued task) the task it came from.
 */
asmlinkage struct task_struct *__switch_to_asm(unsigned long *prev_sp,
					       unsigned long next_sp,
					       struct task_struct *prev);

#define switch_to(prev, next) \
	__switch_to_asm(&(prev)->thread.sp, (next)->thread.sp, (prev))

#endif
