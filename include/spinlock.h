/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spinlocks. Taking one disables preemption; on SMP it also spins on the
 * arch's ticket lock. With CONFIG_DEBUG_SPINLOCK every lock records its
 * owner (CPU and task) and the checks in kernel/locking/spinlock.c report
 * recursion, a bad unlock and a lockup.
 */
#ifndef _SPINLOCK_H
#define _SPINLOCK_H

#include <types.h>
#include <compiler.h>
#include <preempt.h>
#include <irqflags.h>
#include <asm/barrier.h>
#include <asm/spinlock.h>
#include <lockdep.h>

struct task_struct;

typedef struct spinlock {
#ifdef CONFIG_SMP
	arch_spinlock_t raw;
#endif
#ifdef CONFIG_DEBUG_SPINLOCK
	unsigned int magic;
	int owner_cpu;
	struct task_struct *owner;
	const char *name;
	unsigned long taken_at;
	/*
	 * Times a CPU found it held and spun: a test that holds it reads
	 * this to know that another task has come to the lock.
	 */
	unsigned int contended;
#endif
#ifdef CONFIG_PROVE_LOCKING
	struct lockdep_map dep_map;
#endif
} spinlock_t;

#define SPINLOCK_MAGIC		0xdead4ead

#ifdef CONFIG_SMP
#define __RAW_INIT		.raw = __ARCH_SPIN_LOCK_UNLOCKED,
#else
#define __RAW_INIT
#endif
#ifdef CONFIG_DEBUG_SPINLOCK
#define __SPIN_DEBUG_INIT(n)	.magic = SPINLOCK_MAGIC, .owner_cpu = -1, \
				.owner = NULL, .name = #n,
#else
#define __SPIN_DEBUG_INIT(n)
#endif

#define __SPIN_LOCK_UNLOCKED(n)	\
	(spinlock_t){ __RAW_INIT __SPIN_DEBUG_INIT(n) __DEP_MAP_INIT(n) }
#define DEFINE_SPINLOCK(n)	spinlock_t n = __SPIN_LOCK_UNLOCKED(n)

void __spin_lock_init(spinlock_t *lock, const char *name, const char *key);
#define spin_lock_init(l)	__spin_lock_init(l, #l, LOCKDEP_KEY(l))

void _spin_lock(spinlock_t *lock);
int _spin_trylock(spinlock_t *lock);
void _spin_unlock(spinlock_t *lock);
int spin_is_locked(spinlock_t *lock);
#ifdef CONFIG_DEBUG_SPINLOCK
/* Reports (a "BUG:" naming the lock) when the caller does not hold lock. */
void spin_assert_held(spinlock_t *lock);
#else
#define spin_assert_held(lock)	do { } while (0)
#endif

#define spin_lock(l)		_spin_lock(l)
#ifdef CONFIG_PROVE_LOCKING
/*
 * Takes a lock of a class that the task already holds, as subclass n: say
 * so when two locks of one class nest in a fixed order (a parent, then its
 * child), or the validator reports recursion.
 */
void _spin_lock_nested(spinlock_t *lock, unsigned int subclass);
#define spin_lock_nested(l, n)	_spin_lock_nested(l, n)
#else
#define spin_lock_nested(l, n)	_spin_lock(l)
#endif
#define spin_trylock(l)		_spin_trylock(l)
#define spin_unlock(l)		_spin_unlock(l)

/*
 * The unlocks that turn interrupts back on do that before they enable
 * preemption, as in Linux: a task woken under the lock then preempts at
 * the unlock, where the other order would find interrupts still off,
 * not switch, and leave it to the next tick.
 */
void _spin_unlock_irq(spinlock_t *lock);
void _spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags);

#define spin_lock_irq(l)	do { local_irq_disable(); spin_lock(l); } while (0)
#define spin_unlock_irq(l)	_spin_unlock_irq(l)
#define spin_lock_irqsave(l, flags) do {				\
	local_irq_save(flags);						\
	spin_lock(l);							\
} while (0)
#define spin_unlock_irqrestore(l, flags) _spin_unlock_irqrestore(l, flags)

#ifdef CONFIG_DEBUG_SPINLOCK
/* Counts of each kind of report, so that a test can see that one was made. */
struct spin_debug_stats {
	unsigned long recursion;
	unsigned long bad_unlock;
	unsigned long bad_magic;
	unsigned long lockup;
};
extern struct spin_debug_stats spin_debug_stats;
extern u64 spin_lockup_ns;	/* spinning longer is reported as a lockup */
/*
 * A test sets it to a lock: the next task to take that lock with
 * spin_lock() is preempted as it lets go of it, and the test, waiting on
 * the same CPU, sees what the holder left for others to find. Once: the
 * taker clears it.
 */
extern spinlock_t *spin_debug_preempt_at_unlock;
#endif

#endif
