// SPDX-License-Identifier: GPL-2.0
/*
 * Stopping the kernel for gdb: the command line options, the entry from
 * a trap, the other CPUs parked by an IPI while gdb looks, and the
 * breakpoints gdb plants. The conversation with gdb is gdbstub.c.
 *
 * One CPU at a time owns the stub (kgdb_owner): the one that trapped,
 * or a CPU whose tick looks at the port for a break from gdb. A stop
 * sends every other online CPU the IPI_KGDB interrupt; each parks in
 * kgdb_park_cpu() with the registers its interrupt saved, which gdb then
 * sees as the registers of the task running there. A CPU spinning with
 * interrupts off cannot answer: after a second the stub goes on without
 * it and says so. A stop ends in two phases: the parked CPUs are let go,
 * and the owner waits until every one has left before the next stop may
 * begin. Everything here runs with interrupts off.
 *
 * gdb's breakpoints are in the kernel's text only while it runs: a stop
 * puts the original instructions back before gdb is told, so the stub
 * itself (its delays, the UART, memset...) never runs into one. The
 * stub's own code on the way there, and on the way back from the moment
 * the breakpoints go in again (the trap path, the stop and the resume
 * below, the text patching), is __kgdb_nobreak: gdb cannot plant a
 * breakpoint there, where a trap would re-enter the stop it is in. The
 * kernel's code it calls on the way (ktime_get_ns, the IPI sender) may
 * hold one: the owner then traps again, takes every breakpoint out and
 * carries on. A step runs with gdb's breakpoints out of the text.
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

static int kgdb_owner = -1;	/* the CPU in the stub or at its port, or -1 */
static volatile int kgdb_stopping;	/* the other CPUs must park */
static volatile unsigned long kgdb_release;	/* bumped: parked CPUs go */
static int kgdb_parked;		/* CPUs parked, their registers recorded */
static int kgdb_in_park;	/* CPUs in kgdb_park_cpu(): the release waits */
static bool kgdb_all_parked;	/* every other online CPU stopped */
static bool kgdb_stepping;	/* the owner steps: it stays owner */
static bool kgdb_in_stop;	/* the owner stops the kernel, not polls */
static unsigned long kgdb_stop_edges;	/* stops begun and ended */
/* Waits of parked CPUs that ended this stop: a sleeping CPU makes few. */
static unsigned long kgdb_park_wakeups;

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

static bool __kgdb_nobreak take_owner(unsigned int cpu, int *was)
{
	*was = -1;
	return __atomic_compare_exchange_n(&kgdb_owner, was, cpu, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static void __kgdb_nobreak drop_owner(void)
{
	__atomic_store_n(&kgdb_owner, -1, __ATOMIC_RELEASE);
}

/*
 * From every CPU's tick: a break (0x03) or a packet from gdb stops the
 * kernel. The first CPU to get here while nobody owns the stub reads the
 * port, as owner, so that a byte never goes to two readers and the stop
 * it starts is its own: no other stop can take the break for its cause.
 * Any CPU will do: one spinning with interrupts off must not keep gdb out.
 * The port's code may hold a breakpoint of gdb's: it stops the kernel
 * like any other, and when that stop is over, somebody else may own it.
 */
void kgdb_poll_break(void)
{
	unsigned int cpu = smp_processor_id();
	int c, was;

	if (!READ_ONCE(kgdb_polling))
		return;
	kgdb_sync_hw_breakpoints();
	if (READ_ONCE(kgdb_owner) >= 0 || !take_owner(cpu, &was))
		return;
	c = arch_kgdb_io_getc();
	if (READ_ONCE(kgdb_owner) != (int)cpu && !take_owner(cpu, &was))
		return;
	if (c != 0x03 && c != '$') {
		drop_owner();
		return;
	}
	kgdb_cpus[cpu].break_char = c;
	arch_kgdb_breakpoint();		/* still owner: kgdb_handle_trap knows */
}

bool kgdb_stopped(void)
{
	return READ_ONCE(kgdb_in_stop);
}

bool kgdb_stopped_since(unsigned long *stops)
{
	unsigned long now = READ_ONCE(kgdb_stop_edges);

	if (now != *stops) {
		*stops = now;
		return true;
	}
	return READ_ONCE(kgdb_in_stop);
}

/*
 * kgdb.on_bug: gdb sees every report, each in a stop of its own. A CPU
 * that traps while another holds the stub parks like the others; once
 * let go it traps again, until a stop was its own.
 */
void kgdb_report_hook(void)
{
	unsigned int cpu = smp_processor_id();

	if (!kgdb_enabled || !kgdb_on_bug || READ_ONCE(kgdb_owner) == (int)cpu)
		return;
	WRITE_ONCE(kgdb_cpus[cpu].report_pending, true);
	while (READ_ONCE(kgdb_cpus[cpu].report_pending))
		arch_kgdb_breakpoint();
}

static void __kgdb_nobreak record_cpu(unsigned int cpu, struct pt_regs *regs)
{
	kgdb_cpus[cpu].regs = regs;
	kgdb_cpus[cpu].task = current;
}

static void __kgdb_nobreak forget_cpu(unsigned int cpu)
{
	kgdb_cpus[cpu].regs = NULL;
	kgdb_cpus[cpu].task = NULL;
}

/* Asleep until the owner bumps kgdb_release past gen (and wakes us). */
static void __kgdb_nobreak park_until_released(unsigned long gen)
{
	unsigned long saved = arch_kgdb_park_begin();

	while (READ_ONCE(kgdb_release) == gen) {
		arch_kgdb_park_wait(&kgdb_release, gen);
		__atomic_fetch_add(&kgdb_park_wakeups, 1, __ATOMIC_RELAXED);
	}
	arch_kgdb_park_end(saved);
}

/*
 * The IPI's handler, and a trap while another CPU owns the stub: wait
 * here until the owner lets us go. The count of CPUs in here goes up
 * before the look at kgdb_stopping, so that the owner's release, which
 * waits for it to reach zero, also waits for a CPU that is only passing.
 */
void __kgdb_nobreak kgdb_park_cpu(struct pt_regs *regs)
{
	unsigned int cpu = smp_processor_id();
	unsigned long gen;

	__atomic_fetch_add(&kgdb_in_park, 1, __ATOMIC_SEQ_CST);
	gen = READ_ONCE(kgdb_release);
	smp_mb();
	if (READ_ONCE(kgdb_stopping)) {
		record_cpu(cpu, regs);
		__atomic_fetch_add(&kgdb_parked, 1, __ATOMIC_SEQ_CST);
		park_until_released(gen);
		forget_cpu(cpu);
		__atomic_fetch_sub(&kgdb_parked, 1, __ATOMIC_SEQ_CST);
	}
	__atomic_fetch_sub(&kgdb_in_park, 1, __ATOMIC_SEQ_CST);
	/* Out of the park: a breakpoint of gdb's in there is a stop like any. */
	kgdb_sync_hw_breakpoints();
}

static void __kgdb_nobreak stop_other_cpus(unsigned int self)
{
	unsigned int cpu, want = 0;
	u64 deadline;

	WRITE_ONCE(kgdb_park_wakeups, 0);
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
	kgdb_all_parked = true;
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		if (cpu != self && cpu_online(cpu) && !kgdb_cpus[cpu].regs) {
			kgdb_all_parked = false;
			printk("kgdb: CPU %u did not stop (interrupts off?)\n", cpu);
		}
	}
}

/*
 * Let the parked CPUs go, then wait until each has left kgdb_park_cpu():
 * until then a new stop could count a leaving CPU as stopped, and gdb
 * would read registers that CPU is already using again.
 */
static void __kgdb_nobreak release_other_cpus(unsigned int self)
{
	unsigned int cpu;

	WRITE_ONCE(kgdb_stopping, 0);
	smp_mb();
	WRITE_ONCE(kgdb_release, kgdb_release + 1);
	/*
	 * Every other online CPU, not only those seen parked: one on its way
	 * in looks at kgdb_release before it sleeps, and a wakeup it does
	 * not need only ends a wait early.
	 */
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu != self && cpu_online(cpu))
			arch_kgdb_park_wake(cpu);
	while (__atomic_load_n(&kgdb_in_park, __ATOMIC_SEQ_CST))
		cpu_relax();
}

static void kgdb_deactivate_breakpoints(void);
static void kgdb_activate_breakpoints(void);
static void kgdb_free_removed_breakpoints(void);

/*
 * A break (0x03) that came while a step ran: no tick took it (the other
 * CPUs are parked, the stepping one may have its interrupts masked), so
 * the step's stop reports it, and gdb ends a next or a finish there
 * instead of stepping on. gdb sends nothing else while it waits.
 */
static int __kgdb_nobreak step_end_signal(int signo)
{
	return arch_kgdb_io_getc() == 0x03 ? KGDB_SIGINT : signo;
}

/*
 * Before the IPIs, and again before the parked CPUs go: a CPU that looked
 * at the count between the first and its park (the IPI takes a while)
 * sees the second once let go, and does not count the stop as its own
 * time (kgdb_stopped_since()).
 */
static void __kgdb_nobreak count_stop_edge(void)
{
	WRITE_ONCE(kgdb_stop_edges, kgdb_stop_edges + 1);
	smp_mb();
}

/* gdb's conversation with the owner; the text holds no breakpoint meanwhile. */
static void __kgdb_nobreak kgdb_stop(unsigned int cpu, struct pt_regs *regs,
				     int signo)
{
	int woke_by = kgdb_cpus[cpu].break_char;
	enum gdb_resume how;

	kgdb_cpus[cpu].break_char = 0;
	kgdb_cpus[cpu].report_pending = false;
	kgdb_in_stop = true;
	kgdb_unload_hw_breakpoints();
	if (kgdb_stepping) {
		arch_kgdb_end_step(regs);
		signo = step_end_signal(signo);
	} else {
		count_stop_edge();
		stop_other_cpus(cpu);
	}
	kgdb_stepping = false;
	kgdb_deactivate_breakpoints();
	record_cpu(cpu, regs);
	how = gdbstub_session(cpu, woke_by == 0x03 ? KGDB_SIGINT : signo,
			      woke_by == '$');
	forget_cpu(cpu);
	if (how == GDB_RESUME_STEP) {
		/*
		 * One instruction: the others stay parked, we stay owner.
		 * gdb's hardware breakpoints went in before the step's.
		 */
		kgdb_stepping = true;
		return;
	}
	kgdb_sync_hw_breakpoints();
	if (kgdb_all_parked)
		kgdb_free_removed_breakpoints();
	kgdb_activate_breakpoints();
	count_stop_edge();
	release_other_cpus(cpu);
	kgdb_in_stop = false;
	drop_owner();
}

/*
 * The owner trapped on a breakpoint while in the stub, before the text
 * was clean: gdb planted it in something the stub needs. Take them all
 * out (gdb's z0 for them still gets OK) and go on where we were.
 */
static void __kgdb_nobreak kgdb_reentered(struct pt_regs *regs)
{
	unsigned long pc = regs_pc(regs);

	if (!kgdb_planted_at(pc))
		return;		/* a compiled-in breakpoint: passed */
	kgdb_remove_all_breakpoints();
	printk("kgdb: re-entered via breakpoint at %ps, all breakpoints removed\n",
	       (void *)pc);
}

/*
 * Another CPU owns the stub. If it only looks at the port for a break
 * (its tick does, for a moment), wait until it is done and own the stub
 * then: a hit that does not come back when the instruction runs again
 * (a data watchpoint on x86 traps after the access) would be lost. If
 * instead it stops the kernel, park like the others: false.
 */
static bool __kgdb_nobreak wait_for_poller(unsigned int cpu)
{
	unsigned long gen = READ_ONCE(kgdb_release);
	int owner;

	while (!READ_ONCE(kgdb_stopping) && READ_ONCE(kgdb_release) == gen) {
		if (take_owner(cpu, &owner))
			return true;
		cpu_relax();
	}
	return false;
}

/*
 * The breakpoint and step traps end here: true when this CPU stopped
 * the kernel for gdb. A CPU that traps while another stops it parks like
 * the others; its breakpoint traps again when it resumes, if gdb left it
 * planted. The owner itself traps here at the end of its step, while it
 * polls the port (a break it took, or a breakpoint in the port's code),
 * or by re-entry.
 */
bool __kgdb_nobreak kgdb_trap(struct pt_regs *regs, int signo)
{
	unsigned int cpu = smp_processor_id();
	int owner;

	if (take_owner(cpu, &owner) ||
	    (owner != (int)cpu && wait_for_poller(cpu))) {
		kgdb_stop(cpu, regs, signo);
		return true;
	}
	if (owner != (int)cpu) {
		kgdb_park_cpu(regs);
		return false;
	}
	if (kgdb_stepping || !kgdb_in_stop) {
		kgdb_stop(cpu, regs, signo);
		return true;
	}
	kgdb_reentered(regs);
	return false;
}

bool __kgdb_nobreak kgdb_handle_trap(struct pt_regs *regs, int signo)
{
	if (!kgdb_enabled)
		return false;
	kgdb_trap(regs, signo);
	return true;
}

/* ---- breakpoints gdb plants (Z0) ---- */

#define MAX_BREAKPOINTS	32

/*
 * A slot's life: Z0 makes it SET; the stub's resume writes it into the
 * text (ACTIVE); a stop puts the instruction back (SET again). z0, or a
 * re-entry, leaves it REMOVED: the text is clean, but a CPU that trapped
 * on it before may still be on its way to the stub and must find it
 * there, or it would resume after the breakpoint's first byte (x86) or
 * take a clean instruction for a fault (ARM). The slot is free once
 * every CPU has been seen parked since.
 */
enum bp_state { BP_FREE, BP_SET, BP_ACTIVE, BP_REMOVED };

static struct {
	enum bp_state state;
	unsigned long addr;
	u8 saved[8];		/* the instruction the breakpoint covers */
} planted[MAX_BREAKPOINTS];

static int __kgdb_nobreak find_slot(unsigned long addr)
{
	int i;

	for (i = 0; i < MAX_BREAKPOINTS; i++)
		if (planted[i].state != BP_FREE && planted[i].addr == addr)
			return i;
	return -1;
}

bool __kgdb_nobreak kgdb_planted_at(unsigned long addr)
{
	return find_slot(addr) >= 0;
}

int __kgdb_nobreak kgdb_patch_text(unsigned long addr, const void *bytes,
				   size_t len)
{
	if (copy_to_kernel_nofault((void *)addr, bytes, len))
		return -EFAULT;
	arch_kgdb_sync_icache(addr, len);
	return 0;
}

/* ---- breakpoints a step plants (include/kgdb.h) ---- */

static struct {
	unsigned long addr;
	u8 saved[8];		/* the instruction the breakpoint covers */
} step_breaks[KGDB_MAX_STEP_BREAKS];
static int nr_step_breaks;

bool __kgdb_nobreak kgdb_step_planted_at(unsigned long addr)
{
	int i;

	for (i = 0; i < nr_step_breaks; i++)
		if (step_breaks[i].addr == addr)
			return true;
	return false;
}

void __kgdb_nobreak kgdb_remove_step_breaks(void)
{
	while (nr_step_breaks > 0) {
		nr_step_breaks--;
		kgdb_patch_text(step_breaks[nr_step_breaks].addr,
				step_breaks[nr_step_breaks].saved,
				arch_kgdb_break_len);
	}
}

static int plant_step_break(unsigned long addr)
{
	int i = nr_step_breaks;

	if (kgdb_step_planted_at(addr))
		return 0;
	if (i == KGDB_MAX_STEP_BREAKS)
		return -ENOSPC;
	if (copy_from_kernel_nofault(step_breaks[i].saved, (void *)addr,
				     arch_kgdb_break_len) ||
	    kgdb_patch_text(addr, arch_kgdb_break_insn, arch_kgdb_break_len))
		return -EFAULT;
	step_breaks[i].addr = addr;
	nr_step_breaks++;
	return 0;
}

int kgdb_plant_step_breaks(const unsigned long *addrs, int n)
{
	int i, err = 0;

	for (i = 0; i < n && !err; i++)
		err = plant_step_break(addrs[i]);
	if (err)
		kgdb_remove_step_breaks();
	return err;
}

/* Where the stub itself runs before it can tell a re-entry (linker.ld). */
static bool kgdb_may_break_at(unsigned long addr)
{
	extern const char __kgdb_nobreak_start[], __kgdb_nobreak_end[];

	return addr + arch_kgdb_break_len <= (unsigned long)__kgdb_nobreak_start ||
	       addr >= (unsigned long)__kgdb_nobreak_end;
}

/* Recorded now, written at the resume: the address must be writable. */
int kgdb_set_breakpoint(unsigned long addr)
{
	int i, slot = find_slot(addr);
	u8 text[8];

	if (!kgdb_may_break_at(addr)) {
		printk("kgdb: no breakpoint at %pS: the stub runs there before it can tell\n",
		       (void *)addr);
		return -EPERM;
	}
	if (copy_from_kernel_nofault(text, (void *)addr, arch_kgdb_break_len) ||
	    kgdb_patch_text(addr, text, arch_kgdb_break_len))
		return -EFAULT;
	for (i = 0; i < MAX_BREAKPOINTS && slot < 0; i++)
		if (planted[i].state == BP_FREE)
			slot = i;
	if (slot < 0)
		return -ENOSPC;
	planted[slot].addr = addr;
	planted[slot].state = BP_SET;
	return 0;
}

/* The text first, then the state: a trapping CPU finds the slot meanwhile. */
static int __kgdb_nobreak remove_slot(int i)
{
	int err = 0;

	if (planted[i].state == BP_ACTIVE)
		err = kgdb_patch_text(planted[i].addr, planted[i].saved,
				      arch_kgdb_break_len);
	planted[i].state = BP_REMOVED;
	return err;
}

int kgdb_remove_breakpoint(unsigned long addr)
{
	int slot = find_slot(addr);

	return slot < 0 ? -ENOENT : remove_slot(slot);
}

void __kgdb_nobreak kgdb_remove_all_breakpoints(void)
{
	int i;

	for (i = 0; i < MAX_BREAKPOINTS; i++)
		if (planted[i].state != BP_FREE)
			remove_slot(i);
}

static void __kgdb_nobreak kgdb_activate_breakpoints(void)
{
	int i;

	for (i = 0; i < MAX_BREAKPOINTS; i++) {
		unsigned long addr = planted[i].addr;

		if (planted[i].state != BP_SET)
			continue;
		if (copy_from_kernel_nofault(planted[i].saved, (void *)addr,
					     arch_kgdb_break_len) ||
		    kgdb_patch_text(addr, arch_kgdb_break_insn,
				    arch_kgdb_break_len))
			printk("kgdb: breakpoint at %pS could not be written\n",
			       (void *)addr);
		else
			planted[i].state = BP_ACTIVE;
	}
}

static void __kgdb_nobreak kgdb_deactivate_breakpoints(void)
{
	int i;

	for (i = 0; i < MAX_BREAKPOINTS; i++) {
		if (planted[i].state != BP_ACTIVE)
			continue;
		kgdb_patch_text(planted[i].addr, planted[i].saved,
				arch_kgdb_break_len);
		planted[i].state = BP_SET;
	}
}

/* Every CPU is parked: none can be between a removed breakpoint and us. */
static void __kgdb_nobreak kgdb_free_removed_breakpoints(void)
{
	int i;

	for (i = 0; i < MAX_BREAKPOINTS; i++)
		if (planted[i].state == BP_REMOVED)
			planted[i].state = BP_FREE;
}
