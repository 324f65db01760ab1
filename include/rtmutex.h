/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rt-mutex: a sleeping lock with one owner and priority inheritance,
 * after the design of Linux 2.6.18's. See docs/rt-mutex.md.
 *
 * Its waiters queue by priority (FIFO among equals). Its owner runs at
 * least at its top waiter's priority until it unlocks; if the owner is
 * itself blocked on an rt-mutex, the boost goes on to that one's owner,
 * and so on along the chain. An unlock hands the lock to the top waiter.
 *
 * Rules: only the owner unlocks; no recursion; no use from interrupt
 * context. The plain mutex (include/mutex.h) stays the 2006 mutex
 * without priority inheritance, so that both can be compared.
 */
#ifndef _RTMUTEX_H
#define _RTMUTEX_H

#include <types.h>
#include <list.h>
#include <lockdep.h>

struct task_struct;

struct rt_mutex {
	struct task_struct *owner;	/* NULL: free */
	struct list_head wait_list;	/* rt_mutex_waiter, by priority */
	const char *name;		/* for reports, ps and locks */
	unsigned long acquire_ip;	/* where the owner took it */
	struct list_head held_list;	/* on the owner's held_rt_mutexes */
#ifdef CONFIG_PROVE_LOCKING
	struct lockdep_map dep_map;
#endif
};

/* One per blocked task, on that task's stack. */
struct rt_mutex_waiter {
	struct list_head list_entry;	/* on lock->wait_list */
	struct list_head pi_list_entry;	/* on the owner's pi_waiters: top */
	struct task_struct *task;
	struct rt_mutex *lock;
	int prio;			/* its task's prio when last queued */
};

#define __RT_MUTEX_INITIALIZER(lockname) {				\
	.wait_list = LIST_HEAD_INIT(lockname.wait_list),		\
	.name = #lockname,						\
	.held_list = LIST_HEAD_INIT(lockname.held_list),		\
	__DEP_MAP_INIT(lockname) }

#define DEFINE_RT_MUTEX(mutexname) \
	struct rt_mutex mutexname = __RT_MUTEX_INITIALIZER(mutexname)

/* key: the validator's class (LOCKDEP_KEY), NULL without it */
void __rt_mutex_init(struct rt_mutex *lock, const char *name,
		     const char *key);
#define rt_mutex_init(lock) \
	__rt_mutex_init(lock, #lock, LOCKDEP_KEY(lock))

static inline int rt_mutex_is_locked(struct rt_mutex *lock)
{
	return READ_ONCE(lock->owner) != NULL;
}

void rt_mutex_lock(struct rt_mutex *lock);
/*
 * 0 with the lock held; -EINTR when a signal ended the wait; -EDEADLK,
 * without waiting, when the owners' chain leads back to the caller.
 */
int rt_mutex_lock_interruptible(struct rt_mutex *lock);
/* 1 when taken, 0 when held by someone: as mutex_trylock(). */
int rt_mutex_trylock(struct rt_mutex *lock);
void rt_mutex_unlock(struct rt_mutex *lock);

/* What p runs at: its normal_prio, or its top pi waiter's if higher. */
int rt_mutex_getprio(struct task_struct *p);
/* p's normal_prio changed: carry it along the chain p is blocked in. */
void rt_mutex_adjust_pi(struct task_struct *p);
/* The name of the rt-mutex p waits for, or NULL (for ps). */
const char *rt_mutex_blocked_on(struct task_struct *p);
/*
 * For locks and SysRq d: every task an rt-mutex boosts or blocks, with
 * its priority, and in the debug build every rt-mutex each one holds.
 */
void rt_mutex_show_all(void);
/*
 * At exit (current), in every build: report the rt-mutexes it still
 * holds and release each as an unlock would, so that no lock is left
 * naming a task about to be freed.
 */
void rt_mutex_check_no_locks_held(struct task_struct *task);
/* The longest owner chain followed before -EDEADLK (Linux's 1024). */
extern unsigned int max_lock_depth;

#endif
