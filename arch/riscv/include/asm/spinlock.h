/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RISC-V ticket spinlock (the word: asm-generic/ticket_spinlock.h): one
 * amoadd.w.aq takes a ticket, then the hart waits until "owner" reaches
 * it. There are no halfword AMOs in the A extension, and none is needed:
 * only the holder writes owner, a plain halfword store after a release
 * fence. The AMO on the whole word is atomic against that store (RVWMO's
 * atomicity axiom covers overlapping bytes of any size).
 */
#ifndef _ASM_RISCV_SPINLOCK_H
#define _ASM_RISCV_SPINLOCK_H

#include <asm-generic/ticket_spinlock.h>
#include <asm/barrier.h>

static inline void arch_spin_lock(arch_spinlock_t *lock)
{
	u32 old;
	u16 ticket;

	asm volatile("amoadd.w.aq %0, %2, %1"
		     : "=r" (old), "+A" (lock->slock)
		     : "r" (TICKET_NEXT) : "memory");
	ticket = old >> TICKET_SHIFT;
	while (READ_ONCE(lock->owner) != ticket)
		cpu_relax();
	/* Acquire: the load that saw our turn before the critical section. */
	RISCV_FENCE(r, rw);
}

static inline int arch_spin_trylock(arch_spinlock_t *lock)
{
	u32 old = READ_ONCE(lock->slock);

	if (ticket_word_locked(old))
		return 0;
	return __atomic_compare_exchange_n(&lock->slock, &old, old + TICKET_NEXT,
					   false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

static inline void arch_spin_unlock(arch_spinlock_t *lock)
{
	/* Release: the critical section before the next owner's turn. */
	RISCV_FENCE(rw, w);
	WRITE_ONCE(lock->owner, lock->owner + 1);
}

#endif
