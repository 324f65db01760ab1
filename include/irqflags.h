/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Turning interrupts on and off on the local CPU.
 *
 * A task woken on this CPU with interrupts off cannot preempt its waker
 * yet, and a wakeup from here sends no IPI that would bring the
 * reschedule when interrupts come back on. So turning them back on is a
 * preemption point, as an interrupt arriving at that moment would be:
 * code that saves and restores interrupts around a wakeup of its own
 * needs no preempt_enable() after it. The arch_ forms, for the scheduler
 * and the lock code underneath, never schedule.
 */
#ifndef _IRQFLAGS_H
#define _IRQFLAGS_H

#include <asm/irqflags.h>
#include <preempt.h>

#define local_irq_enable() do {						\
	arch_local_irq_enable();					\
	preempt_check_resched();					\
} while (0)
#define local_irq_disable()	arch_local_irq_disable()
#define local_irq_save(flags)	do { (flags) = arch_local_irq_save(); } while (0)
#define local_irq_restore(flags) do {					\
	arch_local_irq_restore(flags);					\
	preempt_check_resched();					\
} while (0)
#define local_save_flags(flags)	do { (flags) = arch_local_save_flags(); } while (0)
#define irqs_disabled()		arch_irqs_disabled_flags(arch_local_save_flags())
#define irqs_disabled_flags(f)	arch_irqs_disabled_flags(f)
#define safe_halt()		arch_safe_halt()

#endif
