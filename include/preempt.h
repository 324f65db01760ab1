/* SPDX-License-Identifier: GPL-2.0 */
/*
 * preempt_count, in the running task's thread_info:
 *   bits 0-7   preemption disabled (spinlocks, preempt_disable)
 *   bits 8-15  softirq (unused, kept for Linux's layout)
 *   bits 16-23 hardirq nesting
 *   bit  28    PREEMPT_ACTIVE: schedule() was entered by preemption, so a
 *              task caught between set_current_state() and schedule() is
 *              not taken off the run queue.
 * The kernel may preempt a task only when the count is 0.
 */
#ifndef _PREEMPT_H
#define _PREEMPT_H

#include <thread_info.h>
#include <compiler.h>

#define PREEMPT_OFFSET		1
#define SOFTIRQ_OFFSET		(1 << 8)
#define HARDIRQ_OFFSET		(1 << 16)
#define PREEMPT_MASK		0x000000ff
#define SOFTIRQ_MASK		0x0000ff00
#define HARDIRQ_MASK		0x00ff0000
#define PREEMPT_ACTIVE		0x10000000

/*
 * An interrupt raises the count of the task it interrupts and lowers it
 * again before it returns: the task never sees a value it did not set.
 * That race with its own CPU's handlers is intended, so every access is
 * marked, as arm64 does in Linux, and the race detector's interrupt
 * watcher does not report it.
 */
#define preempt_count()		READ_ONCE(current_thread_info()->preempt_count)
#define hardirq_count()		(preempt_count() & HARDIRQ_MASK)
#define in_irq()		(hardirq_count() != 0)
#define in_interrupt()		((preempt_count() & (HARDIRQ_MASK | SOFTIRQ_MASK)) != 0)
#define in_atomic()		((preempt_count() & ~PREEMPT_ACTIVE) != 0)

#define preempt_count_set(v)	WRITE_ONCE(current_thread_info()->preempt_count, (v))
#define preempt_count_add(n)	do { preempt_count_set(preempt_count() + (n)); barrier(); } while (0)
#define preempt_count_sub(n)	do { barrier(); preempt_count_set(preempt_count() - (n)); } while (0)

void preempt_schedule(void);

#define preempt_disable()	preempt_count_add(1)
#define preempt_enable_no_resched()	preempt_count_sub(1)
/*
 * A preemption point: schedule if this CPU was asked to and may
 * (preempt_schedule() returns at once with preemption or interrupts off).
 */
#define preempt_check_resched() do {					\
	if (unlikely(test_thread_flag(TIF_NEED_RESCHED)))		\
		preempt_schedule();					\
} while (0)
#define preempt_enable() do {						\
	preempt_enable_no_resched();					\
	preempt_check_resched();					\
} while (0)

#endif
