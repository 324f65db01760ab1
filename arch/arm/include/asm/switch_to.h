/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ARM context switch (arch/arm/switch.S) saves r4-r11 and the return
 * address on the task's stack.
 */
#ifndef _ASM_ARM_SWITCH_TO_H
#define _ASM_ARM_SWITCH_TO_H

#include <asm-generic/switch_to.h>

/* No caller above this point: gdb's backtrace ends in the function. */
#define arch_outermost_frame()	asm volatile(".cfi_undefined lr")

/* Where __switch_to_asm() leaves each register, in words above thread.sp. */
#define SWITCH_FRAME_R4		0
#define SWITCH_FRAME_FP		7	/* r11 */
#define SWITCH_FRAME_LR		8
#define SWITCH_FRAME_WORDS	9

#endif
