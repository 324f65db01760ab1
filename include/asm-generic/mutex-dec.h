/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic mutex fastpath on atomic decrement and increment with results,
 * for arches that have those as single atomic operations.
 */
#ifndef _ASM_GENERIC_MUTEX_DEC_H
#define _ASM_GENERIC_MUTEX_DEC_H

#include <asm/atomic.h>

static __always_inline void
__mutex_fastpath_lock(atomic_t *count, fastcall void (*fail_fn)(atomic_t *))
{
	if (unlikely(atomic_dec_return(count) < 0))
		fail_fn(count);
}

static __always_inline int
__mutex_fastpath_lock_retval(atomic_t *count,
			     fastcall int (*fail_fn)(atomic_t *))
{
	if (unlikely(atomic_dec_return(count) < 0))
		return fail_fn(count);
	return 0;
}

static __always_inline void
__mutex_fastpath_unlock(atomic_t *count, fastcall void (*fail_fn)(atomic_t *))
{
	if (unlikely(atomic_inc_return(count) <= 0))
		fail_fn(count);
}

/* From -1 the increment reaches 0, still "locked": the slowpath sets 1. */
#define __mutex_slowpath_needs_to_unlock()	1

/* A decrement could disturb a contended count, so compare-exchange 1 -> 0. */
static __always_inline int
__mutex_fastpath_trylock(atomic_t *count, fastcall int (*fail_fn)(atomic_t *))
{
	return atomic_cmpxchg(count, 1, 0) == 1;
}

#endif
