/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hooks kernel/locking/mutex.c calls: in the debug build they are
 * kernel/locking/mutex-debug.c's, otherwise empty macros. Every hook runs
 * under the mutex's wait_lock unless said.
 */
#ifndef _KERNEL_MUTEX_DEBUG_HOOKS_H
#define _KERNEL_MUTEX_DEBUG_HOOKS_H

#include <mutex.h>

#ifdef CONFIG_DEBUG_MUTEXES

/* Keep frame pointers in the entry points: reports print backtraces. */
#define __mutex_entry

/*
 * At every API entry, without wait_lock: records the caller, checks the
 * mutex was initialised and not destroyed (repairing it after the
 * report), refuses use from interrupt context, and for the calls that may
 * sleep, checks the context with might_sleep(). False: do nothing more.
 */
bool __debug_mutex_enter(struct mutex *lock, bool may_sleep,
			 unsigned long ip);
#define debug_mutex_enter(lock, may_sleep) \
	__debug_mutex_enter(lock, may_sleep, _RET_IP_)
#define debug_mutex_caller()	(current->mutex_caller)

/*
 * Without wait_lock. True when it dealt with the call itself: lock was
 * already initialised, and it re-initialised it under wait_lock or, as it
 * is held or waited for, refused after a report. False: fresh memory,
 * the caller initialises it.
 */
bool debug_mutex_reinit(struct mutex *lock, const char *name,
			unsigned long ip);
void debug_mutex_init(struct mutex *lock, const char *name);

/* Once per lock attempt, before the waiter is first queued. */
void debug_mutex_init_waiter(struct mutex_waiter *waiter, long state);
/* The deadlock detector runs here, before the task blocks. */
void debug_mutex_add_waiter(struct mutex *lock, struct mutex_waiter *waiter,
			    struct thread_info *ti);
void debug_mutex_remove_waiter(struct mutex *lock,
			       struct mutex_waiter *waiter,
			       struct thread_info *ti);
void debug_mutex_set_owner(struct mutex *lock, struct thread_info *ti,
			   unsigned long ip);
/* False (after a report) if the caller may not unlock it. */
bool debug_mutex_unlock_check(struct mutex *lock);
void debug_mutex_clear_owner(struct mutex *lock);

#else
/* Without debugging the hooks are empty and the fastpath is all there is. */
#define debug_mutex_enter(lock, may_sleep)		true
#define debug_mutex_caller()				0UL
#define debug_mutex_reinit(lock, name, ip)		false
#define debug_mutex_init(lock, name)			do { } while (0)
#define debug_mutex_init_waiter(waiter, state)		do { } while (0)
#define debug_mutex_add_waiter(lock, waiter, ti)	do { } while (0)
#define debug_mutex_remove_waiter(lock, waiter, ti)	do { } while (0)
#define debug_mutex_set_owner(lock, ti, ip)		do { } while (0)
#define debug_mutex_unlock_check(lock)			true
#define debug_mutex_clear_owner(lock)			do { } while (0)
/* The entry points are leaves that tail-call the slowpath. */
#define __mutex_entry	__attribute__((optimize("omit-frame-pointer", \
					       "optimize-sibling-calls")))
#endif /* CONFIG_DEBUG_MUTEXES */

#endif
