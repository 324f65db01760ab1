/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Raspberry Pi 2 (BCM2836) as the ARM cores see it: the peripherals
 * at 0x3F000000 (the VideoCore's 0x7E000000), the ARM-local block at
 * 0x40000000 with the per-core timer routing, interrupt sources and
 * mailboxes, and what arch/arm shares between its files.
 */
#ifndef _ASM_ARM_RPI_H
#define _ASM_ARM_RPI_H

#define RPI_NR_CPUS		4

#define PERIPH_BASE		0x3F000000
#define PM_BASE			(PERIPH_BASE + 0x100000)	/* watchdog */
#define GPIO_BASE		(PERIPH_BASE + 0x200000)
#define UART0_BASE		(PERIPH_BASE + 0x201000)	/* PL011 */
#define AUX_BASE		(PERIPH_BASE + 0x215000)	/* mini UART */
/* GPIO pin functions (GPFSELn): the header's 14/15 carry a UART. */
#define GPIO_ALT0		4	/* 14/15: the PL011 */
#define GPIO_ALT5		2	/* 14/15: the mini UART */

/*
 * The BCM2835 interrupt controller: the peripherals' lines, 64 of them in
 * two banks, which reach the cores as one "GPU" interrupt.
 */
#define IC_BASE			(PERIPH_BASE + 0xB200)
#define IC_PENDING2		(IC_BASE + 0x08)	/* lines 32-63 */
#define IC_ENABLE2		(IC_BASE + 0x14)
#define IRQ_UART0		57

/* Device memory as the MMU maps it: the peripherals and the local block. */
#define DEVICE_START		0x3F000000
#define DEVICE_END		0x41000000
/* RAM the kernel may use: the VideoCore owns what lies above. */
#define RAM_END			0x3C000000

#define LOCAL_BASE		0x40000000
/* Which core the GPU interrupt goes to (bits 0-1). */
#define LOCAL_GPU_ROUTING	(LOCAL_BASE + 0x0C)
/* Per core: which timer lines reach this core's IRQ (bit 3: CNTV). */
#define LOCAL_TIMER_INT_CTRL(c)	(LOCAL_BASE + 0x40 + 4 * (c))
#define TIMER_INT_CNTV_IRQ	(1 << 3)
/* Per core: which of its four mailboxes raise its IRQ. */
#define LOCAL_MBOX_INT_CTRL(c)	(LOCAL_BASE + 0x50 + 4 * (c))
/* Per core: pending sources (bit 3 CNTV, bits 4-7 mailboxes 0-3). */
#define LOCAL_IRQ_SOURCE(c)	(LOCAL_BASE + 0x60 + 4 * (c))
#define IRQ_SRC_CNTV		(1 << 3)
#define IRQ_SRC_MBOX0		(1 << 4)
#define IRQ_SRC_GPU		(1 << 8)
/* Mailbox m of core c: set bits here, read and clear them there. */
#define LOCAL_MBOX_SET(c, m)	(LOCAL_BASE + 0x80 + 16 * (c) + 4 * (m))
#define LOCAL_MBOX_CLR(c, m)	(LOCAL_BASE + 0xC0 + 16 * (c) + 4 * (m))
/* The firmware (and QEMU's boot stub) park cores 1-3 on mailbox 3. */
#define MBOX_START		3
#define MBOX_IPI		0

#ifndef __ASSEMBLY__
#include <types.h>
#include <asm/barrier.h>

static inline u32 readl(unsigned long addr)
{
	u32 v = *(volatile u32 *)addr;

	dmb(sy);	/* device reads complete before what follows */
	return v;
}

static inline void writel(u32 v, unsigned long addr)
{
	dmb(sy);	/* earlier memory writes land before the device write */
	*(volatile u32 *)addr = v;
}

static inline unsigned int arm_cpu_id(void)
{
	unsigned long mpidr;

	asm volatile("mrc p15, 0, %0, c0, c0, 5" : "=r" (mpidr));
	return mpidr & 3;
}

void arm_serial_init(void);
void rpi_gpio_set_function(unsigned int pin, unsigned int fn);
void arm_serial_interrupt(void);
void arm_irq_init_cpu(void);
void arm_timer_init_cpu(void);
void arm_handle_timer(void);
void arm_udelay(unsigned long us);
long arm_semihost(unsigned long op, void *arg);
void arm_secondary_entry(void);

struct pt_regs;
#ifdef CONFIG_KGDB
/* An undefined instruction that may be the gdb stub's breakpoint. */
bool arm_kgdb_trap(struct pt_regs *regs);
/* An abort that is a debug event, gdb's hardware breakpoint or watchpoint. */
bool arm_kgdb_debug_trap(struct pt_regs *regs, bool fetch);
#else
static inline bool arm_kgdb_trap(struct pt_regs *regs) { return false; }
static inline bool arm_kgdb_debug_trap(struct pt_regs *regs, bool fetch)
{
	return false;
}
#endif

#define SEMIHOST_SYS_WRITE0		0x04
#define SEMIHOST_SYS_ERRNO		0x13
#define SEMIHOST_SYS_GET_CMDLINE	0x15
#define SEMIHOST_SYS_EXIT_EXTENDED	0x20
#endif

#endif
