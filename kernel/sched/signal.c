// SPDX-License-Identifier: GPL-2.0
/*
 * Signals, only as far as sleeping needs them: a pending bit per signal.
 * A signal wakes a task in an interruptible sleep and leaves one in an
 * uninterruptible sleep alone; the task sees signal_pending() and returns
 * -EINTR (or -ERESTARTSYS from wait_event_interruptible, as in Linux).
 */
#include <kernel.h>
#include <sched.h>

int send_sig(int sig, struct task_struct *p, int priv)
{
	if (sig <= 0 || sig >= (int)(8 * sizeof(p->pending)))
		return -EINVAL;
	__atomic_fetch_or(&p->pending, 1UL << sig, __ATOMIC_SEQ_CST);
	set_ti_thread_flag(p->thread_info, TIF_SIGPENDING);
	wake_up_state(p, TASK_INTERRUPTIBLE);
	return 0;
}

void flush_signals(struct task_struct *p)
{
	WRITE_ONCE(p->pending, 0);
	clear_ti_thread_flag(p->thread_info, TIF_SIGPENDING);
}
