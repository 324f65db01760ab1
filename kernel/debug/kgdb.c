// SPDX-License-Identifier: GPL-2.0
/*
 * Stopping the kernel for gdb: the command line options, the entry from
 * a trap, the other CPUs parked by an IPI while gdb looks, and the
 * breakpoints gdb plants. The conversation with gdb is gdbstub.c.
 *
 * One CPU at a time is "in the stub" (kgdb_owner): the one that trapped.
 * It sends every other online CPU the IPI_KGDB interrupt; each parks in
 * kgdb_park_cpu() with the registers its interrupt saved, which gdb then
 * sees as the registers of the task running there. A CPU spinning with
 * interrupts off cannot answer: after a second the stub goes on without
 * it and says so. Everything here runs with interrupts off.
 */
#include <kernel.h>
#include <string.h>
#include <arch.h>
#include <mm.h>
#include <sched.h>
#include <smp.h>
#include <time.h>
#include <kgdb.h>
#include <asm/ptrace.h>
#include "kgdb.h"

static bool kgdb_enabled;	/* "kgdb": the port is open */
static bool kgdb_wait;		/* "kgdbwait": stop at boot */
static bool kgdb_on_bug;	/* "kgdb.on_bug=1": stop after a report */
static bool kgdb_polling;	/* the port is open: the tick may read it */

static int kgdb_owner = -1;	/* the CPU in the stub, or -1 */
static volatile int kgdb_stopping;	/* the other CPUs must park */
static volatile unsigned long kgdb_release;	/* bumped: parked CPUs go */
static int kgdb_parked;		/* CPUs parked right now */
static bool kgdb_stepping;	/* a step is in progress: others stay parked */

struct kgdb_cpu kgdb_cpus[NR_CPUS];

#define PARK_WAIT_NS	1000000000ULL	/* for the other CPUs to answer */

bool kgdb_parse_option(const char *opt)
{
	if (!strcmp(opt, "kgdb")) {
		kgdb_enabled = true;
	} else if (!strcmp(opt, "kgdbwait")) {
		kgdb_enabled = kgdb_wait = true;
	} else if (!strcmp(opt, "kgdb.on_bug=1")) {
		kgdb_enabled = kgdb_on_bug = true;
	} else if (!strcmp(opt, "kgdb.on_bug=0")) {
		kgdb_on_bug = false;
	} else if (!strncmp(opt, "kgdb", 4)) {
		printk("kgdb: unknown option '%s' (kgdb, kgdbwait, kgdb.on_bug=0|1): ignored\n",
		       opt);
	} else {
		return false;
	}
	return true;
}

void kgdb_init(void)
{
	if (!kgdb_enabled)
		return;
	arch_kgdb_io_init();
	printk("kgdb: gdb stub on %s%s\n", arch_kgdb_port_name,
	       kgdb_on_bug ? ", stops after a BUG:/WARNING: report" : "");
	if (kgdb_wait) {
		printk("kgdb: waiting for gdb\n");
		arch_kgdb_breakpoint();
	}
	WRITE_ONCE(kgdb_polling, true);
}

/* A break from gdb, or a packet: gdb wants the kernel stopped. */
void kgdb_poll_break(void)
{
	int c;

	if (!READ_ONCE(kgdb_polling) || READ_ONCE(kgdb_owner) >= 0)
		return;
	c = arch_kgdb_io_getc();
	if (c == 0x03 || c == '$') {
		gdbstub_break_char = c;
		arch_kgdb_breakpoint();
	}
}

void kgdb_report_hook(void)
{
	if (kgdb_enabled && kgdb_on_bug &&
	    READ_ONCE(kgdb_owner) != (int)smp_processor_id())
		arch_kgdb_breakpoint();
}

static void record_cpu(unsigned int cpu, struct pt_regs *regs)
{
	kgdb_cpus[cpu].regs = regs;
	kgdb_cpus[cpu].task = current;
}

/* The IPI's handler: wait here until the CPU in the stub lets us go. */
void kgdb_park_cpu(struct pt_regs *regs)
{
	unsigned int cpu = smp_processor_id();
	unsigned long gen = READ_ONCE(kgdb_release);

	smp_mb();
	if (!READ_ONCE(kgdb_stopping))
		return;		/* a late IPI: the stop is over */
	record_cpu(cpu, regs);
	__atomic_fetch_add(&kgdb_parked, 1, __ATOMIC_SEQ_CST);
	while (READ_ONCE(kgdb_release) == gen)
		cpu_relax();
	kgdb_cpus[cpu].regs = NULL;
	kgdb_cpus[cpu].task = NULL;
	__atomic_fetch_sub(&kgdb_parked, 1, __ATOMIC_SEQ_CST);
}

static void stop_other_cpus(unsigned int self)
{
	unsigned int cpu, want = 0;
	u64 deadline;

	WRITE_ONCE(kgdb_stopping, 1);
	smp_mb();
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		if (cpu != self && cpu_online(cpu)) {
			arch_send_ipi(cpu, IPI_KGDB);
			want++;
		}
	}
	deadline = ktime_get_ns() + PARK_WAIT_NS;
	while (__atomic_load_n(&kgdb_parked, __ATOMIC_SEQ_CST) < (int)want &&
	       ktime_get_ns() < deadline)
		cpu_relax();
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu != self && cpu_online(cpu) && !kgdb_cpus[cpu].regs)
			printk("kgdb: CPU %u did not stop (interrupts off?)\n", cpu);
}

static void release_other_cpus(void)
{
	WRITE_ONCE(kgdb_stopping, 0);
	smp_mb();
	WRITE_ONCE(kgdb_release, kgdb_release + 1);
}

/*
 * The breakpoint and step traps end here. A second CPU trapping while
 * one is in the stub parks like the others; its breakpoint traps again
 * when it resumes, if gdb left it planted.
 */
bool kgdb_handle_trap(struct pt_regs *regs, int signo)
{
	unsigned int cpu = smp_processor_id();
	int none = -1;

	if (!kgdb_enabled)
		return false;
	if (!__atomic_compare_exchange_n(&kgdb_owner, &none, cpu, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		kgdb_park_cpu(regs);
		return true;
	}
	if (kgdb_stepping) {
		arch_kgdb_end_step(regs);
		kgdb_stepping = false;
	} else {
		stop_other_cpus(cpu);
	}
	record_cpu(cpu, regs);
	kgdb_stepping = gdbstub_session(cpu, signo) == GDB_RESUME_STEP;
	kgdb_cpus[cpu].regs = NULL;
	kgdb_cpus[cpu].task = NULL;
	if (!kgdb_stepping)
		release_other_cpus();
	__atomic_store_n(&kgdb_owner, -1, __ATOMIC_RELEASE);
	return true;
}

/* ---- breakpoints gdb plants (Z0) ---- */

#define MAX_BREAKPOINTS	32

static struct {
	unsigned long addr;	/* 0: a free slot */
	u8 saved[8];		/* the instruction the breakpoint covers */
} planted[MAX_BREAKPOINTS];

bool kgdb_planted_at(unsigned long addr)
{
	int i;

	for (i = 0; i < MAX_BREAKPOINTS; i++)
		if (planted[i].addr == addr)
			return addr != 0;
	return false;
}

int kgdb_patch_text(unsigned long addr, const void *bytes, size_t len)
{
	if (copy_to_kernel_nofault((void *)addr, bytes, len))
		return -EFAULT;
	arch_kgdb_sync_icache(addr, len);
	return 0;
}

int kgdb_set_breakpoint(unsigned long addr)
{
	int i, slot = -1;

	if (!addr)
		return -EFAULT;
	if (kgdb_planted_at(addr))
		return 0;
	for (i = 0; i < MAX_BREAKPOINTS && slot < 0; i++)
		if (!planted[i].addr)
			slot = i;
	if (slot < 0)
		return -ENOSPC;
	if (copy_from_kernel_nofault(planted[slot].saved, (void *)addr,
				     arch_kgdb_break_len) ||
	    kgdb_patch_text(addr, arch_kgdb_break_insn, arch_kgdb_break_len))
		return -EFAULT;
	planted[slot].addr = addr;
	return 0;
}

int kgdb_remove_breakpoint(unsigned long addr)
{
	int i;

	for (i = 0; i < MAX_BREAKPOINTS; i++) {
		if (addr && planted[i].addr == addr) {
			planted[i].addr = 0;
			return kgdb_patch_text(addr, planted[i].saved,
					       arch_kgdb_break_len);
		}
	}
	return -ENOENT;
}

void kgdb_remove_all_breakpoints(void)
{
	int i;

	for (i = 0; i < MAX_BREAKPOINTS; i++)
		if (planted[i].addr)
			kgdb_remove_breakpoint(planted[i].addr);
}
