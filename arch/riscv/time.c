// SPDX-License-Identifier: GPL-2.0
/*
 * RISC-V clocks: the time CSR counts at the platform's timebase (10 MHz
 * on QEMU virt, from the device tree), the same on every hart, and is
 * the nanosecond clock. Each hart's tick is an SBI timer: the firmware
 * raises the supervisor timer interrupt when time reaches the value the
 * kernel set, and setting the next value clears it.
 */
#include <kernel.h>
#include <arch.h>
#include <irq.h>
#include <time.h>
#include <asm/csr.h>
#include <asm/sbi.h>
#include <thread_info.h>
#include <asm/riscv.h>

static u32 timebase;		/* time CSR ticks per second */
static u32 tick_period;		/* ticks per kernel tick */
static u64 time_at_boot;
/* Where each hart's next tick is due, so ticks stay a period apart. */
static u64 next_tick[CONFIG_NR_CPUS];

static inline u64 read_time(void)
{
	return csr_read(time);
}

void riscv_set_timebase(u32 hz)
{
	if (hz < CONFIG_HZ)
		panic("device tree: timebase-frequency %u Hz is below HZ", hz);
	timebase = hz;
}

void arch_time_init(void)
{
	tick_period = timebase / CONFIG_HZ;
	time_at_boot = read_time();
	printk("timer: time CSR at %u.%03u MHz, SBI timer\n",
	       timebase / 1000000, timebase / 1000 % 1000);
}

u64 arch_clock_ns(void)
{
	return ticks_to_ns(read_time() - time_at_boot, timebase);
}

void riscv_udelay(unsigned long us)
{
	u64 end = read_time() + (u64)timebase * us / 1000000;

	while ((s64)(read_time() - end) < 0)
		cpu_relax();
}

/* The next tick a period after the last; if we fell behind, from now. */
static void program_next_tick(unsigned int cpu)
{
	u64 now = read_time(), next = next_tick[cpu] + tick_period;

	if ((s64)(next - now) <= 0)
		next = now + tick_period;
	next_tick[cpu] = next;
	sbi_set_timer(next);
}

void arch_timer_start(void)
{
	unsigned int cpu = smp_processor_id();

	next_tick[cpu] = read_time();
	program_next_tick(cpu);
	csr_set(sie, IE_STIE);
}

void riscv_handle_timer(void)
{
	program_next_tick(smp_processor_id());
	timer_interrupt();
}

#ifdef CONFIG_KGDB
/*
 * A hart parked for gdb sleeps in wfi until the owner's IPI. While it
 * is parked, sie lets only that IPI end a wait: wfi ends on any
 * interrupt sie enables, whether sstatus.SIE is set or not, and a tick
 * or the UART's interrupt (gdb's own bytes) would turn each wait into a
 * spin. What came pending meanwhile is taken once the hart's interrupts
 * are back on, as after any stop.
 */
unsigned long __kgdb_nobreak arch_kgdb_park_begin(void)
{
	unsigned long enabled = csr_read(sie);

	csr_write(sie, IE_SSIE);
	return enabled;
}

/* wfi sleeps through no interrupt that came pending after the look. */
void __kgdb_nobreak arch_kgdb_park_wait(const volatile unsigned long *release,
					unsigned long gen)
{
	asm volatile("wfi" ::: "memory");
}

void __kgdb_nobreak arch_kgdb_park_end(unsigned long saved)
{
	csr_write(sie, saved);
}

/*
 * SSIP alone, with no IPI of riscv_handle_ipi() pending: it finds
 * nothing to do. An ecall of its own: the shared SBI code may hold one
 * of gdb's breakpoints, and the owner wakes the harts with them planted.
 */
void __kgdb_nobreak arch_kgdb_park_wake(unsigned int cpu)
{
	/* A mask of one hart, counted from that hart. */
	register unsigned long a0 asm("a0") = 1;
	register unsigned long a1 asm("a1") = cpu_hartid[cpu];
	register unsigned long a6 asm("a6") = SBI_IPI_SEND_IPI;
	register unsigned long a7 asm("a7") = SBI_EXT_IPI;

	asm volatile("ecall" : "+r" (a0), "+r" (a1) : "r" (a6), "r" (a7)
		     : "memory");
}
#endif
