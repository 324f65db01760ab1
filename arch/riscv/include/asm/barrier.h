/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RISC-V memory barriers. Under RVWMO any two accesses to different
 * addresses may be seen out of order by another hart, so each barrier is
 * a fence naming what it orders: "fence r,r" keeps earlier loads before
 * later loads, "fence w,w" stores before stores, "fence rw,rw" all of
 * them. Device registers (the "i" and "o" sets) are ordered by the
 * non-smp versions too. docs/riscv.md has where the kernel needs which.
 */
#ifndef _ASM_RISCV_BARRIER_H
#define _ASM_RISCV_BARRIER_H

#include <compiler.h>

#define RISCV_FENCE(p, s)	asm volatile("fence " #p "," #s ::: "memory")

#define mb()		RISCV_FENCE(iorw, iorw)
#define rmb()		RISCV_FENCE(ir, ir)
#define wmb()		RISCV_FENCE(ow, ow)

#ifdef CONFIG_SMP
#define smp_mb()	RISCV_FENCE(rw, rw)
#define smp_rmb()	RISCV_FENCE(r, r)
#define smp_wmb()	RISCV_FENCE(w, w)
#endif

/*
 * The AMOs of atomic_add() and friends carry no ordering bits:
 * smp_mb__before_atomic() and smp_mb__after_atomic() are full barriers
 * (asm-generic/barrier.h).
 */
#include <asm-generic/barrier.h>

/*
 * A hint for spin loops: Zihintpause's pause, encoded by hand since the
 * assembler's -march leaves it out. It is a fence that orders nothing
 * (predecessor w, successor none), so a hart without the extension runs
 * it as a no-op. QEMU ends a translation block there but not the hart's
 * turn in one-thread TCG (ARCH_TCG_TURNS in arch.mk).
 */
static inline void cpu_relax(void)
{
	asm volatile(".4byte 0x0100000f" ::: "memory");	/* pause */
}

#endif
