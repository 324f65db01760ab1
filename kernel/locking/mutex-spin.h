/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hooks of optimistic spinning and handoff that kernel/locking/mutex.c
 * calls (CONFIG_MUTEX_SPIN_ON_OWNER, kernel/locking/mutex-spin.c);
 * without the option they are empty and mutex.c is the 2006 mutex.
 */
#ifndef _KERNEL_MUTEX_SPIN_H
#define _KERNEL_MUTEX_SPIN_H

#include <kcsan.h>
#include <mutex.h>
#include <sched.h>

#ifdef CONFIG_MUTEX_SPIN_ON_OWNER

static inline void mutex_spin_init(struct mutex *lock)
{
	lock->owner = NULL;
	lock->handoff = NULL;
	osq_lock_init(&lock->osq);
}

/*
 * Without wait_lock: the owner is a hint for spinners, never a rule. The
 * spinners only read it; only the task that took the lock writes it.
 */
static inline void mutex_set_owner(struct mutex *lock)
{
	ASSERT_EXCLUSIVE_WRITER(lock->owner);
	WRITE_ONCE(lock->owner, current);
}

static inline void mutex_clear_owner(struct mutex *lock)
{
	WRITE_ONCE(lock->owner, NULL);
}

/*
 * At the start of the lock slowpath, without wait_lock: true when the
 * caller took the lock by spinning while its owner ran.
 */
bool mutex_optimistic_spin(struct mutex *lock);

/* Once per lock attempt, before the first pass of the slowpath. */
static inline void mutex_spin_init_waiter(struct mutex_waiter *waiter)
{
	waiter->lost = 0;
}

/*
 * Under wait_lock. A waiter that was woken and found the lock taken
 * again counts the loss, and after mutex_handoff_after of them asks for
 * the lock to be handed over.
 */
void mutex_waiter_lost(struct mutex *lock, struct mutex_waiter *waiter);
/* After a wakeup: true when the unlocker handed us the lock. */
bool mutex_handoff_received(struct mutex *lock);
/* Leaving without the lock (a signal): withdraw our request. */
void mutex_handoff_cancel(struct mutex *lock);
/* The unlock slowpath: true when it handed the lock to a waiter. */
bool mutex_handoff(struct mutex *lock);

#else
#define mutex_spin_init(lock)			do { } while (0)
#define mutex_set_owner(lock)			do { } while (0)
#define mutex_clear_owner(lock)			do { } while (0)
#define mutex_optimistic_spin(lock)		false
#define mutex_spin_init_waiter(waiter)		do { } while (0)
#define mutex_waiter_lost(lock, waiter)		do { } while (0)
#define mutex_handoff_received(lock)		false
#define mutex_handoff_cancel(lock)		do { } while (0)
#define mutex_handoff(lock)			false
#endif /* CONFIG_MUTEX_SPIN_ON_OWNER */

#endif
