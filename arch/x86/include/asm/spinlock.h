/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86 ticket spinlock. The low half is the ticket being served, the high half
 * the next ticket to hand out: a locked xadd takes a ticket, then the CPU
 * waits until "owner" reaches it. CPUs get the lock in the order they came.
 */
#ifndef _ASM_X86_SPINLOCK_H
#define _ASM_X86_SPINLOCK_H

#include <types.h>
#include <asm/barrier.h>

typedef struct {
	union {
		volatile u32 slock;
		struct {
			volatile u16 owner;
			volatile u16 next;
		};
	};
} arch_spinlock_t;

#define __ARCH_SPIN_LOCK_UNLOCKED	{ { 0 } }

static inline void arch_spin_lock(arch_spinlock_t *lock)
{
	u32 inc = 0x10000;
	u16 ticket;

	asm volatile("lock; xaddl %0, %1"
		     : "+r" (inc), "+m" (lock->slock) :: "memory");
	ticket = inc >> 16;
	while (READ_ONCE(lock->owner) != ticket)
		cpu_relax();
	barrier();
}

static inline int arch_spin_trylock(arch_spinlock_t *lock)
{
	u32 old = READ_ONCE(lock->slock);
	u32 new;

	if ((old >> 16) != (old & 0xffff))
		return 0;
	new = old + 0x10000;
	return __atomic_compare_exchange_n(&lock->slock, &old, new, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* Only the holder writes owner, and x86 keeps stores ordered: a plain add. */
static inline void arch_spin_unlock(arch_spinlock_t *lock)
{
	barrier();
	asm volatile("addw $1, %0" : "+m" (lock->owner) :: "memory");
}

static inline int arch_spin_is_locked(arch_spinlock_t *lock)
{
	u32 v = READ_ONCE(lock->slock);

	return (v >> 16) != (v & 0xffff);
}

#endif
