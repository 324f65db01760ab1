/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The registers the trap entry (arch/riscv/entry.S) saves on the
 * interrupted task's stack: slot n holds register xn for n = 1..31, and
 * slot 0 the pc to return to (sepc), since x0 needs no saving. Then the
 * trap's sstatus, stval and scause.
 */
#ifndef _ASM_RISCV_PTRACE_H
#define _ASM_RISCV_PTRACE_H

#define PT_EPC		0
#define PT_STATUS	(32 * 8)
#define PT_BADADDR	(33 * 8)
#define PT_CAUSE	(34 * 8)
#define PT_REGS_SIZE	(36 * 8)	/* a multiple of 16: the stack's alignment */

#ifndef __ASSEMBLY__
#include <asm/csr.h>

struct pt_regs {
	unsigned long epc;
	unsigned long x[31];	/* x[n - 1] is xn: ra, sp, gp, tp, t0, ... */
	unsigned long status;
	unsigned long badaddr;
	unsigned long cause;
	unsigned long pad;
};

#define REG_RA		1
#define REG_SP		2
#define REG_S0		8	/* the frame pointer */
#define regs_reg(regs, n)	((regs)->x[(n) - 1])

#define regs_pc(regs)		((regs)->epc)
#define regs_fp(regs)		regs_reg(regs, REG_S0)
#define regs_irqs_on(regs)	(((regs)->status & SR_SPIE) != 0)
#endif

#endif
