/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel stack size and the stack pointer, for current_thread_info(). */
#ifndef _ASM_RISCV_THREAD_INFO_H
#define _ASM_RISCV_THREAD_INFO_H

/* 64-bit registers and frames: twice the 32-bit arches' 8 KiB, as x86_64. */
#define THREAD_SIZE	16384

#ifndef __ASSEMBLY__
static __always_inline unsigned long current_stack_pointer(void)
{
	unsigned long sp;

	asm("mv %0, sp" : "=r" (sp));
	return sp;
}
#endif

#endif
