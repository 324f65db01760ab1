/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86 ticket spinlock (the word: asm-generic/ticket_spinlock.h): a locked
 * xadd takes a ticket, then the CPU waits until "owner" reaches it.
 */
#ifndef _ASM_X86_SPINLOCK_H
#define _ASM_X86_SPINLOCK_H

#include <asm-generic/ticket_spinlock.h>
#include <asm/barrier.h>

static inline void arch_spin_lock(arch_spinlock_t *lock)
{
	u32 inc = TICKET_NEXT;
	u16 ticket;

	asm volatile("lock; xaddl %0, %1"
		     : "+r" (inc), "+m" (lock->slock) :: "memory");
	ticket = inc >> TICKET_SHIFT;
	while (READ_ONCE(lock->owner) != ticket)
		cpu_relax();
	barrier();
}

static inline int arch_spin_trylock(arch_spinlock_t *lock)
{
	u32 old = READ_ONCE(lock->slock);
	u32 new;

	if (ticket_word_locked(old))
		return 0;
	new = old + TICKET_NEXT;
	return __atomic_compare_exchange_n(&lock->slock, &old, new, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* Only the holder writes owner, and x86 keeps stores ordered: a plain add. */
static inline void arch_spin_unlock(arch_spinlock_t *lock)
{
	barrier();
	asm volatile("addw $1, %0" : "+m" (lock->owner) :: "memory");
}

#endif
