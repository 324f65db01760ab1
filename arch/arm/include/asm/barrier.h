/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ARMv7 memory barriers. The CPU may reorder any two accesses to normal
 * memory, so every barrier is a real instruction: dmb orders accesses as
 * seen by other observers, dsb also waits until they complete (needed
 * before wfi/sev and around device and page-table writes). The smp_
 * versions only have to order against the other cores, which share the
 * inner-shareable domain.
 */
#ifndef _ASM_ARM_BARRIER_H
#define _ASM_ARM_BARRIER_H

#include <compiler.h>

#define dmb(opt)	asm volatile("dmb " #opt ::: "memory")
#define dsb(opt)	asm volatile("dsb " #opt ::: "memory")
#define isb()		asm volatile("isb" ::: "memory")

#define mb()		dsb(sy)
#define rmb()		dsb(sy)
#define wmb()		dsb(st)

#ifdef CONFIG_SMP
#define smp_mb()	dmb(ish)
#define smp_rmb()	dmb(ish)
#define smp_wmb()	dmb(ishst)
#else
#define smp_mb()	barrier()
#define smp_rmb()	barrier()
#define smp_wmb()	barrier()
#endif

/* ldrex/strex order nothing by themselves: the barriers are explicit. */
#define smp_mb__before_atomic()	smp_mb()
#define smp_mb__after_atomic()	smp_mb()

#include <asm-generic/barrier.h>

/* A hint for spin loops; under QEMU it also lets another vCPU run. */
static inline void cpu_relax(void)
{
	asm volatile("yield" ::: "memory");
}

#endif
