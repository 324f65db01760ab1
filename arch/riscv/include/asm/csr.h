/* SPDX-License-Identifier: GPL-2.0 */
/* Supervisor control and status registers, and their bits. */
#ifndef _ASM_RISCV_CSR_H
#define _ASM_RISCV_CSR_H

#define SR_SIE		(1UL << 1)	/* sstatus: interrupts on */
#define SR_SPIE		(1UL << 5)	/* ... before the trap */

#define IE_SSIE		(1UL << 1)	/* sie/sip: software (IPI) */
#define IE_STIE		(1UL << 5)	/* timer */
#define IE_SEIE		(1UL << 9)	/* external (the PLIC) */

#define CAUSE_IRQ	(1UL << 63)	/* scause: an interrupt */
#define IRQ_S_SOFT	1
#define IRQ_S_TIMER	5
#define IRQ_S_EXT	9

#define EXC_INSN_MISALIGNED	0
#define EXC_INSN_ACCESS		1
#define EXC_ILLEGAL_INSN	2
#define EXC_BREAKPOINT		3
#define EXC_LOAD_MISALIGNED	4
#define EXC_LOAD_ACCESS		5
#define EXC_STORE_MISALIGNED	6
#define EXC_STORE_ACCESS	7
#define EXC_ECALL_S		9
#define EXC_INSN_PAGE		12
#define EXC_LOAD_PAGE		13
#define EXC_STORE_PAGE		15

#ifndef __ASSEMBLY__
#define csr_read(csr) ({						\
	unsigned long __v;						\
	asm volatile("csrr %0, " #csr : "=r" (__v) :: "memory");	\
	__v;								\
})

#define csr_write(csr, val)						\
	asm volatile("csrw " #csr ", %0" :: "rK" (val) : "memory")

#define csr_set(csr, bits)						\
	asm volatile("csrs " #csr ", %0" :: "rK" (bits) : "memory")

#define csr_clear(csr, bits)						\
	asm volatile("csrc " #csr ", %0" :: "rK" (bits) : "memory")

/* Clears bits and returns the old value, in one instruction. */
#define csr_read_clear(csr, bits) ({					\
	unsigned long __v;						\
	asm volatile("csrrc %0, " #csr ", %1"				\
		     : "=r" (__v) : "rK" (bits) : "memory");		\
	__v;								\
})
#endif

#endif
