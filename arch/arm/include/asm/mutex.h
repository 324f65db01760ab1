/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The native ARMv7 mutex fastpath: the counting (dec/inc) protocol done
 * with one exclusive load/store loop, and a dmb for ordering. Lock is
 * "ldrex; sub; strex; retry if the store failed; dmb", then one branch to
 * the slowpath if the count went negative; unlock mirrors it with the dmb
 * first. See docs/arm.md for why this and not the xchg variant.
 */
#ifndef _ASM_ARM_MUTEX_H
#define _ASM_ARM_MUTEX_H

#include <asm/atomic.h>

/* "add" or "sub" 1 to the count; returns the new value; no barrier. */
#define __mutex_count_op(count, op) ({					\
	unsigned long __failed;						\
	int __result;							\
									\
	asm volatile("1:	ldrex	%0, [%2]\n\t"			\
		     "	" op "	%0, %0, #1\n\t"			\
		     "	strex	%1, %0, [%2]\n\t"			\
		     "	teq	%1, #0\n\t"				\
		     "	bne	1b"					\
		     : "=&r" (__result), "=&r" (__failed)		\
		     : "r" (&(count)->counter)				\
		     : "cc", "memory");					\
	__result;							\
})

/* 1 -> 0 takes the lock; any other start leaves a negative count. */
static __always_inline void
__mutex_fastpath_lock(atomic_t *count, fastcall void (*fail_fn)(atomic_t *))
{
	/* LAB 5 BEGIN: the lock fastpath, one exclusive loop */
	int result = __mutex_count_op(count, "sub");

	/* Acquire: nothing in the critical section moves above the lock. */
	smp_mb();
	if (unlikely(result < 0))
		fail_fn(count);
	/* LAB 5 STUB: Decrement the count with ldrex/sub/strex
	 * (__mutex_count_op), then dmb, then the slowpath only if it went
	 * negative. Always taking the slowpath works, but costs a spinlock.
	 *|	fail_fn(count);
	 * LAB 5 END */
}

static __always_inline int
__mutex_fastpath_lock_retval(atomic_t *count,
			     fastcall int (*fail_fn)(atomic_t *))
{
	int result = __mutex_count_op(count, "sub");

	smp_mb();
	if (unlikely(result < 0))
		return fail_fn(count);
	return 0;
}

/* 0 -> 1 releases it; a result <= 0 means someone may be waiting. */
static __always_inline void
__mutex_fastpath_unlock(atomic_t *count, fastcall void (*fail_fn)(atomic_t *))
{
	/* LAB 5 BEGIN: the unlock fastpath, one exclusive loop */
	int result;

	/* Release: the critical section is visible before the count. */
	smp_mb();
	result = __mutex_count_op(count, "add");
	if (unlikely(result <= 0))
		fail_fn(count);
	/* LAB 5 STUB: dmb, then increment the count with
	 * ldrex/add/strex, and the slowpath only if it is still 0 or less.
	 *|	fail_fn(count);
	 * LAB 5 END */
}

/*
 * The increment above left the count at 0 or below, which still reads as
 * "locked": the slowpath has to store the 1 itself.
 */
#define __mutex_slowpath_needs_to_unlock()	1

/* Only an unlocked mutex (1) may become locked (0); never touch waiters. */
static __always_inline int
__mutex_fastpath_trylock(atomic_t *count, fastcall int (*fail_fn)(atomic_t *))
{
	return atomic_cmpxchg(count, 1, 0) == 1;
}

#endif
