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
#endif

/*
 * ldrex/strex order nothing by themselves: smp_mb__before_atomic() and
 * smp_mb__after_atomic() are full barriers (asm-generic/barrier.h).
 */
#include <asm-generic/barrier.h>

/* A hint for spin loops; under QEMU it also lets another vCPU run. */
static inline void cpu_relax(void)
{
	asm volatile("yield" ::: "memory");
}

#endif
