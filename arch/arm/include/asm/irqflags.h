/* SPDX-License-Identifier: GPL-2.0 */
/* The IRQ mask bit (CPSR.I) on ARM. FIQs are never used and stay masked. */
#ifndef _ASM_ARM_IRQFLAGS_H
#define _ASM_ARM_IRQFLAGS_H

#define PSR_I_BIT	0x80UL

static inline unsigned long arch_local_save_flags(void)
{
	unsigned long flags;

	asm volatile("mrs %0, cpsr" : "=r" (flags) :: "memory");
	return flags;
}

static inline void arch_local_irq_disable(void)
{
	asm volatile("cpsid i" ::: "memory");
}

static inline void arch_local_irq_enable(void)
{
	asm volatile("cpsie i" ::: "memory");
}

static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags = arch_local_save_flags();

	arch_local_irq_disable();
	return flags;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	if (!(flags & PSR_I_BIT))
		arch_local_irq_enable();
}

static inline int arch_irqs_disabled_flags(unsigned long flags)
{
	return (flags & PSR_I_BIT) != 0;
}

/*
 * wfi wakes on a pending interrupt even while IRQs are masked, so waiting
 * first and unmasking after cannot miss a wakeup that arrives between the
 * caller's last check and the wait; the interrupt is taken at cpsie.
 */
static inline void arch_safe_halt(void)
{
	asm volatile("dsb sy\n\twfi\n\tcpsie i" ::: "memory");
}

#endif
