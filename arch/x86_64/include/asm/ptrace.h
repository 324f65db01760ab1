/* SPDX-License-Identifier: GPL-2.0 */
/* The registers the trap entry code saves, in the order they lie in memory. */
#ifndef _ASM_X86_64_PTRACE_H
#define _ASM_X86_64_PTRACE_H

#include <asm/boot.h>

#ifndef __ASSEMBLY__
struct pt_regs {
	unsigned long r15, r14, r13, r12, r11, r10, r9, r8;
	unsigned long rbp, rdi, rsi, rdx, rcx, rbx, rax;
	unsigned long vector;
	unsigned long error_code;
	unsigned long rip, cs, rflags, rsp, ss;	/* pushed by the CPU */
};

#define regs_pc(r)	((r)->rip)
#define regs_fp(r)	((r)->rbp)
#define regs_flags(r)	((r)->rflags)
#define regs_sp(r)	((r)->rsp)
#define regs_irqs_on(r)	(((r)->rflags & 0x200) != 0)

/* Only the 1:1 map of the first 4 GiB can be read. */
#define KERNEL_ADDR_END	IDENTITY_MAP_END
#endif

#endif
