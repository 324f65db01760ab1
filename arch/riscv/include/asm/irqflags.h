/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The supervisor interrupt enable (sstatus.SIE). A trap clears it and
 * keeps the old value in sstatus.SPIE, which sret puts back.
 */
#ifndef _ASM_RISCV_IRQFLAGS_H
#define _ASM_RISCV_IRQFLAGS_H

#include <asm/csr.h>

static inline unsigned long arch_local_save_flags(void)
{
	return csr_read(sstatus);
}

static inline void arch_local_irq_disable(void)
{
	csr_clear(sstatus, SR_SIE);
}

static inline void arch_local_irq_enable(void)
{
	csr_set(sstatus, SR_SIE);
}

static inline unsigned long arch_local_irq_save(void)
{
	return csr_read_clear(sstatus, SR_SIE);
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	csr_set(sstatus, flags & SR_SIE);
}

static inline int arch_irqs_disabled_flags(unsigned long flags)
{
	return !(flags & SR_SIE);
}

/*
 * wfi wakes on an interrupt that sie enables even while sstatus.SIE is
 * clear, so waiting first and enabling after cannot miss a wakeup that
 * came between the caller's last check and the wait.
 */
static inline void arch_safe_halt(void)
{
	asm volatile("wfi" ::: "memory");
	arch_local_irq_enable();
}

#endif
