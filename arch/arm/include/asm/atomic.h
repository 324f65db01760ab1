/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ARMv7 atomics: an exclusive load (ldrex) marks the address, the
 * exclusive store (strex) succeeds only if nobody wrote it in between, and
 * the loop retries until it does. The operations that return a value are
 * full barriers, as in Linux, so a dmb goes on either side; the others
 * order nothing.
 */
#ifndef _ASM_ARM_ATOMIC_H
#define _ASM_ARM_ATOMIC_H

#include <asm-generic/atomic_t.h>
#include <asm/barrier.h>

/* The exclusive loop without barriers: returns the new value. */
static inline int __atomic_add_relaxed(int i, atomic_t *v)
{
	/* LAB 1 BEGIN: the add as one ldrex/strex loop */
	int result;
	unsigned long failed;

	asm volatile("1:	ldrex	%0, [%3]\n\t"
		     "	add	%0, %0, %4\n\t"
		     "	strex	%1, %0, [%3]\n\t"
		     "	teq	%1, #0\n\t"
		     "	bne	1b"
		     : "=&r" (result), "=&r" (failed), "+Qo" (v->counter)
		     : "r" (&v->counter), "Ir" (i)
		     : "cc");
	return result;
	/* LAB 1 STUB: ldrex, add, strex, and back to the ldrex while
	 * strex reports a failure. This C version is correct on one CPU
	 * only: another CPU can write between the load and the store.
	 *|	v->counter = v->counter + i;
	 *|	return v->counter;
	 * LAB 1 END */
}

static inline void atomic_add(int i, atomic_t *v)
{
	__atomic_add_relaxed(i, v);
}

static inline void atomic_sub(int i, atomic_t *v)
{
	__atomic_add_relaxed(-i, v);
}

#define atomic_inc(v)	atomic_add(1, v)
#define atomic_dec(v)	atomic_sub(1, v)

static inline int atomic_add_return(int i, atomic_t *v)
{
	int result;

	smp_mb();
	result = __atomic_add_relaxed(i, v);
	smp_mb();
	return result;
}

static inline int atomic_xchg(atomic_t *v, int new)
{
	int old;
	unsigned long failed;

	smp_mb();
	/* LAB 1 BEGIN: atomic_xchg as one ldrex/strex loop */
	asm volatile("1:	ldrex	%0, [%3]\n\t"
		     "	strex	%1, %4, [%3]\n\t"
		     "	teq	%1, #0\n\t"
		     "	bne	1b"
		     : "=&r" (old), "=&r" (failed), "+Qo" (v->counter)
		     : "r" (&v->counter), "r" (new)
		     : "cc");
	/* LAB 1 STUB: ldrex the old value, strex the new one, retry
	 * while strex fails. This C version is correct on one CPU only.
	 *|	old = v->counter;
	 *|	v->counter = new;
	 *|	(void)failed;
	 * LAB 1 END */
	smp_mb();
	return old;
}

/* Stores new only if the count still is old; returns what it found. */
static inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
	int prev;
	unsigned long failed;

	smp_mb();
	/* LAB 1 BEGIN: atomic_cmpxchg with a conditional strex */
	do {
		asm volatile("	ldrex	%1, [%3]\n\t"
			     "	mov	%0, #0\n\t"
			     "	teq	%1, %4\n\t"
			     "	strexeq	%0, %5, [%3]"
			     : "=&r" (failed), "=&r" (prev), "+Qo" (v->counter)
			     : "r" (&v->counter), "Ir" (old), "r" (new)
			     : "cc");
	} while (failed);
	/* LAB 1 STUB: ldrex, compare with old, strexeq only if equal,
	 * retry while a strex that ran failed. Correct on one CPU only:
	 *|	prev = v->counter;
	 *|	if (prev == old)
	 *|		v->counter = new;
	 *|	(void)failed;
	 * LAB 1 END */
	smp_mb();
	return prev;
}

#include <asm-generic/atomic-ops.h>

#endif
