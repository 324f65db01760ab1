/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel stack size and the stack pointer, for current_thread_info(). */
#ifndef _ASM_X86_THREAD_INFO_H
#define _ASM_X86_THREAD_INFO_H

#ifdef __x86_64__
#define THREAD_SIZE	16384
#define SP_REG		"rsp"
#else
#define THREAD_SIZE	8192
#define SP_REG		"esp"
#endif

#ifndef __ASSEMBLY__
static __always_inline unsigned long current_stack_pointer(void)
{
	unsigned long sp;

	asm("mov %%" SP_REG ", %0" : "=r" (sp));
	return sp;
}
#endif

#endif
