// SPDX-License-Identifier: GPL-2.0
/*
 * Mutexes: sleeping locks with a single owner. docs/mutex-design.md walks
 * through this file.
 *
 * The fastpath (asm/mutex.h or an asm-generic variant, chosen at build
 * time) moves count between 1 and 0 with one atomic operation. When that
 * fails, the slowpath below takes over under wait_lock: it marks the lock
 * contended (-1) so that the unlocker knows to wake someone, queues the
 * task and sleeps. The unlocker wakes the first waiter, which then competes
 * for the lock again like everybody else.
 */
#include <kernel.h>
#include <sched.h>
#include <mutex.h>
#include <irq.h>
#include <kcsan.h>
#include <trace.h>

#if defined(CONFIG_DEBUG_MUTEXES)
/*
 * The debug build checks in the entry points, before the count is taken
 * and after it is released, so an uncontended lock and unlock need no
 * wait_lock: the portable decrement fastpath. Its trylock stays on the
 * slowpath, which records the owner when it took the count: the result
 * mutex_trylock() returns is lab 4's, and a stub of it inverts it.
 */
#include <asm-generic/mutex-dec.h>
#define __mutex_fastpath_trylock(count, fail_fn)	fail_fn(count)
#elif defined(CONFIG_MUTEX_NULL)
#include <asm-generic/mutex-null.h>
#elif defined(CONFIG_MUTEX_DEC)
#include <asm-generic/mutex-dec.h>
#elif defined(CONFIG_MUTEX_XCHG)
#include <asm-generic/mutex-xchg.h>
#else
#include <asm/mutex.h>
#endif

#include "mutex-debug-hooks.h"
#include "mutex-spin.h"

void __mutex_init(struct mutex *lock, const char *name, const char *key)
{
	/* Debug build: a live mutex is redone under its lock, or refused. */
	if (!debug_mutex_reinit(lock, name, _RET_IP_)) {
		atomic_set(&lock->count, 1);
		spin_lock_init(&lock->wait_lock);
		INIT_LIST_HEAD(&lock->wait_list);
		mutex_spin_init(lock);
		debug_mutex_init(lock, name);
	}
	/*
	 * The class follows the latest initialisation even of a refused
	 * one: releases find a held lock by its address, not its class.
	 */
	lockdep_init_map(&lock->dep_map, key);
}

static void queue_waiter(struct mutex *lock, struct mutex_waiter *waiter,
			 bool requeue)
{
	spin_assert_held(&lock->wait_lock);
	waiter->ti = current_thread_info();
	/*
	 * First-time waiters line up at the tail (FIFO). A waiter that was
	 * woken and lost the race goes back to the head (LIFO): it has
	 * waited longest, and its cache is still warm.
	 */
	/* LAB 3 BEGIN: FIFO queueing, LIFO requeue */
	if (requeue)
		list_add(&waiter->list, &lock->wait_list);
	else
		list_add_tail(&waiter->list, &lock->wait_list);
	/* LAB 3 STUB: First-time waiters go to the tail, a requeued
	 * waiter to the head.
	 *|	list_add(&waiter->list, &lock->wait_list);
	 * LAB 3 END */
	debug_mutex_add_waiter(lock, waiter, waiter->ti);
}

static void wake_first_waiter(struct mutex *lock)
{
	struct mutex_waiter *waiter =
		list_first_entry(&lock->wait_list, struct mutex_waiter, list);

	spin_assert_held(&lock->wait_lock);
	/*
	 * Nobody touches the wait list outside wait_lock, not even to see
	 * whether it is empty: that would race with this unlock.
	 */
	ASSERT_EXCLUSIVE_ACCESS(lock->wait_list);
	wake_up_process(waiter->ti->task);
}

/*
 * The lock slowpath, for both sleeping states. Returns 0 with the lock
 * held, or -EINTR when a signal came while sleeping interruptibly.
 */
static inline int __mutex_lock_common(struct mutex *lock, long state)
{
	struct task_struct *task = current;
	struct mutex_waiter waiter;
	bool requeue = false;

	lock_contended(&lock->dep_map);
	trace_lock(TRACE_CONTENDED, lock, TRACE_MUTEX);
	/* CONFIG_MUTEX_SPIN_ON_OWNER: first spin while the owner runs. */
	if (mutex_optimistic_spin(lock))
		return 0;
	/* The waiter is on our stack: what it counts starts here, at 0. */
	mutex_spin_init_waiter(&waiter);
	debug_mutex_init_waiter(&waiter, state);
	spin_lock(&lock->wait_lock);
	for (;;) {
		/*
		 * Every pass swaps in -1: the first one makes sure the owner's
		 * unlock takes the slowpath and wakes us; after a wakeup it is
		 * how we take the lock. Seeing 1 means it was free.
		 */
		if (atomic_xchg(&lock->count, -1) == 1)
			break;
		/* LAB 4 BEGIN: a signal ends an interruptible wait */
		if (state == TASK_INTERRUPTIBLE && signal_pending(task))
			goto interrupted;
		/* LAB 4 STUB: An interruptible sleeper with a signal
		 * pending leaves with -EINTR (the other LAB 4 TODO, at the
		 * end of this function, is the way out you write).
		 * LAB 4 END */
		if (requeue)
			mutex_waiter_lost(lock, &waiter);
		queue_waiter(lock, &waiter, requeue);
		__set_task_state(task, state);
		spin_unlock(&lock->wait_lock);

		schedule();

		spin_lock(&lock->wait_lock);
		list_del(&waiter.list);
		debug_mutex_remove_waiter(lock, &waiter, waiter.ti);
		requeue = true;
		if (mutex_handoff_received(lock))
			break;
	}
	/* LAB 3 BEGIN: the counter after a contended acquire */
	/* Ours. Nobody waits? Then 0, so our unlock stays on the fastpath. */
	if (list_empty(&lock->wait_list))
		atomic_set(&lock->count, 0);
	/* LAB 3 STUB: The xchg above left -1. When nobody waits any
	 * more, what should the count say, and why does it matter to unlock?
	 * LAB 3 END */
	/* The count above and the wait list only change under wait_lock. */
	spin_assert_held(&lock->wait_lock);
	spin_unlock(&lock->wait_lock);
	return 0;

	/* LAB 4 BEGIN: leaving the wait on a signal */
interrupted:
	/*
	 * Leave without the lock, and without waking anyone. Our last pass
	 * stored -1 and did not find 1: the lock is held, and its owner's
	 * unlock will take the slowpath and wake the first waiter. That holds
	 * even if an unlock's wakeup brought us here: a newcomer took the
	 * lock after that unlock. A wakeup from here would be spurious.
	 */
	mutex_handoff_cancel(lock);
	spin_unlock(&lock->wait_lock);
	return -EINTR;
	/* LAB 4 STUB: Leave with -EINTR, without the lock, and with
	 * the wait list as the other waiters need it. Must you wake anyone?
	 * LAB 4 END */
}

static noinline fastcall void __mutex_lock_slowpath(atomic_t *count)
{
	struct mutex *lock = container_of(count, struct mutex, count);

	__mutex_lock_common(lock, TASK_UNINTERRUPTIBLE);
}

static noinline fastcall int
__mutex_lock_interruptible_slowpath(atomic_t *count)
{
	struct mutex *lock = container_of(count, struct mutex, count);

	return __mutex_lock_common(lock, TASK_INTERRUPTIBLE);
}

static noinline fastcall void __mutex_unlock_slowpath(atomic_t *count)
{
	struct mutex *lock = container_of(count, struct mutex, count);

	spin_lock(&lock->wait_lock);
	/* A waiter asked for it: it gets the lock, still locked, from us. */
	if (mutex_handoff(lock)) {
		spin_unlock(&lock->wait_lock);
		return;
	}
	/* Fastpaths that left count at 0 or below need it set free here. */
	if (__mutex_slowpath_needs_to_unlock())
		atomic_set(&lock->count, 1);
	if (!list_empty(&lock->wait_list))
		wake_first_waiter(lock);
	spin_unlock(&lock->wait_lock);
}

/* Only the null and debug builds come here: trylock under wait_lock. */
static noinline fastcall int __mutex_trylock_slowpath(atomic_t *count)
{
	struct mutex *lock = container_of(count, struct mutex, count);
	int prev;

	spin_lock(&lock->wait_lock);
	prev = atomic_xchg(&lock->count, -1);
	if (prev == 1)
		debug_mutex_set_owner(lock, debug_mutex_caller());
	mutex_unmark_contended(lock);
	spin_unlock(&lock->wait_lock);
	return prev == 1;
}

void mutex_unmark_contended(struct mutex *lock)
{
	spin_assert_held(&lock->wait_lock);
	if (list_empty(&lock->wait_list))
		atomic_set(&lock->count, 0);
}

/**
 * mutex_lock - take the mutex, sleeping until it is free
 * Must not be called from interrupt context; the owner must unlock it.
 */
__mutex_entry void fastcall mutex_lock(struct mutex *lock)
{
	if (!debug_mutex_enter(lock, true))
		return;
	/* Before it may block: the validator speaks before a deadlock. */
	lock_acquire(&lock->dep_map, 0, false, _RET_IP_);
	__mutex_fastpath_lock(&lock->count, __mutex_lock_slowpath);
	lock_acquired(&lock->dep_map);
	trace_lock(TRACE_ACQUIRED, lock, TRACE_MUTEX);
	mutex_set_owner(lock);
	debug_mutex_set_owner(lock, _RET_IP_);
}

#ifdef CONFIG_PROVE_LOCKING
void fastcall mutex_lock_nested(struct mutex *lock, unsigned int subclass)
{
	if (!debug_mutex_enter(lock, true))
		return;
	lock_acquire(&lock->dep_map, subclass, false, _RET_IP_);
	__mutex_fastpath_lock(&lock->count, __mutex_lock_slowpath);
	lock_acquired(&lock->dep_map);
	trace_lock(TRACE_ACQUIRED, lock, TRACE_MUTEX);
	debug_mutex_set_owner(lock, _RET_IP_);
}
#endif

/**
 * mutex_lock_interruptible - as mutex_lock(), but a signal ends the wait
 * Returns 0 with the mutex held, or -EINTR without it.
 */
__mutex_entry int fastcall mutex_lock_interruptible(struct mutex *lock)
{
	int ret;

	if (!debug_mutex_enter(lock, true))
		return -EINTR;
	lock_acquire(&lock->dep_map, 0, false, _RET_IP_);
	ret = __mutex_fastpath_lock_retval(&lock->count,
					   __mutex_lock_interruptible_slowpath);
	if (ret) {
		lock_release(&lock->dep_map, _RET_IP_);
		return ret;
	}
	lock_acquired(&lock->dep_map);
	trace_lock(TRACE_ACQUIRED, lock, TRACE_MUTEX);
	mutex_set_owner(lock);
	debug_mutex_set_owner(lock, _RET_IP_);
	return 0;
}

/**
 * mutex_trylock - take the mutex if that needs no waiting
 * Returns 1 when it was taken, 0 when it is held: the spin_trylock()
 * convention, the opposite of down_trylock().
 */
__mutex_entry int fastcall mutex_trylock(struct mutex *lock)
{
	int taken;

	if (!debug_mutex_enter(lock, false))
		return 0;
	/* LAB 4 BEGIN: trylock's return convention */
	taken = __mutex_fastpath_trylock(&lock->count,
					 __mutex_trylock_slowpath);
	/* LAB 4 STUB: 1 means taken, as spin_trylock(); this is
	 * down_trylock()'s convention (0 means taken).
	 *|	taken = !__mutex_fastpath_trylock(&lock->count,
	 *|					  __mutex_trylock_slowpath);
	 * LAB 4 END */
	/* Only a lock it got: a trylock never waits, so orders nothing. */
	if (taken) {
		lock_acquire(&lock->dep_map, 0, true, _RET_IP_);
		trace_lock(TRACE_ACQUIRED, lock, TRACE_MUTEX);
		mutex_set_owner(lock);
	}
	return taken;
}

/**
 * mutex_unlock - release the mutex, waking the first waiter if any
 * Only the task that took it may release it.
 */
__mutex_entry void fastcall mutex_unlock(struct mutex *lock)
{
	if (!debug_mutex_enter(lock, false))
		return;
	lock_release(&lock->dep_map, _RET_IP_);
	/* Refused (after a report): the owner still holds it. */
	if (!debug_mutex_unlock_check(lock))
		return;
	debug_mutex_clear_owner(lock);
	mutex_clear_owner(lock);
	trace_lock(TRACE_RELEASED, lock, TRACE_MUTEX);
	__mutex_fastpath_unlock(&lock->count, __mutex_unlock_slowpath);
}
