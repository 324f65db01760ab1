// SPDX-License-Identifier: GPL-2.0
/*
 * Reader-writer semaphores (include/rwsem.h), on one spinlock: the count
 * of holders and a FIFO queue of waiters change only under it. A waiter
 * sleeps on its own entry in the queue until a release grants it the
 * semaphore: the releaser does the waiter's accounting and takes the entry
 * off the queue, so a woken waiter owns the semaphore already and only
 * returns. Lab 9 (docs/labs/lab9.md) is the design and the tests of this
 * file.
 */
#include <kernel.h>
#include <sched.h>
#include <rwsem.h>

void init_rwsem(struct rw_semaphore *sem)
{
	spin_lock_init(&sem->lock);
	sem->activity = 0;
	INIT_LIST_HEAD(&sem->wait_list);
}

/* LAB 9 BEGIN: waiting in line and being granted */
struct rwsem_waiter {
	struct list_head list;
	struct task_struct *task;
	bool writer;
	bool granted;		/* set by the releaser, under sem->lock */
};

/*
 * Called with sem->lock held, returns with it dropped and the semaphore
 * ours. granted is read under the lock: the releaser sets it and wakes us
 * under the lock, so our entry (on this stack) outlives its last use.
 */
static void wait_for_grant(struct rw_semaphore *sem, bool writer)
{
	struct rwsem_waiter waiter = { .task = current, .writer = writer };

	list_add_tail(&waiter.list, &sem->wait_list);
	while (!waiter.granted) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		spin_unlock(&sem->lock);
		schedule();
		spin_lock(&sem->lock);
	}
	__set_current_state(TASK_RUNNING);
	spin_unlock(&sem->lock);
}

static void grant(struct rwsem_waiter *waiter)
{
	list_del(&waiter->list);
	waiter->granted = true;
	wake_up_process(waiter->task);
}

/*
 * The semaphore has room: hand it to the head of the queue, a writer
 * alone or every reader before the next writer. Under sem->lock.
 */
static void grant_head(struct rw_semaphore *sem)
{
	struct rwsem_waiter *w, *next;

	list_for_each_entry_safe(w, next, &sem->wait_list, list) {
		if (w->writer) {
			if (!sem->activity) {
				sem->activity = -1;
				grant(w);
			}
			return;
		}
		sem->activity++;
		grant(w);
	}
}
/* LAB 9 STUB: Design the waiting: what a sleeper waits on, who
 * counts it in, and in what order the queue is served (lab9.md).
 * LAB 9 END */

void down_read(struct rw_semaphore *sem)
{
	might_sleep();
	/* LAB 9 BEGIN: down_read */
	spin_lock(&sem->lock);
	/* Not past a waiting writer: that would starve it. */
	if (sem->activity >= 0 && list_empty(&sem->wait_list)) {
		sem->activity++;
		spin_unlock(&sem->lock);
		return;
	}
	wait_for_grant(sem, false);
	/* LAB 9 STUB: Share with other readers, never with a writer.
	 *|	(void)sem;
	 * LAB 9 END */
}

void up_read(struct rw_semaphore *sem)
{
	/* LAB 9 BEGIN: up_read */
	spin_lock(&sem->lock);
	if (!--sem->activity)
		grant_head(sem);
	spin_unlock(&sem->lock);
	/* LAB 9 STUB: The last reader out lets the next in.
	 *|	(void)sem;
	 * LAB 9 END */
}

void down_write(struct rw_semaphore *sem)
{
	might_sleep();
	/* LAB 9 BEGIN: down_write */
	spin_lock(&sem->lock);
	if (!sem->activity && list_empty(&sem->wait_list)) {
		sem->activity = -1;
		spin_unlock(&sem->lock);
		return;
	}
	wait_for_grant(sem, true);
	/* LAB 9 STUB: Alone: no reader, no other writer.
	 *|	(void)sem;
	 * LAB 9 END */
}

void up_write(struct rw_semaphore *sem)
{
	/* LAB 9 BEGIN: up_write */
	spin_lock(&sem->lock);
	sem->activity = 0;
	grant_head(sem);
	spin_unlock(&sem->lock);
	/* LAB 9 STUB: Let the head of the queue in.
	 *|	(void)sem;
	 * LAB 9 END */
}
