/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The native RISC-V mutex fastpath: the counting (dec/inc) protocol with
 * one AMO each way. Lock is "amoadd.w.aq" of -1, then one branch to the
 * slowpath if the count was not 1 (it was 0 or below); unlock is
 * "amoadd.w.rl" of +1, then one branch if the count was negative (a
 * waiter may sleep). The AMO returns the old count, so the branch tests
 * that. .aq keeps the critical section after the lock and .rl before the
 * unlock: no fence is needed (docs/riscv.md).
 */
#ifndef _ASM_RISCV_MUTEX_H
#define _ASM_RISCV_MUTEX_H

#include <asm/atomic.h>

/* 1 -> 0 takes the lock; any other start leaves a negative count. */
static __always_inline void
__mutex_fastpath_lock(atomic_t *count, fastcall void (*fail_fn)(atomic_t *))
{
	/* LAB 5 BEGIN: the lock fastpath, one amoadd.w.aq and a branch */
	asm goto("amoadd.w.aq t0, %1, (%0)\n\t"
		 "blez t0, %l[contended]"
		 : : "r" (&count->counter), "r" (-1) : "t0", "memory"
		 : contended);
	return;
contended:
	fail_fn(count);
	/* LAB 5 STUB: amoadd.w.aq of -1 (it returns the old count), then
	 * blez to the slowpath (asm goto). Always taking the slowpath
	 * works, but costs a spinlock.
	 *|	fail_fn(count);
	 * LAB 5 END */
}

static __always_inline int
__mutex_fastpath_lock_retval(atomic_t *count,
			     fastcall int (*fail_fn)(atomic_t *))
{
	asm goto("amoadd.w.aq t0, %1, (%0)\n\t"
		 "blez t0, %l[contended]"
		 : : "r" (&count->counter), "r" (-1) : "t0", "memory"
		 : contended);
	return 0;
contended:
	return fail_fn(count);
}

/* 0 -> 1 releases it; an old count below 0 means someone may be waiting. */
static __always_inline void
__mutex_fastpath_unlock(atomic_t *count, fastcall void (*fail_fn)(atomic_t *))
{
	/* LAB 5 BEGIN: the unlock fastpath, one amoadd.w.rl and a branch */
	asm goto("amoadd.w.rl t0, %1, (%0)\n\t"
		 "bltz t0, %l[contended]"
		 : : "r" (&count->counter), "r" (1) : "t0", "memory"
		 : contended);
	return;
contended:
	fail_fn(count);
	/* LAB 5 STUB: amoadd.w.rl of +1, then bltz to the slowpath.
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
