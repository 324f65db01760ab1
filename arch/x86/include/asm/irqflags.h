/* SPDX-License-Identifier: GPL-2.0 */
/* Interrupt enable flag (EFLAGS.IF) on x86. */
#ifndef _ASM_X86_IRQFLAGS_H
#define _ASM_X86_IRQFLAGS_H

#define X86_EFLAGS_IF	0x200UL

static inline unsigned long arch_local_save_flags(void)
{
	unsigned long flags;

	asm volatile("pushf; pop %0" : "=rm" (flags) :: "memory");
	return flags;
}

static inline void arch_local_irq_disable(void)
{
	asm volatile("cli" ::: "memory");
}

static inline void arch_local_irq_enable(void)
{
	asm volatile("sti" ::: "memory");
}

static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags = arch_local_save_flags();

	arch_local_irq_disable();
	return flags;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	if (flags & X86_EFLAGS_IF)
		arch_local_irq_enable();
}

static inline int arch_irqs_disabled_flags(unsigned long flags)
{
	return !(flags & X86_EFLAGS_IF);
}

/* Enable interrupts and halt as one step, so no wakeup slips in between. */
static inline void arch_safe_halt(void)
{
	asm volatile("sti; hlt" ::: "memory");
}

#endif
