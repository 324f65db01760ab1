// SPDX-License-Identifier: GPL-2.0
/*
 * x86 clocks. The TSC gives the nanosecond clock, and the local APIC timer
 * each CPU's tick; neither has a rate the kernel can look up, so both are
 * measured at boot. The TSC is measured against the ACPI PM timer (a
 * free-running 3.579545 MHz counter every ACPI PC has), and checked
 * against the PIT's channel 2 (1.193182 MHz), which stands in when the
 * firmware names no PM timer. calibrate.c says how a busy host is kept
 * from spoiling the measurement.
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
#define PM_TIMER_HZ	3579545

/* Windows measured against the main reference, and for the check. */
#define TSC_WINDOWS	5
#define CHECK_WINDOWS	3
/* The two references may disagree by this many percent, no more. */
#define CHECK_PERCENT	1

u64 tsc_khz;
static u64 tsc_at_boot;
static u16 pm_timer_port;

static u32 pm_timer_read(void)
{
	return inl(pm_timer_port);
}

static struct x86_counter pm_timer = {
	.name = "PM timer",
	.read = pm_timer_read,
};

/*
 * Channel 2 counts down from 65536 over and over (mode 2, the rate
 * generator); the gate in port 0x61 lets it run, with the speaker off.
 * It raises no interrupt: only channel 0 is wired to one.
 */
static void pit_start(void)
{
	u8 gate = inb(PIT_GATE);

	outb((gate & ~0x02) | 0x01, PIT_GATE);
	outb(0xb4, PIT_CMD);			/* ch2, lo/hi byte, mode 2 */
	outb(0, PIT_CH2);
	outb(0, PIT_CH2);
}

/* The latch command freezes the count for the two byte reads. */
static u32 pit_read(void)
{
	u32 lo, hi;

	outb(0x80, PIT_CMD);			/* latch ch2 */
	lo = inb(PIT_CH2);
	hi = inb(PIT_CH2);
	return hi << 8 | lo;
}

static struct x86_counter pit = {
	.name = "PIT",
	.read = pit_read,
	.mask = 0xffff,
	.counts_down = true,
};

/* The median of up to n windows against a counter of hz; 0 if none. */
static u64 tsc_khz_against(const struct x86_counter *c, u64 hz, int n)
{
	struct x86_window w[TSC_WINDOWS];
	u64 khz[TSC_WINDOWS];

	n = x86_measure(c, hz * CALIBRATE_MS / 1000, 0, w, n);
	for (int i = 0; i < n; i++)
		khz[i] = (w[i].tsc * hz + w[i].counts * 500) /
			 (w[i].counts * 1000);
	return n ? x86_median(khz, n) : 0;
}

static bool disagree(u64 a, u64 b)
{
	u64 diff = a > b ? a - b : b - a;

	return diff * 100 > b * CHECK_PERCENT;
}

#define MHZ(khz)	(khz) / 1000, (khz) % 1000

static void tsc_report(u64 pm_khz, unsigned int bits, u64 pit_khz)
{
	if (pm_khz && pit_khz && disagree(pm_khz, pit_khz))
		printk("tsc: calibration: PM timer says %llu.%03llu MHz, PIT says %llu.%03llu MHz; using the PM timer\n",
		       MHZ(pm_khz), MHZ(pit_khz));
	if (!pm_khz)
		printk("tsc: %llu.%03llu MHz (PIT)\n", MHZ(pit_khz));
	else if (!pit_khz)
		printk("tsc: %llu.%03llu MHz (ACPI PM timer, %u bits; no check by the PIT)\n",
		       MHZ(pm_khz), bits);
	else
		printk("tsc: %llu.%03llu MHz (ACPI PM timer, %u bits; PIT: %llu.%03llu MHz)\n",
		       MHZ(pm_khz), bits, MHZ(pit_khz));
}

/* The PM timer if it counts, the PIT otherwise; the PIT checks the PM timer. */
void tsc_calibrate(void)
{
	unsigned int bits = 0;
	u64 pm_khz = 0, pit_khz;

	tsc_at_boot = rdtsc();
	pit_start();
	if (x86_find_pm_timer(&pm_timer_port, &bits)) {
		pm_timer.mask = bits == 32 ? 0xffffffff : 0xffffff;
		pm_khz = tsc_khz_against(&pm_timer, PM_TIMER_HZ, TSC_WINDOWS);
		if (!pm_khz)
			printk("tsc: calibration: no result from the PM timer at port %#x; using the PIT\n",
			       pm_timer_port);
	}
	/*
	 * With the TSC's rate known, the PIT's windows survive host stalls
	 * of up to 3/4 of its 55 ms period, not only a quarter.
	 */
	if (pm_khz)
		pit.period_tsc = pm_khz * 1000 * (pit.mask + 1ULL) / PIT_HZ;
	pit_khz = tsc_khz_against(&pit, PIT_HZ,
				  pm_khz ? CHECK_WINDOWS : TSC_WINDOWS);
	if (!pm_khz && !pit_khz)
		panic("tsc: no result from the PM timer or the PIT");
	tsc_khz = pm_khz ? pm_khz : pit_khz;
	tsc_report(pm_khz, bits, pit_khz);
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
