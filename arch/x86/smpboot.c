// SPDX-License-Identifier: GPL-2.0
/*
 * Starting the other x86 CPUs. Each one is sent INIT and STARTUP, wakes up
 * in real mode at the trampoline, climbs to the kernel's mode there and
 * jumps to x86_secondary_entry() on the stack of the idle task the boot
 * CPU made for it. The boot CPU starts one CPU at a time and waits until it
 * reports in.
 */
#include <kernel.h>
#include <arch.h>
#include <sched.h>
#include <smp.h>
#include <asm/barrier.h>
#include <asm/x86.h>

struct task_struct *idle_task_for(unsigned int cpu);

static volatile unsigned int cpu_starting = ~0U;

/* Called by the trampoline on the new CPU's idle stack. */
void __noreturn x86_secondary_entry(void)
{
	arch_outermost_frame();		/* the trampoline is a copy: no CFI */
	x86_load_gdt();
	x86_load_idt();
	lapic_init();
	secondary_start_kernel();
}

/* The first CPU in the table that is the boot CPU is skipped. */
static void start_cpu(unsigned int cpu, u32 apic_id)
{
	struct task_struct *idle = idle_task_for(cpu);
	u64 deadline;

	x86_trampoline_set((unsigned long)idle->thread_info + THREAD_SIZE);
	cpu_starting = cpu;
	smp_mb();
	lapic_send_init_sipi(apic_id, TRAMPOLINE_ADDR >> 12);
	/* A generous second: an emulated CPU can be slow to come up. */
	for (deadline = 0; deadline < 1000000 && !cpu_online(cpu); deadline += 100)
		x86_udelay(100);
	if (!cpu_online(cpu))
		printk("smp: CPU %u (APIC %u) did not come up\n", cpu, apic_id);
}

void arch_smp_boot(unsigned int max_cpus)
{
	u32 boot_id = lapic_id();
	unsigned int cpu = 1, i;

	x86_find_cpus();
	/* Logical CPU 0 is the boot CPU, whatever its APIC ID. */
	for (i = 0; i < x86_nr_cpus_found; i++) {
		if (x86_cpu_apic_id[i] == boot_id) {
			x86_cpu_apic_id[i] = x86_cpu_apic_id[0];
			x86_cpu_apic_id[0] = boot_id;
			break;
		}
	}
	if (x86_nr_cpus_found < 2 || max_cpus < 2)
		return;
	x86_trampoline_install();
	for (i = 1; i < x86_nr_cpus_found && cpu < max_cpus; i++, cpu++)
		start_cpu(cpu, x86_cpu_apic_id[i]);
}
