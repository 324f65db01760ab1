// SPDX-License-Identifier: GPL-2.0
/*
 * The local APIC in xAPIC mode (QEMU's TCG has no x2APIC): each CPU's timer
 * tick and the inter-processor interrupts. The old 8259 PICs are masked;
 * nothing here needs an external interrupt.
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
#define ICR_INIT		0x500
#define ICR_STARTUP		0x600
#define ICR_ASSERT		0x4000
#define ICR_LEVEL		0x8000
#define TIMER_DIV_16		0x3

volatile u8 *lapic_base = (volatile u8 *)0xfee00000UL;
static u32 lapic_ticks_per_jiffy;

static u32 lapic_read(u32 reg)
{
	return readl(lapic_base + reg);
}

static void lapic_write(u32 reg, u32 v)
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

static void lapic_wait_icr(void)
{
	while (lapic_read(APIC_ICR_LO) & ICR_PENDING)
		cpu_relax();
}

void lapic_send_ipi(u32 apic_id, u32 vector)
{
	unsigned long flags = arch_local_irq_save();

	lapic_wait_icr();
	lapic_write(APIC_ICR_HI, apic_id << 24);
	lapic_write(APIC_ICR_LO, vector);
	arch_local_irq_restore(flags);
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

/* APIC timer ticks in 10 ms of the PIT: the least of a few tries. */
void lapic_timer_calibrate(void)
{
	u32 best = ~0U;

	lapic_write(APIC_TIMER_DIV, TIMER_DIV_16);
	lapic_write(APIC_LVT_TIMER, LVT_MASKED);
	for (int i = 0; i < CALIBRATE_TRIES; i++) {
		u32 elapsed;

		pit_wait_start(10000);
		lapic_write(APIC_TIMER_INIT, 0xffffffff);
		while (!pit_wait_done())
			;
		elapsed = 0xffffffff - lapic_read(APIC_TIMER_CUR);
		if (elapsed < best)
			best = elapsed;
	}
	lapic_write(APIC_TIMER_INIT, 0);
	lapic_ticks_per_jiffy = best * 100 / HZ;
	printk("apic: timer %u kHz, %u per tick\n",
	       best / 10 * 16, lapic_ticks_per_jiffy);
}

void lapic_timer_start(void)
{
	lapic_write(APIC_TIMER_DIV, TIMER_DIV_16);
	lapic_write(APIC_LVT_TIMER, LVT_PERIODIC | VEC_TIMER);
	lapic_write(APIC_TIMER_INIT, lapic_ticks_per_jiffy);
}
