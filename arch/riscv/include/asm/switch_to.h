/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RISC-V context switch (arch/riscv/switch.S) saves ra and s0-s11,
 * the callee-saved registers, on the task's stack.
 */
#ifndef _ASM_RISCV_SWITCH_TO_H
#define _ASM_RISCV_SWITCH_TO_H

#ifndef __ASSEMBLY__
#include <asm-generic/switch_to.h>

/* No caller above this point: gdb's backtrace ends in the function. */
#define arch_outermost_frame()	asm volatile(".cfi_undefined ra")
#endif

/* Where __switch_to_asm() leaves each register, in words above thread.sp. */
#define SWITCH_FRAME_RA		0
#define SWITCH_FRAME_S0		1	/* the frame pointer; s1-s11 follow */
#define SWITCH_FRAME_WORDS	14	/* 13, and one for 16-byte alignment */

#endif
