/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The legacy counting semaphore, modelled on the Linux 2.6.15 x86 one: the
 * baseline the mutex was measured against. Use it only where counting is
 * the point; for mutual exclusion use a mutex, to wait for an event a
 * completion.
 *
 * The algorithm. count is the number of free units; down() decrements it
 * and is done if the result is not negative. Otherwise the task joins the
 * exclusive wait queue and the sleepers accounting begins: "sleepers" is
 * the number of tasks that have decremented count and are still accounted
 * for in it. Each sleeper, under the queue's lock, adds (sleepers - 1) back
 * to count, which cancels every decrement but its own; if that brings count
 * to zero or above, a unit was free and it owns it, else it sets sleepers
 * to 1 (itself) and sleeps. up() increments count and, if the result is
 * not positive, wakes one sleeper, which retries. A sleeper that got the
 * semaphore wakes the next one on its way out, because its own retry may
 * have absorbed an up() that was meant for that one. The effect: no
 * ordering promise, and extra wakeups and context switches under contention.
 */
#ifndef _SEMAPHORE_H
#define _SEMAPHORE_H

#include <atomic.h>
#include <wait.h>

struct semaphore {
	atomic_t count;
	int sleepers;
	wait_queue_head_t wait;
#ifdef CONFIG_PROVE_LOCKING
	/*
	 * Only a semaphore that starts with one unit is a lock, with an
	 * owner and a place in the lock order; the others count or signal,
	 * and the lock-order validator leaves them alone (key NULL).
	 */
	struct lockdep_map dep_map;
#endif
};

#ifdef CONFIG_PROVE_LOCKING
#define __SEM_DEP_MAP_INIT(name, n) \
	.dep_map = { .key = (n) == 1 ? LOCKDEP_KEY(name) : NULL },
#else
#define __SEM_DEP_MAP_INIT(name, n)
#endif

#define __SEMAPHORE_INITIALIZER(name, n) {				\
	.count = ATOMIC_INIT(n),					\
	.sleepers = 0,							\
	.wait = __WAIT_QUEUE_HEAD_INITIALIZER((name).wait),		\
	__SEM_DEP_MAP_INIT(name, n) }

/* A semaphore with one unit, as Linux's DEFINE_SEMAPHORE. */
#define DEFINE_SEMAPHORE(name) \
	struct semaphore name = __SEMAPHORE_INITIALIZER(name, 1)

void __sema_init(struct semaphore *sem, int val, const char *key);
#define sema_init(sem, val)	__sema_init(sem, val, LOCKDEP_KEY(sem))
void down(struct semaphore *sem);
int down_interruptible(struct semaphore *sem);
/* 0 on success, 1 if it would sleep: the opposite of mutex_trylock()! */
int down_trylock(struct semaphore *sem);
void up(struct semaphore *sem);

#endif
