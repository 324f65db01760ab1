/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the RISC-V files share among themselves: QEMU virt's memory map,
 * device access, and the glue between entry code, traps and devices.
 */
#ifndef _ASM_RISCV_RISCV_H
#define _ASM_RISCV_RISCV_H

#include <types.h>
#include <asm/barrier.h>

struct pt_regs;

/* QEMU virt's devices (its device tree says the same). */
#define VIRT_PLIC_BASE		0x0c000000UL
#define VIRT_UART0_BASE		0x10000000UL
#define VIRT_UART0_IRQ		10

/*
 * Device registers. The fences order them against memory as Linux's
 * readl/writel do: a device write after the memory writes it announces,
 * a device read before the memory reads that depend on it.
 */
static inline u8 readb(unsigned long addr)
{
	u8 v = *(volatile u8 *)addr;

	RISCV_FENCE(i, r);
	return v;
}

static inline void writeb(u8 v, unsigned long addr)
{
	RISCV_FENCE(w, o);
	*(volatile u8 *)addr = v;
}

static inline u32 readl(unsigned long addr)
{
	u32 v = *(volatile u32 *)addr;

	RISCV_FENCE(i, r);
	return v;
}

static inline void writel(u32 v, unsigned long addr)
{
	RISCV_FENCE(w, o);
	*(volatile u32 *)addr = v;
}

/* Hart IDs of the CPUs, by CPU number: CPU 0 is the hart OpenSBI chose. */
extern unsigned long cpu_hartid[];

void riscv_serial_init(void);
void riscv_serial_interrupt(void);
void riscv_plic_init_cpu(unsigned int cpu);
void riscv_irq_init_cpu(void);
void riscv_handle_timer(void);
void riscv_handle_ipi(struct pt_regs *regs);
/* From the trap entry: an interrupt, and anything else. */
void riscv_handle_irq(struct pt_regs *regs);
void riscv_handle_trap(struct pt_regs *regs);
void riscv_udelay(unsigned long us);
void riscv_set_timebase(u32 hz);

#ifdef CONFIG_KGDB
/* A breakpoint trap that may be the gdb stub's (arch/riscv/kgdb.c). */
bool riscv_kgdb_trap(struct pt_regs *regs);
#else
static inline bool riscv_kgdb_trap(struct pt_regs *regs) { return false; }
#endif

#endif
