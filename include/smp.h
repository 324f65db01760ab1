/* SPDX-License-Identifier: GPL-2.0 */
/* CPUs and inter-processor interrupts. */
#ifndef _SMP_H
#define _SMP_H

#include <types.h>
#include <sched.h>

struct pt_regs;

#define NR_CPUS		CONFIG_NR_CPUS

/* IPIs every arch delivers. */
enum ipi_type {
	IPI_RESCHEDULE,
	IPI_CALL_FUNC,
	IPI_BACKTRACE,
	IPI_KGDB,		/* stop here while gdb looks (kernel/debug/) */
	IPI_WAKE,		/* nothing to do: ends kgdb's park in wfi */
	NR_IPIS,
};

/* Runs fn(info) on cpu (in its interrupt handler) and waits if wait. */
int smp_call_function_single(unsigned int cpu, void (*fn)(void *info),
			     void *info, int wait);
/* regs: what the IPI interrupted (the gdb stub shows it). */
void smp_handle_ipi(enum ipi_type type, struct pt_regs *regs);
void smp_send_reschedule(unsigned int cpu);
/* Every online CPU prints its backtrace (SysRq l). */
void trigger_all_cpu_backtrace(void);

/* The common part of a secondary CPU's start, called by the arch. */
void __noreturn secondary_start_kernel(void);

/* maxcpus= on the command line: how many CPUs to bring up. */
extern unsigned int setup_max_cpus;
/* expect_cpus= on the command line: what the tests should find, or 0. */
extern unsigned int expected_cpus;

#endif
