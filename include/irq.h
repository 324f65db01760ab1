/* SPDX-License-Identifier: GPL-2.0 */
/* Interrupt entry and exit, and the end of a fault report, for the arches. */
#ifndef _IRQ_H
#define _IRQ_H

#include <types.h>

/* Around every interrupt handler: counts hardirq nesting in preempt_count. */
void irq_enter(void);
/*
 * Leaves the handler; if the interrupted code could be preempted
 * (interrupts were on and preempt_count is 0) and a reschedule is due,
 * schedules here.
 */
void irq_exit(bool irqs_were_on);

/* This CPU's timer tick. */
void timer_interrupt(void);

/*
 * A fault report: oops_begin() before printing it, oops_end() after. If the
 * faulting task runs a test case, oops_end() fails that case and ends the
 * task; otherwise it ends the machine with EXIT_CRASH.
 */
void oops_begin(void);
void __noreturn oops_end(bool irqs_were_on);
/* The report's line naming the address an access faulted on. */
void oops_bad_address(unsigned long addr);

#endif
