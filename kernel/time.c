// SPDX-License-Identifier: GPL-2.0
/* The tick on every CPU, jiffies, and the clock-based delays. */
#include <kernel.h>
#include <arch.h>
#include <irq.h>
#include <sched.h>
#include <time.h>
#include <timer.h>
#include <kgdb.h>
#include <asm/barrier.h>

volatile unsigned long jiffies;

u64 ktime_get_ns(void)
{
	return arch_clock_ns();
}

void ndelay(unsigned long ns)
{
	u64 end = ktime_get_ns() + ns;

	while (ktime_get_ns() < end)
		cpu_relax();
}

void udelay(unsigned long us)
{
	ndelay(us * NSEC_PER_USEC);
}

void mdelay(unsigned long ms)
{
	while (ms--)
		udelay(1000);
}

/*
 * The periodic tick; the boot CPU also keeps jiffies and runs timers.
 * Every CPU looks for a break from gdb: CPU 0 may be the one stuck.
 */
void timer_interrupt(void)
{
	if (smp_processor_id() == 0) {
		jiffies++;
		run_timers();
	}
	kgdb_poll_break();
	scheduler_tick();
	/*
	 * A hint to the machine that this CPU may wait a moment. Under QEMU's
	 * deterministic mode (-icount, which runs the vCPUs in turn on one
	 * thread) it ends this vCPU's turn: QEMU 7.2 gives each turn all the
	 * instructions up to its next timer event, so a CPU that never
	 * waits would leave none to the vCPUs after it, and one of those
	 * may hold the spinlock every other CPU is spinning on.
	 */
	cpu_relax();
}
