// SPDX-License-Identifier: GPL-2.0
/* Wait queues: see include/wait.h. */
#include <kernel.h>
#include <sched.h>
#include <wait.h>

void __init_waitqueue_head(wait_queue_head_t *wq, const char *key)
{
	__spin_lock_init(&wq->lock, "&wq->lock", key);
	INIT_LIST_HEAD(&wq->head);
}

int default_wake_function(struct wait_queue_entry *wq, unsigned int mode)
{
	return wake_up_state(wq->task, mode);
}

/*
 * Leaves the queue on wakeup, so finish_wait() need not take the lock.
 *
 * The entry is on the woken task's stack, and that task may already be
 * running on another CPU, checking in finish_wait() whether it is still
 * queued. Its answer must not be "no" until this function is done with
 * the entry: the careful unlink makes its last store the one finish_wait()
 * looks at. (Unlinking before the wakeup would not do: a wakeup that fails
 * must leave the entry queued, and once unlinked the task could exit
 * before wake_up_state() has finished with its task_struct.)
 */
int autoremove_wake_function(struct wait_queue_entry *wq, unsigned int mode)
{
	int woken = default_wake_function(wq, mode);

	if (woken)
		list_del_init_careful(&wq->entry);
	return woken;
}

void add_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *e)
{
	unsigned long flags;

	e->flags &= ~WQ_FLAG_EXCLUSIVE;
	spin_lock_irqsave(&wq->lock, flags);
	list_add(&e->entry, &wq->head);
	spin_unlock_irqrestore(&wq->lock, flags);
}

/* Exclusive waiters go to the tail, behind the non-exclusive ones. */
void add_wait_queue_exclusive(wait_queue_head_t *wq, struct wait_queue_entry *e)
{
	unsigned long flags;

	e->flags |= WQ_FLAG_EXCLUSIVE;
	spin_lock_irqsave(&wq->lock, flags);
	list_add_tail(&e->entry, &wq->head);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void remove_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *e)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	list_del_init(&e->entry);
	spin_unlock_irqrestore(&wq->lock, flags);
}

static void __prepare_to_wait(wait_queue_head_t *wq,
			      struct wait_queue_entry *e, int state,
			      bool exclusive)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	if (list_empty(&e->entry)) {
		if (exclusive) {
			e->flags |= WQ_FLAG_EXCLUSIVE;
			list_add_tail(&e->entry, &wq->head);
		} else {
			e->flags &= ~WQ_FLAG_EXCLUSIVE;
			list_add(&e->entry, &wq->head);
		}
	}
	set_current_state(state);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *e,
		     int state)
{
	__prepare_to_wait(wq, e, state, false);
}

void prepare_to_wait_exclusive(wait_queue_head_t *wq,
			       struct wait_queue_entry *e, int state)
{
	__prepare_to_wait(wq, e, state, true);
}

void finish_wait(wait_queue_head_t *wq, struct wait_queue_entry *e)
{
	unsigned long flags;

	__set_current_state(TASK_RUNNING);
	/*
	 * An autoremoved entry is already off the queue, and we may skip the
	 * lock; but only if the waker has finished unlinking it, which only
	 * both pointers show: after we return, the entry's memory is reused.
	 */
	if (!list_empty_careful(&e->entry)) {
		spin_lock_irqsave(&wq->lock, flags);
		list_del_init(&e->entry);
		spin_unlock_irqrestore(&wq->lock, flags);
	}
}

void __wake_up_locked(wait_queue_head_t *wq, unsigned int mode,
		      int nr_exclusive)
{
	struct wait_queue_entry *e, *next;

	list_for_each_entry_safe(e, next, &wq->head, entry) {
		unsigned int flags = e->flags;

		if (e->func(e, mode) && (flags & WQ_FLAG_EXCLUSIVE) &&
		    !--nr_exclusive)
			break;
	}
}

void __wake_up(wait_queue_head_t *wq, unsigned int mode, int nr_exclusive)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	__wake_up_locked(wq, mode, nr_exclusive);
	spin_unlock_irqrestore(&wq->lock, flags);
}
