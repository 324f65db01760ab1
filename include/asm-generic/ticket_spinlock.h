/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ticket spinlock's word, the same on every arch: the low half is the
 * ticket being served ("owner"), the high half the next ticket to hand
 * out ("next"). An arch's asm/spinlock.h includes this and writes the
 * operations that need its atomics: arch_spin_lock() takes a ticket with
 * one atomic add of TICKET_NEXT and waits for owner to reach it, and
 * arch_spin_unlock() bumps owner (only the holder writes it). CPUs get
 * the lock in the order they came.
 */
#ifndef _ASM_GENERIC_TICKET_SPINLOCK_H
#define _ASM_GENERIC_TICKET_SPINLOCK_H

#include <types.h>
#include <compiler.h>

typedef struct {
	union {
		volatile u32 slock;
		struct {		/* little-endian: owner is the low half */
			volatile u16 owner;
			volatile u16 next;
		};
	};
} arch_spinlock_t;

#define __ARCH_SPIN_LOCK_UNLOCKED	{ { 0 } }
#define TICKET_SHIFT			16
#define TICKET_NEXT			(1u << TICKET_SHIFT)

/* A word whose two halves differ has a ticket handed out and not served. */
static inline bool ticket_word_locked(u32 word)
{
	return (word >> TICKET_SHIFT) != (word & 0xffff);
}

static inline int arch_spin_is_locked(arch_spinlock_t *lock)
{
	return ticket_word_locked(READ_ONCE(lock->slock));
}

#endif
