/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86 atomics (i386 and x86_64). Every read-modify-write carries the lock
 * prefix, which also makes it a full memory barrier on x86.
 */
#ifndef _ASM_X86_ATOMIC_H
#define _ASM_X86_ATOMIC_H

#include <asm-generic/atomic_t.h>

#ifdef CONFIG_SMP
#define LOCK_PREFIX "lock; "
#else
#define LOCK_PREFIX ""
#endif

static inline void atomic_add(int i, atomic_t *v)
{
	asm volatile(LOCK_PREFIX "addl %1, %0"
		     : "+m" (v->counter) : "ir" (i) : "memory");
}

static inline void atomic_sub(int i, atomic_t *v)
{
	asm volatile(LOCK_PREFIX "subl %1, %0"
		     : "+m" (v->counter) : "ir" (i) : "memory");
}

static inline void atomic_inc(atomic_t *v)
{
	asm volatile(LOCK_PREFIX "incl %0" : "+m" (v->counter) :: "memory");
}

static inline void atomic_dec(atomic_t *v)
{
	asm volatile(LOCK_PREFIX "decl %0" : "+m" (v->counter) :: "memory");
}

/* xadd leaves the old value in the register: new = old + i. */
static inline int atomic_add_return(int i, atomic_t *v)
{
	/* LAB 1 BEGIN: atomic_add_return with lock xadd */
	int old = i;

	asm volatile(LOCK_PREFIX "xaddl %0, %1"
		     : "+r" (old), "+m" (v->counter) :: "memory");
	return old + i;
	/* LAB 1 STUB: One locked xaddl. This C version is correct on
	 * one CPU only: another CPU can write between the load and the store.
	 *|	v->counter = v->counter + i;
	 *|	return v->counter;
	 * LAB 1 END */
}

/* xchg with a memory operand is locked by the CPU even without the prefix. */
static inline int atomic_xchg(atomic_t *v, int new)
{
	/* LAB 1 BEGIN: atomic_xchg with xchgl */
	asm volatile("xchgl %0, %1"
		     : "+r" (new), "+m" (v->counter) :: "memory");
	return new;
	/* LAB 1 STUB: One xchgl with a memory operand (locked by the
	 * CPU). This C version is correct on one CPU only.
	 *|	int old = v->counter;
	 *|
	 *|	v->counter = new;
	 *|	return old;
	 * LAB 1 END */
}

static inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
	/* LAB 1 BEGIN: atomic_cmpxchg with lock cmpxchgl */
	int prev;

	asm volatile(LOCK_PREFIX "cmpxchgl %2, %1"
		     : "=a" (prev), "+m" (v->counter)
		     : "r" (new), "0" (old) : "memory");
	return prev;
	/* LAB 1 STUB: One locked cmpxchgl; it compares with eax ("a").
	 * This C version is correct on one CPU only.
	 *|	int prev = v->counter;
	 *|
	 *|	if (prev == old)
	 *|		v->counter = new;
	 *|	return prev;
	 * LAB 1 END */
}

#include <asm-generic/atomic-ops.h>

#endif
