// SPDX-License-Identifier: GPL-2.0
/*
 * ARM clocks: the generic timer. Its counter gives the nanosecond clock,
 * and each core's virtual timer (CNTV) its tick. The virtual timer and
 * not the physical one because it reaches the local interrupt controller
 * on the same line (CNTVIRQ) whether we run in the Secure state (QEMU's
 * ELF boot) or non-secure (after the firmware): the physical timer
 * raises CNTPSIRQ in one case and CNTPNSIRQ in the other.
 */
#include <kernel.h>
#include <arch.h>
#include <irq.h>
#include <time.h>
#include <smp.h>
#include <asm/rpi.h>

#define CNTV_CTL_ENABLE		(1 << 0)
#define CNTV_CTL_IMASK		(1 << 1)

static unsigned int cnt_freq;		/* counter ticks per second */
static unsigned int tick_period;		/* counter ticks per kernel tick */
static u64 cnt_at_boot;

static inline u64 read_cntvct(void)
{
	u32 lo, hi;

	isb();		/* do not read the counter early */
	asm volatile("mrrc p15, 1, %0, %1, c14" : "=r" (lo), "=r" (hi));
	return (u64)hi << 32 | lo;
}

static inline u64 read_cntv_cval(void)
{
	u32 lo, hi;

	asm volatile("mrrc p15, 3, %0, %1, c14" : "=r" (lo), "=r" (hi));
	return (u64)hi << 32 | lo;
}

static inline void write_cntv_cval(u64 cval)
{
	asm volatile("mcrr p15, 3, %0, %1, c14"
		     :: "r" ((u32)cval), "r" ((u32)(cval >> 32)));
	isb();
}

static inline void write_cntv_ctl(u32 ctl)
{
	asm volatile("mcr p15, 0, %0, c14, c3, 1" :: "r" (ctl));
	isb();
}

static inline u32 read_cntv_ctl(void)
{
	u32 ctl;

	asm volatile("mrc p15, 0, %0, c14, c3, 1" : "=r" (ctl));
	return ctl;
}

void arch_time_init(void)
{
	asm volatile("mrc p15, 0, %0, c14, c0, 0" : "=r" (cnt_freq));
	if (!cnt_freq) {
		/* Nobody set CNTFRQ: the board's crystal is 19.2 MHz. */
		cnt_freq = 19200000;
	}
	tick_period = cnt_freq / CONFIG_HZ;
	cnt_at_boot = read_cntvct();
	printk("timer: generic timer (virtual), %u.%03u MHz\n",
	       cnt_freq / 1000000, cnt_freq / 1000 % 1000);
}

u64 arch_clock_ns(void)
{
	return ticks_to_ns(read_cntvct() - cnt_at_boot, cnt_freq);
}

void arm_udelay(unsigned long us)
{
	u64 end = read_cntvct() + (u64)cnt_freq * us / 1000000;

	while ((s64)(read_cntvct() - end) < 0)
		cpu_relax();
}

/* The next tick a period after the last; if we fell behind, from now. */
static void program_next_tick(u64 last)
{
	u64 now = read_cntvct(), next = last + tick_period;

	if ((s64)(next - now) <= 0)
		next = now + tick_period;
	write_cntv_cval(next);
}

void arch_timer_start(void)
{
	program_next_tick(read_cntvct());
	write_cntv_ctl(CNTV_CTL_ENABLE);
	writel(TIMER_INT_CNTV_IRQ, LOCAL_TIMER_INT_CTRL(arm_cpu_id()));
}

void arm_handle_timer(void)
{
	program_next_tick(read_cntv_cval());
	timer_interrupt();
}

#ifdef CONFIG_KGDB
/*
 * A core parked for gdb sleeps in wfi until the owner's IPI_WAKE. Its
 * tick is masked at the timer meanwhile: wfi ends on any pending
 * interrupt, masked by the I bit or not, so a tick that came due would
 * turn each wait into a spin. Unmasked again, a tick that came due is
 * taken once the core's interrupts are back on, as after any stop.
 */
unsigned long __kgdb_nobreak arch_kgdb_park_begin(void)
{
	u32 ctl = read_cntv_ctl();

	write_cntv_ctl(ctl | CNTV_CTL_IMASK);
	return ctl;
}

/* wfi sleeps through no interrupt that came pending after the look. */
void __kgdb_nobreak arch_kgdb_park_wait(const volatile unsigned long *release,
					unsigned long gen)
{
	asm volatile("dsb sy\n\twfi" ::: "memory");
}

void __kgdb_nobreak arch_kgdb_park_end(unsigned long saved)
{
	write_cntv_ctl(saved);
}

void __kgdb_nobreak arch_kgdb_park_wake(unsigned int cpu)
{
	writel(1U << IPI_WAKE, LOCAL_MBOX_SET(cpu, MBOX_IPI));
}
#endif
