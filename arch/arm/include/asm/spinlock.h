/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ARM ticket spinlock (the word: asm-generic/ticket_spinlock.h): an
 * exclusive add takes a ticket, then the CPU sleeps in wfe until "owner"
 * reaches it. The holder bumps owner
 * and wakes the waiters with sev (after a dsb, so that the new owner value
 * is visible before they look). CPUs get the lock in the order they came.
 */
#ifndef _ASM_ARM_SPINLOCK_H
#define _ASM_ARM_SPINLOCK_H

#include <asm-generic/ticket_spinlock.h>
#include <asm/barrier.h>

static inline void arch_spin_lock(arch_spinlock_t *lock)
{
	unsigned long failed;
	u32 old, new;
	u16 ticket;

	asm volatile("1:	ldrex	%0, [%3]\n\t"
		     "	add	%1, %0, %4\n\t"
		     "	strex	%2, %1, [%3]\n\t"
		     "	teq	%2, #0\n\t"
		     "	bne	1b"
		     : "=&r" (old), "=&r" (new), "=&r" (failed)
		     : "r" (&lock->slock), "I" (TICKET_NEXT)
		     : "cc", "memory");
	ticket = old >> TICKET_SHIFT;
	while (READ_ONCE(lock->owner) != ticket)
		asm volatile("wfe" ::: "memory");
	smp_mb();
}

/*
 * Takes a ticket only if it would be served at once: the halves are equal
 * exactly when the word equals itself rotated by 16 bits.
 */
static inline int arch_spin_trylock(arch_spinlock_t *lock)
{
	unsigned long failed;
	u32 cur, tmp;

	do {
		asm volatile("	ldrex	%0, [%3]\n\t"
			     "	mov	%1, #0\n\t"
			     "	teq	%0, %0, ror #16\n\t"
			     "	addeq	%2, %0, %4\n\t"
			     "	strexeq	%1, %2, [%3]"
			     : "=&r" (cur), "=&r" (failed), "=&r" (tmp)
			     : "r" (&lock->slock), "I" (TICKET_NEXT)
			     : "cc", "memory");
	} while (failed);
	if (ticket_word_locked(cur))
		return 0;
	smp_mb();
	return 1;
}

static inline void arch_spin_unlock(arch_spinlock_t *lock)
{
	smp_mb();
	lock->owner++;		/* only the holder writes owner */
	dsb(ishst);
	asm volatile("sev" ::: "memory");
}

#endif
