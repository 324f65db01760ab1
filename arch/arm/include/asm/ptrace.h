/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The registers the exception entry code (arch/arm/entry.S) saves on the
 * interrupted task's SVC stack, lowest address first: r0-r12, the SVC sp
 * and lr of the interrupted code, then the pc and cpsr to return to (the
 * last two stored by srsdb).
 */
#ifndef _ASM_ARM_PTRACE_H
#define _ASM_ARM_PTRACE_H

#define PT_R0		0
#define PT_SP		52
#define PT_LR		56
#define PT_PC		60
#define PT_CPSR		64
#define PT_REGS_SIZE	68

#define PSR_MODE_MASK	0x1f
#define PSR_MODE_SVC	0x13
#define PSR_MODE_HYP	0x1a
#define PSR_T		0x20	/* Thumb state */
#define PSR_I		0x80
#define PSR_F		0x40
#define PSR_A		0x100

#ifndef __ASSEMBLY__
struct pt_regs {
	unsigned long r[13];	/* r11 is the frame pointer */
	unsigned long sp;
	unsigned long lr;
	unsigned long pc;
	unsigned long cpsr;
};

#define regs_pc(regs)		((regs)->pc)
#define regs_fp(regs)		((regs)->r[11])
#define regs_irqs_on(regs)	(((regs)->cpsr & PSR_I) == 0)
#endif

#endif
