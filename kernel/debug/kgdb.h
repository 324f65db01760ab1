/* SPDX-License-Identifier: GPL-2.0 */
/* What kgdb.c (stopping the kernel) and gdbstub.c (talking) share. */
#ifndef _KERNEL_DEBUG_KGDB_H
#define _KERNEL_DEBUG_KGDB_H

#include <types.h>
#include <smp.h>

/* Per CPU while the kernel is stopped: its saved registers and task. */
struct kgdb_cpu {
	struct pt_regs *regs;		/* NULL: not stopped in the stub */
	struct task_struct *task;
	int break_char;			/* what this CPU's tick took from gdb */
	bool report_pending;		/* its report waits for a stop of its own */
	int watch_type;			/* the watchpoint it stopped at, or 0 */
	unsigned long watch_addr;	/* the address that watchpoint watches */
};
extern struct kgdb_cpu kgdb_cpus[NR_CPUS];

/* How gdb lets the kernel go on. */
enum gdb_resume { GDB_RESUME_CONTINUE, GDB_RESUME_STEP };
/*
 * Talk to gdb until it resumes the kernel; cpu is the one that trapped.
 * ate_dollar: the tick took a packet's '$' to stop: gdb must send again.
 */
enum gdb_resume gdbstub_session(unsigned int cpu, int signo, bool ate_dollar);

/* A trap, from kgdb_handle_trap(): true if this CPU stopped the kernel. */
bool kgdb_trap(struct pt_regs *regs, int signo);

int kgdb_set_breakpoint(unsigned long addr);
int kgdb_remove_breakpoint(unsigned long addr);
void kgdb_remove_all_breakpoints(void);

#endif
