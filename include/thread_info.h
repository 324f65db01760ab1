/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct thread_info sits at the lowest address of every task's kernel
 * stack, which is THREAD_SIZE bytes and aligned to THREAD_SIZE. So the
 * running task's thread_info is the stack pointer with its low bits
 * cleared: no per-CPU register is needed to find "current". This is the
 * Linux 2.6 arrangement, and the mutex code names waiters by it.
 */
#ifndef _THREAD_INFO_H
#define _THREAD_INFO_H

#include <types.h>
#include <asm/thread_info.h>

struct task_struct;

struct thread_info {
	struct task_struct *task;
	unsigned int flags;		/* TIF_* bits */
	int preempt_count;		/* 0: preemptible; see preempt.h */
	unsigned int cpu;		/* the CPU this task runs on */
#ifdef CONFIG_KCSAN
	unsigned int kcsan_disable;	/* > 0: the race detector looks away */
#endif
	unsigned long magic;		/* STACK_END_MAGIC: overflow check */
};

#define TIF_NEED_RESCHED	0	/* schedule() at the next chance */
#define TIF_SIGPENDING		1	/* a signal is pending */

#define STACK_END_MAGIC		0x57AC6E9DUL

static __always_inline struct thread_info *current_thread_info(void)
{
	return (struct thread_info *)
		(current_stack_pointer() & ~(THREAD_SIZE - 1UL));
}

static inline void set_ti_thread_flag(struct thread_info *ti, int flag)
{
	__atomic_fetch_or(&ti->flags, 1U << flag, __ATOMIC_SEQ_CST);
}

static inline void clear_ti_thread_flag(struct thread_info *ti, int flag)
{
	__atomic_fetch_and(&ti->flags, ~(1U << flag), __ATOMIC_SEQ_CST);
}

static inline int test_ti_thread_flag(struct thread_info *ti, int flag)
{
	return (READ_ONCE(ti->flags) >> flag) & 1;
}

#define set_thread_flag(f)	set_ti_thread_flag(current_thread_info(), f)
#define clear_thread_flag(f)	clear_ti_thread_flag(current_thread_info(), f)
#define test_thread_flag(f)	test_ti_thread_flag(current_thread_info(), f)

#define smp_processor_id()	(current_thread_info()->cpu)

#endif
