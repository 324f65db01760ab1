// SPDX-License-Identifier: GPL-2.0
/*
 * Starting cores 1-3. Each waits in a loop on its mailbox 3: the
 * firmware's loop on the board and for QEMU's raw-image boot, our own in
 * head.S when QEMU starts the ELF on every core. Writing an address
 * there (then sev, since the loops sleep in wfe) sends the core to
 * secondary_startup, which takes its stack from secondary_stack. The
 * boot core starts one core at a time and waits until it reports in;
 * the cores that maxcpus= leaves out it sends to cpu_park instead.
 */
#include <kernel.h>
#include <arch.h>
#include <sched.h>
#include <smp.h>
#include <asm/barrier.h>
#include <asm/rpi.h>

struct task_struct *idle_task_for(unsigned int cpu);
extern char secondary_startup[], cpu_park[];

/* Read by head.S on the new core, after its MMU and caches are on. */
unsigned long secondary_stack;

void __noreturn arm_secondary_entry(void)
{
	arm_irq_init_cpu();
	secondary_start_kernel();
}

/* Sends a core waiting in its mailbox loop to entry, MMU off. */
static void send_core(unsigned int cpu, char *entry)
{
	writel((unsigned long)entry, LOCAL_MBOX_SET(cpu, MBOX_START));
	dsb(sy);
	asm volatile("sev");
}

static void start_cpu(unsigned int cpu)
{
	struct task_struct *idle = idle_task_for(cpu);
	unsigned int waited;

	secondary_stack = (unsigned long)idle->thread_info + THREAD_SIZE;
	/* writel orders the stack before the start address with a dmb. */
	send_core(cpu, secondary_startup);
	/* A generous second: an emulated core can be slow to come up. */
	for (waited = 0; waited < 1000000 && !cpu_online(cpu); waited += 100)
		arm_udelay(100);
	if (!cpu_online(cpu))
		printk("smp: CPU %u did not come up\n", cpu);
}

void arch_smp_boot(unsigned int max_cpus)
{
	unsigned int cpu;

	for (cpu = 1; cpu < RPI_NR_CPUS; cpu++) {
		if (cpu < max_cpus)
			start_cpu(cpu);
		else
			send_core(cpu, cpu_park);
	}
}
