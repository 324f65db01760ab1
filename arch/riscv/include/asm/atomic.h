/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RISC-V atomics: the A extension's atomic memory operations (AMOs) do a
 * read-modify-write in one instruction, with the old value returned;
 * what has no AMO (compare-and-swap) is a load-reserved/store-conditional
 * loop, as on ARM. An AMO or sc carries its own ordering bits: .aq keeps
 * later accesses after it, .rl earlier ones before it, .aqrl both. The
 * operations that return a value are full barriers, as in Linux; the
 * others order nothing.
 */
#ifndef _ASM_RISCV_ATOMIC_H
#define _ASM_RISCV_ATOMIC_H

#include <asm-generic/atomic_t.h>
#include <asm/barrier.h>

static inline void atomic_add(int i, atomic_t *v)
{
	asm volatile("amoadd.w zero, %1, %0"
		     : "+A" (v->counter) : "r" (i) : "memory");
}

static inline void atomic_sub(int i, atomic_t *v)
{
	atomic_add(-i, v);
}

#define atomic_inc(v)	atomic_add(1, v)
#define atomic_dec(v)	atomic_sub(1, v)

/* The new value: amoadd returns the old one. */
static inline int atomic_add_return(int i, atomic_t *v)
{
	int old;

	/* LAB 1 BEGIN: atomic_add_return with one amoadd.w.aqrl */
	asm volatile("amoadd.w.aqrl %0, %2, %1"
		     : "=r" (old), "+A" (v->counter) : "r" (i) : "memory");
	/* LAB 1 STUB: One amoadd.w.aqrl: it adds and returns the old
	 * value, ordered both ways. This C version is correct on one
	 * hart only: another can write between the load and the store.
	 *|	old = v->counter;
	 *|	v->counter = old + i;
	 * LAB 1 END */
	return old + i;
}

static inline int atomic_xchg(atomic_t *v, int new)
{
	int old;

	/* LAB 1 BEGIN: atomic_xchg with one amoswap.w.aqrl */
	asm volatile("amoswap.w.aqrl %0, %2, %1"
		     : "=r" (old), "+A" (v->counter) : "r" (new) : "memory");
	/* LAB 1 STUB: One amoswap.w.aqrl. Correct on one hart only:
	 *|	old = v->counter;
	 *|	v->counter = new;
	 * LAB 1 END */
	return old;
}

/*
 * Stores new only if the count still is old; returns what it found. The
 * sc releases; the fence after it makes the whole a full barrier (an
 * lr.aqrl/sc.rl pair alone would let a later load pass the sc).
 */
static inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
	int prev;
	unsigned long failed;

	/* LAB 1 BEGIN: atomic_cmpxchg with an lr.w/sc.w loop */
	asm volatile("1:	lr.w	%0, %2\n\t"
		     "	bne	%0, %3, 2f\n\t"
		     "	sc.w.rl	%1, %4, %2\n\t"
		     "	bnez	%1, 1b\n\t"
		     "	fence	rw, rw\n"
		     "2:"
		     : "=&r" (prev), "=&r" (failed), "+A" (v->counter)
		     : "r" (old), "r" (new)
		     : "memory");
	/* LAB 1 STUB: lr.w, compare with old, sc.w.rl only if equal,
	 * back to the lr.w while the sc fails, then a fence rw,rw.
	 * Correct on one hart only:
	 *|	prev = v->counter;
	 *|	if (prev == old)
	 *|		v->counter = new;
	 *|	(void)failed;
	 * LAB 1 END */
	return prev;
}

#include <asm-generic/atomic-ops.h>

#endif
