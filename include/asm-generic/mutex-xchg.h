/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic mutex fastpath on atomic exchange alone, for arches whose only
 * cheap atomic read-modify-write is a swap. Lock swaps in 0 and must have
 * seen 1; unlock swaps in 1 and must have seen 0.
 */
#ifndef _ASM_GENERIC_MUTEX_XCHG_H
#define _ASM_GENERIC_MUTEX_XCHG_H

#include <asm/atomic.h>

static __always_inline void
__mutex_fastpath_lock(atomic_t *count, fastcall void (*fail_fn)(atomic_t *))
{
	if (unlikely(atomic_xchg(count, 0) != 1))
		fail_fn(count);
}

static __always_inline int
__mutex_fastpath_lock_retval(atomic_t *count,
			     fastcall int (*fail_fn)(atomic_t *))
{
	if (unlikely(atomic_xchg(count, 0) != 1))
		return fail_fn(count);
	return 0;
}

static __always_inline void
__mutex_fastpath_unlock(atomic_t *count, fastcall void (*fail_fn)(atomic_t *))
{
	if (unlikely(atomic_xchg(count, 1) != 0))
		fail_fn(count);
}

/* The swap already stored 1: the slowpath only wakes a waiter. */
#define __mutex_slowpath_needs_to_unlock()	0

/*
 * Swap in 0. Seeing 1 means we own it. Seeing -1 means we just wiped the
 * "waiters" mark, so swap it back; if the owner released the lock in that
 * window the second swap hands back 1 and we own it (with the mark kept,
 * so our unlock wakes the waiters).
 */
static __always_inline int
__mutex_fastpath_trylock(atomic_t *count, fastcall int (*fail_fn)(atomic_t *))
{
	int prev = atomic_xchg(count, 0);

	if (unlikely(prev < 0))
		prev = atomic_xchg(count, prev);
	return prev == 1;
}

#endif
