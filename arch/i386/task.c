// SPDX-License-Identifier: GPL-2.0
/* i386: the first frame of a new task, as __switch_to_asm() expects it. */
#include <kernel.h>
#include <sched.h>
#include <arch.h>

extern char ret_from_fork[];

void arch_task_setup(struct task_struct *p, void (*entry)(void))
{
	unsigned long *sp = (unsigned long *)
		((unsigned long)p->thread_info + THREAD_SIZE);

	*--sp = 0;				/* entry's return: ends backtraces */
	*--sp = (unsigned long)entry;		/* ret_from_fork returns here */
	*--sp = (unsigned long)ret_from_fork;	/* __switch_to_asm returns here */
	*--sp = 0;				/* ebp */
	*--sp = 0;				/* ebx */
	*--sp = 0;				/* esi */
	*--sp = 0;				/* edi */
	p->thread.sp = (unsigned long)sp;
}
