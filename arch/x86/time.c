// SPDX-License-Identifier: GPL-2.0
/*
 * x86 clocks. The PIT (channel 2, gated by port 0x61, no interrupt) is only
 * a known rate to calibrate against. The TSC then gives the nanosecond
 * clock, and the local APIC timer each CPU's tick.
 */
#include <kernel.h>
#include <arch.h>
#include <time.h>
#include <asm/io.h>
#include <asm/x86.h>

#define PIT_HZ		1193182
#define PIT_CH2		0x42
#define PIT_CMD		0x43
#define PIT_GATE	0x61

u64 tsc_khz;
static u64 tsc_at_boot;

/* Channel 2 in mode 0 counts down once; its output goes high at zero. */
void pit_wait_start(unsigned int usecs)
{
	u32 count = (u64)PIT_HZ * usecs / 1000000;
	u8 gate = inb(PIT_GATE);

	outb((gate & ~0x02) | 0x01, PIT_GATE);	/* gate on, speaker off */
	outb(0xb0, PIT_CMD);			/* ch2, lo/hi byte, mode 0 */
	outb(count & 0xff, PIT_CH2);
	outb(count >> 8, PIT_CH2);
}

bool pit_wait_done(void)
{
	return inb(PIT_GATE) & 0x20;
}

/*
 * TSC ticks in 10 ms of the PIT. Being held up (an emulated CPU may be
 * descheduled by its host) only ever makes the count larger, so the
 * smallest of a few tries is the best one.
 */
void tsc_calibrate(void)
{
	u64 best = ~0ULL;

	for (int i = 0; i < CALIBRATE_TRIES; i++) {
		u64 t0, t1;

		pit_wait_start(10000);
		t0 = rdtsc();
		while (!pit_wait_done())
			;
		t1 = rdtsc();
		if (t1 - t0 < best)
			best = t1 - t0;
		if (!tsc_at_boot)
			tsc_at_boot = t0;
	}
	tsc_khz = best / 10;
	printk("tsc: %llu.%03llu MHz\n", tsc_khz / 1000, tsc_khz % 1000);
}

u64 arch_clock_ns(void)
{
	u64 d = rdtsc() - tsc_at_boot;

	/* Split to avoid overflowing 64 bits in d * 10^6. */
	return d / tsc_khz * 1000000 + (d % tsc_khz) * 1000000 / tsc_khz;
}

void x86_udelay(unsigned long us)
{
	u64 end = rdtsc() + tsc_khz * us / 1000;

	while ((s64)(rdtsc() - end) < 0)
		asm volatile("pause");
}

void arch_time_init(void)
{
	tsc_calibrate();
	lapic_init();
	lapic_timer_calibrate();
}

void arch_timer_start(void)
{
	lapic_timer_start();
}
