// SPDX-License-Identifier: GPL-2.0
/* Entering and leaving interrupt context, and preemption on the way out. */
#include <kernel.h>
#include <irq.h>
#include <sched.h>
#include <trace.h>

void preempt_schedule_irq(void);

void irq_enter(void)
{
	preempt_count_add(HARDIRQ_OFFSET);
	trace_irq(TRACE_IRQ_ENTRY);
}

void irq_exit(bool irqs_were_on)
{
	trace_irq(TRACE_IRQ_EXIT);
	preempt_count_sub(HARDIRQ_OFFSET);
	if (irqs_were_on && !preempt_count() && need_resched())
		preempt_schedule_irq();
}
