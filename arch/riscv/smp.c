// SPDX-License-Identifier: GPL-2.0
/*
 * Starting the other harts and sending them IPIs, both through OpenSBI.
 * QEMU virt numbers its harts 0 to N-1, and OpenSBI boots one of them
 * (any): CPU 0 is that hart, and the others get CPU numbers in the order
 * of their hart IDs. A hart ID that HSM does not know is no hart. Each
 * hart is started by HSM hart_start at secondary_startup (head.S), which
 * takes its stack from secondary_stack; the boot CPU starts one hart at
 * a time and waits until it reports in.
 *
 * An IPI is a supervisor software interrupt that the firmware raises on
 * request; which IPIs a CPU has pending is a word of bits beside it.
 */
#include <kernel.h>
#include <arch.h>
#include <sched.h>
#include <smp.h>
#include <asm/csr.h>
#include <asm/sbi.h>
#include <asm/riscv.h>

struct task_struct *idle_task_for(unsigned int cpu);
extern char secondary_startup[];

unsigned long cpu_hartid[CONFIG_NR_CPUS];
/* Read by head.S on the new hart. */
unsigned long secondary_stack;
static unsigned long ipi_pending[CONFIG_NR_CPUS];

/*
 * A CPU's interrupt sources: its IPIs, its PLIC context (shut until the
 * console opens it); arch_timer_start() adds the timer.
 */
void riscv_irq_init_cpu(void)
{
	csr_clear(sip, IE_SSIE);
	csr_set(sie, IE_SSIE);
	riscv_plic_init_cpu(smp_processor_id());
}

void __noreturn riscv_secondary_entry(void)
{
	riscv_irq_init_cpu();
	secondary_start_kernel();
}

static void start_cpu(unsigned int cpu, unsigned long hartid)
{
	struct task_struct *idle = idle_task_for(cpu);
	unsigned int waited;
	long err;

	cpu_hartid[cpu] = hartid;
	secondary_stack = (unsigned long)idle->thread_info + THREAD_SIZE;
	smp_mb();		/* the stack and hart ID before the hart runs */
	err = sbi_hart_start(hartid, (unsigned long)secondary_startup, cpu);
	if (err) {
		printk("smp: hart %lu did not start (SBI error %ld)\n",
		       hartid, err);
		return;
	}
	/* A generous second: an emulated hart can be slow to come up. */
	for (waited = 0; waited < 1000000 && !cpu_online(cpu); waited += 100)
		riscv_udelay(100);
	if (!cpu_online(cpu))
		printk("smp: CPU %u (hart %lu) did not come up\n", cpu, hartid);
}

void arch_smp_boot(unsigned int max_cpus)
{
	unsigned int cpu = 1;
	unsigned long hartid;

	for (hartid = 0; hartid < CONFIG_NR_CPUS && cpu < max_cpus; hartid++) {
		if (hartid == cpu_hartid[0] || sbi_hart_get_status(hartid) < 0)
			continue;
		start_cpu(cpu++, hartid);
	}
}

void arch_send_ipi(unsigned int cpu, int ipi)
{
	__atomic_fetch_or(&ipi_pending[cpu], 1UL << ipi, __ATOMIC_SEQ_CST);
	sbi_send_ipi(1UL << cpu_hartid[cpu]);
}

/* Clear first: an IPI sent while we handle these raises SSIP again. */
void riscv_handle_ipi(struct pt_regs *regs)
{
	unsigned long ipis;

	csr_clear(sip, IE_SSIE);
	ipis = __atomic_exchange_n(&ipi_pending[smp_processor_id()], 0,
				   __ATOMIC_SEQ_CST);
	while (ipis) {
		int ipi = __builtin_ctzl(ipis);

		ipis &= ipis - 1;
		smp_handle_ipi(ipi, regs);
	}
}
