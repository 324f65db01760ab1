// SPDX-License-Identifier: GPL-2.0
/* x86_64: the first frame of a new task, as __switch_to_asm() expects it. */
#include <kernel.h>
#include <sched.h>
#include <arch.h>

extern char ret_from_fork[];

/*
 * The stack top is 16-byte aligned. After __switch_to_asm pops six
 * registers and returns, ret_from_fork runs with RSP aligned to 16 for its
 * call; its own ret then enters the task with RSP at 8 mod 16, just as if
 * the entry had been called.
 */
void arch_task_setup(struct task_struct *p, void (*entry)(void))
{
	unsigned long *sp = (unsigned long *)
		((unsigned long)p->thread_info + THREAD_SIZE);

	*--sp = 0;				/* entry's return: ends backtraces */
	*--sp = (unsigned long)entry;		/* ret_from_fork returns here */
	*--sp = (unsigned long)ret_from_fork;	/* __switch_to_asm returns here */
	*--sp = 0;				/* rbp */
	*--sp = 0;				/* rbx */
	*--sp = 0;				/* r12 */
	*--sp = 0;				/* r13 */
	*--sp = 0;				/* r14 */
	*--sp = 0;				/* r15 */
	p->thread.sp = (unsigned long)sp;
}
