/* SPDX-License-Identifier: GPL-2.0 */
/* Turning interrupts on and off on the local CPU. */
#ifndef _IRQFLAGS_H
#define _IRQFLAGS_H

#include <asm/irqflags.h>

#define local_irq_enable()	arch_local_irq_enable()
#define local_irq_disable()	arch_local_irq_disable()
#define local_irq_save(flags)	do { (flags) = arch_local_irq_save(); } while (0)
#define local_irq_restore(flags) arch_local_irq_restore(flags)
#define local_save_flags(flags)	do { (flags) = arch_local_save_flags(); } while (0)
#define irqs_disabled()		arch_irqs_disabled_flags(arch_local_save_flags())
#define irqs_disabled_flags(f)	arch_irqs_disabled_flags(f)
#define safe_halt()		arch_safe_halt()

#endif
