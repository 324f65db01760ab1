// SPDX-License-Identifier: GPL-2.0
/*
 * Completions: see include/completion.h. Waiters queue exclusively at the
 * tail, so complete() releases them one at a time in FIFO order.
 */
#include <kernel.h>
#include <sched.h>
#include <completion.h>

void __init_completion(struct completion *x, const char *key)
{
	x->done = 0;
	__init_waitqueue_head(&x->wait, key);
}

void reinit_completion(struct completion *x)
{
	x->done = 0;
}

void complete(struct completion *x)
{
	unsigned long flags;

	spin_lock_irqsave(&x->wait.lock, flags);
	if (x->done != COMPLETION_DONE_ALL)
		x->done++;
	__wake_up_locked(&x->wait, TASK_NORMAL, 1);
	spin_unlock_irqrestore(&x->wait.lock, flags);
}

void complete_all(struct completion *x)
{
	unsigned long flags;

	spin_lock_irqsave(&x->wait.lock, flags);
	/* LAB 6 BEGIN: complete_all releases every waiter, now and later */
	x->done = COMPLETION_DONE_ALL;
	__wake_up_locked(&x->wait, TASK_NORMAL, 0);
	/* LAB 6 STUB: This releases one waiter, as complete() does.
	 *|	x->done++;
	 *|	__wake_up_locked(&x->wait, TASK_NORMAL, 1);
	 * LAB 6 END */
	spin_unlock_irqrestore(&x->wait.lock, flags);
}

/*
 * Sleeps until done > 0 and takes one, or until the timeout (jiffies) ran
 * out or a signal came in an interruptible state. Returns the jiffies left
 * (at least 1) on success, 0 on timeout, -ERESTARTSYS on a signal.
 */
/* ip: the caller that waits, for lock_stat. */
static long do_wait_for_common(struct completion *x, long timeout, int state,
			       unsigned long ip)
{
	DECLARE_WAITQUEUE(wait, current);

	if (!x->done) {
		u64 start = lock_stat_clock();

		wait.flags |= WQ_FLAG_EXCLUSIVE;
		list_add_tail(&wait.entry, &x->wait.head);
		do {
			if ((state & TASK_INTERRUPTIBLE) &&
			    signal_pending(current)) {
				timeout = -ERESTARTSYS;
				break;
			}
			__set_current_state(state);
			spin_unlock_irq(&x->wait.lock);
			timeout = schedule_timeout(timeout);
			spin_lock_irq(&x->wait.lock);
		} while (!x->done && timeout);
		list_del_init(&wait.entry);
		if (!x->done)
			return timeout;
		lock_waited(&x->wait.lock.dep_map, start, ip);
	}
	if (x->done != COMPLETION_DONE_ALL)
		x->done--;
	return timeout ? timeout : 1;
}

static long wait_for_common(struct completion *x, long timeout, int state,
			    unsigned long ip)
{
	might_sleep();
	spin_lock_irq(&x->wait.lock);
	timeout = do_wait_for_common(x, timeout, state, ip);
	spin_unlock_irq(&x->wait.lock);
	return timeout;
}

void wait_for_completion(struct completion *x)
{
	wait_for_common(x, MAX_SCHEDULE_TIMEOUT, TASK_UNINTERRUPTIBLE,
			_RET_IP_);
}

unsigned long wait_for_completion_timeout(struct completion *x,
					  unsigned long timeout)
{
	return wait_for_common(x, timeout, TASK_UNINTERRUPTIBLE, _RET_IP_);
}

int wait_for_completion_interruptible(struct completion *x)
{
	long t = wait_for_common(x, MAX_SCHEDULE_TIMEOUT, TASK_INTERRUPTIBLE,
				 _RET_IP_);

	return t == -ERESTARTSYS ? t : 0;
}

long wait_for_completion_interruptible_timeout(struct completion *x,
					       unsigned long timeout)
{
	return wait_for_common(x, timeout, TASK_INTERRUPTIBLE, _RET_IP_);
}

bool try_wait_for_completion(struct completion *x)
{
	unsigned long flags;
	bool ret = false;

	spin_lock_irqsave(&x->wait.lock, flags);
	if (x->done) {
		if (x->done != COMPLETION_DONE_ALL)
			x->done--;
		ret = true;
	}
	spin_unlock_irqrestore(&x->wait.lock, flags);
	return ret;
}

bool completion_done(struct completion *x)
{
	return READ_ONCE(x->done) != 0;
}
