/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mutexes: sleeping locks with one owner. See docs/mutex-design.md.
 *
 * count: 1 unlocked, 0 locked, negative: locked and tasks may be waiting.
 * The fastpath changes count with one atomic operation; anything else goes
 * to the slowpath in kernel/locking/mutex.c, which works under wait_lock.
 *
 * Rules (checked with CONFIG_DEBUG_MUTEXES): one owner at a time; only the
 * owner unlocks; no double unlock; no recursive locking; initialise through
 * the API only, never by memset or copying; do not exit holding one; do not
 * free memory holding a locked one; do not re-initialise a locked one; no
 * use from interrupt context.
 */
#ifndef _MUTEX_H
#define _MUTEX_H

#include <types.h>
#include <list.h>
#include <spinlock.h>
#include <atomic.h>
#ifdef CONFIG_MUTEX_SPIN_ON_OWNER
#include <osq_lock.h>
#endif

struct thread_info;
struct task_struct;
struct ww_acquire_ctx;

struct mutex {
	atomic_t count;
	spinlock_t wait_lock;
	struct list_head wait_list;	/* FIFO of struct mutex_waiter */
#ifdef CONFIG_MUTEX_SPIN_ON_OWNER
	struct task_struct *owner;	/* NULL: free, or just changing hands */
	struct task_struct *handoff;	/* the waiter the next unlock serves */
	struct optimistic_spin_queue osq;	/* the spinners, in line */
#endif
#ifdef CONFIG_DEBUG_MUTEXES
	struct thread_info *owner;
	struct list_head held_list;	/* on the owner's held_locks */
	unsigned long acquire_ip;	/* where the owner took it */
	const char *name;
	void *magic;			/* == the mutex's own address */
#endif
#ifdef CONFIG_PROVE_LOCKING
	struct lockdep_map dep_map;
#endif
};

/* One per sleeping task, on that task's stack. */
struct mutex_waiter {
	struct list_head list;
	struct thread_info *ti;
	struct ww_acquire_ctx *ww_ctx;	/* a ww_mutex's waiter: its context */
#ifdef CONFIG_MUTEX_SPIN_ON_OWNER
	unsigned int lost;	/* wakeups after which the lock was gone */
#endif
#ifdef CONFIG_DEBUG_MUTEXES
	struct mutex *lock;
	void *magic;
	bool deadlock_reported;	/* on a cycle already reported */
	bool interruptible;	/* mutex_lock_interruptible() */
#endif
};

#ifdef CONFIG_DEBUG_MUTEXES
#include <mutex-debug.h>
#else
#define __DEBUG_MUTEX_INITIALIZER(lockname)
#define mutex_init(mutex) \
	__mutex_init(mutex, NULL, LOCKDEP_KEY(mutex))
#define mutex_destroy(mutex)		do { (void)(mutex); } while (0)
/* Only the debug build knows owners: say so rather than print nothing. */
#define mutex_debug_show_all_locks() \
	printk("The held mutexes are tracked by the debug build only "	\
	       "(MUTEX=debug).\n")
#define mutex_debug_blocked_on(p)	((void)(p), (const char *)NULL)
#define mutex_debug_show_held_locks(p)	do { (void)(p); } while (0)
#define mutex_debug_check_no_locks_held(task)	do { (void)(task); } while (0)
#define mutex_debug_check_no_locks_freed(from, len) \
	do { (void)(from); (void)(len); } while (0)
#define mutex_debug_task_list_lock()		0UL
#define mutex_debug_task_list_unlock(flags)	do { (void)(flags); } while (0)
#endif

#ifdef CONFIG_MUTEX_SPIN_ON_OWNER
#define __SPIN_ON_OWNER_INITIALIZER	.osq = OSQ_UNLOCKED,
#else
#define __SPIN_ON_OWNER_INITIALIZER
#endif

#define __MUTEX_INITIALIZER(lockname) {					\
	.count = ATOMIC_INIT(1),					\
	.wait_lock = __SPIN_LOCK_UNLOCKED(lockname.wait_lock),		\
	.wait_list = LIST_HEAD_INIT(lockname.wait_list),		\
	__SPIN_ON_OWNER_INITIALIZER					\
	__DEP_MAP_INIT(lockname)					\
	__DEBUG_MUTEX_INITIALIZER(lockname) }

#define DEFINE_MUTEX(mutexname) \
	struct mutex mutexname = __MUTEX_INITIALIZER(mutexname)

/* key: the lock-order validator's class (LOCKDEP_KEY), NULL without it */
void __mutex_init(struct mutex *lock, const char *name, const char *key);

/* 1 if locked, 0 if unlocked. */
static inline int mutex_is_locked(struct mutex *lock)
{
	return atomic_read(&lock->count) != 1;
}

void fastcall mutex_lock(struct mutex *lock);
int fastcall mutex_lock_interruptible(struct mutex *lock);
/* 1 on success, 0 if contended: the opposite of down_trylock()! */
int fastcall mutex_trylock(struct mutex *lock);
void fastcall mutex_unlock(struct mutex *lock);

/*
 * Under wait_lock, with the lock held (by anyone): the -1 a lock attempt
 * stored goes back to 0 when nobody waits, so that the unlock takes the
 * fastpath. For the lock paths built beside the core's (the trylock
 * slowpath, the ww_mutex's).
 */
void mutex_unmark_contended(struct mutex *lock);

#ifdef CONFIG_MUTEX_SPIN_ON_OWNER
/*
 * Run-time switches of the spinning mutex (the benchmark turns them off
 * to measure the 2006 mutex in the same boot): spin on a running owner
 * (1) or not (0); the lost wakeups after which a waiter asks for the
 * lock to be handed to it (0: never).
 */
#define MUTEX_HANDOFF_AFTER	2
extern int mutex_spin_on_owner;
extern unsigned int mutex_handoff_after;
#endif

#ifdef CONFIG_PROVE_LOCKING
/*
 * mutex_lock() of a mutex whose class the task already holds, as
 * subclass n: for two locks of one class that nest in a fixed order.
 */
void fastcall mutex_lock_nested(struct mutex *lock, unsigned int subclass);
#else
#define mutex_lock_nested(lock, subclass)	mutex_lock(lock)
#endif

#endif
