// SPDX-License-Identifier: GPL-2.0
/* x86 interrupt vectors to their handlers. */
#include <kernel.h>
#include <irq.h>
#include <smp.h>
#include <asm/x86.h>

void x86_handle_irq(unsigned int vector, struct pt_regs *regs)
{
	if (vector == VEC_SPURIOUS)
		return;		/* no EOI for a spurious interrupt */
	lapic_eoi();
	if (vector == VEC_TIMER)
		timer_interrupt();
	else if (vector == VEC_SERIAL)
		x86_serial_interrupt();
	else if (vector >= VEC_IPI_BASE && vector < VEC_IPI_BASE + NR_IPIS)
		smp_handle_ipi(vector - VEC_IPI_BASE, regs);
	else
		printk("irq: unexpected vector %u on CPU %u\n", vector,
		       smp_processor_id());
}

void arch_send_ipi(unsigned int cpu, int ipi)
{
	lapic_send_ipi(x86_cpu_apic_id[cpu], VEC_IPI_BASE + ipi);
}
