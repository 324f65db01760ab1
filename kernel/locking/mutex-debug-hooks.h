/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hooks kernel/locking/mutex.c calls: in the debug build their
 * common case is inline here and the rest (reports, repairs, the
 * deadlock detector) is kernel/locking/mutex-debug.c's; otherwise they
 * are empty macros. The waiter hooks run under the mutex's wait_lock,
 * the others without it.
 */
#ifndef _KERNEL_MUTEX_DEBUG_HOOKS_H
#define _KERNEL_MUTEX_DEBUG_HOOKS_H

#include <mutex.h>
#include <sched.h>

#ifdef CONFIG_DEBUG_MUTEXES

/* Keep frame pointers in the entry points: reports print backtraces. */
#define __mutex_entry

/*
 * At every API entry, without wait_lock: records the caller, checks the
 * mutex was initialised and not destroyed (repairing it after the
 * report), refuses use from interrupt context, and for the calls that may
 * sleep, checks the context with might_sleep(). False: do nothing more.
 * Out of line: debug_mutex_enter() calls it only when one of those
 * checks has something to say.
 */
bool __debug_mutex_enter(struct mutex *lock, bool may_sleep,
			 unsigned long ip);

/*
 * The common case inline: no report is due when the mutex is set up,
 * we are not in an interrupt, and, for a call that may sleep, nothing
 * holds preemption or interrupts off (in_atomic() covers in_interrupt()).
 */
static __always_inline bool debug_mutex_enter_ip(struct mutex *lock,
						 bool may_sleep,
						 unsigned long ip)
{
	unsigned int busy = may_sleep ? ~PREEMPT_ACTIVE :
					HARDIRQ_MASK | SOFTIRQ_MASK;

	if (unlikely((preempt_count() & busy) ||
		     READ_ONCE(lock->magic) != lock ||
		     (may_sleep && irqs_disabled())))
		return __debug_mutex_enter(lock, may_sleep, ip);
	/* Pairs with debug_mutex_init(): magic is stored last. */
	smp_rmb();
	current->mutex_caller = ip;
	return true;
}
#define debug_mutex_enter(lock, may_sleep) \
	debug_mutex_enter_ip(lock, may_sleep, _RET_IP_)
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

/*
 * A task's held_locks list changes only under its own held_locks_lock,
 * with interrupts off: the walks of other tasks' lists (show-all, the
 * free check) take it too, and SysRq walks them from an interrupt.
 */
static inline unsigned long held_list_lock_irqsave(struct task_struct *p)
{
	unsigned long flags = arch_local_irq_save();

	arch_spin_lock(&p->held_locks_lock);
	return flags;
}

static inline void held_list_unlock_irqrestore(struct task_struct *p,
					       unsigned long flags)
{
	arch_spin_unlock(&p->held_locks_lock);
	arch_local_irq_restore(flags);
}

/*
 * The hooks below run without wait_lock, in the API's entry points,
 * after the count was taken and before it is released (a trylock's
 * owner is set under wait_lock, in its slowpath): only the owner
 * changes its mutex's owner and its own list (the exit and free checks
 * aside, under the same locks). The deadlock detector reads owners under
 * debug_lock; an owner stored here is seen by any detector run that
 * could close a cycle through it, since its task takes debug_lock
 * before it blocks (docs/mutex-debug.md).
 */
static inline void debug_mutex_set_owner(struct mutex *lock,
					 unsigned long ip)
{
	struct thread_info *ti = current_thread_info();
	struct task_struct *task = ti->task;
	unsigned long flags;

	WRITE_ONCE(lock->owner, ti);
	lock->acquire_ip = ip;
	flags = held_list_lock_irqsave(task);
	list_add_tail(&lock->held_list, &task->held_locks);
	held_list_unlock_irqrestore(task, flags);
}

/* Out of line: the double-unlock and not-owner reports. */
void debug_mutex_bad_unlock(struct mutex *lock);

/*
 * False (after a report) if the caller may not unlock it. Exact without
 * a lock: only the owner stores itself as owner.
 */
static inline bool debug_mutex_unlock_check(struct mutex *lock)
{
	if (likely(READ_ONCE(lock->owner) == current_thread_info()))
		return true;
	debug_mutex_bad_unlock(lock);
	return false;
}

/* By the owner, which is current (an unlock, or its exit). */
static inline void debug_mutex_clear_owner(struct mutex *lock)
{
	struct task_struct *task = current;
	unsigned long flags = held_list_lock_irqsave(task);

	list_del_init(&lock->held_list);
	held_list_unlock_irqrestore(task, flags);
	WRITE_ONCE(lock->owner, NULL);
}

#else
/* Without debugging the hooks are empty and the fastpath is all there is. */
#define debug_mutex_enter(lock, may_sleep)		true
#define debug_mutex_caller()				0UL
#define debug_mutex_reinit(lock, name, ip)		false
#define debug_mutex_init(lock, name)			do { } while (0)
#define debug_mutex_init_waiter(waiter, state)		do { } while (0)
#define debug_mutex_add_waiter(lock, waiter, ti)	do { } while (0)
#define debug_mutex_remove_waiter(lock, waiter, ti)	do { } while (0)
#define debug_mutex_set_owner(lock, ip)			do { } while (0)
#define debug_mutex_unlock_check(lock)			true
#define debug_mutex_clear_owner(lock)			do { } while (0)
/* The entry points are leaves that tail-call the slowpath. */
#define __mutex_entry	__attribute__((optimize("omit-frame-pointer", \
					       "optimize-sibling-calls")))
#endif /* CONFIG_DEBUG_MUTEXES */

#endif
