/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86 memory barriers. x86 keeps stores in order and loads in order, so only
 * a store followed by a load needs a real fence; a locked add to the stack
 * is that fence on every x86 CPU (mfence needs SSE2 on i386).
 */
#ifndef _ASM_X86_BARRIER_H
#define _ASM_X86_BARRIER_H

#include <compiler.h>

#ifdef __x86_64__
#define mb()	asm volatile("lock; addl $0, -4(%%rsp)" ::: "memory", "cc")
#else
#define mb()	asm volatile("lock; addl $0, -4(%%esp)" ::: "memory", "cc")
#endif
#define rmb()	barrier()
#define wmb()	barrier()

#ifdef CONFIG_SMP
#define smp_mb()	mb()
#endif
#define smp_rmb()	barrier()
#define smp_wmb()	barrier()
/* Locked instructions are already full barriers on x86. */
#define smp_mb__before_atomic()	barrier()
#define smp_mb__after_atomic()	barrier()

#include <asm-generic/barrier.h>

static inline void cpu_relax(void)
{
	asm volatile("pause" ::: "memory");
}

#endif
