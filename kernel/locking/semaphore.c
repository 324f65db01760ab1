// SPDX-License-Identifier: GPL-2.0
/*
 * The legacy counting semaphore, the algorithm of Linux 2.6.15 on x86,
 * kept as the baseline that the mutex is measured against. The algorithm
 * is explained in include/semaphore.h. Deliberately not tuned. A
 * semaphore of one unit is a lock for the lock-order validator: down()
 * takes it, up() releases it, both by the same task.
 */
#include <kernel.h>
#include <sched.h>
#include <semaphore.h>
#include <trace.h>

/*
 * The same context check as the mutex, so that the two compare fairly:
 * might_sleep() in the debug build, where every mutex call that may sleep
 * makes it too (debug_mutex_enter()), and nothing in the other builds,
 * whose mutex_lock() is the bare fastpath. So it was in 2006.
 */
#ifdef CONFIG_DEBUG_MUTEXES
#define sem_might_sleep()	might_sleep()
#else
#define sem_might_sleep()	do { } while (0)
#endif

/* The validator refuses to re-initialise a semaphore its caller holds. */
void __sema_init(struct semaphore *sem, int val, const char *key)
{
	if (!lockdep_may_reinit(&sem->dep_map, _RET_IP_))
		return;
	atomic_set(&sem->count, val);
	sem->sleepers = 0;
	init_waitqueue_head(&sem->wait);
	lockdep_init_map(&sem->dep_map, val == 1 ? key : NULL);
}

/*
 * Both sleeping paths: returns 0 with the semaphore taken, or -EINTR when
 * an interruptible sleeper got a signal.
 */
static noinline int __down_common(struct semaphore *sem, int state)
{
	struct task_struct *tsk = current;
	DECLARE_WAITQUEUE(wait, tsk);
	unsigned long flags;
	int ret = 0;

	tsk->state = state;
	spin_lock_irqsave(&sem->wait.lock, flags);
	wait.flags |= WQ_FLAG_EXCLUSIVE;
	list_add_tail(&wait.entry, &sem->wait.head);
	sem->sleepers++;
	for (;;) {
		int sleepers = sem->sleepers;

		if (state == TASK_INTERRUPTIBLE && signal_pending(tsk)) {
			/* Give back our decrement and the other sleepers'. */
			ret = -EINTR;
			sem->sleepers = 0;
			atomic_add(sleepers, &sem->count);
			break;
		}
		/*
		 * Undo every sleeper's decrement but ours: they are not
		 * competing now, we hold the queue's lock. If count is then
		 * not negative, a unit was free and it is ours.
		 */
		if (!atomic_add_negative(sleepers - 1, &sem->count)) {
			sem->sleepers = 0;
			break;
		}
		sem->sleepers = 1;	/* only our decrement stays in count */
		spin_unlock_irqrestore(&sem->wait.lock, flags);
		schedule();
		spin_lock_irqsave(&sem->wait.lock, flags);
		tsk->state = state;
	}
	list_del_init(&wait.entry);
	/* We may have absorbed an up() meant for the next sleeper. */
	__wake_up_locked(&sem->wait, TASK_NORMAL, 1);
	spin_unlock_irqrestore(&sem->wait.lock, flags);
	tsk->state = TASK_RUNNING;
	return ret;
}

void down(struct semaphore *sem)
{
	sem_might_sleep();
	lock_acquire(&sem->dep_map, 0, false, _RET_IP_);
	if (atomic_dec_return(&sem->count) < 0) {
		lock_contended(&sem->dep_map);
		trace_lock(TRACE_CONTENDED, sem, TRACE_SEM);
		__down_common(sem, TASK_UNINTERRUPTIBLE);
	}
	lock_acquired(&sem->dep_map);
	trace_lock(TRACE_ACQUIRED, sem, TRACE_SEM);
}

int down_interruptible(struct semaphore *sem)
{
	int ret = 0;

	sem_might_sleep();
	lock_acquire(&sem->dep_map, 0, false, _RET_IP_);
	if (atomic_dec_return(&sem->count) < 0) {
		lock_contended(&sem->dep_map);
		trace_lock(TRACE_CONTENDED, sem, TRACE_SEM);
		ret = __down_common(sem, TASK_INTERRUPTIBLE);
	}
	if (ret) {
		lock_release(&sem->dep_map, _RET_IP_);
		return ret;
	}
	lock_acquired(&sem->dep_map);
	trace_lock(TRACE_ACQUIRED, sem, TRACE_SEM);
	return 0;
}

/*
 * Our decrement went negative: take it back, together with those of the
 * sleepers, who recompute their share when they wake. If that leaves a
 * unit free, wake a sleeper to take it.
 */
static noinline int __down_trylock(struct semaphore *sem)
{
	unsigned long flags;
	int sleepers;

	spin_lock_irqsave(&sem->wait.lock, flags);
	sleepers = sem->sleepers + 1;
	sem->sleepers = 0;
	if (!atomic_add_negative(sleepers, &sem->count))
		__wake_up_locked(&sem->wait, TASK_NORMAL, 1);
	spin_unlock_irqrestore(&sem->wait.lock, flags);
	return 1;
}

int down_trylock(struct semaphore *sem)
{
	if (atomic_dec_return(&sem->count) < 0)
		return __down_trylock(sem);
	lock_acquire(&sem->dep_map, 0, true, _RET_IP_);
	trace_lock(TRACE_ACQUIRED, sem, TRACE_SEM);
	return 0;
}

void up(struct semaphore *sem)
{
	lock_release(&sem->dep_map, _RET_IP_);
	trace_lock(TRACE_RELEASED, sem, TRACE_SEM);
	if (atomic_inc_return(&sem->count) <= 0)
		wake_up(&sem->wait);
}
