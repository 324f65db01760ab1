/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel stack size and the stack pointer, for current_thread_info(). */
#ifndef _ASM_ARM_THREAD_INFO_H
#define _ASM_ARM_THREAD_INFO_H

#define THREAD_SIZE	8192

#ifndef __ASSEMBLY__
static __always_inline unsigned long current_stack_pointer(void)
{
	unsigned long sp;

	asm("mov %0, sp" : "=r" (sp));
	return sp;
}
#endif

#endif
