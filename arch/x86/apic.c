// SPDX-License-Identifier: GPL-2.0
/*
 * The local APIC in xAPIC mode (QEMU's TCG has no x2APIC): each CPU's timer
 * tick and the inter-processor interrupts. The old 8259 PICs are masked:
 * the one external interrupt, the console's, comes through the I/O APIC
 * (io_apic.c).
 */
#include <kernel.h>
#include <time.h>
#include <asm/io.h>
#include <asm/barrier.h>
#include <asm/irqflags.h>
#include <asm/x86.h>

#define APIC_ID			0x020
#define APIC_TPR		0x080
#define APIC_EOI		0x0b0
#define APIC_SVR		0x0f0
#define APIC_ESR		0x280
#define APIC_ICR_LO		0x300
#define APIC_ICR_HI		0x310
#define APIC_LVT_TIMER		0x320
#define APIC_LVT_LINT0		0x350
#define APIC_LVT_LINT1		0x360
#define APIC_LVT_ERROR		0x370
#define APIC_TIMER_INIT		0x380
#define APIC_TIMER_CUR		0x390
#define APIC_TIMER_DIV		0x3e0

#define SVR_ENABLE		0x100
#define LVT_MASKED		0x10000
#define LVT_PERIODIC		0x20000
#define ICR_PENDING		0x1000
#define ICR_NMI			0x400
#define ICR_INIT		0x500
#define ICR_STARTUP		0x600
#define ICR_ASSERT		0x4000
#define ICR_LEVEL		0x8000
#define TIMER_DIV_16		0x3

volatile u8 *lapic_base = (volatile u8 *)0xfee00000UL;
static u32 lapic_ticks_per_jiffy;

static __always_inline u32 lapic_read(u32 reg)
{
	return readl(lapic_base + reg);
}

static __always_inline void lapic_write(u32 reg, u32 v)
{
	writel(v, lapic_base + reg);
}

static void pic_mask_all(void)
{
	outb(0xff, 0xa1);
	outb(0xff, 0x21);
}

u32 lapic_id(void)
{
	return lapic_read(APIC_ID) >> 24;
}

void lapic_init(void)
{
	pic_mask_all();
	lapic_write(APIC_TPR, 0);
	lapic_write(APIC_LVT_LINT0, LVT_MASKED);
	lapic_write(APIC_LVT_LINT1, LVT_MASKED);
	lapic_write(APIC_LVT_ERROR, LVT_MASKED);
	lapic_write(APIC_SVR, SVR_ENABLE | VEC_SPURIOUS);
	lapic_write(APIC_ESR, 0);
	lapic_write(APIC_EOI, 0);
}

void lapic_eoi(void)
{
	lapic_write(APIC_EOI, 0);
}

static __always_inline void lapic_wait_icr(void)
{
	while (lapic_read(APIC_ICR_LO) & ICR_PENDING)
		cpu_relax();
}

/* The command register's two halves: who, then what (which sends it). */
static __always_inline void lapic_send(u32 apic_id, u32 command)
{
	unsigned long flags = arch_local_irq_save();

	lapic_wait_icr();
	lapic_write(APIC_ICR_HI, apic_id << 24);
	lapic_write(APIC_ICR_LO, command);
	arch_local_irq_restore(flags);
}

void lapic_send_ipi(u32 apic_id, u32 vector)
{
	lapic_send(apic_id, vector);
}

/*
 * An NMI ends a hlt that runs with interrupts off: kgdb's release of a
 * parked CPU. The stub sends it with gdb's breakpoints planted.
 */
void __kgdb_nobreak lapic_send_nmi(u32 apic_id)
{
	lapic_send(apic_id, ICR_NMI);
}

/* The universal start-up: INIT, then STARTUP twice, with the pauses. */
void lapic_send_init_sipi(u32 apic_id, u32 start_page)
{
	lapic_wait_icr();
	lapic_write(APIC_ICR_HI, apic_id << 24);
	lapic_write(APIC_ICR_LO, ICR_INIT | ICR_ASSERT | ICR_LEVEL);
	lapic_wait_icr();
	x86_udelay(10000);
	for (int i = 0; i < 2; i++) {
		lapic_write(APIC_ICR_HI, apic_id << 24);
		lapic_write(APIC_ICR_LO, ICR_STARTUP | start_page);
		x86_udelay(200);
		lapic_wait_icr();
	}
}

/*
 * The timer counts down from its initial count at the bus clock over 16,
 * and stops at zero: from 2^32 - 1, a minute or more away, longer than
 * any window (calibrate.c gives up on one after 2^32 TSC ticks).
 */
#define APIC_WINDOWS		5

static u32 lapic_timer_count(void)
{
	return lapic_read(APIC_TIMER_CUR);
}

static void lapic_timer_restart(void)
{
	lapic_write(APIC_TIMER_INIT, 0xffffffff);
}

static const struct x86_counter lapic_timer = {
	.name = "APIC timer",
	.read = lapic_timer_count,
	.restart = lapic_timer_restart,
	.mask = 0xffffffff,
	.counts_down = true,
};

/* Timer counts per tick, measured against the TSC, calibrated already. */
void lapic_timer_calibrate(void)
{
	struct x86_window w[APIC_WINDOWS];
	u64 per_tick[APIC_WINDOWS];
	int n;

	lapic_write(APIC_TIMER_DIV, TIMER_DIV_16);
	lapic_write(APIC_LVT_TIMER, LVT_MASKED);
	n = x86_measure(&lapic_timer, 1, tsc_khz * CALIBRATE_MS, w,
			APIC_WINDOWS);
	lapic_write(APIC_TIMER_INIT, 0);
	if (!n)
		panic("apic: the timer does not count");
	for (int i = 0; i < n; i++)
		per_tick[i] = w[i].counts * tsc_khz * 1000 / HZ / w[i].tsc;
	lapic_ticks_per_jiffy = x86_median(per_tick, n);
	printk("apic: timer %llu kHz, %u per tick\n",
	       (u64)lapic_ticks_per_jiffy * HZ * 16 / 1000,
	       lapic_ticks_per_jiffy);
}

void lapic_timer_start(void)
{
	lapic_write(APIC_TIMER_DIV, TIMER_DIV_16);
	lapic_write(APIC_LVT_TIMER, LVT_PERIODIC | VEC_TIMER);
	lapic_write(APIC_TIMER_INIT, lapic_ticks_per_jiffy);
}
