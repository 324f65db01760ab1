/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The native x86 mutex fastpath (i386 and x86_64): a locked decrement to
 * lock and a locked increment to unlock, each followed by one branch into
 * the slowpath. The slowpath is called as a tail call, so an uncontended
 * mutex_lock() is "lock decl; js slowpath; ret".
 */
#ifndef _ASM_X86_MUTEX_H
#define _ASM_X86_MUTEX_H

#include <asm/atomic.h>

/* 1 -> 0 takes the lock; any other start leaves a negative count. */
static __always_inline void
__mutex_fastpath_lock(atomic_t *count, fastcall void (*fail_fn)(atomic_t *))
{
	/* LAB 5 BEGIN: the two-instruction lock fastpath */
	asm goto(LOCK_PREFIX "decl %0\n\t"
		 "js %l[contended]"
		 : : "m" (count->counter) : "memory", "cc" : contended);
	return;
contended:
	fail_fn(count);
	/* LAB 5 STUB: A locked decl, then js to the slowpath (asm
	 * goto). Always taking the slowpath works, but costs a spinlock.
	 *|	fail_fn(count);
	 * LAB 5 END */
}

static __always_inline int
__mutex_fastpath_lock_retval(atomic_t *count,
			     fastcall int (*fail_fn)(atomic_t *))
{
	asm goto(LOCK_PREFIX "decl %0\n\t"
		 "js %l[contended]"
		 : : "m" (count->counter) : "memory", "cc" : contended);
	return 0;
contended:
	return fail_fn(count);
}

/* 0 -> 1 releases it; a result <= 0 means someone may be waiting. */
static __always_inline void
__mutex_fastpath_unlock(atomic_t *count, fastcall void (*fail_fn)(atomic_t *))
{
	/* LAB 5 BEGIN: the two-instruction unlock fastpath */
	asm goto(LOCK_PREFIX "incl %0\n\t"
		 "jle %l[contended]"
		 : : "m" (count->counter) : "memory", "cc" : contended);
	return;
contended:
	fail_fn(count);
	/* LAB 5 STUB: A locked incl, then jle to the slowpath.
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
