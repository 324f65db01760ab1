/* SPDX-License-Identifier: GPL-2.0 */
/* The registers the trap entry code saves, in the order it pushes them. */
#ifndef _ASM_I386_PTRACE_H
#define _ASM_I386_PTRACE_H

#ifndef __ASSEMBLY__
struct pt_regs {
	unsigned long edi, esi, ebp, esp_unused, ebx, edx, ecx, eax; /* pusha */
	unsigned long vector;
	unsigned long error_code;
	unsigned long eip, cs, eflags;	/* pushed by the CPU */
};

#define regs_pc(r)	((r)->eip)
#define regs_fp(r)	((r)->ebp)
#define regs_flags(r)	((r)->eflags)
/* A kernel trap pushes no esp: the interrupted one is just above eflags. */
#define regs_sp(r)	((unsigned long)(&(r)->eflags + 1))
#define regs_irqs_on(r)	(((r)->eflags & 0x200) != 0)

/* Paging maps every address below the last page (paging.c). */
#define KERNEL_ADDR_END	0xfffff000UL
#endif

#endif
